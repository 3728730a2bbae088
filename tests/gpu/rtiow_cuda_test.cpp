// The checks of tests/wavefront/rtiow_render_test.cpp on the CUDA backend.
#include <gtest/gtest.h>

#include "tests/common/rtiow_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

TEST(RtiowRenderCuda, DiffuseLobesUnderGradientSky) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_diffuse_under_gradient_sky(BackendKind::Cuda);
}

TEST(RtiowRenderCuda, FuzzyMetalUnderGradientSky) {
    WF_REQUIRE_CUDA_DEVICE();
    for (float fuzz : {0.05f, 0.4f, 1.0f}) test::check_metal_under_gradient_sky(BackendKind::Cuda, fuzz);
}

TEST(RtiowRenderCuda, FinalSceneMatchesTheBooksCudaRenderer) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_rtiow_final_scene(BackendKind::Cuda, 256);
}

}  // namespace
}  // namespace wf
