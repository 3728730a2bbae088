// CPU vs GPU on textured glTF files: the same seed and settings give the same image
// (as tests/gpu/cpu_gpu_agreement_test.cpp explains: nearly every pixel equal to float
// tolerance, the means equal). The textures, their samplers and transforms, vertex
// attributes, alpha and emission all take the same path on both backends.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/render.h"
#include "io/image_metrics.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/io/gltf_test_files.h"

namespace wf {

namespace {

// A written file of what the sample models lack: vertex colours (COLOR_0), a second UV
// set, a BLEND and a MASK cover with a textured alpha, a normal map, in front of a
// textured emitter, under a point light.
std::string alpha_and_attributes_file() {
    using nlohmann::json;
    test::GltfDoc d;
    d.primitive()["attributes"]["COLOR_0"] = d.floats({1, 0.2f, 0.2f, 1, 0.2f, 1, 0.2f, 1, 0.2f, 0.2f, 1, 1, 1, 1, 1, 1}, "VEC4");
    d.primitive()["attributes"]["TEXCOORD_1"] = d.floats({0, 0, 2, 0, 2, 2, 0, 2}, "VEC2");
    std::vector<uint8_t> texels;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const bool on = (x + y) % 2 == 0;
            texels.insert(texels.end(), {uint8_t(on ? 250 : 40), uint8_t(30 * x), uint8_t(30 * y), uint8_t(on ? 255 : 90)});
        }
    const int image = d.image(test::png_rgba(8, 8, texels));
    d.g["samplers"] = json::array({{{"wrapS", 33648}, {"wrapT", 33071}, {"magFilter", 9728}}});
    const int tex = d.texture(image, 0);
    const int emitter = d.material({{"emissiveFactor", {2, 2, 2}},
                                    {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}, {"texCoord", 1}}}}}});
    const int blend = d.material({{"alphaMode", "BLEND"},
                                  {"normalTexture", {{"index", tex}, {"scale", 0.7}}},
                                  {"pbrMetallicRoughness",
                                   {{"baseColorTexture", {{"index", tex}}}, {"metallicFactor", 0.2}, {"roughnessFactor", 0.4}}}});
    const int mask = d.material({{"alphaMode", "MASK"},
                                 {"alphaCutoff", 0.4},
                                 {"doubleSided", true},
                                 {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}, {"metallicFactor", 0}}}});
    d.primitive()["material"] = emitter;
    for (int m : {blend, mask}) {
        d.g["meshes"].push_back(d.g["meshes"][0]);
        d.g["meshes"].back()["primitives"][0]["material"] = m;
    }
    d.g["nodes"][0]["translation"] = {-0.5, -0.5, -1};
    d.g["nodes"].push_back({{"mesh", 1}, {"translation", {-0.9, -0.5, 0}}});
    d.g["nodes"].push_back({{"mesh", 2}, {"translation", {-0.1, -0.5, 0.3}}});
    d.g["extensions"]["KHR_lights_punctual"]["lights"] = json::array({{{"type", "point"}, {"intensity", 3.0}}});
    d.g["nodes"].push_back({{"translation", {0, 1, 2}}, {"extensions", {{"KHR_lights_punctual", {{"light", 0}}}}}});
    d.g["cameras"] = json::array({{{"type", "perspective"}, {"perspective", {{"yfov", 0.8}, {"znear", 0.01}}}}});
    d.g["nodes"].push_back({{"camera", 0}, {"translation", {0, 0, 3}}});
    d.g["scenes"][0]["nodes"] = {0, 1, 2, 3, 4};
    d.g["extensionsUsed"] = {"KHR_lights_punctual"};
    return d.write("alpha_attributes.gltf", "wf_gltf_cuda");
}

}  // namespace

TEST(GltfCpuGpuAgreement, TexturedModelsGiveTheSameImage) {
    WF_REQUIRE_CUDA_DEVICE();
    const std::string written = alpha_and_attributes_file();
    for (const std::string file : {"TextureCoordinateTest/TextureCoordinateTest.glb", "TextureTransformTest/TextureTransformTest.gltf",
                                   "TextureSettingsTest/TextureSettingsTest.glb", "EmissiveStrengthTest/EmissiveStrengthTest.glb",
                                   "OrientationTest/OrientationTest.glb", ""}) {
        HostScene scene = load_scene(file.empty() ? written : test::source_dir() + "/tests/data/gltf/" + file);
        RenderOptions o;
        o.settings = scene.settings;
        o.settings.width = o.settings.height = 96;
        o.settings.spp = 4;
        o.settings.seed = 7;
        test::expect_cpu_gpu_agree(scene, o, file.empty() ? "alpha_attributes.gltf" : file, 0.01);
    }
}

}  // namespace wf
