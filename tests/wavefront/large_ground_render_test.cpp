// A lit ground far larger than what the camera looks at, rendered end to end:
// every pixel that sees it has the analytic radiance rho / pi * E * cos(theta),
// at every scale the scene loader accepts. (Before the double-precision
// fallback of accel/plane_hit.h, the foreground rendered black from 1e6 up.)
#include <gtest/gtest.h>

#include <cmath>

#include "tests/common/analytic_checks.h"
#include "tests/common/analytic_scenes.h"

namespace wf {
namespace {

class LitGround : public ::testing::TestWithParam<float> {};

TEST_P(LitGround, EveryGroundPixelHasTheAnalyticRadiance) {
    const float s = GetParam(), rho = 0.5f, e = 2.0f;
    const Vec3f to_ground(0.3f, -1.0f, 0.2f);
    HostScene scene = test::lit_ground_scene(s, rho, e, to_ground, 32);
    const float expected = rho / 3.14159265f * e * (1.0f / length(to_ground));
    RenderResult r = test::render_with(scene, BackendKind::Cpu, 4, 4);
    // The bottom half of the image looks at the ground, 1 to 4 units away.
    int wrong = 0;
    for (uint32_t y = 16; y < 32; ++y)
        for (uint32_t x = 0; x < 32; ++x) {
            const float v = r.image.at(x, y).x;
            if (!(std::fabs(v - expected) <= 1e-3f * expected)) {
                if (wrong++ < 3) ADD_FAILURE() << "S = " << s << ": pixel " << x << ", " << y << " = " << v
                                               << ", expected " << expected;
            }
        }
    EXPECT_EQ(wrong, 0) << "S = " << s;
}

INSTANTIATE_TEST_SUITE_P(Scales, LitGround, ::testing::Values(1e2f, 1e6f, 1e9f),
                         [](const ::testing::TestParamInfo<float>& info) {
                             return "S1e" + std::to_string(int(std::lround(std::log10(info.param))));
                         });

}  // namespace
}  // namespace wf
