// materials/microfacet.h: the GGX distribution against its defining integrals, the lobes'
// samplers against their densities (chi-square), their energy (white furnace, importance
// sampling against quadrature of evaluate()), reciprocity and pdf consistency.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>

#include "materials/microfacet.h"
#include "materials/sampling.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/ring_binning.h"
#include "tests/materials/smallvcm_materials.h"

namespace wf {
namespace {

using namespace materials_test;

constexpr uint64_t kChiSamples = 200000;
constexpr Vec3f kZ{0.0f, 0.0f, 1.0f};

// Local direction at polar angle theta (degrees) from +z, azimuth phi (radians).
Vec3f local_dir(float theta_deg, float phi = 0.7f) {
    float t = degrees(theta_deg);
    return {std::sin(t) * std::cos(phi), std::sin(t) * std::sin(phi), std::cos(t)};
}

Vec3f random_direction(UniformRng& rng) { return sample_uniform_sphere(rng(), rng()); }

double rel_diff(double a, double b) { return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), 1e-30}); }

// Half-vector ring bins about the normal on wo's side, fine enough for roughness alpha.
RingBinning half_vector_bins(Vec3f wo, float alpha) {
    return RingBinning(Vec3f(0.0f, 0.0f, wo.z > 0.0f ? 1.0f : -1.0f), 0.25 * double(alpha) * alpha, 32, 24);
}

// Indices above and below the surface for a dielectric of relative index eta (below / above).
float eta_on_side(float eta, float z) { return z > 0.0f ? 1.0f : eta; }

// Chi-square of a lobe's sampled directions, binned in the half-vector space of `map`;
// delta, refused and out-of-domain samples go to the extra cell.
template <class SampleFn, class PdfFn>
ChiSquareResult lobe_chi_square(SampleFn sample, PdfFn pdf, const RingBinning& bins, const DirectionMap& map,
                                uint64_t seed) {
    UniformRng rng(seed);
    return chi_square_rings(
        bins,
        [&]() -> std::optional<Vec3f> {
            float u0 = rng(), u1 = rng(), u2 = rng();
            LobeSample s = sample(u0, u1, u2);
            if (is_black(s.f) || s.delta) return std::nullopt;
            return s.wi;
        },
        [&](Vec3f wi) { return double(pdf(wi)); }, kChiSamples, map);
}

// ---- The distribution ---------------------------------------------------------------------

TEST(Ggx, ProjectedAreaIntegratesToOne) {
    struct Alphas { float ax, ay; };
    for (Alphas a : {Alphas{0.002f, 0.002f}, Alphas{0.01f, 0.01f}, Alphas{0.1f, 0.1f}, Alphas{0.5f, 0.5f},
                     Alphas{1.0f, 1.0f}, Alphas{0.05f, 0.5f}}) {
        GgxDistribution d(a.ax, a.ay);
        RingBinning bins(Vec3f(0, 0, 1), 0.25 * double(a.ax) * a.ax, 48, 32);
        double total = bins.integrate_total([&](Vec3f wm) { return double(d.d(wm)) * std::max(0.0f, wm.z); });
        EXPECT_NEAR(total, 1.0, 1e-4) << a.ax << " x " << a.ay;
    }
}

// G1 and D are consistent exactly when the visible-normal density integrates to 1
// (Heitz 2014, eq. 18): a wrong Lambda fails this.
TEST(Ggx, VisibleNormalDensityIntegratesToOne) {
    for (float alpha : {0.05f, 0.3f, 1.0f}) {
        GgxDistribution d(alpha, 0.7f * alpha);
        for (float deg : {0.0f, 40.0f, 80.0f, 89.0f, 120.0f, 175.0f}) {
            Vec3f wo = local_dir(deg);
            RingBinning bins(Vec3f(0, 0, 1), 0.1 * double(alpha) * alpha, 48, 32);
            double total = bins.integrate_total([&](Vec3f wm) { return double(d.visible_normal_pdf(wo, wm)); });
            EXPECT_NEAR(total, 1.0, 5e-4) << "alpha " << alpha << ", " << deg << " degrees";
        }
    }
}

TEST(Ggx, MaskingAtNormalIncidenceIsOneAndVanishesAtTheHorizon) {
    for (float alpha : {0.01f, 0.3f, 1.0f}) {
        GgxDistribution d(alpha, 0.5f * alpha);
        EXPECT_FLOAT_EQ(d.g1(Vec3f(0, 0, 1)), 1.0f);
        EXPECT_FLOAT_EQ(d.g1(Vec3f(0, 0, -1)), 1.0f);
        EXPECT_FLOAT_EQ(d.g2(Vec3f(0, 0, 1), Vec3f(0, 0, 1)), 1.0f);
        EXPECT_LT(d.g1(local_dir(89.99f)), 0.05f);
        EXPECT_FLOAT_EQ(d.g1(local_dir(60.0f)), d.g1(-local_dir(60.0f)));
    }
    // Isotropic closed forms: G1 = 2 / (1 + sqrt(1 + alpha^2 tan^2)), and the
    // height-correlated G2 = 2 cos_o cos_i / (cos_i r_o + cos_o r_i), r = sqrt(alpha^2 +
    // (1 - alpha^2) cos^2) (glTF Appendix B's form of it).
    GgxDistribution d(0.4f, 0.4f);
    double tan2 = std::pow(std::tan(double(degrees(70.0f))), 2.0);
    EXPECT_NEAR(d.g1(local_dir(70.0f)), 2.0 / (1.0 + std::sqrt(1.0 + 0.16 * tan2)), 1e-6);
    double co = std::cos(double(degrees(70.0f))), ci = std::cos(double(degrees(35.0f)));
    auto r = [](double c) { return std::sqrt(0.16 + 0.84 * c * c); };
    EXPECT_NEAR(d.g2(local_dir(70.0f), local_dir(35.0f, 2.5f)), 2.0 * co * ci / (ci * r(co) + co * r(ci)), 1e-6);
}

TEST(Ggx, SchlickAtNormalIncidenceIsF0) {
    Vec3f f0(0.9f, 0.5f, 0.04f);
    Vec3f f = fresnel_schlick_rgb(f0, 1.0f);
    EXPECT_FLOAT_EQ(f.x, f0.x);
    EXPECT_FLOAT_EQ(f.y, f0.y);
    EXPECT_FLOAT_EQ(f.z, f0.z);
    Vec3f g = fresnel_schlick_rgb(f0, 0.0f);
    EXPECT_FLOAT_EQ(g.x, 1.0f);
    EXPECT_FLOAT_EQ(g.z, 1.0f);
}

TEST(Ggx, SmoothnessThresholdMakesDeltaLobes) {
    EXPECT_TRUE(GgxDistribution(0.0009f, 0.0009f).effectively_smooth());
    EXPECT_FALSE(GgxDistribution(0.0011f, 0.0009f).effectively_smooth());
    EXPECT_TRUE(MicrofacetConductor(GgxDistribution(0.0f, 0.0f), Vec3f(1.0f)).is_delta());
    EXPECT_TRUE(MicrofacetDielectric(GgxDistribution(0.3f, 0.3f), 1.0f, true).is_delta());  // index-matched
    EXPECT_FALSE(MicrofacetDielectric(GgxDistribution(0.3f, 0.3f), 1.5f, true).is_delta());
}

// ---- Conductor ------------------------------------------------------------------------------

TEST(MicrofacetConductor, SamplingChiSquare) {
    struct Case { float ax, ay; };
    for (Case c : {Case{0.0025f, 0.0025f}, Case{0.09f, 0.09f}, Case{0.5f, 0.5f}, Case{1.0f, 1.0f}, Case{0.1f, 0.4f}}) {
        MicrofacetConductor lobe(GgxDistribution(c.ax, c.ay), Vec3f(0.9f, 0.6f, 0.3f));
        for (float deg : {0.0f, 45.0f, 80.0f, 88.0f}) {
            Vec3f wo = local_dir(deg);
            auto r = lobe_chi_square([&](float u0, float u1, float) { return lobe.sample(wo, u0, u1); },
                                     [&](Vec3f wi) { return lobe.evaluate(wo, wi).pdf_fwd; },
                                     half_vector_bins(wo, std::min(c.ax, c.ay)), reflection_map(wo, kZ),
                                     1000 + uint64_t(deg) + uint64_t(1000 * c.ax));
            EXPECT_GT(r.p_value, kChiSquareMinPValue) << c.ax << " x " << c.ay << ", " << deg << " deg: " << r.message;
        }
    }
}

// The lobe seen from below (wo.z < 0) is the mirror image of the lobe from above.
TEST(MicrofacetConductor, LowerHemisphereMirrorsTheUpper) {
    MicrofacetConductor lobe(GgxDistribution(0.3f, 0.3f), Vec3f(0.8f));
    Vec3f wo = local_dir(130.0f);
    auto r = lobe_chi_square([&](float u0, float u1, float) { return lobe.sample(wo, u0, u1); },
                             [&](Vec3f wi) { return lobe.evaluate(wo, wi).pdf_fwd; }, half_vector_bins(wo, 0.3f),
                             reflection_map(wo, kZ), 77);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
    UniformRng rng(78);
    for (int i = 0; i < 1000; ++i) {
        Vec3f wi = random_direction(rng);
        Vec3f m(wo.x, wo.y, -wo.z), mi(wi.x, wi.y, -wi.z);
        EXPECT_NEAR(lobe.evaluate(wo, wi).f.x, lobe.evaluate(m, mi).f.x, 1e-5f * (1.0f + lobe.evaluate(m, mi).f.x));
    }
}

// Directional albedo of a white conductor (F0 = 1): importance-sampled mean of f cos / pdf
// against a quadrature of evaluate(). Both must agree (a sampler/evaluator mismatch breaks
// that) and stay <= 1; GGX with single scattering loses energy, more with roughness and
// toward grazing. Near-smooth (alpha 0.01) keeps ~all of it away from grazing.
struct Albedo {
    double sampled, error, quadrature;
};

Albedo conductor_albedo(float alpha, float deg, uint64_t seed) {
    MicrofacetConductor lobe(GgxDistribution(alpha, alpha), Vec3f(1.0f));
    Vec3f wo = local_dir(deg);
    UniformRng rng(seed);
    const int n = 100000;
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; ++i) {
        LobeSample s = lobe.sample(wo, rng(), rng());
        double w = is_black(s.f) ? 0.0 : double(s.f.x) * std::fabs(s.wi.z) / s.pdf;
        sum += w;
        sum2 += w * w;
    }
    double mean = sum / n;
    double err = std::sqrt(std::max(0.0, sum2 / n - mean * mean) / n);
    double quad = integrate_mapped(
        half_vector_bins(wo, alpha), [&](Vec3f wi) { return double(lobe.evaluate(wo, wi).f.x) * wi.z; },
        reflection_map(wo, kZ));
    return {mean, err, quad};
}

TEST(MicrofacetConductor, WhiteFurnaceAlbedo) {
    const float alphas[] = {0.01f, 0.1f, 0.3f, 0.6f, 1.0f};
    const float angles[] = {0.0f, 45.0f, 75.0f, 85.0f};
    double previous[4] = {2, 2, 2, 2};
    for (float alpha : alphas) {
        for (int k = 0; k < 4; ++k) {
            Albedo a = conductor_albedo(alpha, angles[k], 500 + uint64_t(100 * alpha) + k);
            std::printf("  conductor F0=1 alpha %.2f, %2.0f deg: albedo %.4f +- %.4f (sampled), %.4f (quadrature)\n",
                        alpha, angles[k], a.sampled, a.error, a.quadrature);
            EXPECT_NEAR(a.sampled, a.quadrature, 4.0 * a.error + 2e-3) << alpha << ", " << angles[k];
            EXPECT_LE(a.quadrature, 1.0 + 2e-3);
            EXPECT_LE(a.sampled, 1.0 + 4.0 * a.error);
            // Single scattering loses more energy with more roughness (not so at grazing angles,
            // where a rough surface sends light away from the grazing, heavily masked directions).
            if (angles[k] <= 75.0f) {
                EXPECT_LT(a.quadrature, previous[k] + 2e-3) << alpha << ", " << angles[k];
            }
            previous[k] = a.quadrature;
            if (alpha <= 0.01f) {
                EXPECT_NEAR(a.quadrature, 1.0, angles[k] < 80.0f ? 2e-3 : 1e-2);
            }
            // alpha = 1 at normal incidence in closed form: the normals are cosine-distributed,
            // theta_i = 2 theta_m, G2 / G1 = 2 cos_i / (1 + cos_i): E = 1 - ln 2.
            if (alpha == 1.0f && angles[k] == 0.0f) {
                EXPECT_NEAR(a.quadrature, 1.0 - std::log(2.0), 1e-3);
            }
        }
    }
}

// Nearly smooth (just above the threshold) behaves as the mirror with Schlick's F.
TEST(MicrofacetConductor, NearlySmoothEqualsSchlickMirror) {
    Vec3f f0(0.95f, 0.64f, 0.54f);
    Vec3f wo = local_dir(50.0f);
    MicrofacetConductor rough(GgxDistribution(0.0012f, 0.0012f), f0);
    MicrofacetConductor mirror(GgxDistribution(0.0f, 0.0f), f0);
    Vec3f expected = fresnel_schlick_rgb(f0, wo.z);
    LobeSample m = mirror.sample(wo, 0.3f, 0.6f);
    ASSERT_TRUE(m.delta);
    Vec3f mw = m.f * (std::fabs(m.wi.z) / m.pdf);
    EXPECT_NEAR(mw.y, expected.y, 1e-5f);
    EXPECT_NEAR(m.wi.x, -wo.x, 1e-6f);
    UniformRng rng(3);
    Vec3f sum(0.0f);
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        LobeSample s = rough.sample(wo, rng(), rng());
        ASSERT_FALSE(s.delta);
        if (is_black(s.f)) continue;
        sum += s.f * (std::fabs(s.wi.z) / s.pdf);
    }
    EXPECT_NEAR(sum.x / n, expected.x, 2e-3f);
    EXPECT_NEAR(sum.y / n, expected.y, 2e-3f);
    EXPECT_NEAR(sum.z / n, expected.z, 2e-3f);
}

TEST(MicrofacetConductor, ReciprocalAndPdfConsistent) {
    MicrofacetConductor lobe(GgxDistribution(0.2f, 0.45f), Vec3f(0.9f, 0.5f, 0.2f));
    UniformRng rng(11);
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
        Vec3f wo = random_direction(rng);
        if (std::fabs(wo.z) < 0.02f) continue;
        LobeSample s = lobe.sample(wo, rng(), rng());
        if (is_black(s.f)) continue;
        ++checked;
        LobeEval fwd = lobe.evaluate(wo, s.wi);
        LobeEval rev = lobe.evaluate(s.wi, wo);
        ASSERT_LT(rel_diff(fwd.pdf_fwd, s.pdf), 1e-3) << i;
        ASSERT_LT(rel_diff(fwd.f.x, s.f.x), 1e-3) << i;
        ASSERT_LT(rel_diff(fwd.f.y, rev.f.y), 1e-4) << i;          // f(wo, wi) = f(wi, wo)
        ASSERT_LT(rel_diff(fwd.pdf_rev, rev.pdf_fwd), 1e-4) << i;  // reverse density
    }
    EXPECT_GT(checked, 15000);
}

// ---- Dielectric -------------------------------------------------------------------------------

TEST(MicrofacetDielectric, SamplingChiSquareBothSidesBothHemispheres) {
    struct Case { float eta, deg; };
    // eta 1.5: glass below; 1/1.33: water above, the denser side (total internal reflection
    // from above beyond 48.8 degrees, wholly for a smooth surface).
    const Case cases[] = {{1.5f, 0.0f},   {1.5f, 60.0f},         {1.5f, 85.0f},         {1.5f, 130.0f},
                          {1.5f, 175.0f}, {1.0f / 1.33f, 40.0f}, {1.0f / 1.33f, 82.0f}, {1.0f / 1.33f, 150.0f}};
    for (float alpha : {0.0025f, 0.1f, 0.6f}) {
        for (Case c : cases) {
            MicrofacetDielectric lobe(GgxDistribution(alpha, alpha), c.eta, true);
            Vec3f wo = local_dir(c.deg);
            auto sample = [&](float u0, float u1, float u2) { return lobe.sample(wo, u0, u1, u2); };
            auto pdf = [&](Vec3f wi) { return double(lobe.evaluate(wo, wi).pdf_fwd); };
            uint64_t seed = 2000 + uint64_t(c.deg) + uint64_t(1000 * alpha) + uint64_t(100 * c.eta);
            RingBinning bins = half_vector_bins(wo, alpha);
            auto r = lobe_chi_square(sample, pdf, bins, reflection_map(wo, kZ), seed);
            EXPECT_GT(r.p_value, kChiSquareMinPValue)
                << "reflection, alpha " << alpha << ", eta " << c.eta << ", " << c.deg << " deg: " << r.message;
            DirectionMap refraction = refraction_map(wo, kZ, eta_on_side(c.eta, wo.z), eta_on_side(c.eta, -wo.z));
            if (integrate_mapped(bins, pdf, refraction) * double(kChiSamples) < 100.0) {
                // (Nearly) total internal reflection: too few transmitted samples to bin.
                UniformRng rng(seed + 1);
                int transmitted = 0;
                for (int i = 0; i < 10000; ++i) transmitted += lobe.sample(wo, rng(), rng(), rng()).wi.z * wo.z < 0.0f;
                EXPECT_LE(transmitted, 2) << "alpha " << alpha << ", eta " << c.eta << ", " << c.deg << " deg";
                continue;
            }
            r = lobe_chi_square(sample, pdf, bins, refraction, seed + 1);
            EXPECT_GT(r.p_value, kChiSquareMinPValue)
                << "transmission, alpha " << alpha << ", eta " << c.eta << ", " << c.deg << " deg: " << r.message;
        }
    }
}

// Smooth interface: reflection with weight 1 and probability R, transmission with
// probability 1 - R; R + T = 1 (importance, i.e. a light path: no radiance scaling).
TEST(MicrofacetDielectric, SmoothConservesEnergy) {
    const float eta = 1.5f;
    MicrofacetDielectric lobe(GgxDistribution(0.0f, 0.0f), eta, false);
    for (float deg : {0.0f, 30.0f, 60.0f, 85.0f, 120.0f, 140.0f, 175.0f}) {
        Vec3f wo = local_dir(deg);
        float r = fresnel_dielectric(wo.z, eta);
        double reflected = 0.0, transmitted = 0.0;
        const int n = 1000;
        for (int i = 0; i < n; ++i) {
            LobeSample s = lobe.sample(wo, 0.5f, 0.5f, (i + 0.5f) / n);
            ASSERT_TRUE(s.delta);
            double w = double(s.f.x) * std::fabs(s.wi.z) / s.pdf;
            ASSERT_NEAR(w, 1.0, 1e-5);
            (s.wi.z * wo.z > 0.0f ? reflected : transmitted) += w / n;
        }
        EXPECT_NEAR(reflected, r, 1.5e-3) << deg;
        EXPECT_NEAR(reflected + transmitted, 1.0, 1e-6) << deg;
    }
    // Radiance (camera path) entering glass is compressed by 1 / eta^2.
    MicrofacetDielectric camera(GgxDistribution(0.0f, 0.0f), eta, true);
    LobeSample s = camera.sample(local_dir(0.0f), 0.5f, 0.5f, 0.99f);
    EXPECT_NEAR(s.f.x * std::fabs(s.wi.z) / s.pdf, 1.0f / (eta * eta), 1e-5f);
}

// Rough interface: R + T <= 1 (light path), importance sampling against quadrature of both
// hemispheres; near-smooth it conserves energy.
TEST(MicrofacetDielectric, RoughAlbedoAtMostOne) {
    for (float alpha : {0.01f, 0.2f, 0.6f, 1.0f}) {
        MicrofacetDielectric lobe(GgxDistribution(alpha, alpha), 1.5f, false);
        for (float deg : {0.0f, 60.0f, 85.0f, 150.0f}) {
            Vec3f wo = local_dir(deg);
            UniformRng rng(900 + uint64_t(deg) + uint64_t(100 * alpha));
            const int n = 100000;
            double sum = 0.0, sum2 = 0.0;
            for (int i = 0; i < n; ++i) {
                float u0 = rng(), u1 = rng(), u2 = rng();
                LobeSample s = lobe.sample(wo, u0, u1, u2);
                double w = is_black(s.f) ? 0.0 : double(s.f.x) * std::fabs(s.wi.z) / s.pdf;
                sum += w;
                sum2 += w * w;
            }
            double mean = sum / n, err = std::sqrt(std::max(0.0, sum2 / n - mean * mean) / n);
            auto integrand = [&](Vec3f wi) { return double(lobe.evaluate(wo, wi).f.x) * std::fabs(wi.z); };
            RingBinning bins = half_vector_bins(wo, alpha);
            double quad = integrate_mapped(bins, integrand, reflection_map(wo, kZ)) +
                          integrate_mapped(bins, integrand,
                                           refraction_map(wo, kZ, eta_on_side(1.5f, wo.z), eta_on_side(1.5f, -wo.z)));
            std::printf("  dielectric eta 1.5 alpha %.2f, %3.0f deg: R+T %.4f +- %.4f (sampled), %.4f (quadrature)\n",
                        alpha, deg, mean, err, quad);
            EXPECT_NEAR(mean, quad, 4.0 * err + 3e-3) << alpha << ", " << deg;
            EXPECT_LE(quad, 1.0 + 3e-3) << alpha << ", " << deg;
            if (alpha <= 0.01f && deg < 80.0f) {
                EXPECT_NEAR(quad, 1.0, 3e-3) << deg;
            }
        }
    }
}

// Reflection pairs are symmetric. A refracted pair in radiance mode obeys
// f(wo, wi) eta_i^2 = f(wi, wo) eta_o^2, and the importance BSDF is the adjoint of the
// radiance one: f_importance(wo, wi) = f_radiance(wi, wo) (pbrt-v4 4e, 9.5.2).
TEST(MicrofacetDielectric, GeneralizedReciprocityAndPdfConsistency) {
    const float eta = 1.5f;
    MicrofacetDielectric radiance(GgxDistribution(0.3f, 0.3f), eta, true);
    MicrofacetDielectric importance(GgxDistribution(0.3f, 0.3f), eta, false);
    UniformRng rng(21);
    int reflected = 0, transmitted = 0;
    for (int i = 0; i < 20000; ++i) {
        Vec3f wo = random_direction(rng);
        if (std::fabs(wo.z) < 0.02f) continue;
        float u0 = rng(), u1 = rng(), u2 = rng();
        LobeSample s = radiance.sample(wo, u0, u1, u2);
        if (is_black(s.f) || std::fabs(s.wi.z) < 1e-3f) continue;
        LobeEval fwd = radiance.evaluate(wo, s.wi);
        LobeEval rev = radiance.evaluate(s.wi, wo);
        ASSERT_LT(rel_diff(fwd.pdf_fwd, s.pdf), 2e-3) << i;
        ASSERT_LT(rel_diff(fwd.f.x, s.f.x), 2e-3) << i;
        ASSERT_LT(rel_diff(fwd.pdf_rev, rev.pdf_fwd), 2e-3) << i;
        if (s.wi.z * wo.z > 0.0f) {
            ++reflected;
            ASSERT_LT(rel_diff(fwd.f.x, rev.f.x), 2e-3) << i;
        } else {
            ++transmitted;
            float eta_o = wo.z > 0.0f ? 1.0f : eta, eta_i = wo.z > 0.0f ? eta : 1.0f;
            ASSERT_LT(rel_diff(fwd.f.x * eta_i * eta_i, rev.f.x * eta_o * eta_o), 2e-3) << i;
            ASSERT_LT(rel_diff(importance.evaluate(wo, s.wi).f.x, rev.f.x), 2e-3) << i;
        }
    }
    EXPECT_GT(reflected, 1000);
    EXPECT_GT(transmitted, 5000);
}

// ---- Thin dielectric --------------------------------------------------------------------------

TEST(ThinDielectric, SlabSeriesAndEnergy) {
    const float eta = 1.5f;
    ThinDielectric slab(eta);
    EXPECT_TRUE(slab.is_delta());
    for (float deg : {0.0f, 40.0f, 75.0f, 89.0f, 140.0f}) {
        Vec3f wo = local_dir(deg);
        // Independent: the series of bounces inside the slab, R + T^2 R (1 + R^2 + R^4 ...).
        double r = fresnel_dielectric(std::fabs(wo.z), eta), t = 1.0 - r, series = r, bounce = t * t * r;
        for (int k = 0; k < 200; ++k, bounce *= r * r) series += bounce;
        EXPECT_NEAR(slab.reflectance(wo.z), series, 1e-5) << deg;
        double reflected = 0.0, transmitted = 0.0;
        const int n = 2000;
        for (int i = 0; i < n; ++i) {
            LobeSample s = slab.sample(wo, 0.0f, 0.0f, (i + 0.5f) / n);
            ASSERT_TRUE(s.delta);
            double w = double(s.f.x) * std::fabs(s.wi.z) / s.pdf;
            ASSERT_NEAR(w, 1.0, 1e-5);
            if (s.wi.z * wo.z > 0.0f) {
                reflected += w / n;
                ASSERT_NEAR(s.wi.x, -wo.x, 1e-6f);
            } else {
                transmitted += w / n;
                ASSERT_NEAR(s.wi.x, -wo.x, 1e-6f);  // straight through: wi = -wo
                ASSERT_NEAR(s.wi.z, -wo.z, 1e-6f);
            }
        }
        EXPECT_NEAR(reflected, series, 1e-3) << deg;
        EXPECT_NEAR(reflected + transmitted, 1.0, 1e-6) << deg;
        EXPECT_TRUE(is_black(slab.evaluate(wo, -wo).f));
    }
}

}  // namespace
}  // namespace wf
