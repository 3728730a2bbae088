// The lit-ground check of tests/wavefront/large_ground_render_test.cpp on the
// CUDA backend, whose double-precision fallback runs on the device.
#include <gtest/gtest.h>

#include "tests/common/analytic_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

class LitGroundCuda : public ::testing::TestWithParam<float> {};

TEST_P(LitGroundCuda, EveryGroundPixelHasTheAnalyticRadiance) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_lit_ground(BackendKind::Cuda, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Scales, LitGroundCuda, ::testing::Values(1e2f, 1e6f, 1e9f), test::power_of_ten_name);

}  // namespace
}  // namespace wf
