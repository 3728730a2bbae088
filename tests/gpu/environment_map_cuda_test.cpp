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
        o.backend = BackendKind::Cpu;
        Image cpu = render(scene, o).image;
        o.backend = BackendKind::Cuda;
        Image gpu = render(scene, o).image;
        size_t differing = 0;
        for (size_t i = 0; i < cpu.pixels.size(); ++i)
            for (int c = 0; c < 3; ++c) {
                float x = cpu.pixels[i][c], y = gpu.pixels[i][c];
                if (std::fabs(x - y) > 1e-4f * std::fmax(1.0f, std::fabs(x))) {
                    ++differing;
                    break;
                }
            }
        EXPECT_LT(double(differing) / cpu.pixels.size(), 0.02) << integrator << ": " << differing << " pixels differ";
        Vec3f mc = channel_mean(cpu), mg = channel_mean(gpu);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(mc[c], mg[c], 0.01 * std::fmax(mc[c], 1e-3f)) << integrator;
        std::printf("%s: %zu of %zu pixels differ beyond 1e-4 relative\n", integrator, differing, cpu.pixels.size());
    }
}

}  // namespace wf
