// Spot lights rendered: pt against the closed form over a diffuse ground, and the
// bidirectional family against pt on a box lit by a spot (indirect light included).
#include "tests/common/analytic_checks.h"
#include "tests/common/bidirectional_checks.h"

namespace wf {
namespace {

TEST(SpotLightCpu, PtGroundMatchesClosedFormInsideRingAndOutsideTheCone) {  // ~0.3 s
    test::check_spot_lit_ground(BackendKind::Cpu, 64);
}

using test::AgreementOptions;
using test::EstimatorSpec;

EstimatorSpec spec(const char* integrator, uint32_t spp, uint32_t light_paths, float radius_factor = 0.012f) {
    return EstimatorSpec{integrator, BackendKind::Cpu, spp, light_paths, radius_factor};
}

// Every estimator samples every path of the spot-lit SmallVCM box with diffuse balls (no
// specular surface); pt is the reference the others must agree with, per pixel within
// their noise and in the channel means within 1.5%.
TEST(SpotLightCpu, LtBptVcmAgreeWithPtOnSpotLitBox) {  // ~10 s
    HostScene scene = test::spot_lit_smallvcm_box();
    AgreementOptions opt;
    opt.size = 64;
    opt.mean_tolerance = 0.015;
    test::check_estimators_agree(scene, spec("pt", 128, 0),
                                 {spec("lt", 64, 4096), spec("bpt", 32, 4096), spec("vcm", 32, 4096)}, opt, {},
                                 "spot-lit s2 diffuse balls");
}

}  // namespace
}  // namespace wf
