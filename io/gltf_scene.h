// A glTF 2.0 file read as a scene (io/mesh_gltf.cpp, io/gltf_materials.cpp): its
// meshes with the materials they name, the materials as GltfPbr records with their
// textures decoded, its cameras and its KHR_lights_punctual lights, all in world space
// (node transforms applied). What the engine cannot render yet is a warning, or, where
// the file says the extension is required, an error.
#pragma once

#include <string>
#include <vector>

#include "engine/scene.h"
#include "engine/scene_types.h"

namespace tinygltf {
class Model;
}

namespace wf {

struct GltfScene {
    std::vector<IndexedMesh> meshes;  // IndexedMesh::file_material indexes `materials` (-1: the default material)
    std::vector<Material> materials;
    std::vector<std::string> material_names;
    std::vector<Vec3f> material_emission;  // emissiveFactor x KHR_materials_emissive_strength, per material
    std::vector<HostTextureImage> texture_images;
    std::vector<TextureBinding> texture_bindings;
    std::vector<NamedCamera> cameras;  // in node order of the default scene
    std::vector<Light> lights;        // point and directional, in node order
    std::vector<std::string> warnings;  // "<file>: ..." lines: what is read but not rendered
};

// Reads geometry always; materials, textures, cameras and lights when `full` (a JSON
// scene's mesh shape takes only the geometry). `also_read` gets the files opened besides
// `path`. Throws SceneError naming the file and the place.
GltfScene read_gltf_scene(const std::string& path, bool full, std::vector<std::string>* also_read = nullptr);

namespace gltf_io {
// Materials and the textures they use (io/gltf_materials.cpp), appended to `scene`.
void read_materials(const std::string& path, const tinygltf::Model& model, GltfScene& scene);
}  // namespace gltf_io

}  // namespace wf

namespace wf::scene_json {
struct GeometryBuilder;

// The scene tables a glTF file's materials join: the file's texture ids (PbrParams) and
// image ids (TextureBinding) index its own lists, so they are offset by what the scene
// held before.
struct GltfMaterialTables {
    std::vector<Material>& materials;
    std::vector<std::string>& names;
    std::vector<HostTextureImage>& texture_images;
    std::vector<TextureBinding>& texture_bindings;
};

// Appends the materials of `gltf` (named "<name> (<label>)" when `label` is not empty),
// with their textures, to `tables`; returns the scene id of the file's material 0. The
// file's material, image and binding lists are moved out.
uint32_t append_gltf_materials(GltfScene& gltf, const std::string& label, const GltfMaterialTables& tables);

// glTF's default material, for primitives that name none: white, metallic 1, roughness 1.
Material gltf_default_material();
inline constexpr const char* kGltfDefaultMaterialName = "glTF default material";

// A glTF file rendered on its own: its meshes placed with their materials (the glTF
// default material where a primitive names none: white, metallic 1, roughness 1), its
// emissive materials as area lights, its textures, lights and cameras (the first one
// becomes the scene's camera); returns whether the file gave one (else the caller frames the
// scene). Warnings go to `warnings`.
bool adopt_gltf_scene(const std::string& path, GltfScene gltf, HostScene& scene, GeometryBuilder& geometry,
                      std::vector<std::string>& warnings);
}  // namespace wf::scene_json
