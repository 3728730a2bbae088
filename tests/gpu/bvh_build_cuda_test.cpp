// The GPU builder (H-PLOC) against the CPU builder and brute force: the same
// structural invariants, the same hits from the same traversal code (run here
// on the host over the downloaded tree), degenerate inputs, SAH quality.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "accel/bvh_build_gpu.h"
#include "accel/bvh_quality.h"
#include "tests/accel/accel_test_scene.h"
#include "tests/common/bvh_checks.h"
#include "tests/gpu/bvh_test_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

#if !defined(WF_HAVE_CUDA)
TEST(GpuBvh, NeedsTheCudaBackend) { GTEST_SKIP() << "this build has no CUDA backend"; }
#else
using test::mesh_like;
using test::sphere_field;
using test::terrain;
using test::TestScene;

using test::expect_consistent_info;
using test::gpu_tree;
using test::GpuTree;

TEST(GpuBvh, InvariantsHoldOnRandomSoup) {
    WF_REQUIRE_CUDA_DEVICE();
    GpuTree t = gpu_tree(test::random_soup(21, 5000, 500));
    test::TreeFacts f = test::check_bvh_invariants(t.scene.triangles, t.scene.spheres, t.scene.bvh);
    EXPECT_LE(f.max_leaf_size, kBvhMaxLeafSize);
    EXPECT_EQ(t.scene.bvh.prim_index.size(), 5500u);
    expect_consistent_info(t);
}

TEST(GpuBvh, HitsEqualTheCpuTreesOnRandomRays) {
    // 100k random rays through a soup of triangles and spheres: the GPU tree and
    // the CPU tree give the same closest hit and the same any-hit answer.
    WF_REQUIRE_CUDA_DEVICE();
    TestScene cpu = test::random_soup(5, 20000, 2000, {}, 30.0f);
    GpuTree gpu = gpu_tree(cpu);
    EXPECT_GT(test::expect_same_hits(cpu, gpu.scene), 20000);  // the rays do hit things
}

// The scenes below hold more than max(4096, n / 256) primitives where they can, so
// that the top pass (bvh_top_sah.cuh) rebuilds their trees' tops too.
TEST(GpuBvh, HitsEqualBruteForce) {
    WF_REQUIRE_CUDA_DEVICE();
    GpuTree t = gpu_tree(test::random_soup(9, 9000, 300));
    const GeometryView g = t.scene.view();
    test::Random rng(8);
    for (int i = 0; i < 10000; ++i) {
        Ray ray{rng.point_in_box(-12.0f, 12.0f), rng.unit_vector()};
        Hit h = intersect_closest(g, ray, kInfinity), ref = test::brute_force_closest(g, ray, kInfinity);
        ASSERT_EQ(h.t, ref.t) << "ray " << i;
        ASSERT_EQ(intersect_any(g, ray, 5.0f), test::brute_force_any(g, ray, 5.0f)) << "ray " << i;
    }
}

TEST(GpuBvh, EmptyAndSinglePrimitive) {
    WF_REQUIRE_CUDA_DEVICE();
    GpuTree empty = gpu_tree(TestScene{});
    ASSERT_EQ(empty.scene.bvh.nodes.size(), 1u);
    EXPECT_FALSE(intersect_closest(empty.scene.view(), Ray{{0, 0, 5}, {0, 0, -1}}, kInfinity).found());

    TestScene one;
    one.spheres.push_back({{1.0f, 2.0f, 3.0f}, 0.5f});
    GpuTree single = gpu_tree(one);
    ASSERT_EQ(single.scene.bvh.nodes.size(), 1u);
    EXPECT_EQ(single.scene.bvh.nodes[0].count, 1u);
    EXPECT_EQ(intersect_closest(single.scene.view(), Ray{{1, 2, 10}, {0, 0, -1}}, kInfinity).prim, 0u);

    TestScene two;
    two.triangles.push_back({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    two.spheres.push_back({{5, 5, 5}, 1.0f});
    GpuTree pair = gpu_tree(two);
    test::check_bvh_invariants(pair.scene.triangles, pair.scene.spheres, pair.scene.bvh);
    EXPECT_EQ(intersect_closest(pair.scene.view(), Ray{{5, 5, 10}, {0, 0, -1}}, kInfinity).prim, 1u);
}

// The GPU tree of `s`: H-PLOC starts from `clusters` clusters, the tree is sound,
// and `ray` hits primitive `prim`.
void expect_clusters(const char* what, const TestScene& s, uint32_t clusters, const Ray& ray, uint32_t prim) {
    SCOPED_TRACE(what);
    GpuTree t = gpu_tree(s);
    EXPECT_EQ(t.info.clusters, clusters);
    test::check_bvh_invariants(t.scene.triangles, t.scene.spheres, t.scene.bvh);
    expect_consistent_info(t);
    EXPECT_EQ(intersect_closest(t.scene.view(), ray, kInfinity).prim, prim);
}

TEST(GpuBvh, NeighboursPairWhenEachIsTheOthersNearest) {
    // Before H-PLOC, sorted neighbours pair when each is the other's nearest of its
    // two (bvh_pairs.cuh). Spheres of radius 0.1 on the x axis in triplets at 0, 1
    // and 1.4, the triplets 100 apart: each triplet's last two pair and its first
    // stays alone, so 300 spheres start H-PLOC as 200 clusters.
    WF_REQUIRE_CUDA_DEVICE();
    TestScene triplets;
    for (int k = 0; k < 100; ++k)
        for (float x : {0.0f, 1.0f, 1.4f}) triplets.spheres.push_back({{100.0f * float(k) + x, 0.0f, 0.0f}, 0.1f});
    expect_clusters("triplets", triplets, 200, Ray{{701.4f, 0.0f, 5.0f}, {0, 0, -1}}, 23);

    // Two primitives that pair are the whole tree (H-PLOC has nothing to merge).
    TestScene two;
    two.spheres = {{{0, 0, 0}, 1.0f}, {{3, 0, 0}, 1.0f}};
    expect_clusters("two", two, 1, Ray{{3, 0, 10}, {0, 0, -1}}, 1);

    // A large primitive never pairs with a small one (bvh_build_gpu.cu sorts the
    // large ones last for H-PLOC to meet them near the root). A small sphere, then
    // three large triangles 4000 wide at heights -1, 3000 and 6000: by area alone
    // the sphere would pair with the lowest triangle, and the other two with each
    // other (2 clusters); as it is, the lowest triangle's nearest is the middle one
    // (3001 against 3000 up from there), so only the top two pair (3 clusters).
    TestScene mixed;
    mixed.spheres.push_back({{0, 0, 0}, 0.01f});
    for (float z : {-1.0f, 3000.0f, 6000.0f})
        mixed.triangles.push_back({{-2000, -2000, z}, {2000, -2000, z}, {2000, 2000, z}});
    expect_clusters("mixed", mixed, 3, Ray{{0, 0, 10}, {0, 0, -1}}, 3);
}

TEST(GpuBvh, DuplicatesAndCoincidentSpheres) {
    // Equal Morton codes everywhere: the index breaks ties, and PLOC's merges of
    // equal boxes still make leaves of at most kBvhMaxLeafSize.
    WF_REQUIRE_CUDA_DEVICE();
    GpuTree d = gpu_tree(test::stacked_triangles());
    test::TreeFacts f = test::check_bvh_invariants(d.scene.triangles, d.scene.spheres, d.scene.bvh);
    EXPECT_LE(f.max_leaf_size, kBvhMaxLeafSize);
    test::expect_stack_hit(d.scene);

    TestScene coincident;
    coincident.spheres.assign(300000, Sphere{{1.0f, -2.0f, 3.0f}, 0.25f});
    GpuTree c = gpu_tree(coincident);
    // Equal boxes tie on area everywhere: the tie-break of bvh_pairs.cuh pairs
    // every other boundary (0 with 1, 2 with 3, ...), not only the first.
    EXPECT_EQ(c.info.clusters, 150000u);
    f = test::check_bvh_invariants(c.scene.triangles, c.scene.spheres, c.scene.bvh);
    EXPECT_LE(f.max_leaf_size, kBvhMaxLeafSize);
    expect_consistent_info(c);
    EXPECT_TRUE(intersect_any(c.scene.view(), Ray{{1, -2, 10}, {0, 0, -1}}, kInfinity));
}

TEST(GpuBvh, DegenerateTrianglesAreBuiltAndTraversed) {
    // Points and segments among ordinary triangles: zero-area boxes and equal keys.
    WF_REQUIRE_CUDA_DEVICE();
    TestScene s = test::random_soup(12, 6000, 0);
    test::add_degenerate_triangles(s);
    GpuTree t = gpu_tree(s);
    test::check_bvh_invariants(t.scene.triangles, t.scene.spheres, t.scene.bvh);
    const GeometryView g = t.scene.view();
    test::Random rng(4);
    for (int i = 0; i < 5000; ++i) {
        Ray ray{rng.point_in_box(-12.0f, 12.0f), rng.unit_vector()};
        ASSERT_EQ(intersect_closest(g, ray, kInfinity).t, test::brute_force_closest(g, ray, kInfinity).t);
    }
}

TEST(GpuBvh, NanVerticesDoNotBreakTheOthers) {
    // A primitive with NaN vertices is never hit; every other one still is.
    WF_REQUIRE_CUDA_DEVICE();
    TestScene s = test::random_soup(14, 9000, 100);
    const float nan = std::nanf("");
    s.triangles[17] = {{nan, nan, nan}, {nan, 0, 0}, {0, nan, 0}};
    s.triangles[1000].p1.y = nan;
    GpuTree t = gpu_tree(s);
    std::vector<int> seen(t.scene.triangles.size() + t.scene.spheres.size(), 0);
    for (uint32_t p : t.scene.bvh.prim_index) ++seen.at(p);
    for (size_t p = 0; p < seen.size(); ++p) EXPECT_EQ(seen[p], 1) << "prim " << p;
    const GeometryView g = t.scene.view();
    test::Random rng(15);
    for (int i = 0; i < 5000; ++i) {
        Ray ray{rng.point_in_box(-12.0f, 12.0f), rng.unit_vector()};
        ASSERT_EQ(intersect_closest(g, ray, kInfinity).t, test::brute_force_closest(g, ray, kInfinity).t);
    }
}

TEST(GpuBvh, SahWithinTenPercentOfTheCpuBuilder) {
    WF_REQUIRE_CUDA_DEVICE();
    for (TestScene s :
         {mesh_like(300), test::random_soup(2, 100000, 10000, {}, 100.0f), sphere_field(50000), terrain(500)}) {
        const double cpu = measure_bvh(s.bvh).sah;
        GpuTree t = gpu_tree(s);
        std::printf("SAH: CPU binned %.3f, GPU H-PLOC %.3f (ratio %.3f), %zu primitives\n", cpu, t.info.sah,
                    t.info.sah / cpu, s.triangles.size() + s.spheres.size());
        EXPECT_LE(t.info.sah, 1.10 * cpu);
        expect_consistent_info(t);
    }
}

TEST(GpuBvh, DepthIsReportedForDeepTrees) {
    // Concentric spheres nest every box in the next: PLOC can only merge the two
    // innermost at a time, so the tree is a chain far deeper than the traversal
    // stack. The builder must report that depth (callers fall back on it). 5000 of
    // them: the top pass walks the chain to ~900 one-sphere subtrees, then must leave
    // a tree that no split of its top could bring within the stack as it is.
    WF_REQUIRE_CUDA_DEVICE();
    TestScene s;
    float r = 1.0f;
    for (int i = 0; i < 5000; ++i, r *= 1.004f) s.spheres.push_back({{0, 0, 0}, r});
    GpuTree t = gpu_tree(s);
    expect_consistent_info(t);
    test::check_bvh_invariants(t.scene.triangles, t.scene.spheres, t.scene.bvh);
    std::printf("concentric spheres: depth %u\n", t.info.depth);
    EXPECT_GT(t.info.depth, kBvhMaxDepth);
}

// Walks two wide trees from their roots together: the same child boxes
// everywhere, interior children numbered in each tree's own order, and leaves
// that hold the same primitives (each tree places its leaves' primitives in its
// own order). Counts the nodes visited.
struct WideTree {
    const std::vector<TraversalNode>& nodes;
    const std::vector<LeafPrim>& prims;
};
size_t expect_same_wide_tree(const WideTree& a, const WideTree& b, uint32_t ia, uint32_t ib) {
    EXPECT_LT(ia, a.nodes.size());
    EXPECT_LT(ib, b.nodes.size());
    if (ia >= a.nodes.size() || ib >= b.nodes.size()) return 0;
    TraversalNode na = a.nodes[ia], nb = b.nodes[ib];
    size_t visited = 1;
    for (uint32_t s = 0; s < kTraversalWidth; ++s) {
        const uint32_t ra = na.child[s], rb = nb.child[s];
        if (is_leaf_ref(ra) && is_leaf_ref(rb)) {
            const uint32_t count = leaf_ref_count(ra);
            EXPECT_EQ(count, leaf_ref_count(rb)) << "node " << ia << " / " << ib << " slot " << s;
            const uint32_t fa = leaf_ref_first(ra), fb = leaf_ref_first(rb);
            if (count == leaf_ref_count(rb) && fa + count <= a.prims.size() && fb + count <= b.prims.size())
                EXPECT_EQ(std::memcmp(&a.prims[fa], &b.prims[fb], count * sizeof(LeafPrim)), 0)
                    << "leaf of node " << ia << " / " << ib << " slot " << s;
        } else if (ra != 0 || rb != 0) {  // 0 in an empty slot, never an interior child (the root)
            EXPECT_FALSE(is_leaf_ref(ra) || is_leaf_ref(rb)) << "node " << ia << " / " << ib << " slot " << s;
            if (!is_leaf_ref(ra) && !is_leaf_ref(rb)) visited += expect_same_wide_tree(a, b, ra, rb);
        }
        na.child[s] = nb.child[s] = 0;
    }
    EXPECT_EQ(std::memcmp(&na, &nb, sizeof(TraversalNode)), 0) << "node " << ia << " / " << ib;
    return visited;
}

TEST(GpuBvh, WideLayoutWrittenOnTheDeviceEqualsTheHostCollapse) {
    // The renderer's wide layout is read from the tables the GPU builder fills as
    // it builds; the host's collapse of the same binary tree (checked against the
    // primitives in traversal_bvh_test) must give the same nodes and leaves.
    WF_REQUIRE_CUDA_DEVICE();
    // Nested spheres make a tree deeper than 32 levels (each node's budget follows
    // links up to the root from as far as kBvhMaxDepth levels down). Both orders of
    // the budgets' threads: descendants first, a node's links are mostly not yet
    // written and are made from the tree, or are written while it reads them.
    TestScene nested;
    float r = 1.0f;
    for (int i = 0; i < 60; ++i, r *= 1.05f) nested.spheres.push_back({{0, 0, 0}, r});
    // Triangles without a plane among others: each leaf primitive's flag (LeafPrim b.w),
    // decided on the device, must be the host's.
    TestScene flat = test::random_soup(12, 2000, 0, {}, 5.0f);
    for (int i = 0; i < 200; ++i) {
        const Vec3f a = flat.triangles[i].p0, d = flat.triangles[i].p1 - a;
        flat.triangles[i] = i % 2 ? Triangle{a, a + d, a + d * (0.37f * float(i % 7) - 1.1f)} : Triangle{a, a, a + d};
    }
    // Two spheres that pair before H-PLOC: the pair is the root (bvh_pairs.cuh).
    TestScene paired;
    paired.spheres = {{{0, 0, 0}, 1.0f}, {{3, 0, 0}, 1.0f}};
    std::vector<TestScene> scenes{test::random_soup(41, 30000, 3000, {}, 20.0f), nested, flat, test::random_soup(7, 5, 4),
                                  test::random_soup(8, 3, 0), test::random_soup(10, 2, 0), paired,
                                  test::random_soup(9, 0, 1), TestScene{}};
    // Both methods' trees (bvh_sah_gpu.cu fills the same tables); the nested spheres'
    // depth is H-PLOC's.
    for (const GpuBvhMethod method : {GpuBvhMethod::kHploc, GpuBvhMethod::kSah}) {
        for (const TestScene& s : scenes) {
            for (int rep = 0; rep < 4; ++rep) {  // the device's numbering may differ from run to run
                const BudgetOrder order = rep < 2 ? BudgetOrder::kAncestorsFirst : BudgetOrder::kDescendantsFirst;
                const GpuTraversalTree t = traversal_tree_on_gpu(s.triangles, s.spheres, order, method);
                const TraversalArrays host =
                    make_traversal_arrays(t.flat.nodes, t.flat.prim_index, s.triangles, s.spheres);
                EXPECT_LE(t.traversal.nodes.size(), t.info.max_traversal_nodes);
                if (&s == &scenes[1] && method == GpuBvhMethod::kHploc) {
                    EXPECT_GT(t.info.depth, 32u);
                    EXPECT_LE(t.info.depth, kBvhMaxDepth);
                }
                if (&s == &scenes[2]) {  // the flags are there to compare
                    size_t flagged = 0;
                    for (const LeafPrim& p : t.traversal.prims) flagged += p.b.w != 0.0f;
                    EXPECT_GE(flagged, 100u);
                }
                ASSERT_EQ(t.traversal.nodes.size(), host.nodes.size());
                ASSERT_EQ(t.traversal.prims.size(), host.prims.size());
                EXPECT_EQ(expect_same_wide_tree({t.traversal.nodes, t.traversal.prims}, {host.nodes, host.prims}, 0, 0),
                          host.nodes.size());
                if (rep == 0)
                    std::printf("%s, %zu primitives: %zu flat nodes (depth %u), %zu wide nodes\n",
                                gpu_bvh_method_name(method), host.prims.size(), t.flat.nodes.size(), t.info.depth,
                                host.nodes.size());
            }
        }
    }
}

TEST(GpuBvh, RebuildReusesTheBuilderAndGivesTheSameTree) {
    WF_REQUIRE_CUDA_DEVICE();
    TestScene s = test::random_soup(31, 4000, 100);
    Bvh a = build_bvh_on_gpu(s.triangles, s.spheres), b = build_bvh_on_gpu(s.triangles, s.spheres);
    EXPECT_EQ(measure_bvh(a).sah, measure_bvh(b).sah);
    EXPECT_EQ(a.nodes.size(), b.nodes.size());
}

#endif  // WF_HAVE_CUDA

}  // namespace
}  // namespace wf
