// CPU vs GPU: the same scene, seed and settings give the same image. Both
// backends draw the same random numbers for each path vertex; they differ only
// in float rounding (nvcc fuses multiply-adds, g++ does not), which can flip a
// rare discrete decision (lobe choice, roulette) and change that one sample.
// So: nearly all pixels equal to float tolerance, and image means equal.
#include <cmath>

#include "app/render.h"
#include "io/image_metrics.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {

TEST(CpuGpuAgreement, SameSeedGivesSameImage) {
    WF_REQUIRE_CUDA_DEVICE();
    for (const char* file : {"scenes/smallvcm/s1-area.json", "scenes/smallvcm/s3-background.json",
                             "scenes/cornell-box.json"}) {
        HostScene scene = load_scene(test::source_dir() + "/" + file);
        RenderOptions o;
        o.settings = scene.settings;
        o.settings.width = o.settings.height = 96;
        o.settings.spp = 4;
        o.settings.seed = 7;
        o.backend = BackendKind::Cpu;
        Image cpu = render(scene, o).image;
        o.backend = BackendKind::Cuda;
        Image gpu = render(scene, o).image;
        size_t differing = 0;
        for (size_t i = 0; i < cpu.pixels.size(); ++i)
            for (int c = 0; c < 3; ++c) {
                float x = cpu.pixels[i][c], y = gpu.pixels[i][c];
                if (std::fabs(x - y) > 1e-4f * std::fmax(1.0f, std::fabs(x))) { ++differing; break; }
            }
        double fraction = double(differing) / cpu.pixels.size();
        EXPECT_LT(fraction, 0.01) << file << ": " << differing << " of " << cpu.pixels.size() << " pixels differ";
        Vec3f mc = channel_mean(cpu), mg = channel_mean(gpu);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(mc[c], mg[c], 0.01 * std::fmax(mc[c], 1e-3f)) << file;
        std::printf("%s: %zu of %zu pixels differ beyond 1e-4 relative\n", file, differing, cpu.pixels.size());
    }
}

}  // namespace wf
