#include "accel/traverse.h"

#include <gtest/gtest.h>

#include "accel/float_error.h"
#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

using test::brute_force_any;
using test::brute_force_closest;
using test::Random;
using test::TestScene;

// Exact agreement on t; on an exact tie of t the two may name different
// primitives, so a different prim must itself report that same t.
void expect_same_closest(const GeometryView& g, const Ray& ray, const Hit& bvh, const Hit& ref, bool allow_ties) {
    ASSERT_EQ(bvh.found(), ref.found());
    if (!ref.found()) return;
    EXPECT_EQ(bvh.t, ref.t);
    if (bvh.prim == ref.prim || !allow_ties) {
        EXPECT_EQ(bvh.prim, ref.prim);
        EXPECT_EQ(bvh.u, ref.u);
        EXPECT_EQ(bvh.v, ref.v);
    } else {
        Hit h;
        ASSERT_TRUE(intersect_prim(g, bvh.prim, ray, kInfinity, &h));
        EXPECT_EQ(h.t, ref.t);
    }
}

struct SoupCase {
    uint32_t seed, triangles, spheres;
    Vec3f center;
    float extent;
};

class TraverseSoup : public ::testing::TestWithParam<SoupCase> {};

TEST_P(TraverseSoup, ClosestHitMatchesBruteForce) {
    SoupCase c = GetParam();
    TestScene scene = test::random_soup(c.seed, c.triangles, c.spheres, c.center, c.extent);
    GeometryView g = scene.view();
    Random rng(c.seed + 1000);
    int hits = 0;
    for (int i = 0; i < 2500; ++i) {
        Ray ray{c.center + rng.point_in_box(-1.2f * c.extent, 1.2f * c.extent), rng.unit_vector()};
        Hit bvh = intersect_closest(g, ray, kInfinity);
        Hit ref = brute_force_closest(g, ray, kInfinity);
        expect_same_closest(g, ray, bvh, ref, false);
        // Leaves tested after the next node is popped, as on the GPU (where lanes also
        // wait for each other: tests/gpu/traverse_cuda_test.cpp).
        expect_same_closest(g, ray, intersect_closest<LeafOrder::kPostponed>(g, ray, kInfinity), ref, true);
        hits += ref.found();
    }
    EXPECT_GT(hits, 250);  // the comparison is not vacuous
}

TEST_P(TraverseSoup, AnyHitMatchesBruteForce) {
    SoupCase c = GetParam();
    TestScene scene = test::random_soup(c.seed, c.triangles, c.spheres, c.center, c.extent);
    GeometryView g = scene.view();
    Random rng(c.seed + 2000);
    int occluded = 0, clear = 0;
    for (int i = 0; i < 2500; ++i) {
        Ray ray{c.center + rng.point_in_box(-1.2f * c.extent, 1.2f * c.extent), rng.unit_vector()};
        float t_max = rng.uniform(0.0f, 0.6f * c.extent);
        bool any = intersect_any(g, ray, t_max);
        EXPECT_EQ(any, brute_force_any(g, ray, t_max));
        EXPECT_EQ(intersect_any<LeafOrder::kPostponed>(g, ray, t_max), any);  // leaves after the next node
        (any ? occluded : clear)++;
    }
    EXPECT_GT(occluded, 60);
    EXPECT_GT(clear, 60);
}

TEST_P(TraverseSoup, ClosestHitIsTheEdgeOfAnyHit) {
    // Nothing is hit before the closest hit; the closest hit itself is.
    SoupCase c = GetParam();
    TestScene scene = test::random_soup(c.seed, c.triangles, c.spheres, c.center, c.extent);
    GeometryView g = scene.view();
    Random rng(c.seed + 3000);
    for (int i = 0; i < 2000; ++i) {
        Ray ray{c.center + rng.point_in_box(-c.extent, c.extent), rng.unit_vector()};
        Hit h = intersect_closest(g, ray, kInfinity);
        if (!h.found()) {
            EXPECT_FALSE(intersect_any(g, ray, kInfinity));
            continue;
        }
        EXPECT_FALSE(intersect_any(g, ray, h.t));
        EXPECT_TRUE(intersect_any(g, ray, next_float_up(h.t)));
        Hit limited = intersect_closest(g, ray, h.t);
        EXPECT_FALSE(limited.found());
        EXPECT_EQ(limited.t, h.t);  // a miss reports t_max
    }
}

INSTANTIATE_TEST_SUITE_P(Traverse, TraverseSoup,
                         ::testing::Values(SoupCase{1, 3000, 0, {}, 10.0f}, SoupCase{2, 2000, 300, {}, 10.0f},
                                           SoupCase{3, 0, 500, {}, 10.0f}, SoupCase{4, 5, 2, {}, 2.0f},
                                           SoupCase{5, 2000, 200, {1e4f, -2e4f, 5e3f}, 10.0f}));

TEST(Traverse, TriangleWithoutAPlaneIsNeverHit) {
    // Three collinear points (a, a + d, a + s d): in ray space, after rounding, the
    // watertight test alone reports a hit on this ray (found by a search over
    // random cases). The leaf primitive's flag, set once when the layout is made,
    // must keep traversal from reporting it, as intersect_triangle's own check does.
    const Triangle line{{0x1.a39338p-2f, 0x1.1d0ce8p-2f, 0x1.276abp-3f},
                        {0x1.cecfcp-4f, 0x1.742ffcp-1f, 0x1.4856c8p-1f},
                        {0x1.3a9b22p+0f, -0x1.eb76f8p-1f, -0x1.3a5462p+0f}};
    const Ray ray{{0x1.02a026p+1f, -0x1.a2b448p+0f, 0x1.410bb4p+1f}, {-0x1.29cb3ep-2f, 0x1.2ef006p-2f, -0x1.d1dda2p-1f}};
    ASSERT_TRUE(triangle_is_degenerate(line));
    Hit h;
    ASSERT_TRUE(intersect_plane_triangle(line, ray, RayTriangleQuery::from(ray), kInfinity, &h));  // the case is live
    EXPECT_FALSE(intersect_triangle(line, ray, kInfinity, &h));

    TestScene scene;
    scene.triangles = {line, Triangle{{5, 5, 5}, {6, 5, 5}, {5, 6, 5}}};
    scene.build();
    const GeometryView g = scene.view();
    EXPECT_EQ(scene.traversal.prims.size(), 2u);
    for (const LeafPrim& p : scene.traversal.prims)
        EXPECT_EQ(p.b.w, float_to_bits(p.a.w) == 0 ? 1.0f : 0.0f);  // primitive 0 is the line
    EXPECT_FALSE(intersect_closest(g, ray, kInfinity).found());
    EXPECT_FALSE(intersect_any(g, ray, kInfinity));
}

TEST(Traverse, EmptySceneMisses) {
    TestScene scene;
    scene.build();
    ASSERT_EQ(scene.bvh.nodes.size(), 1u);
    EXPECT_EQ(scene.bvh.nodes[0].count, 0u);
    EXPECT_GT(scene.bvh.nodes[0].lo.x, scene.bvh.nodes[0].hi.x);
    GeometryView g = scene.view();
    Random rng(5);
    for (int i = 0; i < 100; ++i) {
        Ray ray{rng.point_in_box(-5.0f, 5.0f), rng.unit_vector()};
        Hit h = intersect_closest(g, ray, kInfinity);
        EXPECT_FALSE(h.found());
        EXPECT_EQ(h.t, kInfinity);
        EXPECT_FALSE(intersect_any(g, ray, kInfinity));
    }
    // The empty root box misses on its own too, even for axis-aligned rays.
    for (Vec3f dir : {Vec3f(1, 0, 0), Vec3f(-0.0f, 0, 1), Vec3f(0, -1, -0.0f)}) {
        float t;
        EXPECT_FALSE(intersect_box(scene.bvh.nodes[0], RayBoxQuery::from(Ray{{0, 0, 0}, dir}), kInfinity, &t));
    }
}

TEST(Traverse, BoxSlabHandlesZeroDirectionComponents) {
    BvhNode box{{0.0f, 0.0f, 0.0f}, 0, {1.0f, 1.0f, 1.0f}, 1};
    float t;
    auto hits = [&](Vec3f o, Vec3f d) { return intersect_box(box, RayBoxQuery::from(Ray{o, d}), kInfinity, &t); };
    for (float zero : {0.0f, -0.0f}) {
        EXPECT_TRUE(hits({0.5f, 0.5f, -1.0f}, {zero, zero, 1.0f}));
        EXPECT_TRUE(hits({0.0f, 0.5f, -1.0f}, {zero, zero, 1.0f}));  // origin on the lo plane of x
        EXPECT_TRUE(hits({1.0f, 1.0f, -1.0f}, {zero, zero, 1.0f}));  // on the hi planes of x and y
        EXPECT_TRUE(hits({0.0f, 0.0f, 2.0f}, {zero, zero, -1.0f}));
        EXPECT_FALSE(hits({next_float_down(0.0f), 0.5f, -1.0f}, {zero, zero, 1.0f}));
        EXPECT_FALSE(hits({next_float_up(1.0f), 0.5f, -1.0f}, {zero, zero, 1.0f}));
        EXPECT_FALSE(hits({0.5f, 0.5f, 2.0f}, {zero, zero, 1.0f}));  // box behind the ray
    }
}

TEST(Traverse, ZeroDirectionComponentsMatchBruteForce) {
    // Axis-aligned unit squares on integer planes and spheres on integer
    // centres; rays start on integer coordinates (on box planes) and run along
    // axes and diagonals of coordinate planes, with +0 and -0 components.
    TestScene scene;
    Random rng(11);
    for (int i = 0; i < 600; ++i) {
        int axis = i % 3;
        Vec3f o(float(int(rng.uniform(-6, 6))), float(int(rng.uniform(-6, 6))), float(int(rng.uniform(-6, 6))));
        Vec3f a, b;
        a[(axis + 1) % 3] = 1.0f;
        b[(axis + 2) % 3] = 1.0f;
        scene.triangles.push_back({o, o + a, o + b});
        scene.triangles.push_back({o + a, o + a + b, o + b});
    }
    for (int i = 0; i < 40; ++i)
        scene.spheres.push_back(
            {Vec3f(float(int(rng.uniform(-6, 6))), float(int(rng.uniform(-6, 6))), float(int(rng.uniform(-6, 6)))),
             0.5f});
    scene.build();
    GeometryView g = scene.view();

    const float z[2] = {0.0f, -0.0f};
    const float s = std::sqrt(0.5f);
    int hits = 0;
    for (int i = 0; i < 3000; ++i) {
        Vec3f o(float(int(rng.uniform(-7, 7))), float(int(rng.uniform(-7, 7))), float(int(rng.uniform(-7, 7))));
        if (i % 2) o = o + Vec3f(0.5f, 0.25f, 0.5f) * float(i % 3);  // some origins inside cells
        float z0 = z[i % 2], z1 = z[(i / 2) % 2];
        float sign = (i / 4) % 2 ? 1.0f : -1.0f;
        Vec3f dir;
        switch ((i / 8) % 6) {
            case 0: dir = {sign, z0, z1}; break;
            case 1: dir = {z0, sign, z1}; break;
            case 2: dir = {z0, z1, sign}; break;
            case 3: dir = {sign * s, s, z0}; break;
            case 4: dir = {z0, s, sign * s}; break;
            default: dir = {s, z1, sign * s}; break;
        }
        Ray ray{o, dir};
        Hit bvh = intersect_closest(g, ray, kInfinity);
        Hit ref = brute_force_closest(g, ray, kInfinity);
        expect_same_closest(g, ray, bvh, ref, true);  // shared edges tie
        EXPECT_EQ(intersect_any(g, ray, 3.0f), brute_force_any(g, ray, 3.0f));
        hits += ref.found();
    }
    EXPECT_GT(hits, 500);
}

}  // namespace
}  // namespace wf
