// JSON scene loader: the top level, film, render settings and lights. The camera lives
// in scene_camera.cpp, materials in scene_materials.cpp, shapes in scene_shapes.cpp
// (gltf shapes in scene_gltf_shape.cpp), checked JSON
// access in scene_json.cpp. The format is documented in docs/scene-format.md.
#include "io/scene_loader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <set>

#include "io/environment_map.h"
#include "io/gltf_scene.h"
#include "io/mesh.h"
#include "io/mesh_placement.h"
#include "io/scene_camera.h"
#include "io/scene_gltf_shape.h"
#include "io/scene_json.h"
#include "io/scene_materials.h"
#include "io/scene_shapes.h"
#include "io/tonemap.h"

namespace wf {
namespace {

using namespace scene_json;

constexpr uintmax_t kMaxFileBytes = uintmax_t(1) << 30;

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
    r.check_keys(n, {"spp", "max_depth", "seed", "integrator", "light_paths", "radius_factor", "radius_alpha",
                     "tonemap", "exposure", "light_selection", "aov"},
                 "render");
    if (auto v = r.member(n, "spp")) s.spp = r.integer(*v, 1, kMaxSpp);
    if (auto v = r.member(n, "max_depth")) s.max_depth = r.integer(*v, 1, kMaxPathDepth);
    if (auto v = r.member(n, "seed")) s.seed = r.integer(*v, 0, std::numeric_limits<uint32_t>::max());
    if (auto v = r.member(n, "integrator")) s.integrator = r.choice(*v, kIntegratorNames);
    if (auto v = r.member(n, "light_paths")) s.light_paths = r.integer(*v, 1, kMaxFilmPixels);
    s.radius_factor = r.real_or(n, "radius_factor", s.radius_factor, Interval{0.0, 1.0, true, false});
    s.radius_alpha = r.real_or(n, "radius_alpha", s.radius_alpha, Interval{0.0, 1.0, true, true});
    if (auto v = r.member(n, "tonemap")) s.tonemap = r.choice(*v, kToneCurveNames);
    s.exposure = r.real_or(n, "exposure", s.exposure, Interval{-kMaxExposureStops, kMaxExposureStops});
    if (auto v = r.member(n, "light_selection")) s.light_selection = r.choice(*v, kLightSelectionNames);
    if (auto v = r.member(n, "aov")) {  // names of engine/aov.h; repeated names count once
        r.expect_array(*v, "list of AOV names");
        s.aovs = 0;
        for (size_t i = 0; i < v->value->size(); ++i)
            s.aovs |= aov_bit(find_aov(r.choice(r.element(*v, i), kAovNames))->aov);
    }
}

// An equirectangular image ("file", scaled by "intensity", turned by "rotation" degrees about "up").
void read_environment_map_light(const Reader& r, const Node& l, const Node& file, const std::string& base_dir,
                                Light& light, HostEnvironmentMap& map, std::vector<std::string>& files_read) {
    for (const char* key : {"radiance", "zenith", "nadir"})
        if (auto extra = r.member(l, key))
            r.fail(extra->pointer,
                   "either \"file\" (an image), \"radiance\" (constant) or \"zenith\" and \"nadir\" (a gradient)",
                   std::string("both \"file\" and \"") + key + "\"");
    light.radiance = Vec3f(r.real_or(l, "intensity", 1.0f, kNonNegative));
    Vec3f up(0.0f, 1.0f, 0.0f);
    if (auto n = r.member(l, "up")) up = normalize(r.direction(*n));
    const float rotation = r.real_or(l, "rotation", 0.0f, Interval{-1e6, 1e6});
    const std::string path = resolve_scene_path(base_dir, r.string(file));
    try {
        map = read_environment_map(path);
    } catch (const SceneError& e) {  // the map's own message, after the place in the scene
        throw SceneError(one_line(r.source()) + ": " + file.pointer + ": " + e.what());
    }
    map.up = up;
    map.rotation_degrees = rotation;
    files_read.push_back(path);
}

// Constant ("radiance"), a gradient linear in the cosine to "up", from "nadir" to "zenith",
// or an image ("file").
void read_environment(const Reader& r, const Node& l, const std::string& base_dir, Light& light,
                      HostEnvironmentMap& map, std::vector<std::string>& files_read) {
    r.check_keys(l, {"type", "radiance", "zenith", "nadir", "up", "file", "intensity", "rotation", "name"},
                 "an environment light");
    light.type = LightType::Environment;
    if (auto file = r.member(l, "file"))
        return read_environment_map_light(r, l, *file, base_dir, light, map, files_read);
    for (const char* key : {"intensity", "rotation"})
        if (auto extra = r.member(l, key)) r.fail(*extra, std::string("\"") + key + "\" only with \"file\" (an image)");
    auto zenith = r.member(l, "zenith"), nadir = r.member(l, "nadir"), radiance = r.member(l, "radiance");
    if (!zenith && !nadir) {
        if (auto up = r.member(l, "up"))
            r.fail(*up, "\"up\" only with \"zenith\" and \"nadir\" (a gradient) or \"file\" (an image)");
        light.radiance = r.color_or(l, "radiance", Vec3f(1.0f), kNonNegative);
        return;
    }
    if (radiance)
        r.fail(radiance->pointer, "either \"radiance\" (constant) or \"zenith\" and \"nadir\" (a gradient)", "both");
    if (!zenith || !nadir) r.fail(l.pointer, "both \"zenith\" and \"nadir\" for a gradient", "only one");
    Vec3f top = r.color(*zenith, kNonNegative), bottom = r.color(*nadir, kNonNegative);
    light.radiance = 0.5f * (top + bottom);
    light.radiance_slope = 0.5f * (top - bottom);
    if (auto up = r.member(l, "up")) light.zenith = normalize(r.direction(*up));
}

// The narrowest outer cone accepted, in degrees: below ~0.014 degrees cos rounds to 1 in
// float and the cone holds no direction (its emission pdf 1 / (2 pi (1 - cos)) is infinite).
constexpr double kMinSpotConeDegrees = 0.02;

// A point light shining into a cone about "direction", with glTF's defaults (inner 0,
// outer 45 degrees) and its falloff (materials/emitters.h spot_falloff).
void read_spot(const Reader& r, const Node& l, Light& light) {
    r.check_keys(l, {"type", "position", "direction", "intensity", "inner_cone_angle", "outer_cone_angle", "name"},
                 "a spot light");
    light.type = LightType::Spot;
    light.position = r.point(r.required(l, "position", "a spot light"));
    light.direction = normalize(r.direction(r.required(l, "direction", "a spot light")));
    light.radiance = r.color_or(l, "intensity", Vec3f(1.0f), kNonNegative);
    const double outer = r.real_or(l, "outer_cone_angle", 45.0f, Interval{kMinSpotConeDegrees, 90.0});
    const double inner = r.real_or(l, "inner_cone_angle", 0.0f, Interval{0.0, 90.0});
    if (inner > outer) {
        char expected[96];
        std::snprintf(expected, sizeof expected, "number <= outer_cone_angle (%g)", outer);
        r.fail(*r.member(l, "inner_cone_angle"), expected);
    }
    constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;
    light.cos_inner = float(std::cos(inner * kRadiansPerDegree));
    light.cos_outer = float(std::cos(outer * kRadiansPerDegree));
}

void read_lights(const Reader& r, const Node& n, const std::string& base_dir, std::vector<Light>& lights,
                 HostEnvironmentMap& environment_map, std::vector<std::string>& files_read) {
    r.expect_array(n, "list of lights");
    std::string environment_at;  // pointer of the environment light, once seen
    for (size_t i = 0; i < n->size(); ++i) {
        Node l = r.element(n, i);
        r.expect_object(l, "light");
        std::string type = r.choice(r.required(l, "type", "a light"), {"point", "spot", "directional", "environment"});
        if (auto name = r.member(l, "name")) r.string(*name);  // documentation only
        Light light;
        if (type == "point") {
            r.check_keys(l, {"type", "position", "intensity", "name"}, "a point light");
            light.type = LightType::Point;
            light.position = r.point(r.required(l, "position", "a point light"));
            light.radiance = r.color_or(l, "intensity", Vec3f(1.0f), kNonNegative);
        } else if (type == "spot") {
            read_spot(r, l, light);
        } else if (type == "directional") {
            r.check_keys(l, {"type", "direction", "irradiance", "name"}, "a directional light");
            light.type = LightType::Directional;
            light.direction = normalize(r.direction(r.required(l, "direction", "a directional light")));
            light.radiance = r.color_or(l, "irradiance", Vec3f(1.0f), kNonNegative);
        } else {
            if (!environment_at.empty())
                r.fail(l.pointer, "at most one environment light", "a second one (the first is " + environment_at + ")");
            environment_at = l.pointer;
            read_environment(r, l, base_dir, light, environment_map, files_read);
        }
        lights.push_back(light);
    }
}

// Emissive triangles at least the area of the smallest sphere accepted (kMinEmissiveTriangleArea,
// scene_shapes.h, says why); `min_radius_relative` is that sphere's radius.
void check_emissive_triangle_areas(const Reader& r, const std::vector<EmissiveTriangleNote>& smallest,
                                   double min_radius_relative, float largest) {
    const double min_area = std::max(kMinEmissiveTriangleArea,
                                     4.0 * 3.14159265358979323846 * min_radius_relative * min_radius_relative);
    for (const EmissiveTriangleNote& note : smallest) {
        if (note.area >= min_area) continue;
        char expected[300], got[100];
        std::snprintf(expected, sizeof expected,
                      "emissive triangles of area >= %g (that of a sphere of radius 2^-20 of the scene's largest "
                      "coordinate magnitude, %g, and at least 2^-61: a smaller light's pdf 1 / area overflows float)",
                      min_area, double(largest));
        std::snprintf(got, sizeof got, "triangle %zu of area %g", note.triangle, note.area);
        r.fail(note.pointer, expected, got);
    }
}

// Checks that need the whole scene (see scene_json.h for the limits and their reasons).
void check_scene_scale(const Reader& r, const Node& root, const HostScene& scene,
                       const std::vector<EmissiveTriangleNote>& smallest_emissive_triangles) {
    Aabb box = scene.bounds();
    float largest = max_component(abs(scene.camera.position));
    if (!box.empty()) largest = std::max({largest, max_component(abs(box.lo)), max_component(abs(box.hi))});

    if (auto shapes = r.member(root, "shapes")) {
        double min_radius = std::max(kMinSphereRadius, kMinSphereRadiusRelative * double(largest));
        size_t sphere = 0;  // each sphere shape adds one sphere, in order
        for (size_t i = 0; i < (*shapes)->size(); ++i) {
            Node shape = r.element(*shapes, i);
            auto type = r.member(shape, "type");
            if (!type || **type != "sphere") continue;
            Node radius = r.required(shape, "radius", "a sphere shape");
            // The placed radius (a "transform" may scale it), else the written one.
            double placed = sphere < scene.spheres.size() ? scene.spheres[sphere].radius : r.real(radius);
            ++sphere;
            if (placed < min_radius) {
                char expected[200];
                std::snprintf(expected, sizeof expected,
                              "number >= %g (2^-20 of the scene's largest coordinate magnitude, %g, and >= 2^-60: "
                              "a smaller sphere is below float resolution)",
                              min_radius, double(largest));
                std::string got = describe(*radius);
                if (placed != double(r.real(radius))) {
                    char once[64];
                    std::snprintf(once, sizeof once, " (%g once transformed)", placed);
                    got += once;
                }
                r.fail(radius.pointer, expected, got);
            }
        }
    }
    check_emissive_triangle_areas(r, smallest_emissive_triangles, kMinSphereRadiusRelative * double(largest), largest);

    auto lights = r.member(root, "lights");
    if (!lights) return;
    double num_lights = double(scene.lights.size());
    double radius = scene.bounding_sphere().radius;
    size_t first_explicit = scene.lights.size() - (*lights)->size();
    for (size_t i = 0; i < (*lights)->size(); ++i) {
        const Light& l = scene.lights[first_explicit + i];
        // The environment's brightest direction bounds its power (a map's: its brightest texel).
        const bool map = l.type == LightType::Environment && !scene.environment_map.empty();
        double value = max_component(l.radiance + abs(l.radiance_slope)), power = 0.0;
        const double map_peak = map ? double(max_texel_value(scene.environment_map)) : 1.0;
        if (map) value = double(l.radiance.x);  // the intensity
        const char* key = "";
        const char* formula = "";
        switch (l.type) {
        case LightType::Point:
        case LightType::Spot:  // a spot emits at most what a point light of its intensity does
            key = "intensity", formula = "4 pi * intensity", power = 4.0 * kPi * value;
            break;
        case LightType::Directional:
            key = "irradiance", formula = "pi R^2 * irradiance", power = kPi * radius * radius * value;
            break;
        case LightType::Environment:
            key = map ? "intensity" : r.member(r.element(*lights, i), "radiance") ? "radiance" : "zenith";
            formula = map ? "4 pi * pi R^2 * intensity * (the map's largest texel value)" : "4 pi * pi R^2 * radiance";
            power = 4.0 * kPi * kPi * radius * radius * value * map_peak;
            break;
        default: continue;
        }
        if (num_lights * power <= kMaxLightPathThroughput) continue;
        Node light = r.element(*lights, i);
        std::string at = r.member(light, key) ? pointer_append(light.pointer, key) : light.pointer;
        char expected[320], got[160];
        std::snprintf(expected, sizeof expected,
                      "%s <= %g, so that (number of lights) * power = %g * %s <= 2^96%s",
                      key, kMaxLightPathThroughput / (num_lights * power / value), num_lights, formula,
                      (l.type == LightType::Point || l.type == LightType::Spot) ? "" : (" (R = " + std::to_string(radius) + ", the scene's bounding radius)").c_str());
        std::snprintf(got, sizeof got, "%g", value);
        r.fail(at, expected, got);
    }
}

// `files` in their first order, each once (a mesh file may serve many shapes).
std::vector<std::string> without_repeats(std::vector<std::string> files) {
    std::set<std::string> seen;
    std::vector<std::string> once;
    for (std::string& f : files)
        if (seen.insert(f).second) once.push_back(std::move(f));
    return once;
}

// check_scene_scale's bound on a light path's starting throughput, for a glTF file's punctual
// light `l` of `scene`: (number of lights) x power <= 2^96, power 4 pi I for point and spot
// lights, pi R^2 E for directional ones. Returns "" or the problem, "colour x intensity ...".
// `radius` is the scene's bounding sphere's (a pass over every primitive: its callers
// find it once, not once per light).
std::string punctual_light_power_problem(const HostScene& scene, double radius, const Light& l) {
    const double n = double(scene.lights.size());
    const double value = max_component(l.radiance);
    double power = 0.0;
    if (l.type == LightType::Point || l.type == LightType::Spot) power = 4.0 * kPi * value;
    else if (l.type == LightType::Directional) power = kPi * radius * radius * value;
    if (n * power <= kMaxLightPathThroughput) return "";
    char message[240];
    std::snprintf(message, sizeof message,
                  "colour x intensity %g makes (number of lights) x power = %g x %g, more than 2^96 (a light path "
                  "would overflow float)",
                  value, n, power);
    return message;
}

// The punctual lights of a glTF file rendered on its own: lights [first, end) of `scene`.
void check_punctual_light_power(const std::string& path, const HostScene& scene, size_t first) {
    if (first >= scene.lights.size()) return;
    const double radius = scene.bounding_sphere().radius;
    for (size_t i = first; i < scene.lights.size(); ++i)
        if (std::string problem = punctual_light_power_problem(scene, radius, scene.lights[i]); !problem.empty())
            throw SceneError(one_line(path) + ": KHR_lights_punctual light " + std::to_string(i - first) +
                             " (in node order): " + problem);
}

// The punctual lights gltf shapes brought in.
void check_included_light_power(const Reader& r, const HostScene& scene, const std::vector<IncludedLight>& lights) {
    if (lights.empty()) return;
    const double radius = scene.bounding_sphere().radius;
    for (const IncludedLight& l : lights)
        if (std::string problem = punctual_light_power_problem(scene, radius, scene.lights[l.light]); !problem.empty())
            r.fail(l.pointer, "lights whose power a light path can carry",
                   "KHR_lights_punctual light " + std::to_string(l.index_in_file) + " (in node order): " + problem);
}

// The included files' cameras are the scene's file cameras (--camera); one a gltf shape
// chose is the scene's camera, its aspect ratio setting the film height unless /film has one.
void adopt_included_camera(const Reader& r, const Node& root, GltfIncludes& includes, HostScene& scene) {
    scene.file_cameras = std::move(includes.cameras);
    if (!includes.chosen_camera) return;
    const uint32_t height = scene.settings.height;
    use_file_camera(scene, *includes.chosen_camera);
    auto film = r.member(root, "film");
    if (film && r.member(*film, "height")) scene.settings.height = height;
}

// A mesh file rendered on its own: default material, a neutral environment light of
// radiance 1, and a camera that frames the mesh's bounding sphere from the front
// (+z), a little to the right and above (+x, +y, y up), as most models are authored.
HostScene load_mesh_file_scene(const std::string& path, SceneLoadStats* stats) {
    try {
        HostScene scene;
        scene.source_path = path;
        scene.materials.push_back(default_material());
        scene.material_names.emplace_back(kDefaultMaterialName);
        GeometryBuilder geometry;
        const std::optional<MeshFormat> format = mesh_format_of(path);
        const bool gltf = format == MeshFormat::Gltf || format == MeshFormat::Glb;
        bool has_camera = false;
        std::vector<std::string> warnings;
        if (gltf) {
            scene.input_files.push_back(path);
            has_camera = adopt_gltf_scene(path, read_gltf_scene(path, true, &scene.input_files), scene, geometry, warnings);
        } else {
            ShapeCommon sc;  // material 0, not emitting
            for (IndexedMesh& m : read_mesh_file(path, &scene.input_files))
                place_mesh(MeshPlace{path, "", ""}, std::move(m), Affine3(), sc, geometry);
        }
        scene.prims = geometry.finish();
        scene.triangles = std::move(geometry.triangles);
        scene.meshes = std::move(geometry.meshes);
        // Emissive glTF materials add area lights; a neutral environment lights a file with
        // no light of its own (punctual or emissive).
        scene.lights.insert(scene.lights.begin(), geometry.lights.begin(), geometry.lights.end());
        if (scene.lights.empty()) {
            Light environment;
            environment.type = LightType::Environment;
            environment.radiance = Vec3f(1.0f);
            scene.lights.push_back(environment);
        }
        check_punctual_light_power(path, scene, geometry.lights.size());
        if (stats) {
            stats->dropped_degenerate_triangles = geometry.dropped_degenerate_triangles;
            stats->warnings = std::move(warnings);
        }
        scene.input_files = without_repeats(std::move(scene.input_files));

        // glTF is authored for PBR viewers, whose display transform Khronos PBR Neutral was made
        // for; OBJ and PLY keep the plain clamp of JSON scenes.
        if (gltf) scene.settings.tonemap = "pbr-neutral";
        if (has_camera) return scene;

        SceneSphere bounds = scene.bounding_sphere();
        CameraDesc& cam = scene.camera;
        float half_fov = 0.5f * cam.fov_y_degrees * kPi / 180.0f;
        float distance = 1.1f * bounds.radius / std::sin(half_fov);  // the sphere fits the height with a margin
        Vec3f from_center = normalize(Vec3f(0.4f, 0.3f, 1.0f));
        cam.position = bounds.center + distance * from_center;
        cam.forward = -from_center;
        cam.up = Vec3f(0.0f, 1.0f, 0.0f);
        cam.focus_distance = distance;
        return scene;
    } catch (const std::bad_alloc&) {
        throw SceneError(one_line(path) + ": out of memory while loading the mesh");
    }
}

}  // namespace

HostScene parse_scene(const std::string& json_text, const std::string& source_name,
                      const std::string& base_dir, SceneLoadStats* stats) {
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
        GltfIncludes includes;
        includes.json_camera = r.member(root, "camera").has_value();
        if (auto n = r.member(root, "shapes")) read_shapes(r, *n, materials, base_dir, geometry, includes);
        if (geometry.triangles.size() + geometry.spheres.size() > size_t(std::numeric_limits<int32_t>::max()))
            r.fail(root.pointer, "fewer than 2^31 primitives", "more");

        // Explicit lights follow the area lights of emissive shapes.
        if (auto n = r.member(root, "lights"))
            read_lights(r, *n, base_dir, geometry.lights, scene.environment_map, geometry.files_read);
        if (geometry.lights.size() > size_t(std::numeric_limits<int32_t>::max()))
            r.fail(root.pointer, "fewer than 2^31 lights", "more");

        scene.prims = geometry.finish();
        scene.lights = std::move(geometry.lights);
        scene.triangles = std::move(geometry.triangles);
        scene.spheres = std::move(geometry.spheres);
        scene.meshes = std::move(geometry.meshes);
        scene.materials = std::move(materials.materials);
        scene.material_names = std::move(materials.names);
        scene.texture_images = std::move(includes.texture_images);
        scene.texture_bindings = std::move(includes.texture_bindings);
        adopt_included_camera(r, root, includes, scene);
        if (stats) {
            stats->dropped_degenerate_triangles = geometry.dropped_degenerate_triangles;
            stats->warnings = std::move(includes.warnings);
        }
        scene.input_files = without_repeats(std::move(geometry.files_read));
        check_scene_scale(r, root, scene, geometry.smallest_emissive_triangles);
        check_included_light_power(r, scene, includes.lights);
        return scene;
    } catch (const std::bad_alloc&) {
        throw SceneError(one_line(source_name) + ": out of memory while loading the scene");
    }
}

HostScene load_scene(const std::string& path, SceneLoadStats* stats) {
    namespace fs = std::filesystem;
    if (mesh_format_of(path)) return load_mesh_file_scene(path, stats);
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
    HostScene scene = parse_scene(text, path, base_dir.empty() ? "." : base_dir, stats);
    scene.input_files.insert(scene.input_files.begin(), path);
    return scene;
}

void set_environment_map(HostScene& scene, const std::string& path) {
    HostEnvironmentMap map;
    try {
        map = read_environment_map(path);
    } catch (const SceneError& e) {
        throw SceneError(std::string("--env: ") + e.what());
    }
    Light environment;
    environment.type = LightType::Environment;
    environment.radiance = Vec3f(1.0f);  // intensity 1
    auto it = std::find_if(scene.lights.begin(), scene.lights.end(),
                           [](const Light& l) { return l.type == LightType::Environment; });
    const double num_lights = double(scene.lights.size() + (it == scene.lights.end() ? 1 : 0));
    const double radius = scene.bounding_sphere().radius;
    const double power = 4.0 * kPi * kPi * radius * radius * double(max_texel_value(map));
    if (num_lights * power > kMaxLightPathThroughput) {
        char problem[300];
        std::snprintf(problem, sizeof problem,
                      ": texels up to %g: expected (number of lights) * power = %g * 4 pi * pi R^2 * (largest texel "
                      "value) <= 2^96 (R = %g, the scene's bounding radius)",
                      double(max_texel_value(map)), num_lights, radius);
        throw SceneError("--env: " + one_line(path) + problem);
    }
    if (it != scene.lights.end()) *it = environment;
    else scene.lights.push_back(environment);
    scene.environment_map = std::move(map);
    if (std::find(scene.input_files.begin(), scene.input_files.end(), path) == scene.input_files.end())
        scene.input_files.push_back(path);
}

std::string resolve_scene_path(const std::string& base_dir, const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p(path);
    if (p.is_absolute()) return p.lexically_normal().string();
    return (fs::path(base_dir.empty() ? "." : base_dir) / p).lexically_normal().string();
}

}  // namespace wf
