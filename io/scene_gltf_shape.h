// A JSON scene's "gltf" shapes: a glTF file placed by a transform with its own
// materials and textures, its emissive materials as area lights, its KHR_lights_punctual
// lights and its cameras (docs/scene-format.md, "glTF files in a scene"). Internal to
// the scene loader.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/scene.h"
#include "io/gltf_scene.h"
#include "io/scene_json.h"
#include "io/scene_materials.h"
#include "io/scene_shapes.h"

namespace wf::scene_json {

// A punctual light a gltf shape added, for the power check that needs the whole scene
// (check_scene_scale in scene_loader.cpp).
struct IncludedLight {
    size_t light = 0;        // index in the scene's lights
    std::string pointer;     // the shape's "file"
    size_t index_in_file = 0;  // in the file's node order
};

// What gltf shapes gather beside the geometry.
struct GltfIncludes {
    bool json_camera = false;  // the scene has "camera": a shape's "camera" is then an error
    std::vector<HostTextureImage> texture_images;
    std::vector<TextureBinding> texture_bindings;
    std::vector<NamedCamera> cameras;  // every included file's cameras, placed, in shape order (HostScene::file_cameras)
    std::optional<uint32_t> chosen_camera;  // the index in `cameras` a shape's "camera" picked
    std::string chosen_camera_at;           // that "camera"'s pointer
    std::vector<IncludedLight> lights;
    std::vector<std::string> warnings;  // the files' own, once per file

    // A file placed by several shapes is read once and its materials join once.
    std::map<std::string, GltfScene> files;          // by resolved path; meshes in the file's coordinates
    std::map<std::string, uint32_t> first_material;  // scene id of a file's material 0
    std::optional<uint32_t> default_material;        // glTF's default material, once a primitive needed it
};

// Reads gltf shape `n` (its keys checked by the caller).
void read_gltf_shape(const Reader& r, const Node& n, MaterialTable& materials, const std::string& base_dir,
                     GeometryBuilder& g, GltfIncludes& includes);

}  // namespace wf::scene_json
