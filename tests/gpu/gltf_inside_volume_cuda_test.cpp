// A glTF volume whose Lambert base reflects inside it, on the device
// (tests/wavefront/gltf_inside_volume_test.cpp says what the scenes show): at max length 3
// every estimator against the reference written from GltfBsdf::evaluate(), and at depth 6
// the bidirectional family against pt, rendered with CUDA (GltfBsdf compiled by nvcc).
#include "tests/gpu/gpu_test_support.h"
#include "tests/wavefront/gltf_inside_volume_scenes.h"

namespace wf {
namespace {

TEST(GltfInsideVolumeCuda, CameraInsideShortPathsMatchEvaluateReference) {
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_short_paths_match_reference(test::half_lambert_cube_scene(true), BackendKind::Cuda,
                                             "camera and light in half-Lambert cube (CUDA)");
}

TEST(GltfInsideVolumeCuda, CameraOutsideShortPathsMatchEvaluateReference) {
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_short_paths_match_reference(test::half_lambert_cube_scene(false), BackendKind::Cuda,
                                             "light in half-Lambert cube, camera outside (CUDA)");
}

TEST(GltfInsideVolumeCuda, AllEstimatorsAgreeWithPt) {
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_estimators_agree_with_pt(test::half_lambert_cube_scene(true), BackendKind::Cuda,
                                          "camera and light in half-Lambert cube (CUDA)");
    test::expect_estimators_agree_with_pt(test::half_lambert_cube_scene(false), BackendKind::Cuda,
                                          "light in half-Lambert cube, camera outside (CUDA)");
}

}  // namespace
}  // namespace wf
