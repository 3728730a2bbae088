#include <algorithm>
#include <string>
#include <utility>

#include "io/gltf_scene.h"
#include "io/mesh_placement.h"
#include "io/scene_loader.h"
#include "io/scene_shapes.h"

namespace wf::scene_json {

bool adopt_gltf_scene(const std::string& path, GltfScene gltf, HostScene& scene, GeometryBuilder& geometry,
                      std::vector<std::string>& warnings) {
    // Material 0 of the scene is glTF's default material; file material k is k + 1.
    Material fallback;
    fallback.type = MaterialType::GltfPbr;
    fallback.ior = 1.5f;
    fallback.two_sided = 0;
    scene.materials.assign(1, fallback);
    scene.material_names.assign(1, "glTF default material");
    for (size_t i = 0; i < gltf.materials.size(); ++i) {
        scene.materials.push_back(gltf.materials[i]);
        scene.material_names.push_back(gltf.material_names[i]);
    }
    scene.texture_images = std::move(gltf.texture_images);
    scene.texture_bindings = std::move(gltf.texture_bindings);
    for (IndexedMesh& m : gltf.meshes) {
        ShapeCommon sc;
        if (m.file_material >= 0) {
            sc.material = uint32_t(m.file_material) + 1;
            sc.emission = gltf.material_emission[size_t(m.file_material)];
            sc.emissive_texture = gltf.materials[size_t(m.file_material)].pbr.emissive_texture;
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
