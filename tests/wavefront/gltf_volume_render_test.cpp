// KHR_materials_volume's absorption as pt renders it (CPU backend): through an index-matched
// absorbing sphere in a uniform environment L, a pixel is L exp(-sigma_a chord), per channel.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "app/render.h"
#include "materials/gltf_bsdf.h"
#include "tests/common/gltf_volume_scenes.h"
#include "tests/wavefront/gltf_render_support.h"

namespace wf {
namespace {

// ior 1 is not special-cased as invisible: the BSDF transmits straight through (delta
// refraction with eta 1), from outside and from inside. Through the sphere's centre the
// Fresnel term is 0 (normal incidence), so the render below sees Beer-Lambert alone.
TEST(GltfVolume, IndexMatchedInterfaceTransmitsStraightThrough) {
    GltfBsdfParams p;
    p.base_color = Vec3f(1.0f);
    p.metallic = 0.0f;
    p.roughness = 0.0f;
    p.transmission = 1.0f;
    p.ior = 1.0f;
    p.thin_walled = false;
    const Vec3f n(0, 0, 1);
    for (const Vec3f ray : {normalize(Vec3f(0.3f, 0.1f, -1.0f)), normalize(Vec3f(-0.5f, 0.2f, 0.7f))}) {
        const GltfBsdf b = GltfBsdf::make(p, ray, n, n, true, true);
        ASSERT_TRUE(b.is_valid());
        ASSERT_TRUE(b.is_delta());
        const BsdfSample s = b.sample(0.3f, 0.6f, 0.999f);  // the transmission lobe
        ASSERT_TRUE(s.specular);
        EXPECT_GT(dot(s.wi_world, ray), 1.0f - 1e-6f);
        // Weight times lobe probability: what passes, 1 - F. glTF's Schlick Fresnel with
        // f0 = 0 (ior 1) is (1 - cos)^5, not 0: a little is reflected at grazing angles.
        const float c = std::fabs(ray.z);
        EXPECT_NEAR(s.factor.y * s.cos_out, 1.0f - std::pow(1.0f - c, 5.0f), 1e-5f);
    }
}

struct VolumeCase {
    Vec3f attenuation_color;
    float attenuation_distance, radius, offset;
};

TEST(GltfVolume, PixelIsEnvironmentTimesBeerLambertOfTheChord) {
    const Vec3f environment(2.0f, 1.5f, 1.0f);
    const VolumeCase cases[] = {{Vec3f(0.5f, 0.7f, 0.9f), 1.0f, 1.0f, 0.0f},
                                {Vec3f(0.2f, 0.6f, 1.0f), 3.0f, 1.5f, 0.0f},
                                {Vec3f(0.5f, 0.7f, 0.9f), 1.0f, 1.0f, 0.6f}};
    for (const VolumeCase& c : cases) {
        const Vec3f sigma_a = test::absorption_of(c.attenuation_color, c.attenuation_distance);
        HostScene scene = test::absorbing_sphere_scene(sigma_a, c.radius, c.offset, environment, 8);
        const RenderResult r = test::render_cpu(scene, 8, 8, 64, 8);
        ASSERT_EQ(r.stats.nonfinite_samples, 0u);
        const double chord = 2.0 * std::sqrt(double(c.radius) * c.radius - double(c.offset) * c.offset);
        for (int ch = 0; ch < 3; ++ch) {
            double sum = 0, sum2 = 0;
            for (const Vec3f& v : r.image.pixels) sum += v[ch], sum2 += double(v[ch]) * v[ch];
            const double n = double(r.image.pixels.size()), mean = sum / n;
            const double se = std::sqrt(std::max(0.0, sum2 / n - mean * mean) / n);
            // c^(chord / d): the colour left after the distance d, compounded over the chord.
            // Times what the two interfaces pass: 1 - (1 - cos)^5 each (glTF's Schlick Fresnel at ior 1).
            const double cos_in = chord / (2.0 * c.radius), pass = 1.0 - std::pow(1.0 - cos_in, 5.0);
            const double expected =
                environment[ch] * std::pow(double(c.attenuation_color[ch]), chord / c.attenuation_distance) * pass * pass;
            std::printf("  chord %.3f, channel %d: %.5f +- %.5f (expected %.5f)\n", chord, ch, mean, se, expected);
            EXPECT_NEAR(mean, expected, 4.0 * se + 1e-3 * expected) << "chord " << chord << ", channel " << ch;
        }
    }
}

}  // namespace
}  // namespace wf
