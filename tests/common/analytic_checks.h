// Analytic checks of the path tracer, run on a given backend. The tolerance
// of each comparison comes from the spread of the pixel estimates (pixels are
// independent), not from a fixed epsilon.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/render.h"
#include "tests/common/analytic_scenes.h"

namespace wf::test {

struct SampleMean {
    double mean = 0, standard_error = 0;
    size_t count = 0;
};

inline SampleMean sample_mean(const std::vector<double>& v) {
    SampleMean s;
    s.count = v.size();
    if (v.empty()) return s;
    double sum = 0, sum2 = 0;
    for (double x : v) { sum += x; sum2 += x * x; }
    s.mean = sum / v.size();
    double var = std::max(0.0, sum2 / v.size() - s.mean * s.mean);
    s.standard_error = std::sqrt(var / v.size());
    return s;
}

// The scene's own settings, on one backend, for spp iterations.
inline RenderOptions options_for(const HostScene& scene, BackendKind backend, uint32_t spp) {
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.spp = spp;
    o.backend = backend;
    return o;
}

inline RenderResult render_with(const HostScene& scene, BackendKind backend, uint32_t spp, uint32_t max_depth,
                                uint32_t seed = 1) {
    RenderOptions o = options_for(scene, backend, spp);
    o.settings.max_depth = max_depth;
    o.settings.seed = seed;
    o.backend = backend;
    return render(scene, o);
}

// Does the ray through raster point (x, y) hit the unit sphere at the origin?
inline bool furnace_ray_hits_sphere(const Camera& cam, float x, float y) {
    Ray r = cam.generate_ray(x, y, 0.5f, 0.5f);
    float b = dot(r.origin, r.dir);
    float c = dot(r.origin, r.origin) - 1.0f;
    return b * b - c > 0.0f && b < 0.0f;
}

inline void check_white_furnace(BackendKind backend) {
    const float rho = 0.6f;
    const uint32_t size = 48;
    HostScene scene = white_furnace_scene(rho, size);
    RenderResult r = render_with(scene, backend, 64, 10);
    Camera cam = scene.camera.build(size, size);
    std::vector<double> on_sphere;
    size_t background = 0;
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) {
            int corners = 0;
            for (int c = 0; c < 4; ++c) corners += furnace_ray_hits_sphere(cam, float(x + (c & 1)), float(y + (c >> 1)));
            Vec3f v = r.image.pixels[y * size + x];
            if (corners == 4) {
                for (int ch = 0; ch < 3; ++ch) on_sphere.push_back(v[ch]);
            } else if (corners == 0) {
                // Camera rays that escape see the environment directly: exactly 1.
                ASSERT_NEAR(v.x, 1.0f, 1e-5f) << "background pixel " << x << "," << y;
                ASSERT_NEAR(v.y, 1.0f, 1e-5f);
                ASSERT_NEAR(v.z, 1.0f, 1e-5f);
                ++background;
            }
        }
    ASSERT_GT(on_sphere.size(), 300u);
    ASSERT_GT(background, 300u);
    SampleMean m = sample_mean(on_sphere);
    EXPECT_NEAR(m.mean, rho, 4.0 * m.standard_error + 1e-4)
        << "sphere pixels: mean " << m.mean << " +- " << m.standard_error << " over " << m.count;
}

inline void check_closed_sphere(BackendKind backend, uint32_t max_depth) {
    const float le = 1.0f, rho = 0.5f;
    HostScene scene = closed_sphere_scene(le, rho, 32);
    RenderResult r = render_with(scene, backend, 64, max_depth);
    std::vector<double> values;
    for (const Vec3f& v : r.image.pixels)
        for (int ch = 0; ch < 3; ++ch) values.push_back(v[ch]);
    SampleMean m = sample_mean(values);
    double expected = truncated_closed_sphere_radiance(le, rho, max_depth);
    EXPECT_NEAR(m.mean, expected, 4.0 * m.standard_error + 1e-4)
        << "max_depth " << max_depth << ": mean " << m.mean << " +- " << m.standard_error;
    EXPECT_EQ(r.stats.nonfinite_samples, 0u);
}

// In the white furnace every path ends within two bounces (the sphere is
// convex). With a huge max_depth the host must stop issuing bounces once the
// queues run dry, not launch max_depth empty ones, and the image is unchanged.
inline void check_bounces_stop_when_paths_die(BackendKind backend) {
    HostScene scene = white_furnace_scene(0.5f, 16);
    const uint32_t spp = 4;
    RenderResult deep = render_with(scene, backend, spp, 1000);
    RenderResult shallow = render_with(scene, backend, spp, 10);
    uint64_t launches = 0;
    for (const StageStat& s : deep.stats.stages)
        if (s.name == "intersect_closest") launches = s.launches;
    // All 4 samples of the 16x16 film fit one wave. Bounces 0 and 1 carry paths; bounces
    // 2..5 are issued before the host sees, four bounces late, that bounce 1 left no path
    // alive. Without the early stop there would be 1000 launches.
    EXPECT_LE(launches, 6u);
    EXPECT_GE(launches, 2u);
    ASSERT_EQ(deep.image.pixels.size(), shallow.image.pixels.size());
    for (size_t i = 0; i < deep.image.pixels.size(); ++i)
        for (int c = 0; c < 3; ++c) ASSERT_EQ(deep.image.pixels[i][c], shallow.image.pixels[i][c]) << i;
}

// A pass split into many small waves traces the same paths with the same random
// numbers as one big wave: the image is bit-identical (determinism does not
// depend on how work is scheduled).
inline void check_wave_size_does_not_change_the_image(BackendKind backend) {
    HostScene scene = closed_sphere_scene(1.0f, 0.7f, 40);
    scene.settings.height = 30;
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.spp = 3;
    o.settings.max_depth = 12;
    o.backend = backend;
    Image one_wave = render(scene, o).image;
    o.max_wave_paths = 97;  // 1200 pixels: 13 waves, the last one short
    Image many_waves = render(scene, o).image;
    ASSERT_EQ(one_wave.pixels.size(), many_waves.pixels.size());
    for (size_t i = 0; i < one_wave.pixels.size(); ++i)
        for (int c = 0; c < 3; ++c) ASSERT_EQ(one_wave.pixels[i][c], many_waves.pixels[i][c]) << "pixel " << i;
}

// Renders lit_ground_scene (ground of half-size s, 32x32, 4 iterations of pt)
// and checks that every pixel of the bottom half, which sees the ground 1 to 4
// units away, has the analytic radiance rho / pi * E * cos(theta).
inline void check_lit_ground(BackendKind backend, float s) {
    const float rho = 0.5f, e = 2.0f;
    const Vec3f to_ground(0.3f, -1.0f, 0.2f);
    HostScene scene = lit_ground_scene(s, rho, e, to_ground, 32);
    const float expected = rho / 3.14159265f * e * (1.0f / length(to_ground));
    RenderResult r = render_with(scene, backend, 4, 4);
    int wrong = 0;
    for (uint32_t y = 16; y < 32; ++y)
        for (uint32_t x = 0; x < 32; ++x) {
            const float v = r.image.at(x, y).x;
            if (!(std::fabs(v - expected) <= 1e-3f * expected) && wrong++ < 3)
                ADD_FAILURE() << "S = " << s << ": pixel " << x << ", " << y << " = " << v << ", expected " << expected;
        }
    EXPECT_EQ(wrong, 0) << "S = " << s << ": of 512 ground pixels";
}

// Renders spot_lit_ground_scene (48x48, `spp` iterations of pt) and checks every pixel
// against the closed form averaged over the pixel (a 16x16 grid of camera rays). The
// only noise is where in the pixel each sample falls, so the tolerance is 5 standard
// errors of that: the spread of the closed form over the pixel / sqrt(spp). Pixels wholly
// inside the inner cone, in the falloff ring and outside the outer cone (exactly 0) are
// each checked, and each kind must be present.
inline void check_spot_lit_ground(BackendKind backend, uint32_t spp) {
    const SpotOverGround spot;
    const uint32_t size = 48, grid = 16;
    HostScene scene = spot_lit_ground_scene(spot, size);
    const Camera cam = scene.camera.build(size, size);
    RenderResult r = render_with(scene, backend, spp, 4);
    EXPECT_EQ(r.stats.nonfinite_samples, 0u);
    const double full = spot.rho / kPi * spot.intensity;  // scale of the values, for float slack
    int inside = 0, ring = 0, outside = 0, wrong = 0;
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) {
            double sum = 0, sum2 = 0;
            int full_falloff = 0, dark = 0;
            for (uint32_t k = 0; k < grid * grid; ++k) {
                Ray ray = cam.generate_ray(x + (k % grid + 0.5f) / grid, y + (k / grid + 0.5f) / grid, 0.5f, 0.5f);
                ASSERT_LT(ray.dir.y, 0.0f) << "every camera ray meets the ground";
                const Vec3f p = ray.origin + (-ray.origin.y / ray.dir.y) * ray.dir;
                const double v = spot.ground_radiance(p);
                const Vec3f to_p = normalize(p - spot.position);
                full_falloff += spot.falloff(dot(spot.axis, to_p)) == 1.0;
                dark += v == 0.0;
                sum += v;
                sum2 += v * v;
            }
            const double n = double(grid * grid), expected = sum / n;
            const double spread = std::sqrt(std::max(0.0, sum2 / n - expected * expected));
            const double tolerance = 5.0 * spread / std::sqrt(double(spp)) + 2e-5 * full;
            const float got = r.image.at(x, y).y;
            if (dark == int(n)) ++outside;
            else if (full_falloff == int(n)) ++inside;
            else if (dark == 0) ++ring;
            // A pixel dark at every grid point may still catch a jittered sample a hair inside the
            // outer cone (the GPU's fused multiply-adds round the falloff's argument differently:
            // 5e-11 seen on an H100): dark means below 2e-5 of full, not exactly 0.
            if (dark == int(n) ? !(got >= 0.0f && got <= 2e-5 * full) : !(std::fabs(got - expected) <= tolerance))
                if (wrong++ < 5)
                    ADD_FAILURE() << "pixel " << x << ", " << y << " = " << got << ", expected " << expected << " +- "
                                  << tolerance;
        }
    EXPECT_EQ(wrong, 0) << "of " << size * size << " pixels";
    std::printf("spot-lit ground: %d pixels inside the inner cone, %d in the ring, %d outside\n", inside, ring,
                outside);
    EXPECT_GE(inside, 20);
    EXPECT_GE(ring, 40);
    EXPECT_GE(outside, 200);
}

// "S1e6" for a test parameter of 1e6.
inline std::string power_of_ten_name(const ::testing::TestParamInfo<float>& info) {
    return "S1e" + std::to_string(int(std::lround(std::log10(info.param))));
}

}  // namespace wf::test
