// The wide traversal layout (accel/traversal_bvh.h) against the flat tree it
// is collapsed from and the primitives themselves: every leaf once, every
// child box holding the primitives below it (and no more), the stack bound on
// a tree as deep as the builders allow, the collapse's cost against a greedy
// collapse written here, full nodes on a perfect tree, the sorting networks,
// and single-leaf and empty trees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "accel/traversal_bvh_build.h"
#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

using test::TestScene;

struct Box {
    Vec3f lo, hi;
};

// The box traversal sees in slot s of n.
Box slot_box(const TraversalNode& n, uint32_t s) {
    return {{n.lo_x[s], n.lo_y[s], n.lo_z[s]}, {n.hi_x[s], n.hi_y[s], n.hi_z[s]}};
}
bool slot_is_empty(const TraversalNode& n, uint32_t s) {
    const Box b = slot_box(n, s);
    return b.lo.x > b.hi.x && b.lo.y > b.hi.y && b.lo.z > b.hi.z;
}

Box prim_box(const LeafPrim& p, uint32_t num_triangles) {
    if (float_to_bits(p.a.w) < num_triangles) {
        const Vec3f a(p.a.x, p.a.y, p.a.z), b(p.b.x, p.b.y, p.b.z), c(p.c.x, p.c.y, p.c.z);
        return {min(a, min(b, c)), max(a, max(b, c))};
    }
    const Vec3f c(p.a.x, p.a.y, p.a.z);
    return {c - Vec3f(p.b.x), c + Vec3f(p.b.x)};
}

struct WalkFigures {
    size_t interior = 0, children = 0, leaf_prims = 0;
    int max_pushes = 0;  // over root-to-leaf paths, the sum of (children - 1)
};

// Walks the traversal tree from the root. Checks that every node is reached
// once, that each child's box holds the boxes of all primitives below it, that
// it is no looser than float rounding, and that the
// leaf ranges cover the leaf primitives exactly once. Returns the union box of
// the primitives below `ref`.
Box walk(const TraversalArrays& t, uint32_t num_triangles, uint32_t ref, int pushes, std::vector<int>& reached,
         std::vector<int>& prim_seen, WalkFigures& f) {
    Box all{Vec3f(kInfinity), Vec3f(-kInfinity)};
    if (is_leaf_ref(ref)) {
        for (uint32_t i = leaf_ref_first(ref); i < leaf_ref_first(ref) + leaf_ref_count(ref); ++i) {
            EXPECT_LT(i, t.prims.size());
            if (i >= t.prims.size()) return all;
            ++prim_seen[i];
            const Box b = prim_box(t.prims[i], num_triangles);
            all = {min(all.lo, b.lo), max(all.hi, b.hi)};
        }
        f.max_pushes = std::max(f.max_pushes, pushes);
        return all;
    }
    EXPECT_LT(ref, t.nodes.size());
    if (ref >= t.nodes.size()) return all;
    ++reached[ref];
    const TraversalNode& n = t.nodes[ref];
    uint32_t count = 0;
    while (count < kTraversalWidth && !slot_is_empty(n, count)) ++count;
    for (uint32_t s = count; s < kTraversalWidth; ++s) EXPECT_TRUE(slot_is_empty(n, s)) << "slot " << s;
    ++f.interior;
    f.children += count;
    for (uint32_t s = 0; s < count; ++s) {
        const Box below = walk(t, num_triangles, n.child[s], pushes + int(count) - 1, reached, prim_seen, f);
        const Box seen = slot_box(n, s);
        for (int a = 0; a < 3; ++a) {
            EXPECT_LE(seen.lo[a], below.lo[a]) << "node " << ref << " slot " << s << " axis " << a;
            EXPECT_GE(seen.hi[a], below.hi[a]) << "node " << ref << " slot " << s << " axis " << a;
            // The builder's box is the primitives' box: a copy of it is no looser
            // than float rounding of a sphere's centre +- radius.
            const float spacing = (std::fabs(below.hi[a]) + std::fabs(below.lo[a])) * 2.4e-7f;
            EXPECT_GE(seen.lo[a], below.lo[a] - spacing) << "loose: node " << ref << " slot " << s;
            EXPECT_LE(seen.hi[a], below.hi[a] + spacing) << "loose: node " << ref << " slot " << s;
        }
        all = {min(all.lo, below.lo), max(all.hi, below.hi)};
    }
    return all;
}

WalkFigures expect_sound_tree(const TestScene& s, const TraversalArrays& t) {
    WalkFigures f;
    std::vector<int> reached(t.nodes.size(), 0), prim_seen(t.prims.size(), 0);
    walk(t, uint32_t(s.triangles.size()), 0u, 0, reached, prim_seen, f);
    for (size_t i = 0; i < reached.size(); ++i) EXPECT_EQ(reached[i], 1) << "traversal node " << i;
    for (size_t i = 0; i < prim_seen.size(); ++i) EXPECT_EQ(prim_seen[i], 1) << "leaf primitive " << i;
    EXPECT_LE(f.max_pushes, kTraversalStackSize);
    return f;
}

// The leaf primitives are the builder's prim_index, copied in order.
void expect_leaf_prims_copied(const TestScene& s, const TraversalArrays& t) {
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

TEST(TraversalBvh, CollapsedTreeHoldsEveryPrimitiveOnceInTightBoxes) {
    const TestScene s = test::random_soup(11, 4000, 500, {}, 10.0f);
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    const WalkFigures f = expect_sound_tree(s, t);
    expect_leaf_prims_copied(s, t);
    // The collapse fills nodes: most of them full.
    const size_t flat_interior = (s.bvh.nodes.size() - 1) / 2;
    std::printf("flat interior nodes %zu, traversal nodes %zu, mean width %.2f, deepest stack %d\n", flat_interior,
                t.nodes.size(), double(f.children) / double(f.interior), f.max_pushes);
    EXPECT_GT(double(f.children) / double(f.interior), 0.6 * kTraversalWidth);
}

// The sum of the surface areas of a collapsed tree's nodes: what the collapse's
// tables minimise (the rays that enter nodes, up to a factor).
double node_area_sum(const std::vector<TraversalNode>& nodes) {
    double sum = 0.0;
    for (const TraversalNode& n : nodes) {
        Box all{Vec3f(kInfinity), Vec3f(-kInfinity)};
        for (uint32_t s = 0; s < kTraversalWidth; ++s)
            if (!slot_is_empty(n, s)) all = {min(all.lo, slot_box(n, s).lo), max(all.hi, slot_box(n, s).hi)};
        const Vec3f d = all.hi - all.lo;
        sum += double(d.x) * d.y + double(d.y) * d.z + double(d.z) * d.x;
    }
    return sum;
}

// The same sum for the greedy top-down collapse (Wald et al.: a node opens its
// interior child of largest area while it has room), written independently.
double greedy_node_area_sum(const std::vector<BvhNode>& nodes) {
    auto area = [&](uint32_t i) {
        const Vec3f d = nodes[i].hi - nodes[i].lo;
        return double(d.x) * d.y + double(d.y) * d.z + double(d.z) * d.x;
    };
    double sum = 0.0;
    std::vector<uint32_t> queue{0};
    for (size_t i = 0; i < queue.size(); ++i) {
        sum += area(queue[i]);
        std::vector<uint32_t> kids{nodes[queue[i]].first, nodes[queue[i]].first + 1};
        for (;;) {
            int open = -1;
            for (size_t k = 0; k < kids.size(); ++k)
                if (nodes[kids[k]].count == 0 && (open < 0 || area(kids[k]) > area(kids[size_t(open)]))) open = int(k);
            if (open < 0 || kids.size() == kTraversalWidth) break;
            const uint32_t first = nodes[kids[size_t(open)]].first;
            kids[size_t(open)] = first;
            kids.push_back(first + 1);
        }
        for (uint32_t k : kids)
            if (nodes[k].count == 0) queue.push_back(k);
    }
    return sum;
}

TEST(TraversalBvh, CollapseCostsNoMoreThanTheGreedyOne) {
    // The tables choose the cheapest collapse of the binary tree (within the
    // stack bound, which a tree this shallow never meets), so no collapse, the
    // greedy one included, costs less.
    for (uint32_t seed : {3u, 4u, 5u}) {
        const TestScene s = test::random_soup(seed, 20000, 2000, {}, 30.0f);
        const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
        expect_sound_tree(s, t);
        const double tables = node_area_sum(t.nodes), greedy = greedy_node_area_sum(s.bvh.nodes);
        std::printf("node area: tables %.1f, greedy %.1f (ratio %.4f)\n", tables, greedy, tables / greedy);
        EXPECT_LE(tables, greedy * (1.0 + 1e-5));
        EXPECT_LT(tables, greedy * 0.999) << "the tables should find cheaper trees than the greedy collapse";
    }
}

TEST(TraversalBvh, TablesKeepTheStackWithinTwiceTheHeight) {
    // A node of height h over a leaf and a child whose cheapest use of three
    // slots needs 2h - 2 stack entries below them: three slots would make a
    // node needing 2h + 1, so the table must take the dearer binary step (2h - 1).
    const uint32_t h = 10;
    WideTable leaf{}, right{};
    for (uint32_t b = 1; b <= kTraversalWidth; ++b) {
        right.cost[b - 1] = 10.0f;
        right.choice[b - 1] = pack_wide_choice(false, 1, 1, 1, 2 * h - 2);
    }
    right.cost[2] = 1.0f;
    right.choice[2] = pack_wide_choice(true, 1, 2, 3, 2 * h - 2);
    const WideTable t = make_wide_table(leaf, right, 100.0f, h);
    EXPECT_EQ(wide_right_budget(t.choice[0]), 1u);
    EXPECT_EQ(wide_below(t.choice[0]), 2 * h - 1);
    EXPECT_EQ(t.cost[0], 110.0f);
    // One level higher the three slots fit (2 (h + 1) = 2h + 2 >= 2h + 1).
    const WideTable u = make_wide_table(leaf, right, 100.0f, h + 1);
    EXPECT_EQ(wide_right_budget(u.choice[0]), 3u);
    EXPECT_EQ(wide_below(u.choice[0]), 2 * h + 1);
    EXPECT_EQ(u.cost[0], 101.0f);
}

TEST(TraversalBvh, PerfectTreeCollapsesIntoFullNodes) {
    // 64 triangles in a row under a perfect binary tree (heap order: node i has
    // children 2i + 1 and 2i + 2): 64 leaves fill (64 - 1) / (W - 1) full nodes.
    TestScene s;
    const uint32_t leaves = 64;
    for (uint32_t i = 0; i < leaves; ++i) {
        const float x = float(i);
        s.triangles.push_back(Triangle{{x, -1, 0}, {x + 0.5f, -1, 0}, {x, 1, 0}});
    }
    s.prims.resize(leaves);
    s.bvh.nodes.resize(2 * leaves - 1);
    s.bvh.prim_index.resize(leaves);
    for (uint32_t i = 2 * leaves - 1; i-- > 0;) {
        if (i >= leaves - 1) {
            const uint32_t t = i - (leaves - 1);
            s.bvh.nodes[i] = BvhNode{Vec3f(float(t), -1, 0), t, Vec3f(float(t) + 0.5f, 1, 0), 1};
            s.bvh.prim_index[t] = t;
        } else {
            const BvhNode& l = s.bvh.nodes[2 * i + 1];
            const BvhNode& r = s.bvh.nodes[2 * i + 2];
            s.bvh.nodes[i] = BvhNode{min(l.lo, r.lo), 2 * i + 1, max(l.hi, r.hi), 0};
        }
    }
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    const WalkFigures f = expect_sound_tree(s, t);
    EXPECT_EQ(t.nodes.size(), (leaves - 1) / (kTraversalWidth - 1));
    EXPECT_EQ(f.children, t.nodes.size() * kTraversalWidth);
    const GeometryView g = s.view();
    for (uint32_t i = 0; i < leaves; ++i)
        EXPECT_EQ(intersect_closest(g, Ray{{float(i) + 0.1f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity).prim, i);
}

// A flat tree as deep as the builders allow (kBvhMaxDepth): a chain in which
// every interior node has a leaf and the next interior node as children. The
// collapse must keep every path's pushes within the traversal stack, and
// traversal must find every triangle.
TEST(TraversalBvh, DeepestFlatTreeFitsTheStack) {
    TestScene s;
    const uint32_t depth = kBvhMaxDepth;
    for (uint32_t i = 0; i <= depth; ++i) {
        const float x = float(i);
        s.triangles.push_back(Triangle{{x, -1, 0}, {x + 0.5f, -1, 0}, {x, 1, 0}});
    }
    s.prims.resize(s.triangles.size());
    // node 0 = root; interior node at depth d is node 2d - 1 (d > 0) with children
    // 2d + 1 (leaf of triangle d) and 2d + 2 (next interior, or the last leaf).
    s.bvh.nodes.clear();
    auto box_from = [&](uint32_t first_tri) {
        return std::pair<Vec3f, Vec3f>{Vec3f(float(first_tri), -1, 0), Vec3f(float(depth) + 0.5f, 1, 0)};
    };
    s.bvh.nodes.resize(2 * depth + 1);
    for (uint32_t d = 0; d < depth; ++d) {
        const uint32_t self = d == 0 ? 0 : 2 * d;
        const auto [lo, hi] = box_from(d);
        s.bvh.nodes[self] = BvhNode{lo, 2 * d + 1, hi, 0};
        s.bvh.nodes[2 * d + 1] = BvhNode{Vec3f(float(d), -1, 0), d, Vec3f(float(d) + 0.5f, 1, 0), 1};
    }
    s.bvh.nodes[2 * depth] = BvhNode{Vec3f(float(depth), -1, 0), depth, Vec3f(float(depth) + 0.5f, 1, 0), 1};
    s.bvh.prim_index.resize(depth + 1);
    for (uint32_t i = 0; i <= depth; ++i) s.bvh.prim_index[i] = i;
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    const WalkFigures f = expect_sound_tree(s, t);
    std::printf("chain of depth %u: %zu traversal nodes, deepest stack %d of %d\n", depth, t.nodes.size(),
                f.max_pushes, kTraversalStackSize);
    const GeometryView g = s.view();
    for (uint32_t i = 0; i <= depth; ++i) {
        const Ray ray{{float(i) + 0.1f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
        EXPECT_EQ(intersect_closest(g, ray, kInfinity).prim, i);
        EXPECT_TRUE(intersect_any(g, ray, 6.0f));
    }
}

// A flat tree whose root's children are not in slots 1 and 2 (the GPU builder
// numbers pairs by its own ranks): traversal must find what brute force finds.
TEST(TraversalBvh, RootChildrenAnywhereInTheFlatTree) {
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
    expect_sound_tree(s, t);
    ASSERT_EQ(t.nodes.size(), 1u);  // the three leaves collapse into the root
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

TEST(TraversalBvh, SingleLeafTreeIsARootWithOneChild) {
    TestScene s;
    s.triangles.push_back(Triangle{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}});
    s.spheres.push_back(Sphere{{5, 0, 0}, 1.0f});
    s.build();
    ASSERT_EQ(s.bvh.nodes.size(), 1u);
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    ASSERT_EQ(t.nodes.size(), 1u);
    expect_sound_tree(s, t);
    EXPECT_TRUE(is_leaf_ref(t.nodes[0].child[0]));
    EXPECT_EQ(leaf_ref_count(t.nodes[0].child[0]), 2u);
    for (uint32_t slot = 1; slot < kTraversalWidth; ++slot) EXPECT_TRUE(slot_is_empty(t.nodes[0], slot));
    const GeometryView g = s.view();
    EXPECT_EQ(intersect_closest(g, Ray{{0, 0, 3}, {0, 0, -1}}, kInfinity).prim, 0u);
    EXPECT_EQ(intersect_closest(g, Ray{{5, 0, 3}, {0, 0, -1}}, kInfinity).prim, 1u);
    EXPECT_FALSE(intersect_closest(g, Ray{{9, 0, 3}, {0, 0, -1}}, kInfinity).found());
}

TEST(TraversalBvh, EmptySceneHasNoEnterableChild) {
    TestScene s;
    s.build();
    const TraversalArrays t = make_traversal_arrays(s.bvh.nodes, s.bvh.prim_index, s.triangles, s.spheres);
    ASSERT_EQ(t.nodes.size(), 1u);
    for (uint32_t slot = 0; slot < kTraversalWidth; ++slot) EXPECT_TRUE(slot_is_empty(t.nodes[0], slot));
}

template <int N>
void expect_network_sorts(void (*sort)(uint32_t*)) {
    // 0-1 principle: a comparator network that sorts every 0/1 input sorts all.
    for (uint32_t bits = 0; bits < (1u << N); ++bits) {
        uint32_t k[N];
        for (int i = 0; i < N; ++i) k[i] = (bits >> i) & 1u;
        sort(k);
        for (int i = 1; i < N; ++i) ASSERT_LE(k[i - 1], k[i]) << "input " << bits;
    }
    test::Random rng(9);
    for (int trial = 0; trial < 1000; ++trial) {
        uint32_t k[N], ref[N];
        for (int i = 0; i < N; ++i) ref[i] = k[i] = uint32_t(rng.uniform(0.0f, 1e6f));
        sort(k);
        std::sort(ref, ref + N);
        for (int i = 0; i < N; ++i) ASSERT_EQ(k[i], ref[i]);
    }
}

TEST(TraversalBvh, SortingNetworksSortEveryInput) {
    expect_network_sorts<4>(sort4);
    expect_network_sorts<8>(sort8);
}

TEST(TraversalBvh, LeafReferencesRoundTrip) {
    for (uint32_t first : {0u, 1u, 12345u, kMaxTraversalPrims - 1})
        for (uint32_t count = 1; count <= 8; ++count) {
            const uint32_t ref = make_leaf_ref(first, count);
            ASSERT_TRUE(is_leaf_ref(ref));
            EXPECT_EQ(leaf_ref_first(ref), first);
            EXPECT_EQ(leaf_ref_count(ref), count);
        }
    EXPECT_THROW(check_traversal_prim_count(uint64_t(kMaxTraversalPrims) + 1), std::length_error);
    EXPECT_NO_THROW(check_traversal_prim_count(kMaxTraversalPrims));
}

}  // namespace
}  // namespace wf
