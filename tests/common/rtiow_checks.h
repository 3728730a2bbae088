// Checks of the "Ray Tracing in One Weekend" materials (rtiow_*) and of the gradient sky,
// rendered end to end on a given backend: analytic answers under a sky, and the bundled
// final scene against the thumbnail of that book's CUDA renderer's own image.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/integrators.h"
#include "io/image.h"
#include "io/image_metrics.h"
#include "io/scene_loader.h"
#include "tests/common/analytic_checks.h"
#include "tests/common/source_dir.h"

namespace wf::test {

// A gradient sky: `zenith` looking up (+y), `nadir` looking down.
inline Light gradient_sky(Vec3f zenith, Vec3f nadir) {
    Light sky;
    sky.type = LightType::Environment;
    sky.radiance = 0.5f * (zenith + nadir);
    sky.radiance_slope = 0.5f * (zenith - nadir);
    return sky;
}

// A ground of material `m` (half-size 1e4, at y = 0) under `sky`, seen from one unit above,
// looking straight down through a 2 degree field of view. Every ray leaving the ground
// escapes to the sky, so a ground pixel's radiance is the sky's averaged over the lobe.
inline HostScene sky_over_ground_scene(const Material& m, const Light& sky, uint32_t size) {
    HostScene s;
    s.source_path = "<sky over ground>";
    look_at_diffuse(s, {0, 1, 0}, {0, -1, 0}, 2.0f, 0.0f, "ground", size);
    s.camera.up = {0, 0, -1};
    s.materials[0] = m;
    const float h = 1e4f;
    s.triangles.push_back({{-h, 0, -h}, {h, 0, h}, {h, 0, -h}});
    s.triangles.push_back({{-h, 0, -h}, {-h, 0, h}, {h, 0, h}});
    s.prims.push_back({0, -1, 0});
    s.prims.push_back({0, -1, 0});
    s.lights.push_back(sky);
    return s;
}

// Every ground pixel's channel mean against `expected`, within 4 standard errors of the
// pixel spread plus `bias` (relative).
inline void expect_ground_radiance(BackendKind backend, const HostScene& scene, Vec3f expected, double bias,
                                   const std::string& what) {
    RenderResult r = render_with(scene, backend, 16, 8);
    for (int c = 0; c < 3; ++c) {
        std::vector<double> values;
        for (const Vec3f& p : r.image.pixels) values.push_back(p[c]);
        SampleMean m = sample_mean(values);
        EXPECT_NEAR(m.mean, expected[c], 4.0 * m.standard_error + bias * expected[c])
            << what << ", channel " << c << " (standard error " << m.standard_error << ")";
    }
}

// Lambert's cos lobe sees the sky at a mean height dot(w, up) of 2/3, the book's cos^3
// "lambertian" at 4/5: under the gradient sky the two differ by a few percent.
inline void check_diffuse_under_gradient_sky(BackendKind backend) {
    const Vec3f zenith(0.5f, 0.7f, 1.0f), nadir(1.0f), albedo(0.8f, 0.6f, 0.4f);
    const Light sky = gradient_sky(zenith, nadir);
    auto sky_at_mean_height = [&](float mean_y) { return nadir + (zenith - nadir) * (0.5f * (1.0f + mean_y)); };
    Material lambert;
    lambert.kd = albedo;
    expect_ground_radiance(backend, sky_over_ground_scene(lambert, sky, 16), albedo * sky_at_mean_height(2.0f / 3.0f),
                           1e-4, "Lambert");
    expect_ground_radiance(backend, sky_over_ground_scene(rtiow_lambertian_material(albedo), sky, 16),
                           albedo * sky_at_mean_height(0.8f), 1e-4, "rtiow_lambertian");
}

// The fuzzy metal seen straight down reflects the sky about the zenith, blurred by the
// book's ball: the expectation comes from the book's own procedure (rejection sampling
// in the cube) with 4M samples, good to 1e-3.
inline void check_metal_under_gradient_sky(BackendKind backend, float fuzz) {
    const Vec3f zenith(0.2f, 0.5f, 1.0f), nadir(1.0f), albedo(0.9f, 0.7f, 0.5f);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    double sum_y = 0.0;
    const int n = 1 << 22;
    for (int i = 0; i < n;) {
        Vec3f b(u(rng), u(rng), u(rng));
        if (length_squared(b) >= 1.0f) continue;
        sum_y += normalize(Vec3f(0, 1, 0) + fuzz * b).y;
        ++i;
    }
    const Vec3f expected = albedo * (nadir + (zenith - nadir) * float(0.5 * (1.0 + sum_y / n)));
    HostScene scene =
        sky_over_ground_scene(rtiow_metal_material(albedo, fuzz), gradient_sky(zenith, nadir), 16);
    expect_ground_radiance(backend, scene, expected, 1e-3, "rtiow_metal fuzz " + std::to_string(fuzz));
}

// The bundled final scene at 150x100 against the thumbnail (8x8 block means, decoded from
// its gamma-2 PNG) of the image the book's CUDA renderer made of it at 1200x800, 10 spp.
inline void check_rtiow_final_scene(BackendKind backend, uint32_t spp) {
    HostScene scene = load_scene(source_dir() + "/scenes/rtiow/final.json");
    ASSERT_EQ(integrator_scene_problem(IntegratorKind::Pt, scene), "");
    RenderOptions o = options_for(scene, backend, spp);
    o.settings.width = 150;
    o.settings.height = 100;
    RenderResult r = render(scene, o);
    Image peer = read_image(source_dir() + "/tests/data/rtiow/peer_10spp_150x100.exr");
    BlockComparison c = compare_block_means(r.image, peer, 5, 2.0);
    std::string worst;
    for (const auto& x : c.outliers)
        worst += " (" + std::to_string(x.x) + "," + std::to_string(x.y) + "): " + std::to_string(x.test) + " vs " +
                 std::to_string(x.reference) + ";";
    EXPECT_TRUE(c.agree) << "means " << c.test_mean.x << " " << c.test_mean.y << " " << c.test_mean.z << " vs "
                         << c.reference_mean.x << " " << c.reference_mean.y << " " << c.reference_mean.z << ", rms z "
                         << c.rms_z << ", " << 100.0 * c.fraction_beyond << "% beyond 4 sigma:" << worst;
}

}  // namespace wf::test
