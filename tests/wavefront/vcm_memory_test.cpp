// The bidirectional family sizes its light-vertex memory from the film and the
// maximum path length; a configuration too large for the machine must fail with a
// message naming what it needs, before allocating anything.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "app/render.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"

namespace wf {
namespace {

// The message of the error a 64x64 vcm render of s1 on the CPU fails with ("" if it ran).
std::string vcm_memory_error(uint32_t light_paths, uint32_t max_depth, uint64_t max_memory_bytes) {
    HostScene scene = load_scene(test::source_dir() + "/scenes/smallvcm/s1-area.json");
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.integrator = "vcm";
    o.settings.width = o.settings.height = 64;
    o.settings.light_paths = light_paths;
    o.settings.max_depth = max_depth;
    o.settings.spp = 1;
    o.backend = BackendKind::Cpu;
    o.max_memory_bytes = max_memory_bytes;
    try {
        render(scene, o);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

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
