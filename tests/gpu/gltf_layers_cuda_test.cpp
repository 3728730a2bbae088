// CPU vs GPU on the glTF layers and volumes (KHR_materials_clearcoat, KHR_materials_sheen
// with textures, KHR_materials_volume's absorption): the same seed and settings give the
// same image (tests/gpu/cpu_gpu_agreement_test.cpp explains the tolerance). The sheen's
// albedo table lives in constant memory on the device and in host memory on the CPU:
// this is the test that the two copies are read alike.
#include <string>
#include <vector>

#include "app/render.h"
#include "io/scene_loader.h"
#include "tests/common/gltf_volume_scenes.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/io/gltf_test_files.h"

namespace wf {

namespace {

// Three squares side by side, lit by a point light and the default environment: a clear
// coat over a red plastic (coat factor and roughness from a texture), a textured sheen over
// a dark metal, and a smooth clear coat over a rough gold.
std::string layered_squares_file() {
    using nlohmann::json;
    test::GltfDoc d;
    std::vector<uint8_t> texels;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) texels.insert(texels.end(), {uint8_t(32 * x), uint8_t(255 - 30 * y), uint8_t(200), uint8_t(40 + 25 * y)});
    const int tex = d.texture(d.image(test::png_rgba(8, 8, texels)));
    const int coat = d.material(
        {{"pbrMetallicRoughness", {{"baseColorFactor", {0.8, 0.1, 0.1, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 0.6}}},
         {"extensions",
          {{"KHR_materials_clearcoat",
            {{"clearcoatFactor", 1.0},
             {"clearcoatRoughnessFactor", 0.4},
             {"clearcoatTexture", {{"index", tex}}},
             {"clearcoatRoughnessTexture", {{"index", tex}}}}}}}});
    const int sheen = d.material(
        {{"pbrMetallicRoughness", {{"baseColorFactor", {0.2, 0.2, 0.3, 1}}, {"metallicFactor", 1}, {"roughnessFactor", 0.5}}},
         {"extensions",
          {{"KHR_materials_sheen",
            {{"sheenColorFactor", {1.0, 0.8, 0.9}},
             {"sheenRoughnessFactor", 0.6},
             {"sheenColorTexture", {{"index", tex}}},
             {"sheenRoughnessTexture", {{"index", tex}}}}}}}});
    const int gold = d.material(
        {{"pbrMetallicRoughness", {{"baseColorFactor", {1.0, 0.8, 0.3, 1}}, {"metallicFactor", 1}, {"roughnessFactor", 0.7}}},
         {"extensions", {{"KHR_materials_clearcoat", {{"clearcoatFactor", 0.9}}}}}});
    d.primitive()["material"] = coat;
    for (int m : {sheen, gold}) {
        d.g["meshes"].push_back(d.g["meshes"][0]);
        d.g["meshes"].back()["primitives"][0]["material"] = m;
    }
    d.g["nodes"][0]["translation"] = {-1.6, -0.5, 0};
    d.g["nodes"].push_back({{"mesh", 1}, {"translation", {-0.5, -0.5, 0}}, {"rotation", {-0.2, 0, 0, 0.98}}});
    d.g["nodes"].push_back({{"mesh", 2}, {"translation", {0.6, -0.5, 0}}});
    d.g["extensions"]["KHR_lights_punctual"]["lights"] = json::array({{{"type", "point"}, {"intensity", 4.0}}});
    d.g["nodes"].push_back({{"translation", {0.5, 1, 1.5}}, {"extensions", {{"KHR_lights_punctual", {{"light", 0}}}}}});
    d.g["cameras"] = json::array({{{"type", "perspective"}, {"perspective", {{"yfov", 0.9}, {"znear", 0.01}}}}});
    d.g["nodes"].push_back({{"camera", 0}, {"translation", {0, 0.3, 3}}});
    d.g["scenes"][0]["nodes"] = {0, 1, 2, 3, 4};
    d.g["extensionsUsed"] = {"KHR_lights_punctual", "KHR_materials_clearcoat", "KHR_materials_sheen"};
    return d.write("layered_squares.gltf", "wf_gltf_layers_cuda");
}

}  // namespace

TEST(GltfLayersCpuGpuAgreement, ClearcoatAndSheenGiveTheSameImage) {
    WF_REQUIRE_CUDA_DEVICE();
    HostScene scene = load_scene(layered_squares_file());
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 96;
    o.settings.spp = 4;
    o.settings.seed = 11;
    test::expect_cpu_gpu_agree(scene, o, "layered_squares.gltf", 0.01);
}

TEST(GltfLayersCpuGpuAgreement, AbsorbingVolumeGivesTheSameImage) {
    WF_REQUIRE_CUDA_DEVICE();
    // Wider than the CPU test's view, so that the silhouette, chords of every length and
    // the environment around are all in the image.
    HostScene scene = test::absorbing_sphere_scene(test::absorption_of(Vec3f(0.3f, 0.6f, 0.9f), 1.0f), 1.0f, 0.0f,
                                                   Vec3f(1.0f, 1.2f, 1.4f), 64);
    scene.camera.fov_y_degrees = 35.0f;
    scene.materials[0].pbr.roughness = 0.3f;  // a rough interface: next-event estimation inside the volume too
    scene.materials[0].ior = 1.4f;
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.spp = 4;
    o.settings.seed = 5;
    o.settings.integrator = "pt";
    test::expect_cpu_gpu_agree(scene, o, "absorbing sphere", 0.01);
}

}  // namespace wf
