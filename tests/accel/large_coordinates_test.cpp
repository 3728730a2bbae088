// Geometry far larger than the distances a camera looks at: a ground quad of
// half-size S seen from one unit above it, for S from 1e3 to 1e9 (the loader
// takes coordinates up to 1e10). Hits near the camera must be found, at the
// right distance, with shading points on the plane and error bounds small
// enough that rays spawned from them neither re-hit the ground nor start
// visibly above it.
#include <gtest/gtest.h>

#include <cmath>

#include "accel/surface.h"
#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

test::TestScene ground_and_ball(float s) {
    test::TestScene scene;
    scene.triangles.push_back({{-s, 0, -s}, {s, 0, -s}, {s, 0, s}});
    scene.triangles.push_back({{-s, 0, -s}, {s, 0, s}, {-s, 0, s}});
    scene.spheres.push_back({{0.5f, 0.3f, -0.5f}, 0.1f});  // a small ball resting just above the ground
    scene.build();
    return scene;
}

class LargeGround : public ::testing::TestWithParam<float> {};

TEST_P(LargeGround, HitsNearTheCameraAreFoundOnThePlane) {
    const float s = GetParam();
    test::TestScene scene = ground_and_ball(s);
    const GeometryView g = scene.view();
    const Vec3f eye(0.3f, 1.0f, 0.2f);
    test::Random rng(7);
    for (int i = 0; i < 2000; ++i) {
        Vec3f target(rng.uniform(-3.0f, 3.0f), 0.0f, rng.uniform(-3.0f, 3.0f));
        Vec3f d = normalize(target - eye);
        Ray ray{eye, d};
        Hit hit = intersect_closest(g, ray, kInfinity);
        if (hit.prim == 2) continue;  // the ball is in the way
        ASSERT_TRUE(hit.found()) << "S = " << s << ": no hit towards " << target.x << ", " << target.z;
        const float t_exact = -eye.y / d.y;  // the plane y = 0
        ASSERT_NEAR(hit.t, t_exact, 1e-5f * t_exact) << "S = " << s;
        SurfacePoint sp = surface_point(g, ray, hit);
        ASSERT_LE(std::fabs(sp.p.y), 1e-5f) << "S = " << s;
        ASSERT_LE(sp.p_error.y, 1e-5f) << "S = " << s << ": rays would start visibly above the ground";
        // Up from the ground: nothing but possibly the ball; never the ground itself.
        Ray up = spawn_ray(sp, normalize(Vec3f(rng.uniform(-1.0f, 1.0f), 1.0f, rng.uniform(-1.0f, 1.0f))));
        Hit again = intersect_closest(g, up, kInfinity);
        ASSERT_TRUE(!again.found() || again.prim == 2) << "S = " << s << ": self-intersection";
    }
}

TEST_P(LargeGround, TheBallShadowsTheGroundRightUnderIt) {
    const float s = GetParam();
    test::TestScene scene = ground_and_ball(s);
    const GeometryView g = scene.view();
    Ray down{{0.5f, 1.0f, -0.5f}, {0.0f, -1.0f, 0.0f}};
    Hit ball = intersect_closest(g, down, kInfinity);
    ASSERT_EQ(ball.prim, 2u);
    // The ground point below the ball, reached from beside the ball.
    Ray slant{{0.5f, 0.1f, -0.2f}, normalize(Vec3f(0.0f, -0.1f, -0.3f))};
    Hit ground = intersect_closest(g, slant, kInfinity);
    ASSERT_TRUE(ground.found() && ground.prim < 2) << "S = " << s;
    SurfacePoint sp = surface_point(g, slant, ground);
    float t_max;
    Ray shadow = spawn_ray_to(sp, Vec3f(0.5f, 5.0f, -0.5f), &t_max);
    EXPECT_TRUE(intersect_any(g, shadow, t_max)) << "S = " << s << ": the ball casts no shadow";
}

INSTANTIATE_TEST_SUITE_P(Scales, LargeGround, ::testing::Values(1e3f, 1e5f, 1e6f, 1e7f, 1e9f),
                         [](const ::testing::TestParamInfo<float>& info) {
                             return "S1e" + std::to_string(int(std::lround(std::log10(info.param))));
                         });

}  // namespace
}  // namespace wf
