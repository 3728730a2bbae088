// Traversal run on the device (accel/traverse_on_gpu.h). The other GPU tests
// traverse downloaded trees on the host, or compare whole renders; the leaf
// order whose lanes keep descending until their warp's vote
// (LeafOrder::kPostponed) behaves as it does only on the device, so its closest
// and any hits are checked here, ray by ray.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "accel/traverse_on_gpu.h"
#include "tests/accel/accel_test_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "wavefront/stages/leaf_order.h"

namespace wf {
namespace {

#if !defined(WF_HAVE_CUDA)
TEST(TraverseCuda, NeedsTheCudaBackend) { GTEST_SKIP() << "this build has no CUDA backend"; }
#else
using test::TestScene;

// Incoherent rays (random origins and directions: a warp's lanes reach leaves at
// different steps, so postponed leaves wait on each other) and coherent ones
// (a pinhole's grid of directions: lanes reach leaves together).
std::vector<Ray> mixed_rays(uint32_t seed, float extent, uint32_t incoherent, uint32_t side) {
    test::Random rng(seed);
    std::vector<Ray> rays;
    for (uint32_t i = 0; i < incoherent; ++i) rays.push_back({rng.point_in_box(-extent, extent), rng.unit_vector()});
    const Vec3f eye(0.0f, 0.0f, 2.5f * extent);
    for (uint32_t y = 0; y < side; ++y)
        for (uint32_t x = 0; x < side; ++x) {
            const Vec3f d(2.0f * (x + 0.5f) / side - 1.0f, 2.0f * (y + 0.5f) / side - 1.0f, -2.0f);
            rays.push_back({eye, normalize(d)});
        }
    return rays;
}

// Copies of one triangle (equal boxes, large leaves) with a row of spheres behind.
TestScene duplicates_scene() {
    TestScene s;
    for (int i = 0; i < 300; ++i) s.triangles.push_back({{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}});
    for (int i = 0; i < 300; ++i) s.spheres.push_back({{0.0f, 0.0f, -2.0f - 0.01f * i}, 0.5f});
    s.build();
    return s;
}
TestScene one_sphere_scene() {
    TestScene s;
    s.spheres.push_back({{0, 0, 0}, 1.0f});
    s.build();
    return s;
}

// What every refilling launch must leave: an answer per ray, each ray recorded
// once, the work counter back at zero.
void expect_each_ray_refilled_once(const RefilledHits& refilled, size_t rays, const char* label, uint32_t below) {
    ASSERT_EQ(refilled.hits.size(), rays);
    ASSERT_EQ(refilled.records.size(), rays);
    EXPECT_EQ(refilled.counter[0], 0u) << label << ", refill below " << below;
    EXPECT_EQ(refilled.counter[1], 0u) << label << ", refill below " << below;
    for (size_t i = 0; i < rays; ++i)
        ASSERT_EQ(refilled.records[i], 1u) << label << " ray " << i << ", refill below " << below;
}

// Both orders on the device find the same nearest t for every ray (the same
// arithmetic, only the order of the work differs); the host's brute force agrees
// on hit or miss and, within the rounding of fused multiply-adds, on t. Where
// primitives are distinct, also on the primitive, but for rare ties and roundings;
// where they are copies, any of the copies may be reported.
void expect_orders_agree(const TestScene& s, const std::vector<Ray>& rays, const char* label, bool copies = false) {
    const GeometryView g = s.view();  // also makes s.traversal
    const std::vector<Hit> immediate = closest_hits_on_gpu(s.triangles, s.spheres, s.traversal, rays,
                                                           LeafOrder::kImmediate);
    const std::vector<Hit> postponed = closest_hits_on_gpu(s.triangles, s.spheres, s.traversal, rays,
                                                           LeafOrder::kPostponed);
    ASSERT_EQ(immediate.size(), rays.size());
    ASSERT_EQ(postponed.size(), rays.size());
    uint32_t hits = 0, same_prim = 0;
    for (size_t i = 0; i < rays.size(); ++i) {
        const Hit ref = test::brute_force_closest(g, rays[i], kInfinity);
        ASSERT_EQ(postponed[i].found(), ref.found()) << label << " ray " << i;
        ASSERT_EQ(immediate[i].found(), ref.found()) << label << " ray " << i;
        if (!ref.found()) continue;
        ++hits;
        ASSERT_EQ(postponed[i].t, immediate[i].t) << label << " ray " << i;
        ASSERT_NEAR(postponed[i].t, ref.t, 1e-5f * std::fmax(1.0f, ref.t)) << label << " ray " << i;
        same_prim += postponed[i].prim == ref.prim;
    }
    EXPECT_GT(hits, rays.size() / 20) << label;  // the comparison is not vacuous
    if (!copies) EXPECT_GE(same_prim, hits - hits / 1000) << label;
    // Warps that refill their lanes (the postponed walk, cut into rounds): the same
    // nearest t, each ray recorded once, the work counter left at zero. Few threads,
    // so that every warp refills many times; refill_below 32 refills as soon as one
    // lane is idle, 1 only when all are.
    for (const auto& [threads, below] : {std::pair{256u, kRefillBelowLanes}, std::pair{512u, 32u},
                                         std::pair{480u, 1u}}) {
        const RefilledHits refilled = closest_hits_on_gpu_refilling(s.triangles, s.spheres, s.traversal, rays,
                                                                    threads, below);
        expect_each_ray_refilled_once(refilled, rays.size(), label, below);
        for (size_t i = 0; i < rays.size(); ++i) {
            ASSERT_EQ(refilled.hits[i].found(), immediate[i].found()) << label << " ray " << i;
            if (immediate[i].found())
                ASSERT_EQ(refilled.hits[i].t, immediate[i].t) << label << " ray " << i << ", refill below " << below;
        }
    }
}

TEST(TraverseCuda, PostponedLeavesFindTheSameHitsAsImmediateOnes) {
    WF_REQUIRE_CUDA_DEVICE();
    const TestScene soup = test::random_soup(21, 4000, 400, {}, 10.0f);
    expect_orders_agree(soup, mixed_rays(22, 12.0f, 40000, 128), "soup");

    // Copies of one triangle, a single primitive, and spheres alone.
    expect_orders_agree(duplicates_scene(), mixed_rays(23, 1.5f, 5000, 64), "duplicates", true);
    expect_orders_agree(one_sphere_scene(), mixed_rays(24, 2.0f, 2000, 32), "one sphere");
    const TestScene balls = test::random_soup(25, 0, 3000, {}, 10.0f);
    expect_orders_agree(balls, mixed_rays(26, 12.0f, 20000, 64), "spheres");
}

// A ray walked by a group of 2..32 lanes (intersect_closest_group: the lanes share
// the best t and hand each other stack entries) finds what one lane finds: the same
// hit or miss, the same t to the bit (each primitive's test is the same arithmetic;
// only which nodes are visited differs), and the same primitive but for ties; and
// every lane of the group returns the same hit.
void expect_groups_agree(const TestScene& s, const std::vector<Ray>& rays, const char* label, bool copies = false) {
    (void)s.view();  // makes s.traversal
    const std::vector<Hit> single = closest_hits_on_gpu(s.triangles, s.spheres, s.traversal, rays,
                                                        LeafOrder::kImmediate);
    ASSERT_EQ(single.size(), rays.size());
    for (uint32_t shift = 1; shift <= 5; ++shift) {
        const std::vector<Hit> grouped = closest_hits_on_gpu_in_groups(s.triangles, s.spheres, s.traversal, rays,
                                                                       shift);
        ASSERT_EQ(grouped.size(), rays.size() << shift);
        uint32_t hits = 0, same_prim = 0;
        for (size_t i = 0; i < rays.size(); ++i) {
            const Hit& first = grouped[i << shift];
            for (uint32_t j = 1; j < (1u << shift); ++j) {
                const Hit& other = grouped[(i << shift) | j];
                ASSERT_TRUE(other.t == first.t && other.prim == first.prim && other.u == first.u &&
                            other.v == first.v)
                    << label << " ray " << i << ", lane " << j << " of " << (1u << shift);
            }
            ASSERT_EQ(first.found(), single[i].found()) << label << " ray " << i << ", lanes " << (1u << shift);
            if (!first.found()) continue;
            ++hits;
            ASSERT_EQ(first.t, single[i].t) << label << " ray " << i << ", lanes " << (1u << shift);
            same_prim += first.prim == single[i].prim;
        }
        EXPECT_GT(hits, rays.size() / 20) << label;  // the comparison is not vacuous
        if (!copies) EXPECT_GE(same_prim, hits - hits / 1000) << label << ", lanes " << (1u << shift);
    }
}

TEST(TraverseCuda, RaysWalkedByGroupsOfLanesFindTheSameHits) {
    WF_REQUIRE_CUDA_DEVICE();
    // Deep enough that the lanes of a group hand entries on many times per ray.
    const TestScene soup = test::random_soup(41, 40000, 2000, {}, 10.0f);
    expect_groups_agree(soup, mixed_rays(42, 12.0f, 20000, 64), "soup");
    expect_groups_agree(duplicates_scene(), mixed_rays(43, 1.5f, 3000, 32), "duplicates", true);
    expect_groups_agree(one_sphere_scene(), mixed_rays(44, 2.0f, 1000, 16), "one sphere");
    const TestScene balls = test::random_soup(45, 0, 3000, {}, 10.0f);
    expect_groups_agree(balls, mixed_rays(46, 12.0f, 10000, 32), "spheres");
}

// Any hit in both orders, and by groups of lanes, on the device against brute force on the host, over
// t_max drawn from nothing to past the scene, so that both answers are common.
// Rays whose nearest hit lies within rounding of t_max may be answered either
// way (device fused multiply-adds); those are counted, and must stay rare.
void expect_any_hits_agree(const TestScene& s, const std::vector<Ray>& rays, float extent, uint32_t seed,
                           const char* label) {
    const GeometryView g = s.view();  // also makes s.traversal
    test::Random rng(seed);
    std::vector<float> t_max(rays.size());
    for (float& t : t_max) t = rng.uniform(0.0f, 3.0f * extent);
    // Each leaf order, then groups of 2..32 lanes per ray (every lane must answer alike).
    for (uint32_t variant = 0; variant < 7; ++variant) {
        const uint32_t shift = variant < 2 ? 0u : variant - 1u;
        std::vector<uint8_t> any;
        if (shift == 0) {
            any = any_hits_on_gpu(s.triangles, s.spheres, s.traversal, rays, t_max,
                                  variant == 0 ? LeafOrder::kImmediate : LeafOrder::kPostponed);
        } else {
            const std::vector<uint8_t> lanes = any_hits_on_gpu_in_groups(s.triangles, s.spheres, s.traversal, rays,
                                                                         t_max, shift);
            ASSERT_EQ(lanes.size(), rays.size() << shift);
            for (size_t i = 0; i < rays.size(); ++i) {
                for (uint32_t j = 1; j < (1u << shift); ++j)
                    ASSERT_EQ(lanes[(i << shift) | j], lanes[i << shift]) << label << " ray " << i << ", lane " << j;
                any.push_back(lanes[i << shift]);
            }
        }
        ASSERT_EQ(any.size(), rays.size());
        uint32_t occluded = 0, clear = 0, near_edge = 0;
        for (size_t i = 0; i < rays.size(); ++i) {
            const bool ref = test::brute_force_any(g, rays[i], t_max[i]);
            (ref ? occluded : clear)++;
            if (bool(any[i]) == ref) continue;
            const Hit nearest = test::brute_force_closest(g, rays[i], kInfinity);
            ASSERT_TRUE(nearest.found()) << label << " ray " << i << ", variant " << variant;
            ASSERT_NEAR(nearest.t, t_max[i], 1e-5f * std::fmax(1.0f, t_max[i]))
                << label << " ray " << i << ", variant " << variant;
            ++near_edge;
        }
        EXPECT_GT(occluded, rays.size() / 20) << label << ", variant " << variant;  // not vacuous
        EXPECT_GT(clear, rays.size() / 20) << label << ", variant " << variant;
        EXPECT_LE(near_edge, rays.size() / 10000) << label << ", variant " << variant;
    }
    // Warps that refill their lanes (as expect_orders_agree): the same answers as the
    // postponed walk, each ray recorded once, the work counter left at zero.
    const std::vector<uint8_t> postponed = any_hits_on_gpu(s.triangles, s.spheres, s.traversal, rays, t_max,
                                                           LeafOrder::kPostponed);
    for (const auto& [threads, below] : {std::pair{256u, kRefillBelowLanes}, std::pair{512u, 32u},
                                         std::pair{480u, 1u}}) {
        const RefilledHits refilled = any_hits_on_gpu_refilling(s.triangles, s.spheres, s.traversal, rays, t_max,
                                                                threads, below);
        expect_each_ray_refilled_once(refilled, rays.size(), label, below);
        for (size_t i = 0; i < rays.size(); ++i)
            ASSERT_EQ(refilled.hits[i].found(), bool(postponed[i])) << label << " ray " << i << ", below " << below;
    }
}

TEST(TraverseCuda, AnyHitFindsTheSameOccludersInBothLeafOrdersAndInGroups) {
    WF_REQUIRE_CUDA_DEVICE();
    const TestScene soup = test::random_soup(31, 4000, 400, {}, 10.0f);
    expect_any_hits_agree(soup, mixed_rays(32, 12.0f, 40000, 128), 10.0f, 33, "soup");
    expect_any_hits_agree(duplicates_scene(), mixed_rays(34, 1.5f, 5000, 64), 2.0f, 35, "duplicates");
    // One leaf under the root node: the walk postpones it, finds the stack empty, tests it.
    expect_any_hits_agree(one_sphere_scene(), mixed_rays(39, 2.0f, 2000, 32), 1.5f, 40, "one sphere");
    const TestScene balls = test::random_soup(36, 0, 3000, {}, 10.0f);
    expect_any_hits_agree(balls, mixed_rays(37, 12.0f, 20000, 64), 10.0f, 38, "spheres");
}
#endif

}  // namespace
}  // namespace wf
