// Coverage-scaled glTF emission on the GPU: the floor under an emissive square of
// coverage a is a times the floor under the fully covered one, for pt, lt, bpt and vcm
// (tests/wavefront/gltf_emission_coverage_test.cpp is the CPU version and says why).
#include <gtest/gtest.h>

#include "tests/gpu/gpu_test_support.h"
#include "tests/wavefront/gltf_emission_coverage_scene.h"

namespace wf {
namespace {

TEST(GltfEmissionCoverageCuda, AnEmitterOfCoverageALightsAFloorATimesAsMuch) {
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_floor_ratio_is_coverage_for_every_estimator(BackendKind::Cuda);
}

TEST(GltfEmissionCoverageCuda, TheFloorUnderAnOpaqueEmitterHasItsClosedFormRadiance) {
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_floor_radiance_is_analytic_for_every_estimator(BackendKind::Cuda);
}

}  // namespace
}  // namespace wf
