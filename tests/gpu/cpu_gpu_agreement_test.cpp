// CPU vs GPU: the same scene, seed and settings give the same image, to the tolerance
// test::expect_cpu_gpu_agree (gpu_test_support.h) explains.
#include "app/render.h"
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
        test::expect_cpu_gpu_agree(scene, o, file, 0.01);
    }
}

}  // namespace wf
