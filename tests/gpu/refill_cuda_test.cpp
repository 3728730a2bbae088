// The traversal stages' refilling launches on the device, end to end
// (accel/traverse_refill.h; the rule in wavefront/stages/leaf_order.h): a render
// whose bounce and shadow rays take refilling launches traces the same paths,
// and makes the same image, as one that never refills. TraverseCuda tests the
// walks alone; this tests the stages around them: the work counter, the hits
// written in place and pushed by the ordinary launch, shadow rays adding to the
// film as they end.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "app/render.h"
#include "tests/accel/accel_test_scene.h"
#include "tests/gpu/bvh_test_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

#if !defined(WF_HAVE_CUDA)
TEST(RefillCuda, NeedsTheCudaBackend) { GTEST_SKIP() << "this build has no CUDA backend"; }
#else

// Sets an environment variable for a scope, then puts back what was there.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_) setenv(name_, old_->c_str(), 1);
        else unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

// 60k random triangles in a box (a tree's SAH far above the 40 from which
// scattered and shadow rays postpone leaves, and so may refill), diffuse 0.8,
// lit by a uniform environment, filling a camera's view.
HostScene soup_in_the_sky() { return test::soup_under_the_sky(31, 60000, 10.0f, 24.0f, 50.0f); }

uint64_t launches_of(const RenderResult& r, const std::string& stage) {
    for (const StageStat& s : r.stats.stages)
        if (s.name == stage) return s.launches;
    return 0;
}

TEST(RefillCuda, RefillingLaunchesTraceTheSamePathsAsOrdinaryOnes) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = soup_in_the_sky();
    RenderOptions o;
    o.backend = BackendKind::Cuda;
    o.collect_stage_times = true;  // for the launch counts
    o.settings.width = o.settings.height = 768;
    o.settings.spp = 1;
    o.settings.max_depth = 5;
    o.settings.seed = 3;
    o.settings.integrator = "pt";
    // From one ray per resident thread (the fewest the rule allows): bounce 1's
    // rays and bounce 0's shadow rays then refill on any GPU whose stages keep up
    // to 260k threads resident (an H200 keeps 135k).
    auto render_with = [&](const char* below) {
        ScopedEnv lanes("WF_TRAVERSAL_REFILL_BELOW", below);
        ScopedEnv from("WF_TRAVERSAL_REFILL_FROM", "1");
        return render(scene, o);
    };
    const RenderResult off = render_with("0");
    const RenderResult on = render_with("24");

    // The refilling kernels ran (with refills off they are never launched)...
    EXPECT_GT(launches_of(on, "intersect_closest"), launches_of(off, "intersect_closest"));
    EXPECT_GT(launches_of(on, "intersect_shadow"), launches_of(off, "intersect_shadow"));
    // ... on launches that held enough rays to refill: bounce 1's rays and bounce
    // 0's shadow rays (NEE from the camera rays' hits) number more than 260k.
    ASSERT_GE(on.stats.bounces.size(), 2u);
    std::printf("rays: bounce 1 %llu, shadow rays of bounce 0 %llu\n",
                (unsigned long long)on.stats.bounces[1].active, (unsigned long long)on.stats.bounces[0].shadow);
    EXPECT_GT(on.stats.bounces[1].active, 260000u);
    EXPECT_GT(on.stats.bounces[0].shadow, 260000u);

    // Same paths: every bounce's queues of the same size.
    ASSERT_EQ(on.stats.bounces.size(), off.stats.bounces.size());
    for (size_t b = 0; b < on.stats.bounces.size(); ++b) {
        EXPECT_EQ(on.stats.bounces[b].active, off.stats.bounces[b].active) << "bounce " << b;
        EXPECT_EQ(on.stats.bounces[b].surface, off.stats.bounces[b].surface) << "bounce " << b;
        EXPECT_EQ(on.stats.bounces[b].escaped, off.stats.bounces[b].escaped) << "bounce " << b;
        EXPECT_EQ(on.stats.bounces[b].shadow, off.stats.bounces[b].shadow) << "bounce " << b;
    }
    // Same image. Both walks test the same leaves and keep the nearest hit, so
    // pixels agree exactly, but for a ray through a shared edge, where two
    // triangles tie and the order of the tests picks one: at most a few pixels.
    ASSERT_EQ(on.image.pixel_count(), off.image.pixel_count());
    size_t differ = 0;
    double sum_on = 0.0, sum_off = 0.0;
    for (size_t p = 0; p < on.image.pixel_count(); ++p) {
        const Vec3f a = on.image.pixels[p], b = off.image.pixels[p];
        if (a.x != b.x || a.y != b.y || a.z != b.z) ++differ;
        sum_on += double(a.x) + a.y + a.z;
        sum_off += double(b.x) + b.y + b.z;
    }
    EXPECT_LE(differ, 59u) << "of " << on.image.pixel_count() << " pixels (0.01% allowed)";
    EXPECT_NEAR(sum_on, sum_off, 1e-4 * sum_off);
    EXPECT_GT(sum_off, 0.0);
}

#endif

}  // namespace
}  // namespace wf
