// The bidirectional family sizes its light-vertex memory from the film and the
// maximum path length; a configuration too large for the machine must fail with a
// message naming what it needs, before allocating anything.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "app/render.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"

namespace wf {
namespace {

HostScene s1_scene() { return load_scene(test::source_dir() + "/scenes/smallvcm/s1-area.json"); }

// A 64x64 vcm render of s1 on the CPU under a memory limit (0: none).
RenderOptions vcm_options(const HostScene& scene, uint32_t spp, uint64_t max_memory_bytes) {
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.integrator = "vcm";
    o.settings.width = o.settings.height = 64;
    o.settings.spp = spp;
    o.backend = BackendKind::Cpu;
    o.max_memory_bytes = max_memory_bytes;
    return o;
}

// The message of the error such a render with one iteration fails with ("" if it ran).
std::string vcm_memory_error(uint32_t light_paths, uint32_t max_depth, uint64_t max_memory_bytes) {
    const HostScene scene = s1_scene();
    RenderOptions o = vcm_options(scene, 1, max_memory_bytes);
    o.settings.light_paths = light_paths;
    o.settings.max_depth = max_depth;
    try {
        render(scene, o);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

// Such a render with 8 iterations.
RenderResult vcm_render_under(uint64_t max_memory_bytes) {
    const HostScene scene = s1_scene();
    return render(scene, vcm_options(scene, 8, max_memory_bytes));
}

double counter(const RenderResult& r, const std::string& name) {
    for (const RenderCounter& c : r.stats.counters)
        if (c.name == name) return c.value;
    ADD_FAILURE() << "no counter " << name;
    return 0.0;
}

}  // namespace

// Iterations batched into one wave share its memory; where the batch does not fit, it
// shrinks (down to one iteration) instead of failing, and the image stays the same (the
// same paths, summed in another order).
TEST(VcmMemory, ABatchThatDoesNotFitShrinksInsteadOfFailing) {
    const RenderResult free_run = vcm_render_under(0);
    ASSERT_EQ(counter(free_run, "iterations per batch"), 8.0);
    const uint64_t limit = free_run.peak_memory_bytes / 2;  // room for some of the 8, not all
    const RenderResult limited = vcm_render_under(limit);
    const double batch = counter(limited, "iterations per batch");
    EXPECT_GE(batch, 1.0);
    EXPECT_LT(batch, 8.0);
    EXPECT_LE(limited.peak_memory_bytes, limit);
    ASSERT_EQ(limited.image.pixel_count(), free_run.image.pixel_count());
    for (size_t i = 0; i < free_run.image.pixel_count(); ++i) {
        const Vec3f a = free_run.image.pixels[i], b = limited.image.pixels[i];
        ASSERT_NEAR(a.x, b.x, 1e-4f * (1.0f + std::fabs(a.x))) << "pixel " << i;
        ASSERT_NEAR(a.y, b.y, 1e-4f * (1.0f + std::fabs(a.y))) << "pixel " << i;
        ASSERT_NEAR(a.z, b.z, 1e-4f * (1.0f + std::fabs(a.z))) << "pixel " << i;
    }
}

TEST(VcmMemory, TooLargeForTheMachineFailsWithAClearMessage) {
    // 2^26 light paths x 63 vertices x ~150 bytes: ~600 GiB.
    std::string what = vcm_memory_error(67108864, 64, 0);
    ASSERT_FALSE(what.empty()) << "a render needing ~600 GiB of light vertices ran";
    EXPECT_NE(what.find("GiB"), std::string::npos) << what;
    EXPECT_NE(what.find("available"), std::string::npos) << what;
    EXPECT_NE(what.find("--light-paths"), std::string::npos) << what;
    EXPECT_EQ(what.find("--max-memory"), std::string::npos) << what;  // no limit was set
}

TEST(VcmMemory, UnderAMemoryLimitTheMessageNamesMaxMemory) {
    // ~1.5 GiB of light vertices against a 256 MiB limit: the limit, not the machine, is short.
    std::string what = vcm_memory_error(1u << 20, 16, uint64_t(256) << 20);
    ASSERT_FALSE(what.empty()) << "a render needing ~1.5 GiB of light vertices ran under a 256 MiB limit";
    EXPECT_NE(what.find("for light vertices"), std::string::npos) << what;
    EXPECT_NE(what.find("but the --max-memory limit of 0.2500 GiB leaves "), std::string::npos) << what;
    EXPECT_NE(what.find("or a larger --max-memory"), std::string::npos) << what;
}

}  // namespace wf
