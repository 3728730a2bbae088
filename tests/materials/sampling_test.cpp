// Warping functions of materials/sampling.h: densities integrate to one, samples follow
// their densities (chi-square), and the mappings are SmallVCM's.
#include <gtest/gtest.h>

#include <cmath>

#include "materials/sampling.h"
#include "tests/materials/chi_square.h"

namespace wf {
namespace {

using materials_test::chi_square_directions;
using materials_test::chi_square_test;
using materials_test::chi_square_uniform_cone;
using materials_test::kChiSquareMinPValue;
using materials_test::SphereBinning;
using materials_test::UniformRng;

constexpr uint64_t kSamples = 1000000;

// Composite Simpson over the sphere; res_cos cells in cos theta (peaked lobes need more).
double integrate_over_sphere(const std::function<double(Vec3f)>& f, int res_cos = 20) {
    SphereBinning bins(Vec3f(0, 0, 1), res_cos, 40);
    double sum = 0.0;
    for (double v : bins.integrate(f, 16)) sum += v;
    return sum;
}

TEST(Sampling, CosineHemispherePdfIntegratesToOne) {
    double total = integrate_over_sphere([](Vec3f d) { return cos_hemisphere_pdf_w(d.z); });
    EXPECT_NEAR(total, 1.0, 1e-4);
}

TEST(Sampling, PowerCosinePdfIntegratesToOne) {
    for (float n : {1.0f, 10.0f, 90.0f, 500.0f}) {
        double total = integrate_over_sphere([n](Vec3f d) { return power_cos_hemisphere_pdf_w(d.z, n); }, 100);
        EXPECT_NEAR(total, 1.0, 1e-3) << "exponent " << n;
    }
}

TEST(Sampling, UniformSpherePdfIntegratesToOne) {
    double total = integrate_over_sphere([](Vec3f) { return double(uniform_sphere_pdf_w()); });
    EXPECT_NEAR(total, 1.0, 1e-5);
}

TEST(Sampling, CosineHemisphereChiSquare) {
    UniformRng rng(11);
    SphereBinning bins(Vec3f(0, 0, 1));
    auto r = chi_square_directions(
        bins, [&](uint64_t) -> std::optional<Vec3f> { float u0 = rng(), u1 = rng(); return sample_cos_hemisphere(u0, u1); },
        [](Vec3f d) { return cos_hemisphere_pdf_w(d.z); }, kSamples);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

TEST(Sampling, PowerCosineChiSquare) {
    for (float n : {1.0f, 10.0f, 90.0f}) {
        UniformRng rng(12 + uint64_t(n));
        SphereBinning bins(Vec3f(0, 0, 1));
        auto r = chi_square_directions(
            bins,
            [&](uint64_t) -> std::optional<Vec3f> {
                float u0 = rng(), u1 = rng();
                return sample_power_cos_hemisphere(u0, u1, n);
            },
            [n](Vec3f d) { return power_cos_hemisphere_pdf_w(d.z, n); }, kSamples);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << "exponent " << n << ": " << r.message;
    }
}

TEST(Sampling, UniformSphereChiSquare) {
    UniformRng rng(13);
    SphereBinning bins(normalize(Vec3f(0.3f, -0.5f, 0.8f)));
    auto r = chi_square_directions(
        bins, [&](uint64_t) -> std::optional<Vec3f> { float u0 = rng(), u1 = rng(); return sample_uniform_sphere(u0, u1); },
        [](Vec3f) { return double(uniform_sphere_pdf_w()); }, kSamples);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

// ---- Uniform cone ------------------------------------------------------------------------
// The cone of half-angle theta_max holds 2 pi (1 - cos theta_max) sr: the pdf is its inverse
// inside and the samples stay inside, narrow cones and the hemisphere included.
TEST(Sampling, UniformConePdfIsTheInverseSolidAngle) {
    for (double degrees : {0.5, 10.0, 45.0, 90.0, 150.0}) {
        const double cos_max = double(float(std::cos(degrees * M_PI / 180.0)));  // the cone as float holds it
        EXPECT_NEAR(uniform_cone_pdf_w(float(cos_max)) * 2.0 * M_PI * (1.0 - cos_max), 1.0, 1e-5) << degrees;
        UniformRng rng(16);
        for (int i = 0; i < 10000; ++i) {
            Vec3f d = sample_uniform_cone(rng(), rng(), float(cos_max));
            ASSERT_NEAR(length(d), 1.0f, 1e-5f) << degrees;
            ASSERT_GE(d.z, float(cos_max) - 1e-6f) << degrees;
        }
    }
    // u1 = 0 is the axis, u1 -> 1 the edge.
    EXPECT_EQ(sample_uniform_cone(0.3f, 0.0f, 0.5f).z, 1.0f);
    EXPECT_NEAR(sample_uniform_cone(0.3f, 0.999999f, 0.5f).z, 0.5f, 1e-5f);
}

TEST(Sampling, UniformConeChiSquare) {
    for (double degrees : {0.5, 10.0, 45.0, 90.0, 150.0}) {
        const float cos_max = float(std::cos(degrees * M_PI / 180.0));
        UniformRng rng(17 + uint64_t(degrees));
        auto r = chi_square_uniform_cone(
            Vec3f(0, 0, 1), cos_max,
            [&](uint64_t) -> std::optional<Vec3f> { float u0 = rng(), u1 = rng(); return sample_uniform_cone(u0, u1, cos_max); },
            kSamples);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << degrees << " degrees: " << r.message;
    }
}

// The cone test tells a cone sampled as a slightly different one, or non-uniformly, apart.
TEST(Sampling, UniformConeChiSquareRejectsWrongSamplers) {
    const float cos_max = std::cos(30.0f * kPi / 180.0f);
    UniformRng rng(18);
    auto wider = chi_square_uniform_cone(
        Vec3f(0, 0, 1), cos_max,
        [&](uint64_t) -> std::optional<Vec3f> { float u0 = rng(), u1 = rng(); return sample_uniform_cone(u0, u1, cos_max - 0.002f); },
        kSamples);
    EXPECT_LT(wider.p_value, 1e-6) << wider.message;
    auto linear_in_angle = chi_square_uniform_cone(
        Vec3f(0, 0, 1), cos_max,
        [&](uint64_t) -> std::optional<Vec3f> {
            float u0 = rng(), u1 = rng();
            float theta = u1 * std::acos(cos_max), phi = 2.0f * kPi * u0;
            return Vec3f(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
        },
        kSamples);
    EXPECT_LT(linear_in_angle.p_value, 1e-6) << linear_in_angle.message;
}

// The test must be able to tell a slightly wrong density from the right one.
TEST(Sampling, ChiSquareRejectsMismatchedPdf) {
    {
        UniformRng rng(14);
        SphereBinning bins(Vec3f(0, 0, 1));
        auto r = chi_square_directions(
            bins,
            [&](uint64_t) -> std::optional<Vec3f> {
                float u0 = rng(), u1 = rng();
                return sample_power_cos_hemisphere(u0, u1, 10.0f);
            },
            [](Vec3f d) { return power_cos_hemisphere_pdf_w(d.z, 11.0f); }, kSamples);
        EXPECT_LT(r.p_value, 1e-6) << r.message;
    }
    {
        UniformRng rng(15);
        SphereBinning bins(Vec3f(0, 0, 1));
        auto r = chi_square_directions(
            bins, [&](uint64_t) -> std::optional<Vec3f> { float u0 = rng(), u1 = rng(); return sample_cos_hemisphere(u0, u1); },
            [](Vec3f d) { return d.z > 0 ? 0.5 / M_PI : 0.0; }, kSamples);
        EXPECT_LT(r.p_value, 1e-6) << r.message;
    }
}

TEST(Sampling, SamplesLieInTheirHemisphereAndAreUnit) {
    UniformRng rng(16);
    for (int i = 0; i < 100000; ++i) {
        float u0 = rng(), u1 = rng();
        Vec3f c = sample_cos_hemisphere(u0, u1);
        Vec3f p = sample_power_cos_hemisphere(u0, u1, 20.0f);
        Vec3f s = sample_uniform_sphere(u0, u1);
        ASSERT_GE(c.z, 0.0f);
        ASSERT_GE(p.z, 0.0f);
        ASSERT_NEAR(length(c), 1.0f, 1e-5f);
        ASSERT_NEAR(length(p), 1.0f, 1e-5f);
        ASSERT_NEAR(length(s), 1.0f, 1e-5f);
    }
}

// Same random numbers, same directions as SmallVCM (phi = 2 pi u0, then the radial map).
TEST(Sampling, MappingsMatchSmallVcm) {
    Vec3f c = sample_cos_hemisphere(0.25f, 0.64f);  // phi = pi/2, cos = sqrt(0.64)
    EXPECT_NEAR(c.x, 0.0f, 1e-6f);
    EXPECT_NEAR(c.y, 0.6f, 1e-6f);
    EXPECT_NEAR(c.z, 0.8f, 1e-6f);
    Vec3f p = sample_power_cos_hemisphere(0.5f, 0.25f, 1.0f);  // cos = 0.25^(1/2), phi = pi
    EXPECT_NEAR(p.z, 0.5f, 1e-6f);
    EXPECT_NEAR(p.x, -std::sqrt(0.75f), 1e-6f);
    Vec3f s = sample_uniform_sphere(0.0f, 0.75f);  // z = 1 - 2 u1
    EXPECT_NEAR(s.z, -0.5f, 1e-6f);
    EXPECT_NEAR(s.x, 2.0f * std::sqrt(0.75f - 0.5625f), 1e-6f);
    Vec2f b = sample_uniform_triangle(0.36f, 0.5f);  // (1 - sqrt u0, u1 sqrt u0)
    EXPECT_NEAR(b.x, 0.4f, 1e-6f);
    EXPECT_NEAR(b.y, 0.3f, 1e-6f);
    Vec2f d = sample_concentric_disk(1.0f, 0.5f);  // right edge centre -> (1, 0)
    EXPECT_NEAR(d.x, 1.0f, 1e-6f);
    EXPECT_NEAR(d.y, 0.0f, 1e-6f);
    Vec2f d2 = sample_concentric_disk(0.5f, 1.0f);  // top edge centre -> (0, 1)
    EXPECT_NEAR(d2.x, 0.0f, 1e-6f);
    EXPECT_NEAR(d2.y, 1.0f, 1e-6f);
}

// Equal-area cells of the disc: rings of equal r^2 width times equal phi wedges.
TEST(Sampling, ConcentricDiskIsUniformChiSquare) {
    const int rings = 10, wedges = 16;
    std::vector<double> observed(rings * wedges, 0.0), expected(rings * wedges, double(kSamples) / (rings * wedges));
    UniformRng rng(17);
    for (uint64_t i = 0; i < kSamples; ++i) {
        Vec2f p = sample_concentric_disk(rng(), rng());
        double r2 = double(p.x) * p.x + double(p.y) * p.y;
        ASSERT_LE(r2, 1.0 + 1e-6);
        double phi = std::atan2(double(p.y), double(p.x));
        if (phi < 0) phi += 2.0 * M_PI;
        int ir = std::min(rings - 1, int(r2 * rings));
        int iw = std::min(wedges - 1, int(phi / (2.0 * M_PI) * wedges));
        observed[size_t(ir * wedges + iw)] += 1.0;
    }
    auto r = chi_square_test(observed, expected);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

// Barycentrics binned on a 10x10 grid of [0,1]^2: cells below the diagonal b1 + b2 = 1
// hold 2 x cell area of the probability, cells on it half that, cells above none.
TEST(Sampling, UniformTriangleIsUniformChiSquare) {
    const int res = 10;
    std::vector<double> observed(res * res, 0.0), expected(res * res, 0.0);
    for (int i = 0; i < res; ++i)
        for (int j = 0; j < res; ++j) {
            double cell = 1.0 / (res * res);
            double frac = i + j < res - 1 ? 1.0 : (i + j == res - 1 ? 0.5 : 0.0);
            expected[size_t(i * res + j)] = double(kSamples) * 2.0 * cell * frac;
        }
    UniformRng rng(18);
    for (uint64_t k = 0; k < kSamples; ++k) {
        Vec2f b = sample_uniform_triangle(rng(), rng());
        ASSERT_GE(b.x, 0.0f);
        ASSERT_GE(b.y, 0.0f);
        ASSERT_LE(b.x + b.y, 1.0f + 1e-6f);
        int i = std::min(res - 1, int(b.x * res)), j = std::min(res - 1, int(b.y * res));
        observed[size_t(i * res + j)] += 1.0;
    }
    auto r = chi_square_test(observed, expected);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

TEST(Sampling, PdfMeasureConversion) {
    EXPECT_FLOAT_EQ(pdf_area_to_solid_angle(2.0f, 3.0f, 0.5f), 36.0f);
    EXPECT_FLOAT_EQ(pdf_area_to_solid_angle(2.0f, 3.0f, -0.5f), 36.0f);  // either side
    EXPECT_FLOAT_EQ(pdf_solid_angle_to_area(36.0f, 3.0f, 0.5f), 2.0f);
    // A unit-area patch at distance d seen head-on subtends ~1/d^2 sr: the pdfs must
    // carry the same probability in both measures.
    float pdf_a = 1.0f / 0.01f, d = 5.0f, c = 0.7f;
    float pdf_w = pdf_area_to_solid_angle(pdf_a, d, c);
    float patch_area = 0.01f, patch_solid_angle = patch_area * c / (d * d);
    EXPECT_NEAR(pdf_w * patch_solid_angle, pdf_a * patch_area, 1e-5f);
}

TEST(Sampling, BalanceHeuristic) {
    EXPECT_FLOAT_EQ(mis_balance(1.0f, 3.0f), 0.25f);
    EXPECT_FLOAT_EQ(mis_balance(3.0f, 1.0f) + mis_balance(1.0f, 3.0f), 1.0f);
    EXPECT_FLOAT_EQ(mis_balance(2.0f, 0.0f), 1.0f);
}

}  // namespace
}  // namespace wf
