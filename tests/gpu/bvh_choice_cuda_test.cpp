// Which builder makes a render's tree on the CUDA backend (RenderOptions::bvh_builder,
// --bvh, app/device_scene.h): auto weighs the paths per primitive, an explicit choice
// is kept, and WF_BVH_BUILDER speaks only where the render leaves it to auto. Each
// choice renders the same image up to the float order of its traversal.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "app/device_scene.h"
#include "tests/gpu/bvh_test_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

// 2000 triangles under an environment: 64 x 64 pixels trace 4096 paths per pass,
// about 2 per triangle, so the sample count sets which side of the rule it falls on.
HostScene soup_scene() { return test::soup_under_the_sky(17, 2000, 3.0f, 10.0f, 45.0f); }

RenderResult render_soup(BvhBuilderChoice choice, uint32_t spp) {
    RenderOptions o;
    o.backend = BackendKind::Cuda;
    o.settings.width = o.settings.height = 64;
    o.settings.spp = spp;
    o.settings.max_depth = 4;
    o.bvh_builder = choice;
    return render(soup_scene(), o);
}

void expect_builder(const RenderResult& r, const std::string& builder, const std::string& note) {
    EXPECT_EQ(r.stats.bvh.builder, builder);
    EXPECT_EQ(r.stats.bvh.note, note);
}

// Sets an environment variable for one scope.
struct ScopedEnv {
    explicit ScopedEnv(const char* value) { setenv("WF_BVH_BUILDER", value, 1); }
    ~ScopedEnv() { unsetenv("WF_BVH_BUILDER"); }
};

TEST(BvhChoiceCuda, AutoWeighsPathsPerPrimitive) {
    WF_REQUIRE_CUDA_DEVICE();
    unsetenv("WF_BVH_BUILDER");
    // 64 x 64 x 31 = 126976 paths: 63.5 per triangle, under the rule's 64.
    const RenderResult few = render_soup(BvhBuilderChoice::kAuto, 31);
    expect_builder(few, "gpu", "auto: 63 paths per primitive, fewer than 64");
    // 32 spp: 131072 paths, 65.5 per triangle.
    const RenderResult many = render_soup(BvhBuilderChoice::kAuto, 32);
    expect_builder(many, "gpu-sah", "auto: 65 paths per primitive, at least 64");
    EXPECT_LT(many.stats.bvh.sah, few.stats.bvh.sah * 1.001);  // not worse, at least
}

TEST(BvhChoiceCuda, AnExplicitChoiceIsKeptAndTheEnvironmentOnlyFillsAuto) {
    WF_REQUIRE_CUDA_DEVICE();
    ScopedEnv env("cpu");
    expect_builder(render_soup(BvhBuilderChoice::kFast, 64), "gpu", "");
    expect_builder(render_soup(BvhBuilderChoice::kSah, 1), "gpu-sah", "");
    expect_builder(render_soup(BvhBuilderChoice::kAuto, 1), "cpu", "WF_BVH_BUILDER=cpu");
    expect_builder(render_soup(BvhBuilderChoice::kCpu, 1), "cpu", "--bvh cpu");
}

TEST(BvhChoiceCuda, EveryBuilderRendersTheSameImage) {
    // The trees differ; the hits do not (the closest hit is the closest hit), so the
    // images agree but for the order of float sums in rare ties.
    WF_REQUIRE_CUDA_DEVICE();
    unsetenv("WF_BVH_BUILDER");
    const Image fast = render_soup(BvhBuilderChoice::kFast, 4).image;
    for (BvhBuilderChoice other : {BvhBuilderChoice::kSah, BvhBuilderChoice::kCpu}) {
        const Image image = render_soup(other, 4).image;
        ASSERT_EQ(image.pixels.size(), fast.pixels.size());
        size_t differing = 0;
        for (size_t i = 0; i < image.pixels.size(); ++i)
            for (int c = 0; c < 3; ++c) differing += std::fabs(image.pixels[i][c] - fast.pixels[i][c]) > 1e-5f;
        EXPECT_LE(differing, image.pixels.size() / 1000) << int(other);
    }
}

}  // namespace
}  // namespace wf
