// Host-side scene: what the JSON loader produces and the renderer uploads.
// All arrays are flat and index-based (see scene_types.h).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aov.h"
#include "engine/backend/host_parallel.h"
#include "engine/camera.h"
#include "engine/host_environment_map.h"
#include "engine/scene_types.h"

namespace wf {

// Camera as described in a scene file; turned into a Camera once the film size is known.
struct CameraDesc {
    Vec3f position{0.0f, 0.0f, 5.0f};
    Vec3f forward{0.0f, 0.0f, -1.0f};  // need not be unit length
    Vec3f up{0.0f, 1.0f, 0.0f};        // hint; need not be orthogonal to forward
    float fov_y_degrees = 45.0f;       // full vertical field of view
    float aperture_radius = 0.0f;      // thin lens radius in scene units; 0 = pinhole
    float focus_distance = 1.0f;       // distance of the plane in focus along forward
    // > 0: an orthographic camera whose view is this tall (scene units; its width follows
    // the film's aspect ratio); fov_y_degrees and the lens are then unused.
    float ortho_height = 0.0f;

    Camera build(uint32_t width, uint32_t height) const {
        Camera c = Camera::look(position, forward, up, fov_y_degrees * kPi / 180.0f, width, height);
        c.aperture_radius = aperture_radius;
        c.focus_distance = focus_distance;
        c.ortho_half_height = 0.5f * ortho_height;
        return c;
    }
};

// A camera a scene file defines among several (a glTF file's cameras), for --camera.
struct NamedCamera {
    std::string name;
    CameraDesc desc;
    float aspect_ratio = 0.0f;  // width / height the file asks for, else 0
};

// Limits on the film, shared by the scene loader and the command line: beyond
// them a render would only fail later, out of memory.
inline constexpr uint32_t kMaxFilmSide = 16384;
inline constexpr uint64_t kMaxFilmPixels = 67108864;  // 8192 x 8192
// The largest --spp / render.spp and --max-depth / render.max_depth: one limit for
// the command line and the scene format.
inline constexpr uint32_t kMaxSpp = 1048576;
inline constexpr uint32_t kMaxPathDepth = 1024;

// Defaults a scene may set and the command line may override.
struct RenderSettings {
    uint32_t width = 512, height = 512;
    uint32_t spp = 16;
    uint32_t max_depth = 10;  // maximum path length in segments (camera ray = 1), as SmallVCM
    uint32_t seed = 0;
    std::string integrator = "pt";  // a name of engine/integrators.h
    // Bidirectional family: light sub-paths per iteration; 0 = one per pixel (SmallVCM).
    uint32_t light_paths = 0;
    // Merging radius as a fraction of the scene's bounding-sphere radius, and the
    // radius reduction alpha: r_i = r_0 / (i + 1)^((1 - alpha) / 2) (SmallVCM's defaults).
    float radius_factor = 0.003f;
    float radius_alpha = 0.75f;
    // PNG output only (.hdr and .exr stay linear): the tone curve, a name of io/tonemap.h's
    // kToneCurves ("none" for JSON scenes, "pbr-neutral" for a glTF/GLB file rendered on its
    // own), and the exposure in stops applied before it.
    std::string tonemap = "none";
    float exposure = 0.0f;
    // How lights are picked (materials/light_selection.h): a name of kLightSelectionNames.
    std::string light_selection = "power";
    // AOV layers to render next to the beauty (engine/aov.h; --aov, render.aov): EXR output only.
    AovSet aovs = 0;
};

// Whether pt sorts each bounce's surface queue by material before shading
// (wavefront/stages/sort_by_material.h; --material-sort): the image is the same. Auto
// sorts where glTF clear coats lie beside uncoated materials, the one mix where sorting
// measured faster (resolve_material_sort, below, says why and with what figures).
enum class MaterialSortMode : uint8_t { Auto, On, Off };

// The names of LightSelectionMode, in its order: --light-selection and render.light_selection.
inline constexpr std::string_view kLightSelectionNames[] = {"power", "uniform"};

// The mode a name of kLightSelectionNames stands for; throws std::invalid_argument otherwise.
inline LightSelectionMode light_selection_mode(std::string_view name) {
    if (name == "power") return LightSelectionMode::Power;
    if (name == "uniform") return LightSelectionMode::Uniform;
    throw std::invalid_argument("light selection: expected 'power' or 'uniform', got '" + std::string(name) + "'");
}

// An indexed triangle mesh in world space, as a mesh shape or mesh file was loaded,
// kept for shading: its normals, tangents, texture coordinates and colours are
// interpolated at hit points (the device copy: accel/shading_attributes.h). Triangle t
// of the mesh is primitive first_prim + t, with the same vertex order: zero-area
// triangles are left out of both. Every attribute array is one per position, or empty.
struct IndexedMesh {
    std::vector<Vec3f> positions;
    std::vector<Vec3f> normals;     // unit, or empty (the file has none)
    std::vector<Vec2f> uvs;         // texture coordinates, set 0 (glTF TEXCOORD_0), or empty
    std::vector<Vec2f> uvs1;        // set 1 (glTF TEXCOORD_1), or empty
    std::vector<Vec4f> tangents;    // unit xyz along increasing u, w = +-1 the bitangent's sign (glTF TANGENT), or empty
    std::vector<Vec4f> colors;      // linear RGBA vertex colours (glTF COLOR_0), or empty
    std::vector<uint32_t> indices;  // 3 per triangle into the arrays above; counter-clockwise about the geometric normal
    uint32_t first_prim = 0;        // primitive id of triangle 0 once in a HostScene
    int32_t file_material = -1;     // the file's own material for it (glTF primitive.material), -1: none

    size_t num_triangles() const { return indices.size() / 3; }
};

// A decoded texture image, 8-bit RGBA, rows from the top of the image (v = 0 at the top,
// as glTF's UV convention reads it). Colour images stay sRGB-encoded; TextureBinding says
// how a material slot decodes them.
struct HostTextureImage {
    std::string name;  // for messages: the file or "<gltf>: image 3"
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;  // width * height * 4
};

struct HostScene {
    std::string source_path;  // the file it came from, for messages
    CameraDesc camera;
    RenderSettings settings;
    std::vector<Triangle> triangles;
    std::vector<Sphere> spheres;
    std::vector<PrimInfo> prims;  // triangles first, then spheres (see PrimInfo)
    std::vector<Material> materials;
    std::vector<std::string> material_names;
    std::vector<Light> lights;
    // The environment light's image, when it has one (empty: constant or gradient, or none).
    HostEnvironmentMap environment_map;
    std::vector<IndexedMesh> meshes;  // the mesh shapes again, indexed, with normals and UVs (see IndexedMesh)
    std::vector<NamedCamera> file_cameras;  // a glTF file's cameras (or a JSON scene's included files'), for --camera
    std::vector<HostTextureImage> texture_images;
    std::vector<TextureBinding> texture_bindings;  // Material texture ids index this
    // Every file the load read, once each, in order: the scene file (load_scene; parse_scene
    // reads text) and each mesh file with the files it pulled in (a glTF's buffers and
    // images). Outputs are checked against them: writing one would destroy the scene.
    std::vector<std::string> input_files;

    uint32_t num_prims() const { return uint32_t(triangles.size() + spheres.size()); }

    // Bounding box of all geometry (empty without geometry). The triangles' on the thread
    // pool, in chunks folded in order: the serial loop's box, bit for bit.
    Aabb bounds() const {
        Aabb box = host_reduce(
            triangles.size(), Aabb{},
            [&](uint64_t begin, uint64_t end, const Aabb& init) {
                Aabb box = init;
                for (uint64_t i = begin; i < end; ++i) {
                    const Triangle& t = triangles[i];
                    box.extend(t.p0);
                    box.extend(t.p1);
                    box.extend(t.p2);
                }
                return box;
            },
            [](Aabb acc, const Aabb& part) {
                acc.extend(part);
                return acc;
            });
        for (const Sphere& s : spheres) {
            box.extend(s.center - Vec3f(s.radius));
            box.extend(s.center + Vec3f(s.radius));
        }
        return box;
    }

    // Bounding sphere of all geometry (SmallVCM: centre of the box, half its diagonal).
    SceneSphere bounding_sphere() const { return sphere_around(bounds()); }
    static SceneSphere sphere_around(const Aabb& box) {
        if (box.empty()) return {Vec3f(0.0f), 1.0f};
        SceneSphere ss;
        ss.center = box.centroid();
        ss.radius = fmaxf(0.5f * length(box.extent()), 1e-6f);
        return ss;
    }
};

// --material-sort auto, resolved once per render from the materials the scene's primitives
// use: On where glTF clear coats lie beside uncoated materials, else Off. The coat is the
// costliest layer of GltfBsdf (a second GGX lobe, evaluated and sampled in its own frame),
// so where a warp's lanes shade coated and uncoated hits the two serialise. Measured on an
// H100 (bench/NOTES.md): sorting paid on ClearCoatTest (-14%) and on five models combined
// in one scene (-6%), both with coats beside other materials, and lost 5-10% on four models
// without that mix, among them a scene of two sheen materials and one of textured and
// untextured ones. Keyed by a material's shading code path instead of its id, the sort
// measured slower still (material id also groups texture look-ups).
inline MaterialSortMode resolve_material_sort(MaterialSortMode mode, const HostScene& scene) {
    if (mode != MaterialSortMode::Auto) return mode;
    std::vector<bool> used(scene.materials.size(), false);
    for (const PrimInfo& p : scene.prims)
        if (p.material < used.size()) used[p.material] = true;
    bool coated = false, uncoated = false;
    for (size_t i = 0; i < scene.materials.size(); ++i) {
        if (!used[i]) continue;  // a glTF file's default material, say, that no primitive names
        const Material& m = scene.materials[i];
        (m.type == MaterialType::GltfPbr && m.pbr.clearcoat > 0.0f ? coated : uncoated) = true;
    }
    return coated && uncoated ? MaterialSortMode::On : MaterialSortMode::Off;
}

}  // namespace wf
