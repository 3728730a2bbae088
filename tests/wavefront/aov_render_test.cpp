// AOVs (engine/aov.h) against closed forms: a diffuse plane seen head-on (albedo, normal,
// ray distance per pixel), a sphere (its analytic normal and depth averaged over each
// pixel), escaped rays (0), the camera pass of the bidirectional family (the same first
// hits as pt), and the beauty, which must not change when AOVs are asked for.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "tests/common/analytic_checks.h"
#include "tests/common/aov_scenes.h"

namespace wf {
namespace {

using test::AovRange;

RenderResult render_aovs(const HostScene& scene, uint32_t spp, AovSet aovs, const char* integrator = "pt") {
    RenderOptions o = test::options_for(scene, BackendKind::Cpu, spp);
    o.settings.aovs = aovs;
    o.settings.integrator = integrator;
    o.settings.max_depth = 3;
    return render(scene, o);
}

// Every pixel sees the plane: albedo = kd, normal = +z (toward the camera, from either
// side of the plane), depth = the ray distance 4 / cos, averaged over the pixel.
void check_plane(bool facing_camera) {
    const uint32_t size = 24;
    const Vec3f kd(0.2f, 0.5f, 0.8f);
    const RenderResult r = render_aovs(test::aov_plane_scene(kd, size, facing_camera), 16, test::kAllAovs);
    ASSERT_EQ(r.aovs.size(), 3u);
    const Image& albedo = test::aov_layer(r, "albedo");
    const Image& normal = test::aov_layer(r, "normal");
    const Image& depth = test::aov_layer(r, "depth");
    for (uint32_t py = 0; py < size; ++py)
        for (uint32_t px = 0; px < size; ++px) {
            for (int c = 0; c < 3; ++c) {
                ASSERT_NEAR(albedo.at(px, py)[c], kd[c], 1e-6) << px << "," << py;
                ASSERT_NEAR(normal.at(px, py)[c], c == 2 ? 1.0f : 0.0f, 1e-6) << px << "," << py;
            }
            AovRange d, n[3];
            ASSERT_TRUE(test::aov_pixel_ranges(
                px, py, [&](double x, double y) { return std::optional(test::aov_plane_hit(x, y, size)); }, &d, n));
            EXPECT_TRUE(d.contains(depth.at(px, py).x, 1e-5))
                << "pixel " << px << "," << py << ": depth " << depth.at(px, py).x << " outside [" << d.lo << ", "
                << d.hi << "]";
            EXPECT_EQ(depth.at(px, py).y, depth.at(px, py).x);  // one channel, copied
        }
    // The corner pixel's ray is 13% longer than the camera's distance to the plane: ray
    // distance, not z.
    EXPECT_GT(depth.at(0, 0).x, 1.1f * test::kAovCameraZ);
}

TEST(AovRender, DiffusePlaneHeadOnGivesAlbedoNormalAndRayDistance) { check_plane(true); }
TEST(AovRender, PlaneSeenFromBehindHasItsNormalTurnedToTheCamera) { check_plane(false); }

// glTF materials (the dispatching BSDF's instantiation of the stage): the albedo is the
// base colour, for a metal too, and the normal faces the camera, also where a single-sided
// material is seen from behind (an invalid BSDF: the geometric normal, turned).
TEST(AovRender, GltfMaterialGivesItsBaseColourAndACameraFacingNormal) {
    const uint32_t size = 8;
    const Vec3f base(0.3f, 0.6f, 0.9f);
    for (bool double_sided : {true, false})
        for (bool facing_camera : {true, false}) {
            const HostScene scene = test::aov_gltf_plane_scene(base, size, facing_camera, double_sided);
            const RenderResult r = render_aovs(scene, 4, test::kAllAovs);
            const Image& albedo = test::aov_layer(r, "albedo");
            const Image& normal = test::aov_layer(r, "normal");
            for (uint32_t i = 0; i < size * size; ++i)
                for (int c = 0; c < 3; ++c) {
                    ASSERT_NEAR(albedo.pixels[i][c], base[c], 1e-6) << double_sided << facing_camera;
                    ASSERT_NEAR(normal.pixels[i][c], c == 2 ? 1.0f : 0.0f, 1e-6) << double_sided << facing_camera;
                }
        }
}

// Pixels wholly on the sphere hold the pixel average of its analytic normal and depth;
// pixels wholly off it (escaped rays) hold 0 in every AOV.
TEST(AovRender, SphereNormalAndDepthMatchTheClosedFormAndEscapedPixelsAreZero) {
    const uint32_t size = 32;
    const Vec3f kd(0.9f, 0.4f, 0.1f);
    const RenderResult r = render_aovs(test::aov_sphere_scene(kd, size), 32, test::kAllAovs);
    const Image& albedo = test::aov_layer(r, "albedo");
    const Image& normal = test::aov_layer(r, "normal");
    const Image& depth = test::aov_layer(r, "depth");
    int on = 0, off = 0;
    for (uint32_t py = 0; py < size; ++py)
        for (uint32_t px = 0; px < size; ++px) {
            int hits = 0;
            bool near_silhouette = false;
            for (int i = 0; i <= 8; ++i)
                for (int j = 0; j <= 8; ++j) {
                    bool ambiguous = false;
                    hits += test::aov_sphere_hit(px + i / 8.0, py + j / 8.0, size, &ambiguous) ? 1 : 0;
                    near_silhouette |= ambiguous;
                }
            if (near_silhouette) continue;
            if (hits == 0) {
                ++off;
                for (int c = 0; c < 3; ++c) {
                    EXPECT_EQ(albedo.at(px, py)[c], 0.0f);
                    EXPECT_EQ(normal.at(px, py)[c], 0.0f);
                }
                EXPECT_EQ(depth.at(px, py).x, kAovDepthMiss);
                continue;
            }
            if (hits < 81) continue;
            ++on;
            AovRange d, n[3];
            ASSERT_TRUE(test::aov_pixel_ranges(
                px, py, [&](double x, double y) { return test::aov_sphere_hit(x, y, size); }, &d, n));
            for (int c = 0; c < 3; ++c) {
                EXPECT_NEAR(albedo.at(px, py)[c], kd[c], 1e-6);
                EXPECT_TRUE(n[c].contains(normal.at(px, py)[c], 1e-5))
                    << "pixel " << px << "," << py << " normal[" << c << "] " << normal.at(px, py)[c] << " outside ["
                    << n[c].lo << ", " << n[c].hi << "]";
            }
            EXPECT_TRUE(d.contains(depth.at(px, py).x, 1e-5)) << "pixel " << px << "," << py << ": depth "
                                                              << depth.at(px, py).x;
        }
    EXPECT_GT(on, 200);   // the sphere's disc is about 300 pixels
    EXPECT_GT(off, 400);  // and the background the rest, bar the silhouette
}

// The bidirectional family's camera pass traces the same camera rays (same seed, same
// jitter) as pt: the same AOVs. lt traces none and refuses them.
TEST(AovRender, BidirectionalCameraPassWritesThePtAovs) {
    const HostScene scene = test::aov_sphere_scene(Vec3f(0.5f), 16);
    const RenderResult pt = render_aovs(scene, 4, test::kAllAovs);
    for (const char* integrator : {"bpt", "vcm"}) {
        const RenderResult other = render_aovs(scene, 4, test::kAllAovs, integrator);
        ASSERT_EQ(other.aovs.size(), 3u) << integrator;
        for (size_t k = 0; k < 3; ++k)
            for (size_t i = 0; i < pt.aovs[k].image.pixels.size(); ++i)
                for (int c = 0; c < 3; ++c)
                    ASSERT_NEAR(other.aovs[k].image.pixels[i][c], pt.aovs[k].image.pixels[i][c], 1e-6)
                        << integrator << " " << pt.aovs[k].name << " pixel " << i;
    }
    try {
        render_aovs(scene, 1, test::kAllAovs, "lt");
        ADD_FAILURE() << "lt rendered AOVs";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("lt"), std::string::npos) << e.what();
    }
}

// Asking for AOVs changes nothing in the beauty (same seed): bit for bit, with pt and bpt.
TEST(AovRender, BeautyIsBitIdenticalWithAndWithoutAovs) {
    const HostScene scene = test::aov_sphere_scene(Vec3f(0.6f), 16);
    for (const char* integrator : {"pt", "bpt"}) {
        const RenderResult plain = render_aovs(scene, 8, 0, integrator);
        const RenderResult with = render_aovs(scene, 8, test::kAllAovs, integrator);
        EXPECT_TRUE(plain.aovs.empty());
        ASSERT_EQ(plain.image.pixels.size(), with.image.pixels.size());
        EXPECT_EQ(0, std::memcmp(plain.image.pixels.data(), with.image.pixels.data(),
                                 plain.image.pixels.size() * sizeof(Vec3f)))
            << integrator;
    }
}

// Only the AOVs asked for are made (and only they take film memory).
TEST(AovRender, OnlyTheAovsAskedForAreReturned) {
    const RenderResult r = render_aovs(test::aov_sphere_scene(Vec3f(0.5f), 8), 1, aov_bit(Aov::Depth));
    ASSERT_EQ(r.aovs.size(), 1u);
    EXPECT_EQ(r.aovs[0].name, "depth");
    EXPECT_EQ(r.aovs[0].channels, "Z");
}

}  // namespace
}  // namespace wf
