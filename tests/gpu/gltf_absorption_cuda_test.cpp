// glTF volume absorption on the device (tests/wavefront/gltf_absorption_test.cpp says what
// the scenes show): every estimator of the bidirectional family agrees with pt on CUDA,
// and one seed gives nearly the same image on the CPU and the GPU for each (the glTF
// instantiation's absorption of sub-path segments, shadow rays and connections compiled by nvcc).
#include <cstdio>
#include <vector>

#include "tests/gpu/gpu_test_support.h"
#include "tests/wavefront/gltf_absorption_scenes.h"

namespace wf {
namespace {

TEST(GltfAbsorptionCuda, CubeOnFloorAllEstimatorsAgreeWithPt) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::cube_on_floor_scene(true);
    const double left =
        test::red_share_left(scene, test::cube_on_floor_scene(false), BackendKind::Cuda, test::cube_pixels(scene));
    std::printf("cube on floor (CUDA): pt's red channel on the cube with absorption %.3f of the clear cube's\n", left);
    EXPECT_LT(left, 0.7);
    test::expect_estimators_agree_with_pt(scene, BackendKind::Cuda, "absorbing cube on floor (CUDA)");
}

TEST(GltfAbsorptionCuda, CameraAndLightInsideCubeAllEstimatorsAgreeWithPt) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::camera_in_cube_scene(true);
    const double left = test::red_share_left(scene, test::camera_in_cube_scene(false), BackendKind::Cuda);
    std::printf("camera in cube (CUDA): pt's red channel with absorption %.3f of the clear cube's\n", left);
    EXPECT_LT(left, 0.2);
    test::expect_estimators_agree_with_pt(scene, BackendKind::Cuda, "camera and light in absorbing cube (CUDA)");
}

TEST(GltfAbsorptionCpuGpuAgreement, EveryEstimatorPerSeed) {
    WF_REQUIRE_CUDA_DEVICE();
    test::AgreementOptions opt;
    opt.size = 32;
    opt.max_depth = test::kAbsorptionMaxDepth;
    std::vector<test::AbsorptionRun> runs = test::kAbsorptionRuns;
    runs.insert(runs.begin(), test::AbsorptionRun{"pt", test::kAbsorptionPtSpp});
    const HostScene scenes[] = {test::cube_on_floor_scene(true), test::camera_in_cube_scene(true)};
    const char* labels[] = {"absorbing cube on floor", "camera and light in absorbing cube"};
    for (int s = 0; s < 2; ++s)
        for (const test::AbsorptionRun& run : runs)
            test::expect_same_seed_agrees(scenes[s], test::absorption_spec(run, BackendKind::Cpu),
                                          test::absorption_spec(run, BackendKind::Cuda), opt, labels[s]);
}

}  // namespace
}  // namespace wf
