// The traversal layout (accel/traversal_bvh.h) against the flat tree it is
// converted from: the same boxes, children and leaf primitives, the root first
// wherever the builder put its children, and single-leaf and empty trees.
#include <gtest/gtest.h>

#include <vector>

#include "accel/traversal_bvh_build.h"
#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

using test::TestScene;

struct Box {
    Vec3f lo, hi;
};

Box left_box(const TraversalNode& n) {
    return {{n.left_xy.x, n.left_xy.z, n.z.x}, {n.left_xy.y, n.left_xy.w, n.z.y}};
}
Box right_box(const TraversalNode& n) {
    return {{n.right_xy.x, n.right_xy.z, n.z.z}, {n.right_xy.y, n.right_xy.w, n.z.w}};
}

void expect_box(const Box& b, const BvhNode& flat) {
    EXPECT_EQ(b.lo.x, flat.lo.x);
    EXPECT_EQ(b.lo.y, flat.lo.y);
    EXPECT_EQ(b.lo.z, flat.lo.z);
    EXPECT_EQ(b.hi.x, flat.hi.x);
    EXPECT_EQ(b.hi.y, flat.hi.y);
    EXPECT_EQ(b.hi.z, flat.hi.z);
}

// Walks the flat tree and the traversal tree together from their roots: every
// child box, leaf range and leaf primitive must match, and every traversal
// node must be reached exactly once.
void expect_same_tree(const TestScene& s, const TraversalArrays& t) {
    const std::vector<BvhNode>& flat = s.bvh.nodes;
    ASSERT_GT(flat.size(), 1u);
    ASSERT_EQ(t.nodes.size(), (flat.size() - 1) / 2);
    std::vector<int> reached(t.nodes.size(), 0);
    struct Pair {
        uint32_t flat, traversal;
    };
    std::vector<Pair> todo{{0, 0}};
    size_t leaf_prims = 0;
    while (!todo.empty()) {
        const Pair p = todo.back();
        todo.pop_back();
        ASSERT_LT(p.traversal, t.nodes.size());
        ++reached[p.traversal];
        const TraversalNode& n = t.nodes[p.traversal];
        const uint32_t kids[2] = {flat[p.flat].first, flat[p.flat].first + 1};
        const uint32_t refs[2] = {n.left, n.right};
        expect_box(left_box(n), flat[kids[0]]);
        expect_box(right_box(n), flat[kids[1]]);
        for (int k = 0; k < 2; ++k) {
            const BvhNode& c = flat[kids[k]];
            if (c.count == 0) {
                ASSERT_FALSE(is_leaf_ref(refs[k]));
                todo.push_back({kids[k], refs[k]});
                continue;
            }
            ASSERT_TRUE(is_leaf_ref(refs[k]));
            EXPECT_EQ(leaf_ref_first(refs[k]), c.first);
            EXPECT_EQ(leaf_ref_count(refs[k]), c.count);
            leaf_prims += c.count;
        }
    }
    for (size_t i = 0; i < reached.size(); ++i) EXPECT_EQ(reached[i], 1) << "traversal node " << i;
    EXPECT_EQ(leaf_prims, s.bvh.prim_index.size());
    ASSERT_EQ(t.prims.size(), s.bvh.prim_index.size());
    for (size_t i = 0; i < t.prims.size(); ++i) {
        const uint32_t prim = s.bvh.prim_index[i];
        const LeafPrim& lp = t.prims[i];
        ASSERT_EQ(float_to_bits(lp.a.w), prim);
        if (prim < s.triangles.size()) {
            const Triangle& tri = s.triangles[prim];
            EXPECT_EQ(lp.a.x, tri.p0.x);
            EXPECT_EQ(lp.b.y, tri.p1.y);
            EXPECT_EQ(lp.c.z, tri.p2.z);
        } else {
            const Sphere& sp = s.spheres[prim - s.triangles.size()];
            EXPECT_EQ(lp.a.y, sp.center.y);
            EXPECT_EQ(lp.b.x, sp.radius);
        }
    }
}

TEST(TraversalBvh, MatchesTheBuildersFlatTree) {
    const TestScene s = test::random_soup(11, 4000, 500, {}, 10.0f);
    expect_same_tree(s, make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres));
}

// Three triangles along x, and a flat tree whose root's children are not in
// slots 1 and 2 (the GPU builder numbers pairs by its own ranks): the root must
// still become traversal node 0, and traversal must find what brute force finds.
TEST(TraversalBvh, RootIsNodeZeroWhereverItsChildrenAre) {
    TestScene s;
    for (int i = 0; i < 3; ++i) {
        const float x = float(3 * i);
        s.triangles.push_back(Triangle{{x, -1, 0}, {x + 1, -1, 0}, {x, 1, 0}});
    }
    s.prims.resize(3);
    const Vec3f lo_all(0, -1, 0), hi_all(7, 1, 0);
    // root -> (3: interior over triangles 0 and 1, 4: leaf of triangle 2); 3 -> (1, 2).
    s.bvh.nodes = {BvhNode{lo_all, 3, hi_all, 0},
                   BvhNode{{0, -1, 0}, 0, {1, 1, 0}, 1},
                   BvhNode{{3, -1, 0}, 1, {4, 1, 0}, 1},
                   BvhNode{{0, -1, 0}, 1, {4, 1, 0}, 0},
                   BvhNode{{6, -1, 0}, 2, {7, 1, 0}, 1}};
    s.bvh.prim_index = {0, 1, 2};
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    expect_same_tree(s, t);
    EXPECT_FALSE(is_leaf_ref(t.nodes[0].left));  // node 0 holds the root's children (3, 4)
    EXPECT_TRUE(is_leaf_ref(t.nodes[0].right));
    const GeometryView g = s.view();
    for (int i = 0; i < 3; ++i) {
        const Ray ray{{float(3 * i) + 0.25f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
        const Hit h = intersect_closest(g, ray, kInfinity);
        EXPECT_EQ(h.prim, uint32_t(i));
        EXPECT_EQ(h.t, 5.0f);
        EXPECT_TRUE(intersect_any(g, ray, 6.0f));
        EXPECT_FALSE(intersect_any(g, ray, 4.0f));
    }
}

TEST(TraversalBvh, SingleLeafTreeGetsAnEmptySecondChild) {
    TestScene s;
    s.triangles.push_back(Triangle{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}});
    s.spheres.push_back(Sphere{{5, 0, 0}, 1.0f});
    s.build();
    ASSERT_EQ(s.bvh.nodes.size(), 1u);
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    ASSERT_EQ(t.nodes.size(), 1u);
    EXPECT_TRUE(is_leaf_ref(t.nodes[0].left));
    EXPECT_EQ(leaf_ref_count(t.nodes[0].left), 2u);
    const Box empty = right_box(t.nodes[0]);
    EXPECT_GT(empty.lo.x, empty.hi.x);
    const GeometryView g = s.view();
    EXPECT_EQ(intersect_closest(g, Ray{{0, 0, 3}, {0, 0, -1}}, kInfinity).prim, 0u);
    EXPECT_EQ(intersect_closest(g, Ray{{5, 0, 3}, {0, 0, -1}}, kInfinity).prim, 1u);
    EXPECT_FALSE(intersect_closest(g, Ray{{9, 0, 3}, {0, 0, -1}}, kInfinity).found());
}

TEST(TraversalBvh, LeafReferencesRoundTrip) {
    for (uint32_t first : {0u, 1u, 12345u, kMaxTraversalPrims - 1})
        for (uint32_t count = 1; count <= 8; ++count) {
            const uint32_t ref = child_ref(BvhNode{Vec3f(0.0f), first, Vec3f(1.0f), count}, 0);
            ASSERT_TRUE(is_leaf_ref(ref));
            EXPECT_EQ(leaf_ref_first(ref), first);
            EXPECT_EQ(leaf_ref_count(ref), count);
        }
    EXPECT_THROW(check_traversal_prim_count(uint64_t(kMaxTraversalPrims) + 1), std::length_error);
    EXPECT_NO_THROW(check_traversal_prim_count(kMaxTraversalPrims));
}

}  // namespace
}  // namespace wf
