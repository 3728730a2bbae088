// Self-intersection: rays spawned off a surface with spawn_ray / spawn_ray_to
// must never find the surface they leave, at any distance from the origin.
#include "accel/surface.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

using test::Random;
using test::TestScene;

// Closest hit of a ray from a random point outside towards a random point of
// the sphere; returns false if the ray grazed past.
bool hit_sphere_from_outside(const GeometryView& g, const Sphere& s, Random& rng, Ray* ray, Hit* hit) {
    Vec3f on = s.center + s.radius * rng.unit_vector();
    Vec3f from = s.center + 3.0f * s.radius * rng.unit_vector();
    *ray = Ray{from, normalize(on - from)};
    *hit = intersect_closest(g, *ray, kInfinity);
    return hit->found();
}

struct SphereCase {
    Vec3f center;
    float radius;
};

class SelfIntersectionSphere : public ::testing::TestWithParam<SphereCase> {};

TEST_P(SelfIntersectionSphere, RaysLeavingOutwardNeverRehitTheSphere) {
    TestScene scene;
    scene.spheres.push_back({GetParam().center, GetParam().radius});
    scene.build();
    GeometryView g = scene.view();
    Random rng(1);
    int rehits = 0, spawned = 0;
    for (int i = 0; i < 3000; ++i) {
        Ray ray;
        Hit hit;
        if (!hit_sphere_from_outside(g, scene.spheres[0], rng, &ray, &hit)) continue;
        SurfacePoint sp = surface_point(g, ray, hit);
        for (int k = 0; k < 8; ++k) {
            Ray out = spawn_ray(sp, rng.hemisphere(sp.ng));
            rehits += intersect_closest(g, out, kInfinity).found();
            ++spawned;
        }
    }
    EXPECT_EQ(rehits, 0) << "of " << spawned;
    EXPECT_GT(spawned, 10000);
}

TEST_P(SelfIntersectionSphere, RaysLeavingInwardCrossToTheFarSide) {
    // Refraction into the sphere: the exit is the far end of the chord
    // (about 2 r cos(theta) away), never the entry point again.
    const float r = GetParam().radius;
    TestScene scene;
    scene.spheres.push_back({GetParam().center, r});
    scene.build();
    GeometryView g = scene.view();
    Random rng(2);
    int wrong = 0, spawned = 0;
    for (int i = 0; i < 3000; ++i) {
        Ray ray;
        Hit hit;
        if (!hit_sphere_from_outside(g, scene.spheres[0], rng, &ray, &hit)) continue;
        SurfacePoint sp = surface_point(g, ray, hit);
        Vec3f w = rng.hemisphere(-sp.ng);
        float cos_theta = -dot(w, sp.ng);
        if (cos_theta < 0.05f) continue;
        Ray in = spawn_ray(sp, w);
        Hit exit = intersect_closest(g, in, kInfinity);
        ++spawned;
        // Exact exit distance of the spawned ray, in double.
        double f[3] = {double(in.origin.x) - GetParam().center.x, double(in.origin.y) - GetParam().center.y,
                       double(in.origin.z) - GetParam().center.z};
        double d[3] = {in.dir.x, in.dir.y, in.dir.z};
        double a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], b = f[0] * d[0] + f[1] * d[1] + f[2] * d[2];
        double cc = f[0] * f[0] + f[1] * f[1] + f[2] * f[2] - double(r) * r;
        double t_exact = (-b + std::sqrt(b * b - a * cc)) / a;
        wrong += !exit.found() || std::fabs(exit.t - t_exact) > 1e-5 * r;
    }
    EXPECT_EQ(wrong, 0) << "of " << spawned;
}

INSTANTIATE_TEST_SUITE_P(SelfIntersection, SelfIntersectionSphere,
                         ::testing::Values(SphereCase{{0.0f, 0.0f, 0.0f}, 1e3f}, SphereCase{{0.0f, 0.0f, 0.0f}, 1.0f},
                                           SphereCase{{1e4f, -1e4f, 1e4f}, 1.0f},
                                           SphereCase{{-3e3f, 2e4f, 7e3f}, 5e3f},
                                           SphereCase{{0.5f, 1e-3f, -2.0f}, 1e-3f}));

TEST(SelfIntersection, FlippedSphereNormalPointsInward) {
    TestScene scene;
    scene.spheres.push_back({{0.0f, 0.0f, 0.0f}, 2.0f});
    scene.build();
    scene.prims[0].flags = kPrimFlipNormal;
    GeometryView g = scene.view();
    Ray ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    Hit hit = intersect_closest(g, ray, kInfinity);
    ASSERT_TRUE(hit.found());
    SurfacePoint sp = surface_point(g, ray, hit);
    EXPECT_NEAR(sp.ng.z, -1.0f, 1e-6f);
    EXPECT_NEAR(sp.p.z, 2.0f, 1e-6f);
    // Leaving along the (inward) normal goes back through the interior.
    Hit across = intersect_closest(g, spawn_ray(sp, sp.ng), kInfinity);
    ASSERT_TRUE(across.found());
    EXPECT_NEAR(across.t, 4.0f, 1e-4f);
}

struct TriangleCase {
    Vec3f center;
    float spread, size;
};

class SelfIntersectionTriangle : public ::testing::TestWithParam<TriangleCase> {};

TEST_P(SelfIntersectionTriangle, RaysLeavingEitherSideNeverRehitTheTriangle) {
    TriangleCase c = GetParam();
    Random rng(3);
    TestScene scene;
    for (int i = 0; i < 400; ++i)
        scene.triangles.push_back(rng.triangle_near(c.center + rng.point_in_box(-c.spread, c.spread), c.size));
    scene.build();
    GeometryView g = scene.view();
    int rehits = 0, spawned = 0;
    for (uint32_t prim = 0; prim < scene.triangles.size(); ++prim) {
        const Triangle& tri = scene.triangles[prim];
        for (int i = 0; i < 10; ++i) {
            // Aim at a random interior point from a random direction.
            float b1 = rng.uniform(0.01f, 0.98f), b2 = rng.uniform(0.01f, 0.99f - b1);
            Vec3f target = tri.p0 + b1 * (tri.p1 - tri.p0) + b2 * (tri.p2 - tri.p0);
            Vec3f from = target + 2.0f * c.size * rng.unit_vector();
            Ray ray{from, normalize(target - from)};
            Hit hit = intersect_closest(g, ray, kInfinity);
            if (hit.prim != prim) continue;  // occluded by a neighbour or edge-on
            SurfacePoint sp = surface_point(g, ray, hit);
            for (int k = 0; k < 8; ++k) {
                Hit again = intersect_closest(g, spawn_ray(sp, rng.unit_vector()), kInfinity);
                rehits += again.prim == prim;
                ++spawned;
            }
        }
    }
    EXPECT_EQ(rehits, 0) << "of " << spawned;
    EXPECT_GT(spawned, 10000);
}

INSTANTIATE_TEST_SUITE_P(SelfIntersection, SelfIntersectionTriangle,
                         ::testing::Values(TriangleCase{{0.0f, 0.0f, 0.0f}, 5.0f, 1.0f},
                                           TriangleCase{{1e4f, -1e4f, 1e4f}, 50.0f, 5.0f},
                                           TriangleCase{{1e4f, 3e3f, -2e4f}, 1.0f, 0.05f},
                                           TriangleCase{{1e-3f, 0.0f, 0.0f}, 1e-3f, 1e-4f}));

TEST(Surface, TriangleSurfacePointLiesOnTheHitAndNormalFollowsWinding) {
    TestScene scene;
    scene.triangles.push_back({{0.0f, 0.0f, 1.0f}, {2.0f, 0.0f, 1.0f}, {0.0f, 2.0f, 1.0f}});
    scene.build();
    GeometryView g = scene.view();
    Ray ray{{0.5f, 0.25f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    Hit hit = intersect_closest(g, ray, kInfinity);
    ASSERT_TRUE(hit.found());
    SurfacePoint sp = surface_point(g, ray, hit);
    EXPECT_NEAR(sp.p.x, 0.5f, 1e-6f);
    EXPECT_NEAR(sp.p.y, 0.25f, 1e-6f);
    EXPECT_EQ(sp.p.z, 1.0f);
    EXPECT_EQ(sp.ng.z, 1.0f);  // normalize(cross(p1 - p0, p2 - p0))
    EXPECT_GT(sp.p_error.z, 0.0f);
}

TEST(Surface, OffsetOriginStepsOutsideTheErrorBoxOnTheLeavingSide) {
    Vec3f p(1.0f, 2.0f, 3.0f), err(1e-6f, 1e-6f, 1e-6f), n(0.0f, 0.0f, 1.0f);
    Vec3f up = offset_ray_origin(p, err, n, Vec3f(0.3f, 0.0f, 0.9f));
    Vec3f down = offset_ray_origin(p, err, n, Vec3f(0.3f, 0.0f, -0.9f));
    EXPECT_GT(up.z, p.z + err.z);
    EXPECT_LT(down.z, p.z - err.z);
    EXPECT_EQ(up.x, p.x);
    EXPECT_EQ(up.y, p.y);
}

// Shadow rays between points on one plane (a large quad, also far from the
// origin): the segment runs along the surface and must not be blocked by it.
TEST(Shadow, RaysBetweenPointsOnAPlaneAreUnoccluded) {
    for (Vec3f center : {Vec3f(0.0f), Vec3f(1e4f, 2e3f, -5e3f)}) {
        Frame frame = Frame::from_z(normalize(Vec3f(0.2f, -0.5f, 0.8f)));
        const float half = 500.0f;
        Vec3f a = center + frame.to_world({-half, -half, 0.0f}), b = center + frame.to_world({half, -half, 0.0f});
        Vec3f c = center + frame.to_world({half, half, 0.0f}), d = center + frame.to_world({-half, half, 0.0f});
        TestScene scene;
        scene.triangles.push_back({a, b, c});
        scene.triangles.push_back({a, c, d});
        scene.build();
        GeometryView g = scene.view();
        Random rng(8);
        int blocked = 0, blocked_to_light = 0, blocked_to_sample = 0, tested = 0;
        for (int i = 0; i < 3000; ++i) {
            // `from`: a camera-ray hit from either side of the plane.
            Vec3f on = center + frame.to_world({rng.uniform(-0.9f, 0.9f) * half, rng.uniform(-0.9f, 0.9f) * half, 0.0f});
            float side = rng.uniform() < 0.5f ? 1.0f : -1.0f;
            Vec3f eye = on + 100.0f * normalize(side * frame.z + 0.5f * rng.unit_vector());
            Ray ray{eye, normalize(on - eye)};
            Hit hit = intersect_closest(g, ray, kInfinity);
            if (!hit.found()) continue;
            SurfacePoint from = surface_point(g, ray, hit);
            // `to`: a point sampled on the plane by barycentrics, as an area light would.
            uint32_t prim = rng.uniform() < 0.5f ? 0 : 1;
            float u = rng.uniform(0.0f, 0.9f), v = rng.uniform(0.0f, 0.95f - u);
            SurfacePoint to = surface_point_on_triangle(scene.triangles[prim], u, v);
            float t_max;
            Ray shadow = spawn_ray_to(from, to, &t_max);
            blocked += intersect_any(g, shadow, t_max);
            // A point light on the side `from` was seen from.
            Vec3f light = to.p + side * rng.uniform(1e-2f, 100.0f) * frame.z;
            shadow = spawn_ray_to(from, light, &t_max);
            blocked_to_light += intersect_any(g, shadow, t_max);
            // And the reverse direction, from the sampled point to the hit.
            shadow = spawn_ray_to(to, from, &t_max);
            blocked_to_sample += intersect_any(g, shadow, t_max);
            ++tested;
        }
        EXPECT_EQ(blocked, 0) << "of " << tested << " at " << center.x;
        EXPECT_EQ(blocked_to_light, 0) << "of " << tested << " at " << center.x;
        EXPECT_EQ(blocked_to_sample, 0) << "of " << tested << " at " << center.x;
        EXPECT_GT(tested, 2500);
    }
}

TEST(Shadow, BlockerBetweenPointsOccludes) {
    TestScene scene;
    scene.triangles.push_back({{-10.0f, -10.0f, 0.0f}, {10.0f, -10.0f, 0.0f}, {10.0f, 10.0f, 0.0f}});
    scene.spheres.push_back({{0.0f, 0.0f, 1.0f}, 0.5f});  // blocker above the floor
    scene.build();
    GeometryView g = scene.view();
    Ray down{{5.0f, -2.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    Hit hit = intersect_closest(g, down, kInfinity);
    ASSERT_EQ(hit.prim, 0u);
    SurfacePoint sp = surface_point(g, down, hit);
    float t_max;
    Ray toward_light = spawn_ray_to(sp, Vec3f(-5.0f, 2.0f, 2.0f), &t_max);  // passes through the sphere
    EXPECT_TRUE(intersect_any(g, toward_light, t_max));
    Ray clear = spawn_ray_to(sp, Vec3f(5.0f, -2.0f, 3.0f), &t_max);
    EXPECT_FALSE(intersect_any(g, clear, t_max));
}

}  // namespace
}  // namespace wf
