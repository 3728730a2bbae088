// JSON scene loader: the top level, camera, film, render settings and lights.
// Materials live in scene_materials.cpp, shapes in scene_shapes.cpp, checked JSON
// access in scene_json.cpp. The format is documented in docs/scene-format.md.
#include "io/scene_loader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>

#include "io/scene_json.h"
#include "io/scene_materials.h"
#include "io/scene_shapes.h"

namespace wf {
namespace {

using namespace scene_json;

constexpr uint64_t kMaxSpp = 1048576;
constexpr uint64_t kMaxDepth = 1024;
constexpr uintmax_t kMaxFileBytes = uintmax_t(1) << 30;
// An up vector closer than this (sine of the angle) to the view direction cannot orient the camera.
constexpr float kMinUpSine = 1e-4f;

void read_film(const Reader& r, const Node& n, RenderSettings& s) {
    r.expect_object(n, "film");
    r.check_keys(n, {"width", "height"}, "film");
    if (auto w = r.member(n, "width")) s.width = r.integer(*w, 1, kMaxFilmSide);
    if (auto h = r.member(n, "height")) s.height = r.integer(*h, 1, kMaxFilmSide);
    uint64_t pixels = uint64_t(s.width) * s.height;
    if (pixels > kMaxFilmPixels)
        r.fail(n.pointer, "width * height <= " + std::to_string(kMaxFilmPixels) + " pixels",
               std::to_string(s.width) + " x " + std::to_string(s.height) + " = " + std::to_string(pixels));
}

void read_render(const Reader& r, const Node& n, RenderSettings& s) {
    r.expect_object(n, "render settings");
    r.check_keys(n, {"spp", "max_depth", "seed", "integrator", "light_paths", "radius_factor", "radius_alpha"},
                 "render");
    if (auto v = r.member(n, "spp")) s.spp = r.integer(*v, 1, kMaxSpp);
    if (auto v = r.member(n, "max_depth")) s.max_depth = r.integer(*v, 1, kMaxDepth);
    if (auto v = r.member(n, "seed")) s.seed = r.integer(*v, 0, std::numeric_limits<uint32_t>::max());
    if (auto v = r.member(n, "integrator")) s.integrator = r.choice(*v, kIntegratorNames);
    if (auto v = r.member(n, "light_paths")) s.light_paths = r.integer(*v, 1, kMaxFilmPixels);
    s.radius_factor = r.real_or(n, "radius_factor", s.radius_factor, Interval{0.0, 1.0, true, false});
    s.radius_alpha = r.real_or(n, "radius_alpha", s.radius_alpha, Interval{0.0, 1.0, true, true});
}

void read_camera(const Reader& r, const Node& n, CameraDesc& cam) {
    r.expect_object(n, "camera");
    r.check_keys(n, {"position", "look_at", "forward", "up", "fov", "aperture_radius", "focus_distance"}, "camera");
    if (auto p = r.member(n, "position")) cam.position = r.point(*p);
    auto look_at = r.member(n, "look_at");
    auto forward = r.member(n, "forward");
    float default_focus = 1.0f;
    if (look_at && forward)
        r.fail(forward->pointer, "either \"look_at\" or \"forward\", not both", "both");
    if (look_at) {
        Vec3f d = r.point(*look_at) - cam.position;
        if (!(length_squared(d) > 0.0f) || !is_finite(normalize(d)))
            r.fail(*look_at, "a point away from the camera position");
        cam.forward = d;
        default_focus = length(d);
    } else if (forward) {
        cam.forward = r.direction(*forward);
    }
    auto up = r.member(n, "up");
    if (up) cam.up = r.direction(*up);
    if (length(cross(normalize(cam.up), normalize(cam.forward))) < kMinUpSine) {
        if (up) r.fail(*up, "an up vector not parallel to the view direction");
        r.fail(n.pointer, "\"up\" (the default [0, 1, 0] is parallel to the view direction)", "none");
    }
    cam.fov_y_degrees = r.real_or(n, "fov", 45.0f, Interval{0.0, 180.0, true, true});
    cam.aperture_radius = r.real_or(n, "aperture_radius", 0.0f, Interval{0.0, kMaxCoordinate});
    cam.focus_distance = r.real_or(n, "focus_distance", default_focus, Interval{0.0, kMaxCoordinate, true, false});
}

void read_lights(const Reader& r, const Node& n, std::vector<Light>& lights) {
    r.expect_array(n, "list of lights");
    std::string environment_at;  // pointer of the environment light, once seen
    for (size_t i = 0; i < n->size(); ++i) {
        Node l = r.element(n, i);
        r.expect_object(l, "light");
        std::string type = r.choice(r.required(l, "type", "a light"), {"point", "directional", "environment"});
        if (auto name = r.member(l, "name")) r.string(*name);  // documentation only
        Light light;
        if (type == "point") {
            r.check_keys(l, {"type", "position", "intensity", "name"}, "a point light");
            light.type = LightType::Point;
            light.position = r.point(r.required(l, "position", "a point light"));
            light.radiance = r.color_or(l, "intensity", Vec3f(1.0f), kNonNegative);
        } else if (type == "directional") {
            r.check_keys(l, {"type", "direction", "irradiance", "name"}, "a directional light");
            light.type = LightType::Directional;
            light.direction = normalize(r.direction(r.required(l, "direction", "a directional light")));
            light.radiance = r.color_or(l, "irradiance", Vec3f(1.0f), kNonNegative);
        } else {
            r.check_keys(l, {"type", "radiance", "name"}, "an environment light");
            if (!environment_at.empty())
                r.fail(l.pointer, "at most one environment light", "a second one (the first is " + environment_at + ")");
            environment_at = l.pointer;
            light.type = LightType::Environment;
            light.radiance = r.color_or(l, "radiance", Vec3f(1.0f), kNonNegative);
        }
        lights.push_back(light);
    }
}

}  // namespace

HostScene parse_scene(const std::string& json_text, const std::string& source_name,
                      const std::string& /*base_dir: for file includes (meshes, glTF) to come*/,
                      SceneLoadStats* stats) {
    try {
        Json doc = parse_document(json_text, source_name);
        Reader r(source_name);
        Node root{&doc, ""};
        r.expect_object(root, "scene");
        r.check_keys(root, {"description", "camera", "film", "render", "materials", "shapes", "lights"}, "a scene");

        HostScene scene;
        scene.source_path = source_name;
        if (auto d = r.member(root, "description")) r.string(*d);  // documentation only
        if (auto n = r.member(root, "film")) read_film(r, *n, scene.settings);
        if (auto n = r.member(root, "render")) read_render(r, *n, scene.settings);
        if (auto n = r.member(root, "camera")) read_camera(r, *n, scene.camera);

        MaterialTable materials;
        if (auto n = r.member(root, "materials")) materials.read(r, *n);

        GeometryBuilder geometry;
        if (auto n = r.member(root, "shapes")) read_shapes(r, *n, materials, geometry);
        if (geometry.triangles.size() + geometry.spheres.size() > size_t(std::numeric_limits<int32_t>::max()))
            r.fail(root.pointer, "fewer than 2^31 primitives", "more");

        // Explicit lights follow the area lights of emissive shapes.
        if (auto n = r.member(root, "lights")) read_lights(r, *n, geometry.lights);
        if (geometry.lights.size() > size_t(std::numeric_limits<int32_t>::max()))
            r.fail(root.pointer, "fewer than 2^31 lights", "more");

        scene.prims = geometry.finish();
        scene.lights = std::move(geometry.lights);
        scene.triangles = std::move(geometry.triangles);
        scene.spheres = std::move(geometry.spheres);
        scene.materials = std::move(materials.materials);
        scene.material_names = std::move(materials.names);
        if (stats) stats->dropped_degenerate_triangles = geometry.dropped_degenerate_triangles;
        return scene;
    } catch (const std::bad_alloc&) {
        throw SceneError(one_line(source_name) + ": out of memory while loading the scene");
    }
}

HostScene load_scene(const std::string& path, SceneLoadStats* stats) {
    namespace fs = std::filesystem;
    const std::string name = one_line(path.empty() ? std::string("(empty path)") : path);
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw SceneError(name + ": cannot open: is a directory");
    std::ifstream file(path, std::ios::binary);
    if (!file) throw SceneError(name + ": cannot open: " + std::strerror(errno));
    uintmax_t bytes = fs::file_size(path, ec);
    if (!ec && bytes > kMaxFileBytes)
        throw SceneError(name + ": cannot open: file of " + std::to_string(bytes) + " bytes exceeds the 1 GiB limit");
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (file.bad()) throw SceneError(name + ": cannot open: read error");
    std::string base_dir = fs::path(path).parent_path().string();
    return parse_scene(text, path, base_dir.empty() ? "." : base_dir, stats);
}

std::string resolve_scene_path(const std::string& base_dir, const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p(path);
    if (p.is_absolute()) return p.lexically_normal().string();
    return (fs::path(base_dir.empty() ? "." : base_dir) / p).lexically_normal().string();
}

}  // namespace wf
