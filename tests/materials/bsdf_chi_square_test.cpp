// Chi-square goodness of fit of Bsdf::sample against Bsdf::evaluate's forward pdf.
// Specular and refused samples share one extra cell whose expectation is what the
// evaluated pdf leaves of 1, so lobe probabilities and lost samples are checked too.
#include <gtest/gtest.h>

#include <cmath>

#include "materials/bsdf.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/smallvcm_materials.h"

namespace wf {
namespace {

using namespace materials_test;

constexpr uint64_t kSamples = 1000000;

ChiSquareResult bsdf_chi_square(const Bsdf& b, const Bsdf& pdf_source, Vec3f axis, uint64_t seed) {
    UniformRng rng(seed);
    SphereBinning bins(axis);
    return chi_square_directions(
        bins,
        [&](uint64_t) -> std::optional<Vec3f> {
            float u0 = rng(), u1 = rng(), u2 = rng();
            BsdfSample s = b.sample(u0, u1, u2);
            if (is_black(s.factor) || s.specular) return std::nullopt;
            return s.wi_world;
        },
        [&](Vec3f wi) { return double(pdf_source.evaluate(wi).pdf_fwd_w); }, kSamples);
}

ChiSquareResult bsdf_chi_square(const Bsdf& b, Vec3f axis, uint64_t seed) { return bsdf_chi_square(b, b, axis, seed); }

TEST(Bsdf, DiffuseSamplingChiSquare) {
    Vec3f n = normalize(Vec3f(0.3f, -0.2f, 0.9f));
    for (float deg : {0.0f, 45.0f, 80.0f}) {
        Bsdf b = Bsdf::make(smallvcm_white(), arriving_ray(n, degrees(deg)), n, true);
        ASSERT_TRUE(b.is_valid());
        auto r = bsdf_chi_square(b, n, 100 + uint64_t(deg));
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << deg << " degrees: " << r.message;
    }
}

TEST(Bsdf, GlossyFloorSamplingChiSquare) {
    Vec3f n(0, 0, 1);
    for (float deg : {0.0f, 30.0f, 60.0f, 75.0f, 85.0f}) {
        Bsdf b = Bsdf::make(smallvcm_glossy_floor(), arriving_ray(n, degrees(deg), 1.0f), n, true);
        ASSERT_TRUE(b.is_valid());
        auto r = bsdf_chi_square(b, n, 200 + uint64_t(deg));
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << deg << " degrees: " << r.message;
    }
}

TEST(Bsdf, PhongSamplingChiSquare) {
    Vec3f n = normalize(Vec3f(-0.5f, 0.1f, 1.0f));
    for (float exponent : {1.0f, 10.0f, 90.0f}) {
        Material m;
        m.ks = Vec3f(0.6f, 0.5f, 0.4f);
        m.phong_exponent = exponent;
        Bsdf b = Bsdf::make(m, arriving_ray(n, degrees(40), 2.0f), n, true);
        auto r = bsdf_chi_square(b, n, 300 + uint64_t(exponent));
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << "exponent " << exponent << ": " << r.message;
    }
}

// Diffuse + Phong + mirror: the mirror's share goes to the extra cell.
TEST(Bsdf, MixedMaterialSamplingChiSquare) {
    Material m;
    m.kd = Vec3f(0.4f, 0.2f, 0.2f);
    m.ks = Vec3f(0.2f);
    m.phong_exponent = 30.0f;
    m.km = Vec3f(0.3f);
    Vec3f n(0, 0, 1);
    Bsdf b = Bsdf::make(m, arriving_ray(n, degrees(50)), n, false);
    auto r = bsdf_chi_square(b, n, 400);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

// Two-sided glossy surface seen from behind samples around the flipped normal.
TEST(Bsdf, TwoSidedBackfaceSamplingChiSquare) {
    Material m = smallvcm_glossy_floor();
    m.two_sided = 1;
    Vec3f n(0, 0, 1);
    Bsdf b = Bsdf::make(m, -arriving_ray(n, degrees(35)), n, true);
    auto r = bsdf_chi_square(b, -n, 500);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

// Negative controls: the floor's samples must not fit a slightly different lobe, nor
// the same lobes with the diffuse/Phong split changed.
TEST(Bsdf, ChiSquareRejectsWrongBsdfPdf) {
    Vec3f n(0, 0, 1);
    Vec3f ray = arriving_ray(n, degrees(30));
    Bsdf b = Bsdf::make(smallvcm_glossy_floor(), ray, n, true);
    Material wider = smallvcm_glossy_floor();
    wider.phong_exponent = 80.0f;
    auto r = bsdf_chi_square(b, Bsdf::make(wider, ray, n, true), n, 600);
    EXPECT_LT(r.p_value, 1e-6) << r.message;
    Material resplit = smallvcm_glossy_floor();
    resplit.kd = Vec3f(0.12f);
    auto r2 = bsdf_chi_square(b, Bsdf::make(resplit, ray, n, true), n, 601);
    EXPECT_LT(r2.p_value, 1e-6) << r2.message;
}

TEST(Bsdf, DiffusePdfIntegratesToOne) {
    Vec3f n(0, 0, 1);
    for (float deg : {0.0f, 60.0f, 89.0f}) {
        Bsdf b = Bsdf::make(smallvcm_white(), arriving_ray(n, degrees(deg)), n, true);
        SphereBinning bins(n);
        double total = 0;
        for (double v : bins.integrate([&](Vec3f wi) { return double(b.evaluate(wi).pdf_fwd_w); }, 16)) total += v;
        EXPECT_NEAR(total, 1.0, 1e-4) << deg;
    }
    // Glossy floor at normal incidence: the Phong lobe lies wholly above the surface.
    Bsdf g = Bsdf::make(smallvcm_glossy_floor(), Vec3f(0, 0, -1), n, true);
    SphereBinning fine(n, 100, 40);
    double total = 0;
    for (double v : fine.integrate([&](Vec3f wi) { return double(g.evaluate(wi).pdf_fwd_w); }, 16)) total += v;
    EXPECT_NEAR(total, 1.0, 1e-3);
}

}  // namespace
}  // namespace wf
