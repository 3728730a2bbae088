// glTF emissiveTexture on the CUDA backend: the closed forms of
// tests/common/emissive_texture_checks.h (as tests/wavefront/gltf_emissive_texture_test.cpp
// on the CPU), and one seed of pt on both backends giving the same image (the texture
// read on the device at hits, next-event samples and, for the light-selection power, on
// the 16 points of each light).
#include "tests/common/emissive_texture_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

using test::AnalyticRun;

TEST(GltfEmissiveTextureCuda, SeenDirectlyEachPixelIsFactorTimesItsDecodedTexel) {
    WF_REQUIRE_CUDA_DEVICE();
    for (const char* integrator : {"pt", "bpt", "vcm"}) test::check_emissive_texture_seen_directly(BackendKind::Cuda, integrator);
}

TEST(GltfEmissiveTextureCuda, EveryIntegratorLightsTheFloorAsLambertsFormulaOverTheTexels) {
    WF_REQUIRE_CUDA_DEVICE();
    for (const AnalyticRun& run : test::emissive_texture_floor_runs()) test::check_emissive_texture_lights_the_floor(BackendKind::Cuda, run);
}

TEST(GltfEmissiveTextureCuda, PtGivesTheCpuImage) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::EmissiveTextureScene::make("cpu_gpu", Vec3f(0.25f, 0.15f, 0.8f), false, 70.0f);
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 64;
    o.settings.spp = 4;
    o.settings.max_depth = 4;
    o.settings.seed = 7;
    o.settings.integrator = "pt";
    test::expect_cpu_gpu_agree(scene, o, "emissive texture, pt", 0.01);
}

}  // namespace
}  // namespace wf
