// The GPU builder's binned-SAH method (GpuBvhMethod::kSah, accel/bvh_sah_gpu.cu)
// against the CPU builder and brute force: structural invariants, the same hits,
// degenerate inputs (equal centroids everywhere, NaN), a tree of about the CPU
// builder's SAH, the device's wide layout equal to the host's collapse, and the
// same tree from build to build.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "accel/bvh_build_gpu.h"
#include "accel/bvh_quality.h"
#include "accel/bvh_sah_gpu.cuh"
#include "tests/common/bvh_checks.h"
#include "tests/gpu/bvh_test_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

#if !defined(WF_HAVE_CUDA)
TEST(GpuBvhSah, NeedsTheCudaBackend) { GTEST_SKIP() << "this build has no CUDA backend"; }
#else
using test::TestScene;

constexpr GpuBvhMethod kSah = GpuBvhMethod::kSah;

// The scene's CPU tree replaced by the SAH method's, with its figures, after the
// invariants every tree must keep (each primitive in one leaf, boxes nested, leaves
// of at most kBvhMaxLeafSize) and the builder's own figures checked.
using SahTree = test::GpuTree;
SahTree sah_tree(TestScene s) {
    SahTree t = test::gpu_tree(std::move(s), kSah);
    const test::TreeFacts f = test::check_bvh_invariants(t.scene.triangles, t.scene.spheres, t.scene.bvh);
    EXPECT_LE(f.max_leaf_size, kBvhMaxLeafSize);
    test::expect_consistent_info(t);
    return t;
}

void expect_brute_force_hits(const TestScene& s, uint32_t seed, float extent, int rays) {
    const GeometryView g = s.view();
    test::Random rng(seed);
    for (int i = 0; i < rays; ++i) {
        Ray ray{rng.point_in_box(-extent, extent), rng.unit_vector()};
        ASSERT_EQ(intersect_closest(g, ray, kInfinity).t, test::brute_force_closest(g, ray, kInfinity).t)
            << "ray " << i;
        ASSERT_EQ(intersect_any(g, ray, 5.0f), test::brute_force_any(g, ray, 5.0f)) << "ray " << i;
    }
}

TEST(GpuBvhSah, HitsEqualBruteForceAndTheCpuTree) {
    // 22k primitives: tasks of the large pass over several chunks and levels, then
    // small tasks of both kinds (binned ranges, sweeps of up to 32).
    WF_REQUIRE_CUDA_DEVICE();
    TestScene cpu = test::random_soup(5, 20000, 2000, {}, 30.0f);
    SahTree gpu = sah_tree(cpu);
    expect_brute_force_hits(gpu.scene, 8, 40.0f, 5000);
    EXPECT_GT(test::expect_same_hits(cpu, gpu.scene), 20000);
}

TEST(GpuBvhSah, SmallScenesAreOneWarpsTask) {
    // At most kSmall primitives: the root is a small task (its link names no parent).
    // kSmall + 1: one large task, split once. 2, 3 and 33: the sweep's and the bins' edges.
    WF_REQUIRE_CUDA_DEVICE();
    // From 100 primitives on, the tree also keeps about the CPU builder's SAH.
    for (uint32_t count : {2u, 3u, 33u, 100u, sah::kSmall, sah::kSmall + 1, 150u, 1500u}) {
        const TestScene s = test::random_soup(count, count - count / 3, count / 3, {}, 5.0f);
        SahTree t = sah_tree(s);
        expect_brute_force_hits(t.scene, count, 8.0f, 2000);
        if (count >= 100) {
            const double cpu = measure_bvh(s.bvh).sah;
            std::printf("%u primitives: SAH ratio to the CPU builder %.4f\n", count, t.info.sah / cpu);
            EXPECT_LE(t.info.sah, 1.05 * cpu) << count << " primitives";
        }
    }
    TestScene one;
    one.spheres.push_back({{1.0f, 2.0f, 3.0f}, 0.5f});
    SahTree single = sah_tree(one);
    ASSERT_EQ(single.scene.bvh.nodes.size(), 1u);
    EXPECT_EQ(intersect_closest(single.scene.view(), Ray{{1, 2, 10}, {0, 0, -1}}, kInfinity).prim, 0u);
}

TEST(GpuBvhSah, EqualCentroidsSplitInTheMiddle) {
    // No bin separates equal centroids: every task splits by position, so 300k
    // coincident spheres make a balanced tree, and duplicates leaves of at most 8.
    WF_REQUIRE_CUDA_DEVICE();
    test::expect_stack_hit(sah_tree(test::stacked_triangles()).scene);

    TestScene coincident;
    coincident.spheres.assign(300000, Sphere{{1.0f, -2.0f, 3.0f}, 0.25f});
    SahTree c = sah_tree(coincident);
    EXPECT_LE(c.info.depth, 19u);  // ceil(log2(300000 / 8)) + 3: halves, down to leaves of at most 8
    EXPECT_TRUE(intersect_any(c.scene.view(), Ray{{1, -2, 10}, {0, 0, -1}}, kInfinity));
}

TEST(GpuBvhSah, DegenerateAndNanPrimitives) {
    WF_REQUIRE_CUDA_DEVICE();
    TestScene s = test::random_soup(12, 6000, 300);
    test::add_degenerate_triangles(s);
    const float nan = std::nanf("");
    s.triangles[17] = {{nan, nan, nan}, {nan, 0, 0}, {0, nan, 0}};
    s.triangles[1000].p1.y = nan;
    SahTree t = sah_tree(s);
    expect_brute_force_hits(t.scene, 4, 12.0f, 5000);
}

TEST(GpuBvhSah, SahWithinTwoPercentOfTheCpuBuilder) {
    // The same binning as the CPU builder (16 bins a side), and a full sweep for
    // ranges of up to 32: about the CPU tree's cost, where H-PLOC's is 4-9% above.
    WF_REQUIRE_CUDA_DEVICE();
    for (TestScene s : {test::mesh_like(300), test::random_soup(2, 100000, 10000, {}, 100.0f),
                        test::sphere_field(50000), test::terrain(500)}) {
        const double cpu = measure_bvh(s.bvh).sah;
        SahTree t = sah_tree(s);
        std::printf("SAH: CPU binned %.3f, GPU binned %.3f (ratio %.4f), %zu primitives, depth %u\n", cpu, t.info.sah,
                    t.info.sah / cpu, s.triangles.size() + s.spheres.size(), t.info.depth);
        EXPECT_LE(t.info.sah, 1.02 * cpu);
    }
}

TEST(GpuBvhSah, BuildsRepeatTheSameTree) {
    // The device's atomics list tasks in any order; the tree must not depend on it.
    // (The wide layout of this method's trees is checked against the host's
    // collapse in bvh_build_cuda_test.)
    WF_REQUIRE_CUDA_DEVICE();
    for (const TestScene& s : {test::random_soup(41, 30000, 3000, {}, 20.0f), test::terrain(120)}) {
        const Bvh first = build_bvh_on_gpu(s.triangles, s.spheres, nullptr, kSah);
        for (int rep = 0; rep < 3; ++rep) {
            const Bvh again = build_bvh_on_gpu(s.triangles, s.spheres, nullptr, kSah);
            ASSERT_EQ(again.nodes.size(), first.nodes.size());
            EXPECT_EQ(std::memcmp(again.nodes.data(), first.nodes.data(), first.nodes.size() * sizeof(BvhNode)), 0)
                << "rebuild " << rep;
            EXPECT_EQ(again.prim_index, first.prim_index) << "rebuild " << rep;
        }
    }
}

#endif  // WF_HAVE_CUDA

}  // namespace
}  // namespace wf
