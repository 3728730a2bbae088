#include "accel/bvh_build.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

using test::TestScene;

bool box_contains(const BvhNode& outer, Vec3f lo, Vec3f hi) {
    return outer.lo.x <= lo.x && outer.lo.y <= lo.y && outer.lo.z <= lo.z && hi.x <= outer.hi.x &&
           hi.y <= outer.hi.y && hi.z <= outer.hi.z;
}

Aabb prim_box(const TestScene& s, uint32_t prim) {
    Aabb b;
    if (prim < s.triangles.size()) {
        const Triangle& t = s.triangles[prim];
        b.extend(t.p0);
        b.extend(t.p1);
        b.extend(t.p2);
    } else {
        const Sphere& sp = s.spheres[prim - s.triangles.size()];
        b.extend(sp.center - Vec3f(sp.radius));
        b.extend(sp.center + Vec3f(sp.radius));
    }
    return b;
}

struct TreeFacts {
    uint32_t max_depth = 0, max_leaf_size = 0, nodes_reached = 0;
};

// Walks the tree from the root, checking every structural invariant on the way.
TreeFacts check_invariants(const TestScene& s) {
    const Bvh& bvh = s.bvh;
    const uint32_t n = uint32_t(s.triangles.size() + s.spheres.size());
    TreeFacts facts;
    std::vector<int> references(n, 0);
    std::vector<int> node_seen(bvh.nodes.size(), 0);
    std::vector<std::pair<uint32_t, uint32_t>> stack{{0, 0}};  // node, depth
    while (!stack.empty()) {
        auto [i, depth] = stack.back();
        stack.pop_back();
        EXPECT_LT(i, bvh.nodes.size());
        if (i >= bvh.nodes.size()) continue;
        EXPECT_EQ(node_seen[i]++, 0) << "node " << i << " reached twice";
        ++facts.nodes_reached;
        facts.max_depth = std::max(facts.max_depth, depth);
        const BvhNode& node = bvh.nodes[i];
        if (node.count > 0) {
            facts.max_leaf_size = std::max(facts.max_leaf_size, node.count);
            EXPECT_LE(uint64_t(node.first) + node.count, bvh.prim_index.size());
            for (uint32_t k = node.first; k < node.first + node.count && k < bvh.prim_index.size(); ++k) {
                uint32_t prim = bvh.prim_index[k];
                EXPECT_LT(prim, n);
                if (prim >= n) continue;
                ++references[prim];
                Aabb b = prim_box(s, prim);
                EXPECT_TRUE(box_contains(node, b.lo, b.hi)) << "leaf " << i << " misses prim " << prim;
            }
        } else {
            EXPECT_LT(node.first + 1, bvh.nodes.size());
            for (uint32_t c : {node.first, node.first + 1}) {
                if (c >= bvh.nodes.size()) continue;
                EXPECT_TRUE(box_contains(node, bvh.nodes[c].lo, bvh.nodes[c].hi)) << "child " << c;
                stack.push_back({c, depth + 1});
            }
        }
    }
    for (uint32_t p = 0; p < n; ++p) EXPECT_EQ(references[p], 1) << "prim " << p;
    EXPECT_EQ(facts.nodes_reached, bvh.nodes.size()) << "unreachable nodes";
    return facts;
}

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
