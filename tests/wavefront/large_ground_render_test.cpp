// A lit ground far larger than what the camera looks at, rendered end to end:
// every pixel that sees it has the analytic radiance rho / pi * E * cos(theta),
// at every scale the scene loader accepts. (Before the double-precision
// fallback of accel/plane_hit.h, the foreground rendered black from 1e6 up.)
#include <gtest/gtest.h>

#include "tests/common/analytic_checks.h"

namespace wf {
namespace {

class LitGround : public ::testing::TestWithParam<float> {};

TEST_P(LitGround, EveryGroundPixelHasTheAnalyticRadiance) { test::check_lit_ground(BackendKind::Cpu, GetParam()); }

INSTANTIATE_TEST_SUITE_P(Scales, LitGround, ::testing::Values(1e2f, 1e6f, 1e9f), test::power_of_ten_name);

}  // namespace
}  // namespace wf
