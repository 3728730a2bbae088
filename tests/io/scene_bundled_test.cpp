// Bundled scenes: they load, and the SmallVCM ones match SmallVCM's scenes 0..3
// (shared/reference/smallvcm/README.md, section (b)).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/scene_loader.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

Vec3f normal_of(const Triangle& t) { return normalize(cross(t.p1 - t.p0, t.p2 - t.p0)); }
Vec3f centroid_of(const Triangle& t) { return (t.p0 + t.p1 + t.p2) / 3.0f; }
float area_of(const Triangle& t) { return 0.5f * length(cross(t.p1 - t.p0, t.p2 - t.p0)); }

void expect_vec_near(Vec3f a, Vec3f b, float tol) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

HostScene load_bundled(const std::string& relative, SceneLoadStats* stats = nullptr) {
    return load_scene(test::scene_path(relative), stats);
}

const char* const kBundledScenes[] = {
    "scenes/cornell-box.json",
    "scenes/smallvcm/s0-sun.json",
    "scenes/smallvcm/s1-area.json",
    "scenes/smallvcm/s2-point.json",
    "scenes/smallvcm/s3-background.json",
    "scenes/mesh-transforms.json",
    "scenes/rtiow/final.json",
    "scenes/microfacet-materials.json",
};

class BundledScene : public testing::TestWithParam<const char*> {};

TEST_P(BundledScene, LoadsConsistently) {
    SceneLoadStats stats;
    HostScene s = load_bundled(GetParam(), &stats);
    EXPECT_EQ(stats.dropped_degenerate_triangles, 0u);
    ASSERT_EQ(s.prims.size(), s.num_prims());
    for (const PrimInfo& p : s.prims) EXPECT_LT(p.material, s.materials.size());
    EXPECT_EQ(s.material_names.size(), s.materials.size());
    for (const Triangle& t : s.triangles) EXPECT_TRUE(is_finite(normal_of(t)));
    EXPECT_FALSE(s.lights.empty());
    for (size_t i = 0; i < s.lights.size(); ++i) {
        if (s.lights[i].type != LightType::Area) continue;
        ASSERT_LT(s.lights[i].prim, s.num_prims());
        EXPECT_EQ(s.prims[s.lights[i].prim].light, int32_t(i));
    }
    for (uint32_t id = 0; id < s.num_prims(); ++id) {
        int32_t l = s.prims[id].light;
        if (l >= 0) {
            EXPECT_EQ(s.lights[size_t(l)].prim, id);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Scenes, BundledScene, testing::ValuesIn(kBundledScenes));

// ---- SmallVCM scenes ---------------------------------------------------------

struct SmallVcmExpectation {
    const char* file;
    size_t triangles, spheres, lights;
    LightType light_type;
};

const SmallVcmExpectation kSmallVcm[] = {
    // 10 wall triangles + 10 light box triangles (4 sides and the bottom; it has no top).
    {"scenes/smallvcm/s0-sun.json", 20, 2, 1, LightType::Directional},         // light box not emissive
    {"scenes/smallvcm/s1-area.json", 20, 1, 2, LightType::Area},               // light box bottom emits
    {"scenes/smallvcm/s2-point.json", 10, 2, 1, LightType::Point},             // no light box
    {"scenes/smallvcm/s3-background.json", 20, 2, 1, LightType::Environment},  // light box not emissive
};

class SmallVcmScene : public testing::TestWithParam<SmallVcmExpectation> {};

TEST_P(SmallVcmScene, HasReadmeCountsAndSettings) {
    const SmallVcmExpectation& x = GetParam();
    HostScene s = load_bundled(x.file);
    EXPECT_EQ(s.triangles.size(), x.triangles);
    EXPECT_EQ(s.spheres.size(), x.spheres);
    ASSERT_EQ(s.lights.size(), x.lights);
    for (const Light& l : s.lights) EXPECT_EQ(l.type, x.light_type);
    EXPECT_EQ(s.settings.width, 512u);
    EXPECT_EQ(s.settings.height, 512u);
    EXPECT_EQ(s.settings.max_depth, 10u);
    EXPECT_EQ(s.settings.spp, 16u);
}

TEST_P(SmallVcmScene, CameraMatchesSmallVcm) {
    HostScene s = load_bundled(GetParam().file);
    expect_vec_near(s.camera.position, Vec3f(-0.0439815f, -4.12529f, 0.222539f), 1e-7f);
    expect_vec_near(s.camera.forward, Vec3f(0.00688625f, 0.998505f, -0.0542161f), 1e-7f);
    expect_vec_near(s.camera.up, Vec3f(3.73896e-4f, 0.0542148f, 0.998529f), 1e-7f);
    EXPECT_EQ(s.camera.fov_y_degrees, 45.0f);
    EXPECT_EQ(s.camera.aperture_radius, 0.0f);
    Camera c = s.camera.build(512, 512);
    expect_vec_near(c.right, Vec3f(0.99998f, -0.006896f, 0.0f), 1e-5f);
}

TEST_P(SmallVcmScene, WallNormalsPointIntoTheBox) {
    HostScene s = load_bundled(GetParam().file);
    ASSERT_GE(s.triangles.size(), 10u);
    // The first 10 triangles are the walls, in the README's order: floor, back, ceiling, left, right.
    const Vec3f inward[5] = {{0, 0, 1}, {0, -1, 0}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}};
    const Vec3f box_center(0.00973f, 0.02453f, 0.0f);
    for (size_t i = 0; i < 10; ++i) {
        const Triangle& t = s.triangles[i];
        expect_vec_near(normal_of(t), inward[i / 2], 1e-6f);
        EXPECT_GT(dot(normal_of(t), box_center - centroid_of(t)), 0.0f) << "triangle " << i;
    }
}

TEST_P(SmallVcmScene, EverySurfaceIsOneSided) {
    HostScene s = load_bundled(GetParam().file);
    for (const Material& m : s.materials) EXPECT_EQ(m.two_sided, 0u);
}

TEST_P(SmallVcmScene, BoundingSphereMatchesSmallVcm) {
    HostScene s = load_bundled(GetParam().file);
    SceneSphere b = s.bounding_sphere();
    expect_vec_near(b.center, Vec3f(0.00973f, 0.02453f, 0.0f), 1e-6f);
    EXPECT_NEAR(b.radius, 2.2170597f, 2e-6f);
}

TEST_P(SmallVcmScene, LightBoxSidesFaceOutwardAndBottomFacesDown) {
    HostScene s = load_bundled(GetParam().file);
    if (s.triangles.size() == 10) GTEST_SKIP() << "no light box in this scene";
    ASSERT_EQ(s.triangles.size(), 20u);
    const Vec3f light_box_center(0.0f, 0.0f, 1.27002f);
    for (size_t i = 10; i < 18; ++i) {  // back, left, right, front
        const Triangle& t = s.triangles[i];
        EXPECT_NEAR(normal_of(t).z, 0.0f, 1e-6f) << "triangle " << i;
        EXPECT_GT(dot(normal_of(t), centroid_of(t) - light_box_center), 0.0f) << "triangle " << i;
    }
    for (size_t i = 18; i < 20; ++i) {  // bottom
        const Triangle& t = s.triangles[i];
        expect_vec_near(normal_of(t), Vec3f(0, 0, -1), 1e-6f);
        EXPECT_NEAR(t.p0.z, 1.26002f, 1e-6f);
        EXPECT_NEAR(area_of(t), 0.125f, 1e-6f);
    }
}

INSTANTIATE_TEST_SUITE_P(Scenes, SmallVcmScene, testing::ValuesIn(kSmallVcm),
                         [](const testing::TestParamInfo<SmallVcmExpectation>& info) {
                             return "s" + std::to_string(info.index);
                         });

// Material ids as named in the README's material table.
const Material& material_named(const HostScene& s, const std::string& name) {
    for (size_t i = 0; i < s.material_names.size(); ++i)
        if (s.material_names[i] == name) return s.materials[i];
    ADD_FAILURE() << "no material " << name;
    static Material none;
    return none;
}

const Material& material_of_triangle(const HostScene& s, size_t i) { return s.materials[s.prims[i].material]; }
const Material& material_of_sphere(const HostScene& s, size_t i) {
    return s.materials[s.prims[s.triangles.size() + i].material];
}

TEST(SmallVcmScenes, MaterialsMatchTheReadmeTable) {
    HostScene s = load_bundled("scenes/smallvcm/s0-sun.json");
    const Material& floor = material_of_triangle(s, 0);
    expect_vec_near(floor.kd, Vec3f(0.1f), 0);
    expect_vec_near(floor.ks, Vec3f(0.7f), 0);
    EXPECT_EQ(floor.phong_exponent, 90.0f);
    EXPECT_TRUE(is_black(floor.km));
    EXPECT_EQ(floor.ior, -1.0f);
    expect_vec_near(material_of_triangle(s, 2).kd, Vec3f(0.156863f, 0.172549f, 0.803922f), 0);  // back: blue
    expect_vec_near(material_of_triangle(s, 4).kd, Vec3f(0.803922f), 0);                        // ceiling: white
    expect_vec_near(material_of_triangle(s, 6).kd, Vec3f(0.156863f, 0.803922f, 0.172549f), 0);  // left: green
    expect_vec_near(material_of_triangle(s, 8).kd, Vec3f(0.803922f, 0.152941f, 0.152941f), 0);  // right: red
    for (size_t i = 10; i < 20; ++i) expect_vec_near(material_of_triangle(s, i).kd, Vec3f(0.803922f), 0);

    const Material& mirror = material_of_sphere(s, 0);
    expect_vec_near(mirror.km, Vec3f(1.0f), 0);
    EXPECT_TRUE(is_black(mirror.kd) && is_black(mirror.ks));
    EXPECT_LT(mirror.ior, 0.0f);
    const Material& glass = material_of_sphere(s, 1);
    expect_vec_near(glass.km, Vec3f(1.0f), 0);
    EXPECT_EQ(glass.ior, 1.6f);
    (void)material_named(s, "glossy_floor");
}

TEST(SmallVcmScenes, SmallSpheresSitOnTheFloor) {
    HostScene s = load_bundled("scenes/smallvcm/s2-point.json");
    ASSERT_EQ(s.spheres.size(), 2u);
    expect_vec_near(s.spheres[0].center, Vec3f(-0.53885f, 0.02453f, -0.78002f), 1e-6f);
    expect_vec_near(s.spheres[1].center, Vec3f(0.55831f, 0.02453f, -0.78002f), 1e-6f);
    EXPECT_EQ(s.spheres[0].radius, 0.5f);
    EXPECT_EQ(s.spheres[1].radius, 0.5f);
    EXPECT_NEAR(s.spheres[0].center.z - s.spheres[0].radius, -1.28002f, 1e-6f);
}

TEST(SmallVcmScenes, SunTravelsFromFrontRightTopWithNoBlue) {
    HostScene s = load_bundled("scenes/smallvcm/s0-sun.json");
    ASSERT_EQ(s.lights.size(), 1u);
    expect_vec_near(s.lights[0].direction, Vec3f(-0.48507f, 0.72761f, -0.48507f), 1e-5f);
    expect_vec_near(s.lights[0].radiance, Vec3f(10.0f, 4.0f, 0.0f), 0);
}

TEST(SmallVcmScenes, AreaLightIsTheLightBoxBottom) {
    HostScene s = load_bundled("scenes/smallvcm/s1-area.json");
    ASSERT_EQ(s.lights.size(), 2u);
    float area = 0.0f;
    for (const Light& l : s.lights) {
        EXPECT_EQ(l.type, LightType::Area);
        EXPECT_EQ(l.radiance.x, 25.03329895614464f);
        EXPECT_EQ(l.radiance.y, l.radiance.x);
        EXPECT_EQ(l.radiance.z, l.radiance.x);
        ASSERT_LT(l.prim, s.triangles.size());
        const Triangle& t = s.triangles[l.prim];
        expect_vec_near(normal_of(t), Vec3f(0, 0, -1), 1e-6f);  // emits toward the floor
        area += area_of(t);
        const Material& m = material_of_triangle(s, l.prim);
        EXPECT_TRUE(is_black(m.kd) && is_black(m.ks) && is_black(m.km));
    }
    EXPECT_NEAR(area, 0.25f, 1e-6f);
    ASSERT_EQ(s.spheres.size(), 1u);
    expect_vec_near(s.spheres[0].center, Vec3f(0.00973f, 0.02453f, -0.48002f), 1e-6f);
    EXPECT_EQ(s.spheres[0].radius, 0.8f);
    expect_vec_near(material_of_sphere(s, 0).km, Vec3f(1.0f), 0);
    EXPECT_LT(material_of_sphere(s, 0).ior, 0.0f);
}

TEST(SmallVcmScenes, PointLightHasPowerSeventy) {
    HostScene s = load_bundled("scenes/smallvcm/s2-point.json");
    ASSERT_EQ(s.lights.size(), 1u);
    expect_vec_near(s.lights[0].position, Vec3f(0.0f, -0.5f, 1.0f), 0);
    EXPECT_NEAR(s.lights[0].radiance.x * 4.0f * kPi, 70.0f, 1e-4f);
    EXPECT_NEAR(s.lights[0].radiance.x, 5.5704f, 1e-4f);
}

TEST(SmallVcmScenes, BackgroundIsSkyBlue) {
    HostScene s = load_bundled("scenes/smallvcm/s3-background.json");
    ASSERT_EQ(s.lights.size(), 1u);
    expect_vec_near(s.lights[0].radiance, Vec3f(135.0f / 255.0f, 206.0f / 255.0f, 250.0f / 255.0f), 1e-7f);
}

TEST(SmallVcmScenes, NonEmissiveLightBoxIsWhite) {
    for (const char* f : {"scenes/smallvcm/s0-sun.json", "scenes/smallvcm/s3-background.json"}) {
        HostScene s = load_bundled(f);
        ASSERT_EQ(s.triangles.size(), 20u);
        for (size_t i = 10; i < 20; ++i) {
            EXPECT_EQ(s.prims[i].light, -1);
            expect_vec_near(material_of_triangle(s, i).kd, Vec3f(0.803922f), 0);
        }
    }
}

// ---- Cornell box ---------------------------------------------------------------

TEST(CornellBoxScene, HasRequestedSettingsAndGeometry) {
    HostScene s = load_bundled("scenes/cornell-box.json");
    EXPECT_EQ(s.settings.width, 512u);
    EXPECT_EQ(s.settings.height, 512u);
    EXPECT_EQ(s.settings.spp, 64u);
    EXPECT_EQ(s.settings.max_depth, 10u);
    EXPECT_EQ(s.triangles.size(), 5u * 2 + 2 + 2u * 12);
    EXPECT_EQ(s.spheres.size(), 0u);
    ASSERT_EQ(s.lights.size(), 2u);
    for (const Light& l : s.lights) {
        EXPECT_EQ(l.type, LightType::Area);
        expect_vec_near(normal_of(s.triangles[l.prim]), Vec3f(0, -1, 0), 1e-6f);  // shines down
    }
}

TEST(CornellBoxScene, WallsFaceInwardAndBlocksFaceOutward) {
    HostScene s = load_bundled("scenes/cornell-box.json");
    const Vec3f room_center(0.0f, 1.0f, 0.0f);
    for (size_t i = 0; i < 10; ++i)
        EXPECT_GT(dot(normal_of(s.triangles[i]), room_center - centroid_of(s.triangles[i])), 0.0f) << i;
    for (size_t block = 0; block < 2; ++block) {
        size_t first = 12 + 12 * block;
        Vec3f c(0.0f);
        for (size_t i = first; i < first + 12; ++i) c += centroid_of(s.triangles[i]);
        c = c / 12.0f;
        for (size_t i = first; i < first + 12; ++i)
            EXPECT_GT(dot(normal_of(s.triangles[i]), centroid_of(s.triangles[i]) - c), 0.0f) << i;
    }
}

TEST(CornellBoxScene, CameraLooksIntoTheOpenFront) {
    HostScene s = load_bundled("scenes/cornell-box.json");
    Camera c = s.camera.build(s.settings.width, s.settings.height);
    // The image corners fall inside the box opening (x, y in [-1, 1] x [0, 2] at z = 1) or just outside it.
    for (float rx : {0.0f, 512.0f}) {
        for (float ry : {0.0f, 512.0f}) {
            Ray r = c.generate_ray(rx, ry, 0.5f, 0.5f);
            float t = (1.0f - r.origin.z) / r.dir.z;
            Vec3f p = r.origin + r.dir * t;
            EXPECT_NEAR(std::fabs(p.x), 1.0f, 0.05f);
            EXPECT_NEAR(std::fabs(p.y - 1.0f), 1.0f, 0.05f);
        }
    }
    // The centre ray hits the back wall.
    Ray r = c.generate_ray(256.0f, 256.0f, 0.5f, 0.5f);
    expect_vec_near(r.dir, Vec3f(0, 0, -1), 1e-5f);
}

}  // namespace
}  // namespace wf
