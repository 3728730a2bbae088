// The lit-ground check of tests/wavefront/large_ground_render_test.cpp on the
// CUDA backend, whose double-precision fallback runs on the device.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/common/analytic_checks.h"
#include "tests/common/analytic_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

class LitGroundCuda : public ::testing::TestWithParam<float> {};

TEST_P(LitGroundCuda, EveryGroundPixelHasTheAnalyticRadiance) {
    WF_REQUIRE_CUDA_DEVICE();
    const float s = GetParam(), rho = 0.5f, e = 2.0f;
    const Vec3f to_ground(0.3f, -1.0f, 0.2f);
    HostScene scene = test::lit_ground_scene(s, rho, e, to_ground, 32);
    const float expected = rho / 3.14159265f * e * (1.0f / length(to_ground));
    RenderResult r = test::render_with(scene, BackendKind::Cuda, 4, 4);
    int wrong = 0;
    for (uint32_t y = 16; y < 32; ++y)
        for (uint32_t x = 0; x < 32; ++x)
            wrong += !(std::fabs(r.image.at(x, y).x - expected) <= 1e-3f * expected);
    EXPECT_EQ(wrong, 0) << "S = " << s << ": of 512 ground pixels";
}

INSTANTIATE_TEST_SUITE_P(Scales, LitGroundCuda, ::testing::Values(1e2f, 1e6f, 1e9f),
                         [](const ::testing::TestParamInfo<float>& info) {
                             return "S1e" + std::to_string(int(std::lround(std::log10(info.param))));
                         });

}  // namespace
}  // namespace wf
