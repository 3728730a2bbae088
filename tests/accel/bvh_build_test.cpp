#include "accel/bvh_build.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include "tests/accel/accel_test_scene.h"
#include "tests/common/bvh_checks.h"

namespace wf {
namespace {

using test::TestScene;
using test::TreeFacts;

TreeFacts check_invariants(const TestScene& s) { return test::check_bvh_invariants(s.triangles, s.spheres, s.bvh); }

TEST(Bvh, InvariantsHoldOnRandomSoup) {
    // Child boxes inside parents, leaf boxes around their primitives, every
    // primitive in exactly one leaf, every node reachable exactly once.
    TestScene s = test::random_soup(21, 5000, 500);
    TreeFacts f = check_invariants(s);
    EXPECT_LE(f.max_leaf_size, kBvhMaxLeafSize);
    EXPECT_LE(f.max_depth, kBvhMaxDepth);
    EXPECT_EQ(s.bvh.prim_index.size(), 5500u);
}

TEST(Bvh, SinglePrimitiveIsARootLeaf) {
    TestScene s;
    s.spheres.push_back({{1.0f, 2.0f, 3.0f}, 0.5f});
    s.build();
    ASSERT_EQ(s.bvh.nodes.size(), 1u);
    EXPECT_EQ(s.bvh.nodes[0].count, 1u);
    check_invariants(s);
    Hit h = intersect_closest(s.view(), Ray{{1.0f, 2.0f, 10.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity);
    EXPECT_EQ(h.prim, 0u);
}

TEST(Bvh, CoincidentCentroidsStillRespectLeafSize) {
    // 1000 copies of one triangle: no split plane separates them, so the
    // builder falls back to median splits by index.
    TestScene s;
    for (int i = 0; i < 1000; ++i) s.triangles.push_back({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    s.build();
    TreeFacts f = check_invariants(s);
    EXPECT_LE(f.max_leaf_size, kBvhMaxLeafSize);
    Hit h = intersect_closest(s.view(), Ray{{0.2f, 0.2f, 1.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity);
    ASSERT_TRUE(h.found());
    EXPECT_EQ(h.t, 1.0f);
}

TEST(Bvh, ExponentialSpacingStaysWithinStackDepth) {
    // Geometrically spaced primitives make SAH peel off one at a time; the
    // depth limit must still hold so traversal's fixed stack never overflows.
    TestScene s;
    float x = 1.0f;
    for (int i = 0; i < 3000; ++i, x *= 1.02f) s.triangles.push_back({{x, 0, 0}, {x, 1, 0}, {x, 0, 1}});
    s.build();
    TreeFacts f = check_invariants(s);
    EXPECT_LE(f.max_depth, kBvhMaxDepth);
    GeometryView g = s.view();
    test::Random rng(3);
    for (int i = 0; i < 500; ++i) {
        Ray ray{{rng.uniform(0.0f, 2.0f * x), rng.uniform(0.0f, 0.5f), rng.uniform(0.0f, 0.5f)},
                rng.unit_vector()};
        Hit a = intersect_closest(g, ray, kInfinity), b = test::brute_force_closest(g, ray, kInfinity);
        EXPECT_EQ(a.prim, b.prim);
        EXPECT_EQ(a.t, b.t);
    }
}

TEST(Bvh, BuildIsDeterministic) {
    TestScene a = test::random_soup(33, 4000, 100), b = test::random_soup(33, 4000, 100);
    ASSERT_EQ(a.bvh.nodes.size(), b.bvh.nodes.size());
    EXPECT_EQ(std::memcmp(a.bvh.nodes.data(), b.bvh.nodes.data(), a.bvh.nodes.size() * sizeof(BvhNode)), 0);
    EXPECT_EQ(a.bvh.prim_index, b.bvh.prim_index);
}

TEST(Bvh, IsAFullBinaryTreeOfSmallLeaves) {
    TestScene s = test::random_soup(44, 20000, 0, {}, 50.0f);
    check_invariants(s);
    uint32_t leaves = 0;
    for (const BvhNode& n : s.bvh.nodes) leaves += n.count > 0;
    EXPECT_GT(leaves, 20000u / kBvhMaxLeafSize);
    EXPECT_EQ(s.bvh.nodes.size(), 2 * leaves - 1);  // a full binary tree
}

}  // namespace
}  // namespace wf
