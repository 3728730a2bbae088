// glTF 2.0 reader (.gltf with its buffers, .glb): tinygltf (Debian libtinygltf-dev)
// parses; this walks the default scene's node tree and turns each triangle primitive
// into an IndexedMesh with the node's world transform applied, and collects the cameras
// and KHR_lights_punctual lights the nodes carry. Materials and textures:
// io/gltf_materials.cpp. Skins and morph targets are not read (the bind pose renders).
//
// tinygltf checks the JSON, not that accessors lie inside their buffers, so every
// accessor read here is bounds-checked first. Errors name the place as a JSON pointer
// into the file, and a reference followed with the place in the object it names
// (io/gltf_pointer.h): x.gltf: /meshes/0/primitives/0/attributes/NORMAL: accessor 3
// (/accessors/3/type): VEC2, expected VEC3.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <tiny_gltf.h>

#include "io/gltf_container.h"
#include "io/gltf_pointer.h"
#include "io/gltf_scene.h"
#include "io/mesh.h"
#include "io/mesh_transform.h"

namespace wf {
namespace {

using gltf_io::child;
using gltf_io::element;
using gltf_io::number_text;

// Node visits allowed: a file that reuses a subtree many times over cannot blow up.
constexpr size_t kMaxNodeInstances = size_t(1) << 20;

// Images are not needed for geometry; skipping them also skips decoding.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
    return true;
}

// Keeps an image's encoded bytes (in Image::image, width and height -1) for
// io/gltf_materials.cpp to decode if a material uses it.
bool keep_image_bytes(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void*) {
    image->image.assign(bytes, bytes + size);
    image->width = image->height = -1;
    return true;
}

// tinygltf's own file reading, noting each file it read (external buffers, images) in
// `files`, a std::vector<std::string>: they are inputs of the render as much as the .gltf.
bool read_and_note(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* files) {
    if (!tinygltf::ReadWholeFile(out, err, path, nullptr)) return false;
    static_cast<std::vector<std::string>*>(files)->push_back(path);
    return true;
}

std::string one_line_joined(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ';';
    return s;
}

std::string type_name(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return "SCALAR";
        case TINYGLTF_TYPE_VEC2: return "VEC2";
        case TINYGLTF_TYPE_VEC3: return "VEC3";
        case TINYGLTF_TYPE_VEC4: return "VEC4";
        case TINYGLTF_TYPE_MAT2: return "MAT2";
        case TINYGLTF_TYPE_MAT3: return "MAT3";
        case TINYGLTF_TYPE_MAT4: return "MAT4";
    }
    return std::to_string(type);
}

// A bounds-checked view of an accessor's elements.
struct AccessorView {
    const unsigned char* base = nullptr;
    size_t stride = 0;
    size_t count = 0;
    int component_type = 0;
    bool normalized = false;
};

class GltfReader {
public:
    GltfReader(const std::string& path, const tinygltf::Model& model, GltfScene& out, bool full)
        : path_(path), model_(model), out_(out), full_(full) {}

    void read() {
        for (size_t k = 0; k < model_.extensionsRequired.size(); ++k) {
            const std::string& ext = model_.extensionsRequired[k];
            if (ext == "KHR_draco_mesh_compression" || ext == "EXT_meshopt_compression" || ext == "KHR_mesh_quantization")
                fail(element("extensionsRequired", k), "requires the extension " + ext + ", which is not supported");
        }
        if (model_.scenes.empty()) mesh_io::fail(path_, "no scene: nothing to render");
        int scene = model_.defaultScene >= 0 ? model_.defaultScene : 0;
        if (size_t(scene) >= model_.scenes.size())
            fail("/scene", "default scene " + std::to_string(scene) + " does not exist");
        std::vector<bool> on_path(model_.nodes.size(), false);
        const std::string nodes_at = child(element("scenes", size_t(scene)), "nodes");
        const std::vector<int>& roots = model_.scenes[size_t(scene)].nodes;
        for (size_t k = 0; k < roots.size(); ++k) visit(roots[k], child(nodes_at, k), Affine3(), on_path, 0);
        if (out_.meshes.empty())
            fail(element("scenes", size_t(scene)), "the default scene (" + std::to_string(scene) + ") has no triangles");
    }

private:
    // "<path>: <pointer>: <what>".
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        mesh_io::fail(path_, pointer + ": " + what);
    }

    Affine3 local_transform(const tinygltf::Node& n, const std::string& where) const {
        Affine3 a;
        for (const auto& [key, v] : {std::pair{"matrix", &n.matrix}, std::pair{"translation", &n.translation},
                                     std::pair{"rotation", &n.rotation}, std::pair{"scale", &n.scale}})
            for (size_t k = 0; k < v->size(); ++k)
                if (!std::isfinite((*v)[k])) fail(child(child(where, key), k), "a non-finite number");
        if (n.matrix.size() == 16) {
            const std::vector<double>& m = n.matrix;  // column-major
            if (m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1)
                fail(child(where, "matrix"), "the last row is not [0, 0, 0, 1] (a projective transform)");
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 4; ++j) a.m[i][j] = m[size_t(4 * j + i)];
            return a;
        }
        if (n.scale.size() == 3) a = Affine3::scale(Vec3f(float(n.scale[0]), float(n.scale[1]), float(n.scale[2])));
        if (n.rotation.size() == 4) {
            const std::vector<double>& q = n.rotation;
            double len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (!(len > 0)) fail(child(where, "rotation"), "a quaternion of zero length");
            a = Affine3::rotate_quaternion(q[0] / len, q[1] / len, q[2] / len, q[3] / len) * a;
        }
        if (n.translation.size() == 3)
            a = Affine3::translate(Vec3f(float(n.translation[0]), float(n.translation[1]), float(n.translation[2]))) * a;
        return a;
    }

    // Node `index`, named at `from` (a scene's or a parent's list of nodes).
    void visit(int index, const std::string& from, const Affine3& parent, std::vector<bool>& on_path, size_t depth) {
        if (index < 0 || size_t(index) >= model_.nodes.size()) fail(from, "node " + std::to_string(index) + " does not exist");
        const std::string where = element("nodes", size_t(index));
        if (on_path[size_t(index)]) fail(from, "node " + std::to_string(index) + " (" + where + ") is its own ancestor (a cycle)");
        if (++node_instances_ > kMaxNodeInstances)
            fail(from, "more than " + std::to_string(kMaxNodeInstances) + " node instances in the scene");
        const tinygltf::Node& node = model_.nodes[size_t(index)];
        Affine3 world = parent * local_transform(node, where);
        double det = world.determinant();
        if (!std::isfinite(det)) fail(where, "world transform is not finite");
        if (det == 0) return;  // a zero scale hides the node and its children (glTF's convention)
        on_path[size_t(index)] = true;
        if (node.mesh >= 0) {
            if (size_t(node.mesh) >= model_.meshes.size())
                fail(child(where, "mesh"), "mesh " + std::to_string(node.mesh) + " does not exist");
            const tinygltf::Mesh& mesh = model_.meshes[size_t(node.mesh)];
            const std::string primitives_at = child(element("meshes", size_t(node.mesh)), "primitives");
            for (size_t p = 0; p < mesh.primitives.size(); ++p) {
                const std::string at = child(primitives_at, p);
                IndexedMesh m;
                if (!read_primitive(mesh.primitives[p], at, m)) continue;
                mesh_io::check_mesh(path_, at + ": ", m);
                transform_mesh(m, world);
                out_.meshes.push_back(std::move(m));
            }
        }
        if (full_ && node.camera >= 0) read_camera(node.camera, world, where);
        if (full_) {
            auto ext = node.extensions.find("KHR_lights_punctual");
            if (ext != node.extensions.end()) read_light(ext->second, world, where);
        }
        const std::string children_at = child(where, "children");
        for (size_t k = 0; k < node.children.size(); ++k) visit(node.children[k], child(children_at, k), world, on_path, depth + 1);
        on_path[size_t(index)] = false;
    }

    // A camera looks along its node's -z with +y up (glTF 2.0, section 3.10). An
    // orthographic one's xmag and ymag are the half-width and half-height of its view;
    // znear and zfar clip nothing (as for perspective cameras).
    // Errors name the node's camera member, then the place in the camera:
    // /nodes/2/camera: camera 0 (/cameras/0/perspective/yfov): 4 is not in (0, pi).
    void read_camera(int index, const Affine3& world, const std::string& where) {
        const std::string from = child(where, "camera");
        if (size_t(index) >= model_.cameras.size()) fail(from, "camera " + std::to_string(index) + " does not exist");
        const tinygltf::Camera& c = model_.cameras[size_t(index)];
        const std::string camera_at = element("cameras", size_t(index));
        auto in_camera = [&](const std::string& place) { return "camera " + std::to_string(index) + " (" + place + ")"; };
        const std::string perspective_at = child(camera_at, "perspective"), orthographic_at = child(camera_at, "orthographic");
        if (c.type != "perspective" && c.type != "orthographic") {
            out_.warnings.push_back(path_ + ": " + from + ": " + in_camera(child(camera_at, "type")) + " is of type '" + c.type +
                                    "'; only perspective and orthographic cameras are supported, it is left out");
            return;
        }
        NamedCamera cam;
        cam.name = c.name;
        cam.desc.position = world.point(Vec3f(0.0f));
        cam.desc.forward = world.vector(Vec3f(0.0f, 0.0f, -1.0f));
        cam.desc.up = world.vector(Vec3f(0.0f, 1.0f, 0.0f));
        if (!(length(cam.desc.forward) > 0.0f) || !(length(cam.desc.up) > 0.0f) || !is_finite(cam.desc.position))
            fail(from, in_camera(camera_at) + ": the node's transform leaves no view direction");
        double aspect = 0.0;
        if (c.type == "perspective") {
            const double yfov = c.perspective.yfov;
            if (!(yfov > 0.0 && yfov < 3.14159265358979))
                fail(from, in_camera(child(perspective_at, "yfov")) + ": " + number_text(yfov) + " is not in (0, pi)");
            cam.desc.fov_y_degrees = float(yfov * 180.0 / 3.14159265358979323846);
            aspect = c.perspective.aspectRatio;
            if (aspect != 0.0 && !(aspect > 1e-3 && aspect < 1e3))
                fail(from, in_camera(child(perspective_at, "aspectRatio")) + ": " + number_text(aspect) + " is not in (0.001, 1000)");
        } else {
            const double xmag = c.orthographic.xmag, ymag = c.orthographic.ymag;
            // As a JSON orthographic camera's height: at least 2^-20 of the position's coordinates,
            // else the ray origins are below float resolution there.
            const double least = std::max(0x1p-61, 0x1p-21 * double(max_component(abs(cam.desc.position))));
            for (const auto& [name, mag] : {std::pair{"xmag", xmag}, std::pair{"ymag", ymag}})
                if (!(mag >= least && mag <= 1e10))
                    fail(from, in_camera(child(orthographic_at, name)) + ": " + number_text(mag) + " is not in [" + number_text(least) +
                                   ", 1e10] (2^-21 of the camera position's largest coordinate: below it the view is below float resolution)");
            // The view's height is the camera's; its width follows the film, which xmag / ymag shapes.
            cam.desc.ortho_height = float(2.0 * ymag);
            aspect = xmag / ymag;
            if (!(aspect > 1e-3 && aspect < 1e3))
                fail(from, in_camera(orthographic_at) + ": xmag / ymag " + number_text(aspect) + " is not in (0.001, 1000)");
        }
        cam.aspect_ratio = float(aspect);
        out_.cameras.push_back(cam);
    }

    // KHR_lights_punctual: light units are taken as the engine's (candela as W/sr for
    // point and spot lights, lux as W/m^2 for directional ones), colour times intensity.
    // Directional and spot lights shine along their node's -z.
    // Errors name the node's light member, then the place in the light:
    // /nodes/2/extensions/KHR_lights_punctual/light: light 0 (/extensions/KHR_lights_punctual/lights/0/type): ...
    void read_light(const tinygltf::Value& ext, const Affine3& world, const std::string& where) {
        const std::string ext_at = child(child(where, "extensions"), "KHR_lights_punctual");
        if (!ext.IsObject() || !ext.Has("light") || !ext.Get("light").IsInt()) fail(ext_at, "no light index");
        const std::string from = child(ext_at, "light");
        const int index = ext.Get("light").Get<int>();
        if (index < 0 || size_t(index) >= model_.lights.size())
            fail(from, "light " + std::to_string(index) + " does not exist");
        const tinygltf::Light& l = model_.lights[size_t(index)];
        const std::string light_at = child(child(child(std::string(), "extensions"), "KHR_lights_punctual"), "lights");
        const std::string at = child(light_at, size_t(index));
        auto in_light = [&](const std::string& place) { return "light " + std::to_string(index) + " (" + place + ")"; };
        Vec3f color{1.0f};
        if (!l.color.empty()) {
            if (l.color.size() != 3) fail(from, in_light(child(at, "color")) + ": expected 3 numbers");
            color = Vec3f(float(l.color[0]), float(l.color[1]), float(l.color[2]));
        }
        const Vec3f power = color * float(l.intensity);
        if (!is_finite(power) || !(min_component(power) >= 0.0f))
            fail(from, in_light(at) + ": color x intensity must be finite and non-negative");
        Light light;
        if (l.type == "point") {
            light.type = LightType::Point;
            light.position = world.point(Vec3f(0.0f));
            light.radiance = power;
        } else if (l.type == "directional" || l.type == "spot") {
            light.type = l.type == "spot" ? LightType::Spot : LightType::Directional;
            const Vec3f d = world.vector(Vec3f(0.0f, 0.0f, -1.0f));
            if (!(length(d) > 0.0f)) fail(from, in_light(at) + ": the node's transform leaves no direction");
            light.direction = normalize(d);
            light.radiance = power;
            if (light.type == LightType::Spot) {
                light.position = world.point(Vec3f(0.0f));
                read_spot_cone(l.spot, light, from, "light " + std::to_string(index), child(at, "spot"));
            }
        } else {
            fail(from, in_light(child(at, "type")) + ": unknown light type '" + l.type + "'");
        }
        if (l.range > 0.0)
            out_.warnings.push_back(path_ + ": " + from + ": " + in_light(child(at, "range")) + ": " + number_text(l.range) +
                                    " is ignored (the light falls off with the inverse square everywhere)");
        out_.lights.push_back(light);
    }

    // The spec's ranges: 0 <= inner <= outer <= pi/2 (radians; inner < outer in the spec,
    // equal is accepted: the falloff is then a step), outer > 0. A cone too narrow for
    // float (cos rounds to 1) holds no direction and is refused as well.
    // `from` the node's light member, `light` "light 2", `spot_at` the light's spot member.
    void read_spot_cone(const tinygltf::SpotLight& spot, Light& light, const std::string& from, const std::string& name,
                        const std::string& spot_at) const {
        const double inner = spot.innerConeAngle, outer = spot.outerConeAngle;
        constexpr double kHalfPi = 1.57079632679489661923;
        auto in_spot = [&](const char* key) { return name + " (" + child(spot_at, key) + ")"; };
        if (!(outer > 0.0 && outer <= kHalfPi + 1e-6))
            fail(from, in_spot("outerConeAngle") + ": " + number_text(outer) + " is not in (0, pi/2]");
        if (!(inner >= 0.0 && inner <= outer))
            fail(from, in_spot("innerConeAngle") + ": " + number_text(inner) + " is not in [0, outerConeAngle = " +
                           number_text(outer) + "]");
        light.cos_inner = float(std::cos(std::min(inner, kHalfPi)));
        light.cos_outer = float(std::cos(std::min(outer, kHalfPi)));
        if (!(light.cos_outer < 1.0f))
            fail(from, in_spot("outerConeAngle") + ": " + number_text(outer) + " is too narrow for float (cos rounds to 1)");
    }

    // Accessor `index`, named at `where` (a primitive's attribute or indices). Errors name
    // `where`, then the place in the accessor (and in its buffer view):
    // /meshes/0/primitives/0/indices: accessor 1 (/accessors/1/count): 1000 elements ...
    AccessorView accessor(int index, const std::string& where, int type, std::initializer_list<int> component_types) const {
        if (index < 0 || size_t(index) >= model_.accessors.size())
            fail(where, "accessor " + std::to_string(index) + " does not exist");
        const tinygltf::Accessor& a = model_.accessors[size_t(index)];
        const std::string accessor_at = element("accessors", size_t(index));
        auto in_accessor = [&](const std::string& place) { return "accessor " + std::to_string(index) + " (" + place + ")"; };
        if (a.sparse.isSparse) fail(where, in_accessor(child(accessor_at, "sparse")) + ": sparse accessors are not supported");
        if (a.type != type)
            fail(where, in_accessor(child(accessor_at, "type")) + ": type " + type_name(a.type) + ", expected " + type_name(type));
        bool known = false;
        for (int c : component_types) known |= a.componentType == c;
        if (!known)
            fail(where, in_accessor(child(accessor_at, "componentType")) + ": component type " + std::to_string(a.componentType) +
                            " is not supported here");
        if (a.bufferView < 0) fail(where, in_accessor(accessor_at) + ": no bufferView");
        const std::string view_from = in_accessor(child(accessor_at, "bufferView"));
        if (size_t(a.bufferView) >= model_.bufferViews.size())
            fail(where, view_from + ": buffer view " + std::to_string(a.bufferView) + " does not exist");
        const tinygltf::BufferView& v = model_.bufferViews[size_t(a.bufferView)];
        const std::string view_at = element("bufferViews", size_t(a.bufferView));
        auto in_view = [&](const std::string& place) { return "buffer view " + std::to_string(a.bufferView) + " (" + place + ")"; };
        if (v.buffer < 0 || size_t(v.buffer) >= model_.buffers.size())
            fail(where, view_from + ": " + in_view(child(view_at, "buffer")) + ": buffer " + std::to_string(v.buffer) + " does not exist");
        const std::vector<unsigned char>& data = model_.buffers[size_t(v.buffer)].data;
        if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
            fail(where, view_from + ": " + in_view(view_at) + ": bytes " + std::to_string(v.byteOffset) + " + " +
                            std::to_string(v.byteLength) + " lie outside its buffer of " + std::to_string(data.size()) + " bytes");
        size_t element_bytes = size_t(tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType))) *
                               size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type)));
        size_t stride = v.byteStride ? v.byteStride : element_bytes;
        if (stride < element_bytes)
            fail(where, view_from + ": " + in_view(child(view_at, "byteStride")) + ": byte stride " + std::to_string(stride) +
                            " is smaller than an element (" + std::to_string(element_bytes) + " bytes)");
        AccessorView out;
        out.count = a.count;
        out.stride = stride;
        out.component_type = a.componentType;
        out.normalized = a.normalized;
        if (a.count > 0) {
            bool fits = a.byteOffset <= v.byteLength && a.count - 1 <= (v.byteLength - a.byteOffset) / stride &&
                        a.byteOffset + (a.count - 1) * stride + element_bytes <= v.byteLength;
            if (!fits)
                fail(where, in_accessor(child(accessor_at, "count")) + ": " + std::to_string(a.count) + " elements from byte " +
                                std::to_string(a.byteOffset) + " do not fit in buffer view " + std::to_string(a.bufferView) +
                                " of " + std::to_string(v.byteLength) + " bytes");
        }
        out.base = data.data() + v.byteOffset + a.byteOffset;
        return out;
    }

    static float component(const AccessorView& v, size_t i, int c) {
        const unsigned char* p = v.base + i * v.stride;
        switch (v.component_type) {
            case TINYGLTF_COMPONENT_TYPE_FLOAT: { float f; std::memcpy(&f, p + 4 * c, 4); return f; }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return float(p[c]) / (v.normalized ? 255.0f : 1.0f);
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
                uint16_t s; std::memcpy(&s, p + 2 * c, 2); return float(s) / (v.normalized ? 65535.0f : 1.0f);
            }
        }
        return 0.0f;
    }

    static uint32_t index_at(const AccessorView& v, size_t i) {
        const unsigned char* p = v.base + i * v.stride;
        switch (v.component_type) {
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return p[0];
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: { uint16_t s; std::memcpy(&s, p, 2); return s; }
            default: { uint32_t u; std::memcpy(&u, p, 4); return u; }
        }
    }

    // Primitive `at` (/meshes/m/primitives/p). Returns false for primitives without area
    // (points, lines).
    bool read_primitive(const tinygltf::Primitive& prim, const std::string& at, IndexedMesh& m) const {
        int mode = prim.mode < 0 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
        if (mode <= TINYGLTF_MODE_LINE_STRIP) return false;
        if (mode > TINYGLTF_MODE_TRIANGLE_FAN) fail(child(at, "mode"), "unknown primitive mode " + std::to_string(mode));
        if (full_ && prim.material >= 0 && size_t(prim.material) >= model_.materials.size())
            fail(child(at, "material"), "material " + std::to_string(prim.material) + " does not exist (the file has " +
                                            std::to_string(model_.materials.size()) + " materials)");
        auto attribute = [&](const char* name) {
            auto it = prim.attributes.find(name);
            return it == prim.attributes.end() ? -1 : it->second;
        };
        const std::string attributes_at = child(at, "attributes");
        int position = attribute("POSITION");
        if (position < 0) fail(attributes_at, "no POSITION attribute");
        AccessorView p = accessor(position, child(attributes_at, "POSITION"), TINYGLTF_TYPE_VEC3, {TINYGLTF_COMPONENT_TYPE_FLOAT});
        m.positions.resize(p.count);
        for (size_t i = 0; i < p.count; ++i) m.positions[i] = Vec3f(component(p, i, 0), component(p, i, 1), component(p, i, 2));
        if (int normal = attribute("NORMAL"); normal >= 0) {
            AccessorView n = accessor(normal, child(attributes_at, "NORMAL"), TINYGLTF_TYPE_VEC3, {TINYGLTF_COMPONENT_TYPE_FLOAT});
            if (n.count != p.count)
                fail(child(attributes_at, "NORMAL"), std::to_string(n.count) + " normals for " + std::to_string(p.count) + " positions");
            m.normals.resize(n.count);
            for (size_t i = 0; i < n.count; ++i) m.normals[i] = Vec3f(component(n, i, 0), component(n, i, 1), component(n, i, 2));
        }
        const std::initializer_list<int> float_or_normalized = {
            TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT};
        auto per_vertex = [&](const char* name, int type, std::initializer_list<int> components) {
            AccessorView v = accessor(attribute(name), child(attributes_at, name), type, components);
            if (v.count != p.count)
                fail(child(attributes_at, name), std::to_string(v.count) + " " + name + " values for " + std::to_string(p.count) + " positions");
            return v;
        };
        for (int set = 0; set < 2; ++set) {
            const char* name = set == 0 ? "TEXCOORD_0" : "TEXCOORD_1";
            if (attribute(name) < 0) continue;
            AccessorView t = per_vertex(name, TINYGLTF_TYPE_VEC2, float_or_normalized);
            std::vector<Vec2f>& uvs = set == 0 ? m.uvs : m.uvs1;
            uvs.resize(t.count);
            for (size_t i = 0; i < t.count; ++i) uvs[i] = Vec2f{component(t, i, 0), component(t, i, 1)};
        }
        if (attribute("TANGENT") >= 0) {
            AccessorView t = per_vertex("TANGENT", TINYGLTF_TYPE_VEC4, {TINYGLTF_COMPONENT_TYPE_FLOAT});
            m.tangents.resize(t.count);
            for (size_t i = 0; i < t.count; ++i)
                m.tangents[i] = Vec4f{component(t, i, 0), component(t, i, 1), component(t, i, 2), component(t, i, 3)};
        }
        if (int color = attribute("COLOR_0"); color >= 0) {
            // VEC3 or VEC4, float or normalised integers; alpha 1 when absent.
            int type = color < int(model_.accessors.size()) && model_.accessors[size_t(color)].type == TINYGLTF_TYPE_VEC3
                           ? TINYGLTF_TYPE_VEC3
                           : TINYGLTF_TYPE_VEC4;
            AccessorView c = per_vertex("COLOR_0", type, float_or_normalized);
            m.colors.resize(c.count);
            for (size_t i = 0; i < c.count; ++i)
                m.colors[i] = Vec4f{component(c, i, 0), component(c, i, 1), component(c, i, 2),
                                    type == TINYGLTF_TYPE_VEC4 ? component(c, i, 3) : 1.0f};
        }
        m.file_material = prim.material;

        std::vector<uint32_t> order;  // the vertex sequence the mode strings together
        if (prim.indices >= 0) {
            AccessorView ix = accessor(prim.indices, child(at, "indices"), TINYGLTF_TYPE_SCALAR,
                                       {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                        TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT});
            order.resize(ix.count);
            for (size_t i = 0; i < ix.count; ++i) order[i] = index_at(ix, i);
        } else {
            order.resize(p.count);
            for (size_t i = 0; i < p.count; ++i) order[i] = uint32_t(i);
        }
        if (mode == TINYGLTF_MODE_TRIANGLES) {
            if (order.size() % 3 != 0)
                fail(prim.indices >= 0 ? child(at, "indices") : child(attributes_at, "POSITION"),
                     std::to_string(order.size()) + " vertices is not a whole number of triangles");
            m.indices = std::move(order);
        } else if (order.size() >= 3) {
            m.indices.reserve(3 * (order.size() - 2));
            for (size_t i = 0; i + 2 < order.size(); ++i) {
                uint32_t a, b, c = order[i + 2];
                if (mode == TINYGLTF_MODE_TRIANGLE_FAN) a = order[0], b = order[i + 1];
                else if (i % 2 == 0) a = order[i], b = order[i + 1];
                else a = order[i + 1], b = order[i];  // odd strip triangles keep the winding
                m.indices.insert(m.indices.end(), {a, b, c});
            }
        }
        return true;
    }

    const std::string& path_;
    const tinygltf::Model& model_;
    GltfScene& out_;
    const bool full_;
    size_t node_instances_ = 0;
};

}  // namespace

GltfScene read_gltf_scene(const std::string& path, bool full, std::vector<std::string>* also_read) {
    const std::string bytes = mesh_io::read_file_bytes(path);
    if (bytes.size() > std::numeric_limits<unsigned>::max())  // tinygltf takes an unsigned length
        mesh_io::fail(path, "cannot open: a glTF file of " + std::to_string(bytes.size()) + " bytes is beyond tinygltf's 4 GiB");
    std::string base_dir = std::filesystem::path(path).parent_path().string();
    if (base_dir.empty()) base_dir = ".";
    tinygltf::TinyGLTF loader;
    if (full) loader.SetImageLoader(keep_image_bytes, nullptr);
    else loader.SetImageLoader(skip_image, nullptr);
    std::vector<std::string> files;
    loader.SetFsCallbacks(
        {&tinygltf::FileExists, &tinygltf::ExpandFilePath, &read_and_note, &tinygltf::WriteWholeFile, &files});
    tinygltf::Model model;
    std::string err, warn;
    bool binary = mesh_format_of(path) == MeshFormat::Glb;
    gltf_io::check_gltf_container(path, bytes, binary, base_dir);
    bool ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()),
                                                   unsigned(bytes.size()), base_dir)
                     : loader.LoadASCIIFromString(&model, &err, &warn, bytes.data(), unsigned(bytes.size()), base_dir);
    if (!ok) mesh_io::fail(path, "tinygltf: " + one_line_joined(err.empty() ? std::string("cannot parse the file") : err));
    GltfScene scene;
    GltfReader(path, model, scene, full).read();
    if (full) gltf_io::read_materials(path, model, scene);
    if (also_read) also_read->insert(also_read->end(), files.begin(), files.end());
    return scene;
}

std::vector<IndexedMesh> read_gltf(const std::string& path, std::vector<std::string>* also_read) {
    return std::move(read_gltf_scene(path, false, also_read).meshes);
}

}  // namespace wf
