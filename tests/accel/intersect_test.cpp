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

}  // namespace
}  // namespace wf
