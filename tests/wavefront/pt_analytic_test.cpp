#include "tests/common/analytic_checks.h"

namespace wf {

TEST(PathTracerCpu, WhiteFurnaceSphereShowsItsAlbedo) { test::check_white_furnace(BackendKind::Cpu); }
TEST(PathTracerCpu, ClosedSphereConvergesToLeOverOneMinusRho) {
    // rho^200 is far below float precision: this is the infinite sum Le / (1 - rho).
    test::check_closed_sphere(BackendKind::Cpu, 200);
}
TEST(PathTracerCpu, ClosedSphereTruncatedAtMaxDepth) {
    test::check_closed_sphere(BackendKind::Cpu, 1);
    test::check_closed_sphere(BackendKind::Cpu, 3);
}

TEST(PathTracerCpu, BouncesStopWhenEveryPathHasDied) { test::check_bounces_stop_when_paths_die(BackendKind::Cpu); }

TEST(PathTracerCpu, WaveSizeDoesNotChangeTheImage) { test::check_wave_size_does_not_change_the_image(BackendKind::Cpu); }

}  // namespace wf
