#include "io/scene_gltf_shape.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "io/mesh.h"
#include "io/mesh_placement.h"

namespace wf::scene_json {
namespace {

// The file at `path`, read on its first use. Its own messages come after the place in the scene.
GltfScene& included_file(const Reader& r, const Node& file, const std::string& path, GeometryBuilder& g,
                         GltfIncludes& includes) {
    if (auto it = includes.files.find(path); it != includes.files.end()) return it->second;
    GltfScene scene;
    try {
        g.files_read.push_back(path);
        scene = read_gltf_scene(path, true, &g.files_read);
    } catch (const SceneError& e) {
        throw SceneError(one_line(r.source()) + ": " + file.pointer + ": " + e.what());
    }
    includes.warnings.insert(includes.warnings.end(), scene.warnings.begin(), scene.warnings.end());
    return includes.files.emplace(path, std::move(scene)).first->second;
}

// The scene's id of the file's material 0: its materials and textures join the scene's
// tables on the file's first use, after whatever the scene held then.
uint32_t first_file_material(const std::string& path, const std::string& label, GltfScene& file,
                             MaterialTable& materials, GltfIncludes& includes) {
    if (auto it = includes.first_material.find(path); it != includes.first_material.end()) return it->second;
    const uint32_t first = append_gltf_materials(
        file, label,
        GltfMaterialTables{materials.materials, materials.names, includes.texture_images, includes.texture_bindings});
    includes.first_material.emplace(path, first);
    return first;
}

uint32_t default_gltf_material(MaterialTable& materials, GltfIncludes& includes) {
    if (!includes.default_material) {
        includes.default_material = uint32_t(materials.materials.size());
        materials.materials.push_back(gltf_default_material());
        materials.names.emplace_back(kGltfDefaultMaterialName);
    }
    return *includes.default_material;
}

// A point placed by the shape's transform must stay within the scene's coordinate limit.
Vec3f placed_point(const Reader& r, const Affine3& xf, const std::string& transform_at, Vec3f p, const char* what) {
    const Vec3f q = xf.point(p);
    if (!(max_component(abs(q)) <= kMaxCoordinate))
        r.fail(transform_at, std::string("a transform that keeps the file's ") + what + " within magnitude 1e10",
               "(" + std::to_string(q.x) + ", " + std::to_string(q.y) + ", " + std::to_string(q.z) + ")");
    return q;
}

void place_lights(const Reader& r, const Node& file, const GltfScene& gltf, const Affine3& xf,
                  const std::string& transform_at, GeometryBuilder& g, GltfIncludes& includes) {
    for (size_t k = 0; k < gltf.lights.size(); ++k) {
        Light l = gltf.lights[k];
        if (l.type == LightType::Point || l.type == LightType::Spot)
            l.position = placed_point(r, xf, transform_at, l.position, "lights");
        if (l.type == LightType::Spot || l.type == LightType::Directional) l.direction = normalize(xf.vector(l.direction));
        includes.lights.push_back({g.lights.size(), file.pointer, k});
        g.lights.push_back(l);
    }
}

// The file's cameras join the scene's file cameras; "camera": N makes the file's N-th the
// scene's camera (parse_scene applies it).
void place_cameras(const Reader& r, const Node& n, const GltfScene& gltf, const std::string& file_name,
                   const Affine3& xf, const std::string& transform_at, GltfIncludes& includes) {
    const size_t first = includes.cameras.size();
    for (const NamedCamera& c : gltf.cameras) {
        NamedCamera placed = c;
        placed.desc.position = placed_point(r, xf, transform_at, c.desc.position, "cameras");
        placed.desc.forward = xf.vector(c.desc.forward);
        placed.desc.up = xf.vector(c.desc.up);
        // An orthographic view scales with the file (the transform's stretch along the view's up).
        placed.desc.ortho_height *= length(placed.desc.up) / length(c.desc.up);
        includes.cameras.push_back(placed);
    }
    auto camera = r.member(n, "camera");
    if (!camera) return;
    if (includes.json_camera)
        r.fail(camera->pointer, "no \"camera\" on a gltf shape when the scene has /camera (the scene's camera decides)",
               describe(**camera));
    if (includes.chosen_camera)
        r.fail(camera->pointer, "one gltf shape choosing the camera", "a second (" + includes.chosen_camera_at + " chose one)");
    const uint32_t index = r.integer(*camera, 0, std::numeric_limits<uint32_t>::max());
    if (index >= gltf.cameras.size())
        r.fail(camera->pointer,
               gltf.cameras.empty()
                   ? "no \"camera\": " + file_name + " has no camera"
                   : "a camera of " + file_name + ": integer in [0, " + std::to_string(gltf.cameras.size() - 1) +
                         "] (its cameras in node order)",
               describe(**camera));
    includes.chosen_camera = uint32_t(first + index);
    includes.chosen_camera_at = camera->pointer;
}

}  // namespace

void read_gltf_shape(const Reader& r, const Node& n, MaterialTable& materials, const std::string& base_dir,
                     GeometryBuilder& g, GltfIncludes& includes) {
    const Node file = r.required(n, "file", "a gltf shape");
    const std::string file_name = r.string(file);
    const std::optional<MeshFormat> format = mesh_format_of(file_name);
    if (format != MeshFormat::Gltf && format != MeshFormat::Glb)
        r.fail(file, "a .gltf or .glb file (for an .obj or .ply file: a mesh shape)");
    Affine3 xf;
    std::string transform_at;
    if (auto t = r.member(n, "transform")) {
        xf = read_transform(r, *t);
        transform_at = t->pointer;
    }
    std::optional<uint32_t> override_material;
    if (auto m = r.member(n, "material")) override_material = materials.resolve(r, m);
    const bool lights = r.boolean_or(n, "lights", true);

    const std::string path = resolve_scene_path(base_dir, file_name);
    GltfScene& gltf = included_file(r, file, path, g, includes);
    const MeshPlace at{r.source(), file.pointer, transform_at};
    for (const IndexedMesh& mesh : gltf.meshes) {
        ShapeCommon sc;
        if (override_material) {
            sc.material = *override_material;  // the file's emission belongs to its materials: none
        } else if (mesh.file_material >= 0) {
            sc.material = first_file_material(path, file_name, gltf, materials, includes) + uint32_t(mesh.file_material);
            sc.emission = gltf.material_emission[size_t(mesh.file_material)];
            // The appended material's id, already offset into the scene's bindings.
            sc.emissive_texture = materials.materials[sc.material].pbr.emissive_texture;
        } else {
            sc.material = default_gltf_material(materials, includes);
        }
        place_mesh(at, mesh, xf, sc, g);
    }
    if (lights) place_lights(r, file, gltf, xf, transform_at.empty() ? file.pointer : transform_at, g, includes);
    place_cameras(r, n, gltf, file_name, xf, transform_at.empty() ? file.pointer : transform_at, includes);
}

}  // namespace wf::scene_json
