#include "tests/common/analytic_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {

TEST(PathTracerCuda, WhiteFurnaceSphereShowsItsAlbedo) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_white_furnace(BackendKind::Cuda);
}
TEST(PathTracerCuda, ClosedSphereConvergesToLeOverOneMinusRho) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_closed_sphere(BackendKind::Cuda, 200);
}
TEST(PathTracerCuda, ClosedSphereTruncatedAtMaxDepth) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_closed_sphere(BackendKind::Cuda, 1);
    test::check_closed_sphere(BackendKind::Cuda, 3);
}

TEST(PathTracerCuda, BouncesStopWhenEveryPathHasDied) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_bounces_stop_when_paths_die(BackendKind::Cuda);
}

TEST(PathTracerCuda, WaveSizeDoesNotChangeTheImage) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_wave_size_does_not_change_the_image(BackendKind::Cuda);
}

}  // namespace wf
