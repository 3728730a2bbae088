// The reverse walk's Russian roulette on the GPU: bpt and vcm agree with pt on a dark
// rough glTF rectangle seen at grazing angles (tests/wavefront/gltf_grazing_test.cpp is the
// CPU version and says why).
#include <gtest/gtest.h>

#include "tests/gpu/gpu_test_support.h"
#include "tests/wavefront/gltf_grazing_scene.h"

namespace wf {
namespace {

TEST(GltfGrazingCuda, ReverseWalksTakeTheirOwnRussianRoulette) {
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_grazing_plane_agrees_with_pt(BackendKind::Cuda);
}

}  // namespace
}  // namespace wf
