// The renderer's entry point under pressure: a memory limit it cannot meet is a clear
// OutOfMemoryError (and the limit ends with the render), dropped NaN/Inf samples are a
// warning, and --backend auto/cuda choose or refuse CUDA as documented.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "app/render.h"
#include "engine/backend/cpu_backend.h"
#include "tests/common/analytic_checks.h"
#include "tests/common/analytic_scenes.h"

namespace wf {
namespace {

TEST(RenderMemoryLimit, ALimitTheRenderCannotMeetIsAnOutOfMemoryErrorNamingTheAllocation) {
    const HostScene scene = test::white_furnace_scene(0.5f, 64);
    RenderOptions o = test::options_for(scene, BackendKind::Cpu, 16);
    o.max_memory_bytes = 1u << 20;  // far below the path state of 64 x 64 x 16 paths
    const uint64_t held_before = cpu_memory().current.load();
    try {
        render(scene, o);
        FAIL() << "a render over its memory limit ran";
    } catch (const OutOfMemoryError& e) {
        const std::string what = e.what();
        for (const char* part : {"out of memory on the cpu backend: allocating ", " MiB (", " x ",
                                 "would exceed the memory limit of 1.0 MiB"})
            EXPECT_NE(what.find(part), std::string::npos) << part << "\n" << what;
    }
    // Everything allocated before the failure was given back, and the limit ended with the render.
    EXPECT_EQ(cpu_memory().current.load(), held_before);
    EXPECT_EQ(cpu_memory().limit.load(), 0u);
    EXPECT_NO_THROW(render(scene, test::options_for(scene, BackendKind::Cpu, 16)));
}

TEST(RenderMemoryLimit, ALimitAboveWhatTheRenderNeedsChangesNothing) {
    const HostScene scene = test::white_furnace_scene(0.5f, 32);
    const RenderResult free_run = render(scene, test::options_for(scene, BackendKind::Cpu, 4));
    RenderOptions o = test::options_for(scene, BackendKind::Cpu, 4);
    o.max_memory_bytes = free_run.peak_memory_bytes + 4096;
    const RenderResult limited = render(scene, o);
    ASSERT_EQ(limited.image.pixels.size(), free_run.image.pixels.size());
    for (size_t i = 0; i < limited.image.pixels.size(); ++i) {
        const Vec3f a = limited.image.pixels[i], b = free_run.image.pixels[i];
        ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "pixel " << i;
    }
    EXPECT_LE(limited.peak_memory_bytes, o.max_memory_bytes);
}

// A timed render (--time) runs one iteration per call, whatever its spp bound: its paths
// need no more memory than one iteration's (not a wave sized for spp 2^32 - 1).
TEST(RenderMemoryLimit, ATimedRenderHoldsOneIterationOfPaths) {
    const HostScene scene = test::white_furnace_scene(0.5f, 32);
    RenderOptions o = test::options_for(scene, BackendKind::Cpu, 2);
    const RenderResult fixed = render(scene, o);
    o.settings.spp = std::numeric_limits<uint32_t>::max();
    o.time_budget_seconds = 0.05;
    const RenderResult timed = render(scene, o);
    EXPECT_GE(timed.passes, 1u);
    EXPECT_LE(timed.peak_memory_bytes, fixed.peak_memory_bytes) << "a 32x32 film: 1024 paths per iteration";
}

TEST(RenderMemoryLimit, AvailableMemoryShrinksToTheLimit) {
    // Sizing checks (the bidirectional family's light vertices) ask available_memory().
    CpuBackend backend;
    MemoryCounter::Limit limit(backend.memory(), backend.memory().current.load() + 12345);
    EXPECT_EQ(backend.available_memory(), 12345u);
}

TEST(RenderMemoryLimit, TheMessageNamesTheElementTypeAndThePhase) {
    MemoryCounter counter;
    counter.limit = 1000;
    counter.allocated(600);
    const std::string vec3f = type_name<Vec3f>();  // "Vec3f" or "wf::Vec3f", as the compiler spells it
    ASSERT_EQ(vec3f.substr(vec3f.size() - 5), "Vec3f");
    const AllocationRequest request{12u << 20, 1u << 20, vec3f};
    auto message = [&] {
        try {
            counter.check_limit(request, 0, "cpu");
        } catch (const OutOfMemoryError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message(), "out of memory on the cpu backend: allocating 12.0 MiB (1048576 x " + vec3f +
                             ") would exceed the memory limit of 1000 bytes (--max-memory), with 600 bytes already "
                             "in use");
    {
        MemoryCounter::Phase film(counter, "film");
        EXPECT_NE(message().find("(1048576 x " + vec3f + ", film)"), std::string::npos) << message();
    }
    EXPECT_EQ(counter.phase, nullptr);
    EXPECT_EQ(type_name<uint32_t>(), "unsigned int");
    // Replacing a buffer counts the bytes it frees.
    EXPECT_NO_THROW(counter.check_limit({500, 500, "char"}, 200, "cpu"));
    EXPECT_THROW(counter.check_limit({500, 500, "char"}, 99, "cpu"), OutOfMemoryError);
}

TEST(RenderWarnings, DroppedNonFiniteSamplesAreAWarning) {
    HostScene scene = test::white_furnace_scene(0.5f, 16);
    scene.lights[0].radiance = Vec3f(std::numeric_limits<float>::quiet_NaN());  // every escaped path
    const RenderResult result = render(scene, test::options_for(scene, BackendKind::Cpu, 2));
    ASSERT_GT(result.stats.nonfinite_samples, 0u);
    ASSERT_EQ(result.warnings.size(), 1u);
    EXPECT_NE(result.warnings[0].find(std::to_string(result.stats.nonfinite_samples) +
                                      " samples had NaN/Inf radiance and were dropped"),
              std::string::npos)
        << result.warnings[0];

    const HostScene clean = test::white_furnace_scene(0.5f, 16);
    EXPECT_TRUE(render(clean, test::options_for(clean, BackendKind::Cpu, 2)).warnings.empty());
}

TEST(BackendChoice, CpuIsAlwaysTheCpuAndAutoUsesCudaOnlyWhereItRuns) {
    EXPECT_EQ(choose_backend(BackendKind::Cpu).kind, BackendKind::Cpu);
    EXPECT_TRUE(choose_backend(BackendKind::Cpu).warning.empty());
    std::string why;
    const bool cuda = cuda_backend_available(&why);
    const BackendChoice automatic = choose_backend(BackendKind::Auto);
    EXPECT_EQ(automatic.kind, cuda ? BackendKind::Cuda : BackendKind::Cpu) << why;
    if (cuda) {
        EXPECT_EQ(choose_backend(BackendKind::Cuda).kind, BackendKind::Cuda);
    } else {
        try {
            choose_backend(BackendKind::Cuda);
            FAIL() << "--backend cuda was accepted without a usable device";
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()), "--backend cuda: " + why);
        }
    }
}

}  // namespace
}  // namespace wf
