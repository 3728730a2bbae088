// The lit-ground scene of tests/wavefront/light_selection_test.cpp on the CUDA backend,
// with 4x the iterations: the light-selection distribution is built on the device (a
// scan of the lights' powers), and every integrator must reach the closed form with it.
// Skips without a device.
#include "tests/common/light_selection_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

using test::AnalyticRun;

TEST(LightSelectionLitGroundCuda, EveryIntegratorReachesTheClosedForm) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_lit_ground(BackendKind::Cuda, AnalyticRun{"pt", 256, 32, 0, 0.0f, 0.0015});
    test::check_lit_ground(BackendKind::Cuda, AnalyticRun{"pt", 256, 32, 0, 0.0f, 0.0015}, "uniform");
    test::check_lit_ground(BackendKind::Cuda, AnalyticRun{"lt", 512, 32, 0, 0.0f, 0.006});
    test::check_lit_ground(BackendKind::Cuda, AnalyticRun{"bpt", 192, 32, 0, 0.0f, 0.0015});
    test::check_lit_ground(BackendKind::Cuda, AnalyticRun{"vcm", 192, 32, 0, 0.01f, 0.0015});
    test::check_lit_ground(BackendKind::Cuda, AnalyticRun{"bpm", 256, 32, 4096, 0.01f, 0.006});
}

}  // namespace
}  // namespace wf
