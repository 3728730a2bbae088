#include <gtest/gtest.h>

#include "engine/scene.h"

namespace wf {

// At (1, 2, 3), looking along -z (a forward of length 2), y up.
static CameraDesc looking_down_z_from_123() {
    CameraDesc d;
    d.position = {1, 2, 3};
    d.forward = {0, 0, -2};
    d.up = {0, 1, 0};
    return d;
}

// SmallVCM's camera: the centre pixel looks along forward, and the image plane
// spans tan(fov/2) on each side.
TEST(Camera, PinholeFramesTheFieldOfView) {
    CameraDesc d = looking_down_z_from_123();
    d.fov_y_degrees = 90.0f;
    Camera c = d.build(200, 100);
    Ray centre = c.generate_ray(100, 50, 0.5f, 0.5f);
    EXPECT_NEAR(centre.dir.z, -1.0f, 1e-6f);
    Ray top = c.generate_ray(100, 0, 0.5f, 0.5f);  // raster y = 0 is the top row
    EXPECT_NEAR(top.dir.y / -top.dir.z, 1.0f, 1e-5f);
    Ray right = c.generate_ray(200, 50, 0.5f, 0.5f);  // aspect 2: twice as wide
    EXPECT_NEAR(right.dir.x / -right.dir.z, 2.0f, 1e-5f);
    EXPECT_EQ(centre.origin.x, 1.0f);
}

// Every ray through one raster point meets the focus plane at one point, and
// the lens samples spread over the aperture.
TEST(Camera, ThinLensRaysConvergeOnTheFocusPlane) {
    CameraDesc d;
    d.position = {0, 0, 0};
    d.forward = {0, 0, -1};
    d.aperture_radius = 0.1f;
    d.focus_distance = 4.0f;
    Camera c = d.build(64, 64);
    Ray pin = c.generate_ray(10.3f, 50.7f, 0.0f, 0.0f);
    Vec3f target = pin.origin + pin.dir * (4.0f / -pin.dir.z);
    float max_offset = 0.0f;
    for (int i = 0; i < 16; ++i) {
        Ray r = c.generate_ray(10.3f, 50.7f, (i + 0.5f) / 16.0f, (i * 7 % 16 + 0.5f) / 16.0f);
        Vec3f hit = r.origin + r.dir * ((4.0f - -r.origin.z) / -r.dir.z);
        EXPECT_NEAR(hit.x, target.x, 1e-4f);
        EXPECT_NEAR(hit.y, target.y, 1e-4f);
        EXPECT_LE(length(r.origin), 0.1f + 1e-6f);
        max_offset = std::max(max_offset, length(r.origin));
    }
    EXPECT_GT(max_offset, 0.05f);
}

// Orthographic: every ray runs along forward, from the point of the view rectangle
// (height 4, width 8 on a 2:1 film, centred on the position) under its raster point.
TEST(Camera, OrthographicRaysAreParallelFromTheViewRectangle) {
    CameraDesc d = looking_down_z_from_123();
    d.ortho_height = 4.0f;
    d.aperture_radius = 0.5f;  // unused by an orthographic camera
    const Camera c = d.build(200, 100);
    struct Case {
        float rx, ry;
        Vec3f origin;
    };
    for (const Case& k : {Case{0, 0, {-3, 4, 3}}, Case{200, 100, {5, -0, 3}}, Case{100, 50, {1, 2, 3}}, Case{150, 75, {3, 1, 3}}}) {
        const Ray r = c.generate_ray(k.rx, k.ry, 0.3f, 0.7f);
        EXPECT_EQ(r.dir.x, 0.0f);
        EXPECT_EQ(r.dir.y, 0.0f);
        EXPECT_EQ(r.dir.z, -1.0f);
        EXPECT_NEAR(r.origin.x, k.origin.x, 1e-5f) << k.rx << ", " << k.ry;
        EXPECT_NEAR(r.origin.y, k.origin.y, 1e-5f) << k.rx << ", " << k.ry;
        EXPECT_NEAR(r.origin.z, k.origin.z, 1e-5f) << k.rx << ", " << k.ry;
    }
}

}  // namespace wf
