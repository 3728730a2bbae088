// Spot lights on the CUDA backend: the closed form over a diffuse ground, and the CPU's
// images on the spot-lit SmallVCM box: pt with one seed (test::expect_cpu_gpu_agree), the
// bidirectional family statistically, since the GPU splats with atomics (see
// BidirectionalCpuGpuAgreement in bidirectional_cuda_test.cpp). They skip without a device.
#include "tests/common/analytic_checks.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

TEST(SpotLightCuda, PtGroundMatchesClosedFormInsideRingAndOutsideTheCone) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_spot_lit_ground(BackendKind::Cuda, 256);
}

TEST(SpotLightCpuGpuAgreement, PtGivesTheCpuImage) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::spot_lit_smallvcm_box();
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 96;
    o.settings.integrator = "pt";
    o.settings.spp = 4;
    o.settings.seed = 7;
    test::expect_cpu_gpu_agree(scene, o, "spot-lit s2, pt", 0.01);
}

// CPU seeds 1 and 2 against GPU seeds 3 and 4, as two estimators of one image: channel
// means within 1.5% (the CPU test's tolerance for this scene) and per-pixel differences
// within the noise of both.
TEST(SpotLightCpuGpuAgreement, BidirectionalFamilyAgreesStatistically) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::spot_lit_smallvcm_box();
    test::AgreementOptions opt;
    opt.size = 64;
    opt.mean_tolerance = 0.015;
    for (const char* integrator : {"lt", "bpt", "vcm", "bpm", "ppm"}) {
        const uint32_t light_paths = 4096;
        test::EstimatorSpec cpu{integrator, BackendKind::Cpu, 32, light_paths, 0.012f};
        test::EstimatorSpec gpu{integrator, BackendKind::Cuda, 32, light_paths, 0.012f};
        test::check_estimators_agree(scene, cpu, {gpu}, opt, {}, std::string("spot-lit s2 CPU vs GPU, ") + integrator);
    }
}

}  // namespace
}  // namespace wf
