#include "accel/intersect.h"

#include <gtest/gtest.h>

#include "accel/float_error.h"
#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

const Triangle kTri{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};

TEST(Intersect, TriangleHitReportsDistanceAndBarycentrics) {
    Ray ray{{0.25f, 0.5f, 2.0f}, {0.0f, 0.0f, -1.0f}};
    Hit h;
    ASSERT_TRUE(intersect_triangle(kTri, ray, kInfinity, &h));
    EXPECT_FLOAT_EQ(h.t, 2.0f);
    EXPECT_FLOAT_EQ(h.u, 0.25f);  // weight of p1
    EXPECT_FLOAT_EQ(h.v, 0.5f);   // weight of p2
}

TEST(Intersect, TriangleIsTwoSided) {
    Hit h;
    EXPECT_TRUE(intersect_triangle(kTri, Ray{{0.2f, 0.2f, 1.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
    EXPECT_TRUE(intersect_triangle(kTri, Ray{{0.2f, 0.2f, -1.0f}, {0.0f, 0.0f, 1.0f}}, kInfinity, &h));
}

TEST(Intersect, TriangleMissesOutsideAndBehind) {
    Hit h;
    EXPECT_FALSE(intersect_triangle(kTri, Ray{{0.6f, 0.6f, 1.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
    EXPECT_FALSE(intersect_triangle(kTri, Ray{{0.2f, 0.2f, 1.0f}, {0.0f, 0.0f, 1.0f}}, kInfinity, &h));
}

TEST(Intersect, HitsOnlyInsideOpenInterval) {
    Ray ray{{0.25f, 0.25f, 3.0f}, {0.0f, 0.0f, -1.0f}};
    Hit h;
    EXPECT_FALSE(intersect_triangle(kTri, ray, 3.0f, &h));  // t == t_max is outside (0, t_max)
    EXPECT_TRUE(intersect_triangle(kTri, ray, next_float_up(3.0f), &h));
    Ray on_surface{{0.25f, 0.25f, 0.0f}, {0.0f, 0.0f, 1.0f}};  // t == 0
    EXPECT_FALSE(intersect_triangle(kTri, on_surface, kInfinity, &h));

    Sphere s{{0.0f, 0.0f, 0.0f}, 1.0f};
    Ray toward{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    ASSERT_TRUE(intersect_sphere(s, toward, kInfinity, &h));
    float t = h.t;
    EXPECT_FALSE(intersect_sphere(s, toward, t, &h));
    EXPECT_TRUE(intersect_sphere(s, toward, next_float_up(t), &h));
}

TEST(Intersect, ReportedDistanceDoesNotDependOnTMax) {
    test::Random rng(7);
    for (int i = 0; i < 2000; ++i) {
        Triangle tri = rng.triangle_near({}, 1.0f);
        Sphere sph{rng.point_in_box(-1.0f, 1.0f), rng.uniform(0.1f, 1.0f)};
        Ray ray{rng.point_in_box(-3.0f, 3.0f), rng.unit_vector()};
        Hit a, b;
        if (intersect_triangle(tri, ray, kInfinity, &a)) {
            ASSERT_TRUE(intersect_triangle(tri, ray, next_float_up(a.t), &b));
            EXPECT_EQ(a.t, b.t);
            EXPECT_EQ(a.u, b.u);
        }
        if (intersect_sphere(sph, ray, kInfinity, &a)) {
            ASSERT_TRUE(intersect_sphere(sph, ray, next_float_up(a.t), &b));
            EXPECT_EQ(a.t, b.t);
        }
    }
}

TEST(Intersect, DegenerateTriangleNeverHit) {
    Triangle line{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {2.0f, 2.0f, 0.0f}};
    Triangle point{{1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    Hit h;
    EXPECT_FALSE(intersect_triangle(line, Ray{{1.0f, 1.0f, 1.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
    EXPECT_FALSE(intersect_triangle(point, Ray{{1.0f, 1.0f, 3.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
}

TEST(Intersect, SphereFromOutsideHitsNearSideFromInsideFarSide) {
    Sphere s{{1.0f, 2.0f, 3.0f}, 2.0f};
    Hit h;
    ASSERT_TRUE(intersect_sphere(s, Ray{{1.0f, 2.0f, 13.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
    EXPECT_NEAR(h.t, 8.0f, 1e-5f);
    ASSERT_TRUE(intersect_sphere(s, Ray{{1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
    EXPECT_NEAR(h.t, 2.0f, 1e-5f);
    EXPECT_FALSE(intersect_sphere(s, Ray{{1.0f, 2.0f, 13.0f}, {0.0f, 0.0f, 1.0f}}, kInfinity, &h));
    EXPECT_FALSE(intersect_sphere(s, Ray{{4.0f, 2.0f, 13.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
}

TEST(Intersect, SmallSphereFarAwayIsHitAccurately) {
    // The case Ray Tracing Gems ch. 7 fixes: b^2 - 4ac cancels catastrophically
    // (here 4e10 - 4e10 with an ulp of 4096), the centre-to-line form does not.
    Sphere s{{0.0f, 0.0f, -1e5f}, 0.1f};
    Hit h;
    ASSERT_TRUE(intersect_sphere(s, Ray{{0.05f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
    float expected = 1e5f - std::sqrt(0.1f * 0.1f - 0.05f * 0.05f);
    EXPECT_NEAR(h.t, expected, 0.03f);  // ulp(1e5) = 0.0078
    EXPECT_FALSE(intersect_sphere(s, Ray{{0.15f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}}, kInfinity, &h));
}

// The float miss filter in front of the interval test never changes an answer: random
// spheres and rays at scales from 1e-3 to 1e7, rays aimed at the silhouette to within
// a few ulps (the filter's margin is where it could go wrong), rays leaving the surface
// (as spawn_ray gives them) and unnormalised directions (as spawn_ray_to gives them).
// It must also filter: most clear misses skip the interval arithmetic.
TEST(Intersect, SphereMissFilterNeverChangesAnAnswer) {
    test::Random rng(2024);
    uint64_t tested = 0, filtered = 0, hits = 0;
    for (float scale : {1e-3f, 1.0f, 1e3f, 1e5f, 1e7f}) {
        for (int i = 0; i < 20000; ++i) {
            const Sphere sph{rng.point_in_box(-scale, scale), scale * rng.uniform(0.001f, 0.5f)};
            Ray ray{rng.point_in_box(-4.0f * scale, 4.0f * scale), rng.unit_vector()};
            const int kind = i % 4;
            if (kind == 1) {  // aimed at a point at distance r (1 +- tiny) from the centre, across the ray
                const Vec3f to_centre = sph.center - ray.origin;
                Vec3f side = cross(to_centre, rng.unit_vector());
                if (length_squared(side) > 0.0f) side = normalize(side);
                const float reach = sph.radius * (1.0f + rng.uniform(-4e-7f, 4e-7f));
                ray.dir = normalize(to_centre + side * reach);
            } else if (kind == 2) {  // leaving a point of the surface, outward or inward
                const Vec3f n = rng.unit_vector();
                ray.origin = sph.center + n * sph.radius;
                ray.dir = rng.uniform() < 0.5f ? rng.hemisphere(n) : rng.hemisphere(-n);
            } else if (kind == 3) {  // unnormalised, as toward another point
                ray.dir = rng.point_in_box(-4.0f * scale, 4.0f * scale) - ray.origin;
            }
            const float t_max = i % 3 == 0 ? kInfinity : scale * rng.uniform(0.1f, 8.0f);
            Hit a, b;
            const bool with_filter = intersect_sphere(sph, ray, t_max, &a);
            const bool without = intersect_sphere_interval(sph, ray, t_max, &b);
            ASSERT_EQ(with_filter, without) << "scale " << scale << " ray " << i;
            if (without) {
                ASSERT_EQ(a.t, b.t);
                ++hits;
            }
            ++tested;
            filtered += sphere_certainly_missed(sph, ray);
        }
    }
    EXPECT_GT(hits, tested / 20);
    EXPECT_GT(filtered, tested / 3) << "the filter skips too few misses to be worth its cost";
}

}  // namespace
}  // namespace wf
