// Triangle lights with an emissive texture (materials/emitters.h area_radiance, glTF
// emissiveTexture): every way a light is read (a ray hitting it, a next-event sample, an
// emitted particle) sees the factor times the decoded texel under its point; next-event
// and light-traced irradiance agree with Lambert's formula summed over the texel regions;
// the power estimate of light selection (materials/light_selection.h) is the texture's
// mean over the triangle, and never 0.
//
// The light: the triangle (0,0,1), (0,1,1), (1,0,1) facing down (-z), its texture
// coordinates (0,0), (0,1), (1,0), so that the point (x, y, 1) reads (u, v) = (x, y), and
// its barycentrics (of the 2nd and 3rd vertex) are (y, x). The texture: 2 x 2 texels,
// nearest, rows from the top (v = 0): red, green / blue, white. So the triangle is
// red on [0, 0.5]^2, green where x > 0.5 and blue where y > 0.5. Expected values decode
// sRGB with the standard's formula here, not with the renderer's table.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/srgb.h"
#include "materials/emitters.h"
#include "materials/light_selection.h"
#include "tests/common/polygon_irradiance.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/light_estimates.h"

namespace wf {
namespace {

using materials_test::light_traced_irradiance;
using materials_test::nee_irradiance;
using materials_test::UniformRng;
using test::polygon_irradiance;

const Vec3f kFactor(2.0f, 3.0f, 4.0f);

// IEC 61966-2-1's decoding of an 8-bit code, in double.
double decode(int code) {
    const double c = code / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

uint32_t rgba(int r, int g, int b) { return uint32_t(r) | uint32_t(g) << 8 | uint32_t(b) << 16 | 0xffu << 24; }

struct TexturedTriangle {
    std::vector<Triangle> triangles{Triangle{Vec3f(0, 0, 1), Vec3f(0, 1, 1), Vec3f(1, 0, 1)}};
    std::vector<PrimInfo> prims{PrimInfo{0, 0, kPrimHasUvs}};
    std::vector<uint32_t> vertices{0, 1, 2};
    std::vector<Vec2f> uvs{Vec2f{0, 0}, Vec2f{0, 1}, Vec2f{1, 0}};
    // Codes of the texels (i, j) = (column, row from the top).
    int codes[2][2][3] = {{{255, 0, 0}, {0, 0, 255}}, {{0, 255, 0}, {255, 255, 255}}};  // [i][j]
    std::vector<uint32_t> texels;
    std::vector<TextureImage> images;
    std::vector<TextureBinding> bindings;
    std::vector<float> lut;
    Light light;

    TexturedTriangle() {
        texels = {rgba(255, 0, 0), rgba(0, 255, 0), rgba(0, 0, 255), rgba(255, 255, 255)};
        images = {TextureImage{0, 2, 2}};
        TextureBinding b;
        b.nearest = 1;
        b.srgb = 1;
        b.wrap_s = b.wrap_t = TextureWrap::ClampToEdge;
        bindings = {b};
        for (int i = 0; i < 256; ++i) lut.push_back(srgb8_to_linear(uint8_t(i)));
        light.type = LightType::Area;
        light.prim = 0;
        light.radiance = kFactor;
        light.emissive_texture = 0;
    }

    // One texel of `code` over the whole triangle (a 1 x 1 image).
    void use_one_texel(int r, int g, int b) {
        texels = {rgba(r, g, b)};
        images = {TextureImage{0, 1, 1}};
    }

    EmitterContext ctx() const {
        EmitterContext c{triangles.data(), 1, nullptr, prims.data(), SceneSphere{Vec3f(0.5f, 0.5f, 0.5f), 2.0f}};
        c.shading.triangle_vertices = vertices.data();
        c.shading.uvs = uvs.data();
        c.textures = TextureView{texels.data(), images.data(), bindings.data(), lut.data()};
        return c;
    }

    // The radiance the light should emit at (x, y, 1), channel c.
    double expected(float x, float y, int c) const {
        const int i = x < 0.5f ? 0 : 1, j = y < 0.5f ? 0 : 1;
        return double(kFactor[c]) * decode(codes[i][j][c]);
    }
};

// Points near a texel edge are left out: there the float point and the test's rounding
// may pick neighbouring texels.
bool near_texel_edge(Vec3f p) { return std::fabs(p.x - 0.5f) < 1e-4f || std::fabs(p.y - 0.5f) < 1e-4f; }

void expect_texel_radiance(const TexturedTriangle& t, Vec3f p, Vec3f radiance, float scale, const char* what) {
    for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(radiance[c], scale * t.expected(p.x, p.y, c), 1e-5 * kFactor[c] * (1 + scale))
            << what << " at (" << p.x << ", " << p.y << ") channel " << c;
}

TEST(EmissiveTexture, HitSampleAndParticleReadTheTexelUnderTheirPoint) {
    TexturedTriangle t;
    const EmitterContext ctx = t.ctx();
    UniformRng rng(71);
    int seen[2][2] = {};
    for (int k = 0; k < 20000; ++k) {
        const float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
        const Vec3f receiver(0.2f + 0.5f * u2, 0.3f * u3, 0.0f);
        DirectSample ds = illuminate(t.light, ctx, receiver, u0, u1);
        const Vec3f p = receiver + ds.distance * ds.dir_to_light;
        if (!near_texel_edge(p)) {
            expect_texel_radiance(t, p, ds.radiance, 1.0f, "illuminate");
            ++seen[p.x < 0.5f ? 0 : 1][p.y < 0.5f ? 0 : 1];
            // A ray that finds the same point: barycentrics (y, x) of the 2nd and 3rd vertex.
            EmitterHit h = radiance_on_hit(t.light, ctx, 0, p, p.y, p.x, ds.dir_to_light);
            expect_texel_radiance(t, p, h.radiance, 1.0f, "radiance_on_hit");
            EXPECT_NEAR(h.pdf_direct_a, 2.0f, 1e-5f) << "uniform by area, texture or not";
        }
        EmissionSample es = emit(t.light, ctx, u0, u1, u2, u3);
        if (!near_texel_edge(es.origin)) expect_texel_radiance(t, es.origin, es.energy, es.cos_light, "emit (energy / cos)");
        EXPECT_NEAR(es.pdf_direct_a, 2.0f, 1e-5f);
    }
    EXPECT_GT(seen[0][0], 4000);
    EXPECT_GT(seen[1][0], 2000);
    EXPECT_GT(seen[0][1], 2000);
    EXPECT_EQ(seen[1][1], 0) << "the white texel lies outside the triangle";
}

// The irradiance below the light, per channel: Lambert's formula over the three regions of
// one texel each (red square, green and blue triangles), each of its own radiance.
double region_irradiance(const TexturedTriangle& t, Vec3f x, Vec3f n, int c) {
    const std::vector<Vec3f> red{{0, 0, 1}, {0.5f, 0, 1}, {0.5f, 0.5f, 1}, {0, 0.5f, 1}};
    const std::vector<Vec3f> green{{0.5f, 0, 1}, {1, 0, 1}, {0.5f, 0.5f, 1}};
    const std::vector<Vec3f> blue{{0, 0.5f, 1}, {0.5f, 0.5f, 1}, {0, 1, 1}};
    return polygon_irradiance(red, x, n, t.expected(0.25f, 0.25f, c)) + polygon_irradiance(green, x, n, t.expected(0.75f, 0.1f, c)) +
           polygon_irradiance(blue, x, n, t.expected(0.1f, 0.75f, c));
}

TEST(EmissiveTexture, NextEventAndLightTracedIrradianceMatchLambertOverTexelRegions) {
    TexturedTriangle t;
    const EmitterContext ctx = t.ctx();
    const Vec3f n(0, 0, 1);
    for (const Vec3f x : {Vec3f(0.7f, 0.1f, 0.2f), Vec3f(0.1f, 0.8f, 0.5f)})
        for (int c = 0; c < 3; ++c) {
            const double exact = region_irradiance(t, x, n, c);
            const double nee = nee_irradiance(t.light, ctx, x, n, 400000, 81 + c, c);
            EXPECT_NEAR(nee, exact, 0.01 * exact) << "next-event, channel " << c << " at " << x.x << ", " << x.y;
        }
    // Photons through a disc of radius 0.05 about x (the irradiance varies by < 0.3% across
    // it): 8 replicates, their mean within 5 standard errors (Student t, 7 degrees of
    // freedom: P = 0.0016), which must be below 3% to make it a test.
    const Vec3f x(0.7f, 0.1f, 0.2f);
    for (int c = 0; c < 3; ++c) {
        const double exact = region_irradiance(t, x, n, c);
        double sum = 0, sum2 = 0;
        const int k = 8;
        for (int r = 0; r < k; ++r) {
            const double e = light_traced_irradiance(t.light, ctx, x, n, 0.05f, 500000, 91 + 10 * c + r, c);
            sum += e;
            sum2 += e * e;
        }
        const double mean = sum / k, se = std::sqrt((sum2 / k - mean * mean) * k / (k - 1) / k);
        EXPECT_NEAR(mean, exact, 5.0 * se) << "light traced, channel " << c;
        EXPECT_LT(se, 0.03 * exact) << "light traced, channel " << c << ": too noisy to be a test";
    }
}

// pi A times the luminance of the mean radiance: exact here, since the texel edges
// x = 0.5 and y = 0.5 are lines of the midpoint rule's grid (light_selection.h): half the
// area red, a quarter green, a quarter blue.
TEST(EmissiveTexture, LightPowerIsTheTexturesMeanOverTheTriangle) {
    auto lum = [](double r, double g, double b) { return 0.212671 * r + 0.715160 * g + 0.072169 * b; };
    const double area = 0.5, pi = 3.14159265358979323846;
    const double f[3] = {kFactor.x, kFactor.y, kFactor.z};
    TexturedTriangle t;
    const double mean = 0.5 * lum(f[0], 0, 0) + 0.25 * lum(0, f[1], 0) + 0.25 * lum(0, 0, f[2]);
    EXPECT_NEAR(light_power(t.light, t.ctx()), pi * area * mean, 1e-5 * pi * area * mean);

    t.use_one_texel(200, 100, 50);
    const double one = lum(f[0] * decode(200), f[1] * decode(100), f[2] * decode(50));
    EXPECT_NEAR(light_power(t.light, t.ctx()), pi * area * one, 1e-5 * pi * area * one);

    // A black texture: the floor, above 0, so that the light stays pickable.
    t.use_one_texel(0, 0, 0);
    const double floor = pi * area * lum(f[0], f[1], f[2]) / (255.0 * 12.92);
    EXPECT_GT(light_power(t.light, t.ctx()), 0.0);
    EXPECT_NEAR(light_power(t.light, t.ctx()), floor, 1e-5 * floor);

    // Without a texture, the factor alone.
    t.light.emissive_texture = -1;
    EXPECT_NEAR(light_power(t.light, t.ctx()), pi * area * lum(f[0], f[1], f[2]), 1e-4);
}

}  // namespace
}  // namespace wf
