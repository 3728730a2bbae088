// Environment maps on the CUDA backend: the distribution built on the device, the same
// closed form as on the CPU, and the same image as the CPU for the same seed.
#include <cmath>
#include <cstdio>

#include "app/render.h"
#include "io/image_metrics.h"
#include "tests/common/environment_map_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {

TEST(EnvironmentMapCuda, BrightPatchLightsSquareAsTheClosedForm) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_bright_patch_lights_square(BackendKind::Cuda, "pt", 64);
    test::check_bright_patch_lights_square(BackendKind::Cuda, "vcm", 16);
}

// The furnace sphere under the sun map (turned and tilted), with pt and vcm: CPU and GPU
// draw the same numbers, so nearly every pixel agrees to float rounding (see
// cpu_gpu_agreement_test.cpp for why not all), and the means agree.
TEST(EnvironmentMapCuda, SameSeedGivesSameImageAsCpu) {
    WF_REQUIRE_CUDA_DEVICE();
    HostScene scene = test::white_furnace_scene(0.7f, 64);
    scene.camera.fov_y_degrees = 70.0f;  // the map around the sphere too
    scene.environment_map = test::sun_and_gradient_map(64, 32);
    scene.environment_map.up = normalize(Vec3f(0.3f, 1.0f, 0.2f));
    scene.environment_map.rotation_degrees = 250.0f;
    for (const char* integrator : {"pt", "vcm"}) {
        RenderOptions o;
        o.settings = scene.settings;
        o.settings.integrator = integrator;
        o.settings.spp = 4;
        o.settings.seed = 5;
        test::expect_cpu_gpu_agree(scene, o, integrator, 0.02);
    }
}

}  // namespace wf
