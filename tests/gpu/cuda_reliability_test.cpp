// The CUDA backend fails clearly instead of crashing: the kernel probe finds that this
// build's GPU code runs on the device, and running out of device memory (a --max-memory
// limit, or the device itself) is an OutOfMemoryError naming the allocation, after
// which the device still renders.
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "app/render.h"
#include "engine/backend/cuda_device.h"
#include "engine/backend/profiler.h"
#include "tests/common/analytic_checks.h"
#include "tests/common/analytic_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

#if defined(WF_HAVE_CUDA)

TEST(CudaKernelProbe, ThisBuildsKernelsRunOnTheDevice) {
    // Only a device is required, not the probe's verdict: a probe that wrongly refuses
    // the device must fail here rather than skip every GPU test.
    std::string error;
    if (cuda_device_count(&error) <= 0) GTEST_SKIP() << "no CUDA device: " << error;
    EXPECT_EQ(cuda_kernel_problem(), "");
    EXPECT_NE(cuda_build_architectures().find("sm_"), std::string::npos) << cuda_build_architectures();
    const std::vector<std::string> devices = cuda_device_descriptions();
    ASSERT_FALSE(devices.empty());
    EXPECT_NE(devices[0].find("runs this build's kernels"), std::string::npos) << devices[0];
    const BackendChoice automatic = choose_backend(BackendKind::Auto);
    EXPECT_EQ(automatic.kind, BackendKind::Cuda);
    EXPECT_EQ(automatic.warning, "");
    std::printf("GPU code: %s\n%s\n", cuda_build_architectures().c_str(), devices[0].c_str());
}

// Renders with `o`, which must fail with an OutOfMemoryError whose message holds every part.
void expect_out_of_memory(const HostScene& scene, const RenderOptions& o, std::initializer_list<const char*> parts,
                          const char* what_ran) {
    try {
        render(scene, o);
        ADD_FAILURE() << what_ran;
    } catch (const OutOfMemoryError& e) {
        const std::string what = e.what();
        for (const char* part : parts) EXPECT_NE(what.find(part), std::string::npos) << part << "\n" << what;
        std::printf("%s\n", what.c_str());
    }
}

TEST(CudaMemory, ALimitTheRenderCannotMeetIsAClearError) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::white_furnace_scene(0.5f, 64);
    RenderOptions o = test::options_for(scene, BackendKind::Cuda, 16);
    o.max_memory_bytes = 1u << 20;
    expect_out_of_memory(scene, o,
                         {"out of memory on the cuda backend: allocating ", " x ", "would exceed the memory limit of 1.0 MiB"},
                         "a CUDA render over its memory limit ran");
    const RenderResult after = render(scene, test::options_for(scene, BackendKind::Cuda, 16));
    EXPECT_EQ(after.backend, "cuda");
    EXPECT_EQ(after.passes, 16u);
}

TEST(CudaMemory, RunningOutOfDeviceMemoryIsAClearErrorAndTheDeviceStillRenders) {
    WF_REQUIRE_CUDA_DEVICE();
    HostScene scene = test::white_furnace_scene(0.5f, 1024);
    RenderOptions o = test::options_for(scene, BackendKind::Cuda, 4096);
    // 2^31 camera paths of ~100 bytes of state each: about 200 GiB, more than any GPU has.
    o.max_wave_paths = 1u << 31;
    expect_out_of_memory(scene, o,
                         {"out of memory on the cuda backend: allocating ", " GiB (2147483648 x ", "failed: the GPU has "},
                         "a render needing ~200 GiB of path state ran");
    const HostScene small = test::white_furnace_scene(0.5f, 32);
    const RenderResult after = render(small, test::options_for(small, BackendKind::Cuda, 8));
    EXPECT_EQ(after.backend, "cuda");
    EXPECT_EQ(after.passes, 8u);
    EXPECT_EQ(after.stats.nonfinite_samples, 0u);
}

#else
TEST(CudaKernelProbe, Unavailable) { GTEST_SKIP() << "this build has no CUDA backend"; }
#endif

}  // namespace
}  // namespace wf
