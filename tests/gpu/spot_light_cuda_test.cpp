// Spot lights on the CUDA backend: the closed form over a diffuse ground, and the same
// image as the CPU backend for every integrator on the spot-lit SmallVCM box. They skip
// without a device.
#include "tests/common/analytic_checks.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

TEST(SpotLightCuda, PtGroundMatchesClosedFormInsideRingAndOutsideTheCone) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_spot_lit_ground(BackendKind::Cuda, 256);
}

TEST(SpotLightCuda, EveryIntegratorGivesTheCpuImage) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::spot_lit_smallvcm_box();
    for (const char* integrator : {"pt", "lt", "bpt", "vcm", "bpm", "ppm"}) {
        RenderOptions o;
        o.settings = scene.settings;
        o.settings.width = o.settings.height = 96;
        o.settings.integrator = integrator;
        o.settings.spp = 4;
        o.settings.seed = 7;
        o.settings.radius_factor = 0.012f;
        test::expect_cpu_gpu_agree(scene, o, std::string("spot-lit s2, ") + integrator, 0.02);
    }
}

}  // namespace
}  // namespace wf
