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

TEST(VcmMemory, TooLargeForTheMachineFailsWithAClearMessage) {
    HostScene scene = load_scene(test::source_dir() + "/scenes/smallvcm/s1-area.json");
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.integrator = "vcm";
    o.settings.width = o.settings.height = 64;
    o.settings.light_paths = 67108864;  // 2^26 light paths x 63 vertices x ~150 bytes: ~600 GiB
    o.settings.max_depth = 64;
    o.settings.spp = 1;
    o.backend = BackendKind::Cpu;
    try {
        render(scene, o);
        FAIL() << "a render needing ~600 GiB of light vertices ran";
    } catch (const std::runtime_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("GiB"), std::string::npos) << what;
        EXPECT_NE(what.find("available"), std::string::npos) << what;
        EXPECT_NE(what.find("--light-paths"), std::string::npos) << what;
        EXPECT_EQ(what.find("--max-memory"), std::string::npos) << what;  // no limit was set
    }
}

TEST(VcmMemory, UnderAMemoryLimitTheMessageNamesMaxMemory) {
    // ~1.5 GiB of light vertices against a 256 MiB limit: the limit, not the machine, is short.
    HostScene scene = load_scene(test::source_dir() + "/scenes/smallvcm/s1-area.json");
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.integrator = "vcm";
    o.settings.width = o.settings.height = 64;
    o.settings.light_paths = 1u << 20;
    o.settings.max_depth = 16;
    o.settings.spp = 1;
    o.backend = BackendKind::Cpu;
    o.max_memory_bytes = uint64_t(256) << 20;
    try {
        render(scene, o);
        FAIL() << "a render needing ~1.5 GiB of light vertices ran under a 256 MiB limit";
    } catch (const std::runtime_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("for light vertices"), std::string::npos) << what;
        EXPECT_NE(what.find("but the --max-memory limit of 0.2500 GiB leaves "), std::string::npos) << what;
        EXPECT_NE(what.find("or a larger --max-memory"), std::string::npos) << what;
    }
}

}  // namespace wf
