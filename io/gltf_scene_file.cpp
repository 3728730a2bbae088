// A glTF file's tables joining a scene's (append_gltf_materials), and the file rendered
// on its own (adopt_gltf_scene). A JSON scene's "gltf" shapes: io/scene_gltf_shape.cpp.
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>

#include "io/gltf_scene.h"
#include "io/mesh_placement.h"
#include "io/scene_loader.h"
#include "io/scene_shapes.h"

namespace wf::scene_json {
namespace {

// Every texture id of PbrParams. The static_assert keeps the list in step with the
// struct: the ids are its last members, contiguous, so a texture added after them or
// among them changes the sizes compared.
constexpr int32_t PbrParams::*kTextureIds[] = {
    &PbrParams::base_color_texture,     &PbrParams::metallic_roughness_texture, &PbrParams::normal_texture,
    &PbrParams::emissive_texture,       &PbrParams::transmission_texture,       &PbrParams::specular_texture,
    &PbrParams::specular_color_texture, &PbrParams::clearcoat_texture,          &PbrParams::clearcoat_roughness_texture,
    &PbrParams::sheen_color_texture,    &PbrParams::sheen_roughness_texture,    &PbrParams::clearcoat_normal_texture};
static_assert(offsetof(PbrParams, clearcoat_normal_texture) + sizeof(int32_t) == sizeof(PbrParams) &&
                  offsetof(PbrParams, clearcoat_normal_texture) - offsetof(PbrParams, base_color_texture) ==
                      (std::size(kTextureIds) - 1) * sizeof(int32_t),
              "a texture id was added to PbrParams: list it in kTextureIds");

}  // namespace

Material gltf_default_material() {
    Material m;
    m.type = MaterialType::GltfPbr;
    m.ior = 1.5f;
    m.two_sided = 0;
    return m;
}

uint32_t append_gltf_materials(GltfScene& gltf, const std::string& label, const GltfMaterialTables& tables) {
    const uint32_t first = uint32_t(tables.materials.size());
    const int32_t binding_offset = int32_t(tables.texture_bindings.size());
    const uint32_t image_offset = uint32_t(tables.texture_images.size());
    for (size_t i = 0; i < gltf.materials.size(); ++i) {
        Material m = gltf.materials[i];
        for (int32_t PbrParams::*id : kTextureIds)
            if (m.pbr.*id >= 0) m.pbr.*id += binding_offset;
        tables.materials.push_back(m);
        tables.names.push_back(label.empty() ? gltf.material_names[i] : gltf.material_names[i] + " (" + label + ")");
    }
    for (TextureBinding& b : gltf.texture_bindings) {
        b.image += image_offset;
        tables.texture_bindings.push_back(b);
    }
    std::move(gltf.texture_images.begin(), gltf.texture_images.end(), std::back_inserter(tables.texture_images));
    gltf.materials.clear();
    gltf.material_names.clear();
    gltf.texture_bindings.clear();
    gltf.texture_images.clear();
    return first;
}

bool adopt_gltf_scene(const std::string& path, GltfScene gltf, HostScene& scene, GeometryBuilder& geometry,
                      std::vector<std::string>& warnings) {
    // Material 0 of the scene is glTF's default material; file material k is k + 1.
    scene.materials.assign(1, gltf_default_material());
    scene.material_names.assign(1, kGltfDefaultMaterialName);
    scene.texture_images.clear();
    scene.texture_bindings.clear();
    const std::vector<Vec3f> emission = gltf.material_emission;
    const uint32_t first = append_gltf_materials(
        gltf, "", GltfMaterialTables{scene.materials, scene.material_names, scene.texture_images, scene.texture_bindings});
    for (IndexedMesh& m : gltf.meshes) {
        ShapeCommon sc;
        if (m.file_material >= 0) {
            sc.material = first + uint32_t(m.file_material);
            sc.emission = emission[size_t(m.file_material)];
            // The appended material's id, already offset into the scene's bindings.
            sc.emissive_texture = scene.materials[sc.material].pbr.emissive_texture;
        }
        place_mesh(MeshPlace{path, "", ""}, std::move(m), Affine3(), sc, geometry);
    }
    scene.lights.insert(scene.lights.end(), gltf.lights.begin(), gltf.lights.end());
    warnings.insert(warnings.end(), gltf.warnings.begin(), gltf.warnings.end());
    if (gltf.cameras.empty()) return false;
    scene.file_cameras = std::move(gltf.cameras);
    wf::use_file_camera(scene, 0);
    return true;
}

}  // namespace wf::scene_json

namespace wf {

void use_file_camera(HostScene& scene, uint32_t index) {
    const NamedCamera& c = scene.file_cameras.at(index);
    scene.camera = c.desc;
    scene.camera.focus_distance = 1.0f;
    if (c.aspect_ratio > 0.0f) {
        // The film keeps its width; its height follows the camera's aspect ratio.
        const float h = float(scene.settings.width) / c.aspect_ratio;
        scene.settings.height = uint32_t(std::max(1.0f, std::min(h + 0.5f, float(kMaxFilmSide))));
    }
}

}  // namespace wf
