// Bsdf (materials/bsdf.h): SmallVCM's lobe choice, RR probability, Fresnel, glass,
// sidedness, sample/evaluate agreement, reciprocity and energy.
#include <gtest/gtest.h>

#include <cmath>

#include "materials/bsdf.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/smallvcm_materials.h"

namespace wf {
namespace {

using namespace materials_test;

constexpr bool kCamera = true;
constexpr bool kLight = false;

::testing::AssertionResult near_rel(Vec3f a, Vec3f b, float rel) {
    for (int i = 0; i < 3; ++i) {
        float tol = rel * std::max(std::fabs(a[i]), std::fabs(b[i])) + 1e-7f;
        if (std::fabs(a[i] - b[i]) > tol)
            return ::testing::AssertionFailure()
                   << "(" << a.x << ", " << a.y << ", " << a.z << ") vs (" << b.x << ", " << b.y << ", " << b.z << ")";
    }
    return ::testing::AssertionSuccess();
}

// ---- Russian roulette and lobe choice ----------------------------------------------------

TEST(Bsdf, ContinuationProbMatchesSmallVcm) {
    Vec3f n(0, 0, 1);
    Vec3f ray = arriving_ray(n, degrees(35));
    EXPECT_NEAR(Bsdf::make(smallvcm_glossy_floor(), ray, n, kCamera).continuation_prob(), 0.8f, 1e-6f);
    EXPECT_NEAR(Bsdf::make(smallvcm_white(), ray, n, kCamera).continuation_prob(), 0.803922f, 1e-6f);
    EXPECT_NEAR(Bsdf::make(smallvcm_red(), ray, n, kCamera).continuation_prob(), 0.803922f, 1e-6f);
    EXPECT_FLOAT_EQ(Bsdf::make(smallvcm_mirror(), ray, n, kCamera).continuation_prob(), 1.0f);
    EXPECT_FLOAT_EQ(Bsdf::make(smallvcm_glass(), ray, n, kCamera).continuation_prob(), 1.0f);
    EXPECT_FLOAT_EQ(Bsdf::make(smallvcm_glass(), -ray, n, kCamera).continuation_prob(), 1.0f);  // from inside

    Material m;  // max over channels of kd + ks + F km (F = 1 without IOR)
    m.kd = Vec3f(0.2f, 0.5f, 0.1f);
    m.ks = Vec3f(0.1f, 0.1f, 0.3f);
    m.km = Vec3f(0.2f);
    EXPECT_NEAR(Bsdf::make(m, ray, n, kCamera).continuation_prob(), 0.8f, 1e-6f);

    Material clear;  // only refraction: 1 - F, F at normal incidence = ((1.5-1)/(1.5+1))^2
    clear.ior = 1.5f;
    EXPECT_NEAR(Bsdf::make(clear, Vec3f(0, 0, -1), n, kCamera).continuation_prob(), 0.96f, 1e-5f);
}

TEST(Bsdf, LobeChoiceFollowsLuminance) {
    Material m;
    m.kd = Vec3f(0.8f, 0.0f, 0.0f);  // luminance 0.8 * 0.212671
    m.km = Vec3f(0.0f, 0.0f, 0.9f);  // luminance 0.9 * 0.072169
    double p_mirror = 0.9 * 0.072169 / (0.8 * 0.212671 + 0.9 * 0.072169);
    Vec3f n(0, 0, 1);
    Bsdf b = Bsdf::make(m, arriving_ray(n, degrees(30)), n, kCamera);
    EXPECT_FALSE(b.is_delta());
    UniformRng rng(21);
    const int N = 200000;
    int specular = 0;
    for (int i = 0; i < N; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng();
        BsdfSample s = b.sample(u0, u1, u2);
        ASSERT_FALSE(is_black(s.factor));
        if (s.specular) {
            ++specular;
            ASSERT_NEAR(s.pdf_w, p_mirror, 1e-5);
        }
    }
    double sigma = std::sqrt(p_mirror * (1 - p_mirror) / N);
    EXPECT_NEAR(double(specular) / N, p_mirror, 5 * sigma);
}

// ---- Fresnel and glass -------------------------------------------------------------------

TEST(Fresnel, NormalIncidenceReflectance) {
    for (float ior : {1.33f, 1.5f, 1.6f, 2.4f}) {
        float expected = sqr((ior - 1) / (ior + 1));
        EXPECT_NEAR(fresnel_dielectric(1.0f, ior), expected, 1e-6f) << ior;
        EXPECT_NEAR(fresnel_dielectric(-1.0f, ior), expected, 1e-6f) << ior;  // from inside
    }
    EXPECT_FLOAT_EQ(fresnel_dielectric(0.3f, -1.0f), 1.0f);  // no IOR: plain mirror
}

// Against the textbook s/p amplitude form, evaluated in double.
TEST(Fresnel, MatchesFresnelEquationsAtOblique) {
    const double n1 = 1.0, n2 = 1.6;
    for (double deg : {10.0, 30.0, 45.0, 60.0, 80.0, 89.0}) {
        double ti = deg * M_PI / 180.0;
        double tt = std::asin(n1 / n2 * std::sin(ti));
        double rs = (n1 * std::cos(ti) - n2 * std::cos(tt)) / (n1 * std::cos(ti) + n2 * std::cos(tt));
        double rp = (n2 * std::cos(ti) - n1 * std::cos(tt)) / (n2 * std::cos(ti) + n1 * std::cos(tt));
        double ref = 0.5 * (rs * rs + rp * rp);
        EXPECT_NEAR(fresnel_dielectric(float(std::cos(ti)), 1.6f), ref, 2e-6) << deg;
        // From inside, at the refracted angle, the reflectance is the same (Stokes).
        // (Float rounding of cos near the critical angle limits the agreement there.)
        EXPECT_NEAR(fresnel_dielectric(-float(std::cos(tt)), 1.6f), ref, 2e-5) << deg;
    }
}

TEST(Fresnel, TotalInternalReflectionGivesZeroRefraction) {
    const float ior = 1.6f;
    float critical = std::asin(1.0f / ior);  // ~38.7 degrees
    Vec3f n(0, 0, 1);
    // Inside the glass (the geometric normal points out), beyond the critical angle.
    Vec3f from_inside = arriving_ray(-n, critical + degrees(2));  // travels toward +z
    EXPECT_FLOAT_EQ(fresnel_dielectric(-std::cos(critical + degrees(2)), ior), 1.0f);
    Vec3f t;
    EXPECT_FALSE(refract_local(Vec3f(std::sin(critical + 0.01f), 0, -std::cos(critical + 0.01f)), ior, &t));
    EXPECT_TRUE(refract_local(Vec3f(std::sin(critical - 0.01f), 0, -std::cos(critical - 0.01f)), ior, &t));

    Bsdf b = Bsdf::make(smallvcm_glass(), from_inside, n, kCamera);
    ASSERT_TRUE(b.is_valid());
    EXPECT_FLOAT_EQ(b.fresnel(), 1.0f);
    UniformRng rng(22);
    for (float u2 : {0.0f, 0.5f, 0.99f, 0.99999994f}) {
        BsdfSample s = b.sample(rng(), rng(), u2);
        ASSERT_TRUE(s.specular);
        EXPECT_GT(dot(s.wi_world, n) * dot(b.world_dir_fix(), n), 0.0f) << "must stay on the incident side";
        EXPECT_NEAR(s.factor.x * s.cos_out / s.pdf_w, 1.0f, 1e-5f);
    }
}

TEST(Bsdf, GlassRefractionObeysSnell) {
    Vec3f n = normalize(Vec3f(0.2f, -0.3f, 1.0f));
    Bsdf b = Bsdf::make(smallvcm_glass(), arriving_ray(n, degrees(50), 1.1f), n, kCamera);
    float F = fresnel_dielectric(std::cos(degrees(50)), 1.6f);
    UniformRng rng(23);
    int refracted = 0, N = 100000;
    for (int i = 0; i < N; ++i) {
        float u2 = rng();
        BsdfSample s = b.sample(rng(), rng(), u2);
        ASSERT_TRUE(s.specular);
        Vec3f wo = b.world_dir_fix();
        float cos_o = dot(wo, n), cos_i = dot(s.wi_world, n);
        float sin_o = length(cross(wo, n)), sin_i = length(cross(s.wi_world, n));
        // The generated direction stays in the plane of incidence.
        EXPECT_NEAR(dot(s.wi_world, normalize(cross(wo, n))), 0.0f, 1e-5f);
        if (cos_i < 0) {
            ++refracted;
            EXPECT_NEAR(sin_o, 1.6f * sin_i, 1e-5f);
            EXPECT_NEAR(s.pdf_w, 1.0f - F, 1e-5f);
            // Camera path: radiance weight (eta_i/eta_t)^2 = 1/1.6^2.
            EXPECT_NEAR(s.factor.y * s.cos_out / s.pdf_w, 1.0f / (1.6f * 1.6f), 1e-5f);
        } else {
            EXPECT_NEAR(cos_i, cos_o, 1e-5f);
            EXPECT_NEAR(s.pdf_w, F, 1e-5f);
            EXPECT_NEAR(s.factor.z * s.cos_out / s.pdf_w, 1.0f, 1e-5f);
        }
    }
    EXPECT_NEAR(double(N - refracted) / N, F, 5 * std::sqrt(F * (1 - F) / N));
}

TEST(Bsdf, GlassRadianceScaleOnlyOnCameraPaths) {
    Vec3f n(0, 0, 1);
    for (bool entering : {true, false}) {
        // Entering: arrive from the normal's side; leaving: from inside at 20 degrees.
        Vec3f ray = entering ? arriving_ray(n, degrees(20)) : arriving_ray(-n, degrees(20));
        float eta_ratio = entering ? 1.0f / 1.6f : 1.6f;  // eta_incident / eta_transmitted
        for (bool camera : {true, false}) {
            Bsdf b = Bsdf::make(smallvcm_glass(), ray, n, camera);
            BsdfSample s = b.sample(0.3f, 0.6f, 0.999f);  // the refraction lobe
            ASSERT_TRUE(s.specular);
            ASSERT_LT(dot(s.wi_world, n) * dot(b.world_dir_fix(), n), 0.0f);
            float weight = s.factor.x * s.cos_out / s.pdf_w;
            EXPECT_NEAR(weight, camera ? eta_ratio * eta_ratio : 1.0f, 1e-5f) << entering << camera;
        }
    }
}

// ---- Sidedness and validity --------------------------------------------------------------

TEST(Bsdf, OneSidedMaterialIsInvalidFromBehind) {
    Vec3f n = normalize(Vec3f(1, 2, 3));
    Vec3f from_behind = -arriving_ray(n, degrees(40));
    for (const Material& m : {smallvcm_white(), smallvcm_glossy_floor()}) {
        Bsdf front = Bsdf::make(m, arriving_ray(n, degrees(40)), n, kCamera);
        EXPECT_TRUE(front.is_valid());
        Bsdf back = Bsdf::make(m, from_behind, n, kCamera);
        EXPECT_FALSE(back.is_valid());
        EXPECT_TRUE(is_black(back.sample(0.4f, 0.5f, 0.5f).factor));
        BsdfEval e = back.evaluate(-n);
        EXPECT_TRUE(is_black(e.factor));
        EXPECT_EQ(e.pdf_fwd_w, 0.0f);
    }
}

// Two-sided: seen from behind it behaves as the front with the normal flipped.
TEST(Bsdf, TwoSidedMaterialMirrorsFrontFromBehind) {
    Material m = smallvcm_glossy_floor();
    m.two_sided = 1;
    Vec3f n = normalize(Vec3f(-0.3f, 0.4f, 1.0f));
    Bsdf back = Bsdf::make(m, -arriving_ray(n, degrees(50), 0.7f), n, kCamera);
    Bsdf flipped = Bsdf::make(m, -arriving_ray(n, degrees(50), 0.7f), -n, kCamera);
    ASSERT_TRUE(back.is_valid());
    EXPECT_NEAR(dot(back.normal(), -n), 1.0f, 1e-6f);
    UniformRng rng(24);
    int nonzero = 0;
    for (int i = 0; i < 2000; ++i) {
        Vec3f wi = sample_uniform_sphere(rng(), rng());
        BsdfEval a = back.evaluate(wi), b = flipped.evaluate(wi);
        ASSERT_TRUE(near_rel(a.factor, b.factor, 1e-4f));
        ASSERT_NEAR(a.pdf_fwd_w, b.pdf_fwd_w, 1e-4f * b.pdf_fwd_w + 1e-7f);
        if (!is_black(a.factor)) {
            ++nonzero;
            ASSERT_LT(dot(wi, n), 0.0f);  // responds on the side the ray came from
        }
    }
    EXPECT_GT(nonzero, 0);
}

// SmallVCM zeroes only diffuse and Phong from behind; the mirror lobe still reflects.
TEST(Bsdf, OneSidedMirrorLobeStillReflectsFromBehind) {
    Material m = smallvcm_white();
    m.km = Vec3f(0.5f);
    Vec3f n(0, 0, 1);
    Vec3f ray = -arriving_ray(n, degrees(30));  // travels toward +z, hits the back
    Bsdf b = Bsdf::make(m, ray, n, kCamera);
    ASSERT_TRUE(b.is_valid());
    EXPECT_FALSE(b.is_delta());
    UniformRng rng(25);
    int specular = 0, black = 0;
    for (int i = 0; i < 10000; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng();
        BsdfSample s = b.sample(u0, u1, u2);
        if (is_black(s.factor)) { ++black; continue; }
        ASSERT_TRUE(s.specular);
        ASSERT_TRUE(near_rel(s.wi_world, reflect(ray, n), 1e-5f));
        ++specular;
    }
    EXPECT_GT(specular, 0);
    EXPECT_GT(black, 0);  // the diffuse lobe, picked, returns nothing
    EXPECT_TRUE(is_black(b.evaluate(-n).factor));
}

TEST(Bsdf, GrazingIncidenceIsInvalid) {
    Vec3f n(0, 0, 1);
    EXPECT_FALSE(Bsdf::make(smallvcm_white(), normalize(Vec3f(1, 0, -5e-7f)), n, kCamera).is_valid());
    EXPECT_TRUE(Bsdf::make(smallvcm_white(), normalize(Vec3f(1, 0, -5e-6f)), n, kCamera).is_valid());
    EXPECT_FALSE(Bsdf::make(smallvcm_mirror(), normalize(Vec3f(1, 0, -5e-7f)), n, kCamera).is_valid());
}

TEST(Bsdf, MirrorIsDeltaAndEvaluatesToZero) {
    Vec3f n = normalize(Vec3f(0.1f, 0.2f, 1.0f));
    Vec3f ray = arriving_ray(n, degrees(60), 2.0f);
    Bsdf b = Bsdf::make(smallvcm_mirror(), ray, n, kLight);
    ASSERT_TRUE(b.is_valid());
    EXPECT_TRUE(b.is_delta());
    BsdfSample s = b.sample(0.1f, 0.2f, 0.3f);
    EXPECT_TRUE(s.specular);
    EXPECT_TRUE(near_rel(s.wi_world, reflect(ray, n), 1e-5f));
    EXPECT_NEAR(s.factor.x * s.cos_out / s.pdf_w, 1.0f, 1e-5f);
    EXPECT_TRUE(is_black(b.evaluate(s.wi_world).factor));
    EXPECT_EQ(b.evaluate(s.wi_world).pdf_fwd_w, 0.0f);
}

// ---- Phong specifics ---------------------------------------------------------------------

TEST(Bsdf, PhongIsZeroBelowCosineCutoff) {
    Material m;
    m.ks = Vec3f(0.5f);
    m.phong_exponent = 1.0f;
    Vec3f n(0, 0, 1);
    Vec3f fix = direction_around(n, degrees(30), 0.0f);
    Bsdf b = Bsdf::make(m, -fix, n, kCamera);
    Vec3f r = reflect(-fix, n);  // mirror direction, (-sin 30, 0, cos 30)
    Vec3f t = normalize(cross(r, Vec3f(0, 1, 0)));  // in the plane of incidence, toward the normal side
    if (t.z < 0) t = -t;
    for (float c : {0.0009f, 0.00095f, 0.00105f, 0.0011f, 0.01f}) {
        Vec3f wi = normalize(r * c + t * std::sqrt(1 - c * c));  // cos to r = c
        ASSERT_GT(wi.z, 0.0f);
        BsdfEval e = b.evaluate(wi);
        if (c <= 1e-3f) {
            EXPECT_TRUE(is_black(e.factor)) << c;
            EXPECT_EQ(e.pdf_fwd_w, 0.0f) << c;
        } else {
            EXPECT_NEAR(e.factor.x, 0.5f * 3.0f / (2 * kPi) * c, 1e-3f * c) << c;
            EXPECT_NEAR(e.pdf_fwd_w, 2.0f / (2 * kPi) * c, 1e-3f * c) << c;
        }
    }
}

// Grazing glossy hits: Reject keeps every sample above the surface; SmallVcm keeps
// SmallVCM's below-surface samples with the same value for the same random numbers.
TEST(Bsdf, PhongHorizonModes) {
    Material m = smallvcm_glossy_floor();
    m.phong_exponent = 10.0f;
    Vec3f n(0, 0, 1);
    Vec3f ray = arriving_ray(n, degrees(80));
    Bsdf reject = Bsdf::make(m, ray, n, kCamera, PhongHorizon::Reject);
    Bsdf leak = Bsdf::make(m, ray, n, kCamera, PhongHorizon::SmallVcm);
    UniformRng rng(26);
    int below = 0;
    for (int i = 0; i < 20000; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng();
        BsdfSample a = reject.sample(u0, u1, u2), b = leak.sample(u0, u1, u2);
        if (!is_black(a.factor)) {
            ASSERT_GT(dot(a.wi_world, n), 0.0f);
            ASSERT_TRUE(near_rel(a.factor, b.factor, 1e-6f));
            ASSERT_FLOAT_EQ(a.pdf_w, b.pdf_w);
        } else if (!is_black(b.factor)) {
            ASSERT_LT(dot(b.wi_world, n), 0.0f);
            ASSERT_TRUE(is_black(leak.evaluate(b.wi_world).factor));
            ++below;
        }
    }
    EXPECT_GT(below, 100);
}

// ---- Agreement, reciprocity, energy ------------------------------------------------------

Material mixed_material() {
    Material m;
    m.kd = Vec3f(0.3f, 0.2f, 0.1f);
    m.ks = Vec3f(0.2f, 0.3f, 0.25f);
    m.phong_exponent = 20.0f;
    m.km = Vec3f(0.3f);
    return m;
}

TEST(Bsdf, SampleAgreesWithEvaluate) {
    UniformRng rng(27);
    int checked = 0;
    for (const Material& m : {smallvcm_glossy_floor(), smallvcm_white(), mixed_material()}) {
        for (int k = 0; k < 40; ++k) {
            Vec3f n = sample_uniform_sphere(rng(), rng());
            Vec3f ray = arriving_ray(n, std::acos(rng()), 6.28f * rng());
            for (bool camera : {true, false}) {
                Bsdf b = Bsdf::make(m, ray, n, camera);
                if (!b.is_valid()) continue;
                for (int i = 0; i < 200; ++i) {
                    float u0 = rng(), u1 = rng(), u2 = rng();
                    BsdfSample s = b.sample(u0, u1, u2);
                    if (is_black(s.factor) || s.specular) continue;
                    BsdfEval e = b.evaluate(s.wi_world);
                    ASSERT_TRUE(near_rel(s.factor, e.factor, 2e-3f));
                    ASSERT_NEAR(s.pdf_w, e.pdf_fwd_w, 2e-3f * e.pdf_fwd_w);
                    ASSERT_NEAR(s.cos_out, e.cos_out, 1e-6f);
                    ASSERT_NEAR(dot(s.wi_world, b.normal()), s.cos_out, 1e-5f);
                    ++checked;
                }
            }
        }
    }
    EXPECT_GT(checked, 10000);
}

// f(a -> b) = f(b -> a), and the reverse pdf at a equals the forward pdf of the BSDF
// built from the other direction (no Fresnel term to break the symmetry here).
TEST(Bsdf, EvaluateIsReciprocalAndReversePdfIsForwardPdfOfReverseWalk) {
    Material m = smallvcm_glossy_floor();
    m.phong_exponent = 5.0f;  // wide lobe: most random pairs are inside it
    Vec3f n = normalize(Vec3f(0.4f, 0.1f, 1.0f));
    UniformRng rng(28);
    int nonzero = 0;
    for (int i = 0; i < 5000; ++i) {
        Vec3f a = direction_around(n, std::acos(rng()), 6.28f * rng());
        Vec3f c = direction_around(n, std::acos(rng()), 6.28f * rng());
        Bsdf from_a = Bsdf::make(m, -a, n, kCamera);
        Bsdf from_c = Bsdf::make(m, -c, n, kLight);
        if (!from_a.is_valid() || !from_c.is_valid()) continue;
        BsdfEval ac = from_a.evaluate(c), ca = from_c.evaluate(a);
        ASSERT_TRUE(near_rel(ac.factor, ca.factor, 1e-3f));
        ASSERT_NEAR(ac.pdf_rev_w, ca.pdf_fwd_w, 1e-3f * ca.pdf_fwd_w + 1e-9f);
        ASSERT_NEAR(ac.pdf_fwd_w, ca.pdf_rev_w, 1e-3f * ca.pdf_rev_w + 1e-9f);
        if (!is_black(ac.factor)) ++nonzero;
    }
    EXPECT_GT(nonzero, 1000);
}

// Albedo of a Lambertian surface is kd: checked through evaluate() with uniform
// sphere directions (independent of the BSDF's own sampling) and through sample().
TEST(Bsdf, DiffuseAlbedoEqualsKd) {
    Material m = smallvcm_red();
    Vec3f n = normalize(Vec3f(-1, 0.5f, 0.2f));
    Bsdf b = Bsdf::make(m, arriving_ray(n, degrees(55)), n, kCamera);
    UniformRng rng(29);
    const int N = 400000;
    double by_eval[3] = {0, 0, 0}, by_sample[3] = {0, 0, 0};
    for (int i = 0; i < N; ++i) {
        Vec3f wi = sample_uniform_sphere(rng(), rng());
        BsdfEval e = b.evaluate(wi);
        float u0 = rng(), u1 = rng(), u2 = rng();
        BsdfSample s = b.sample(u0, u1, u2);
        for (int c = 0; c < 3; ++c) {
            by_eval[c] += double(e.factor[c]) * e.cos_out / uniform_sphere_pdf_w();
            if (!is_black(s.factor)) by_sample[c] += double(s.factor[c]) * s.cos_out / s.pdf_w;
        }
    }
    for (int c = 0; c < 3; ++c) {
        EXPECT_NEAR(by_eval[c] / N, m.kd[c], 0.01 * m.kd[c]) << c;  // ~0.2% standard error
        EXPECT_NEAR(by_sample[c] / N, m.kd[c], 1e-5) << c;
    }
}

// The normalised Phong lobe reflects exactly ks at normal incidence.
TEST(Bsdf, PhongAlbedoAtNormalIncidenceEqualsKs) {
    for (float exponent : {1.0f, 10.0f, 90.0f}) {
        Material m;
        m.ks = Vec3f(0.7f);
        m.phong_exponent = exponent;
        Vec3f n(0, 0, 1);
        Bsdf b = Bsdf::make(m, Vec3f(0, 0, -1), n, kCamera);
        UniformRng rng(30);
        const int N = 200000;
        double sum = 0;
        for (int i = 0; i < N; ++i) {
            float u0 = rng(), u1 = rng(), u2 = rng();
            BsdfSample s = b.sample(u0, u1, u2);
            if (!is_black(s.factor)) sum += s.factor.x * s.cos_out / s.pdf_w;
        }
        EXPECT_NEAR(sum / N, 0.7, 0.7 * 0.005) << exponent;
    }
}

// Directional albedo of the glossy floor: MC through sample() against a quadrature of
// evaluate() over the sphere, at incidences from normal to grazing.
TEST(Bsdf, GlossyFloorSampledAlbedoMatchesQuadrature) {
    Vec3f n(0, 0, 1);
    for (float deg : {0.0f, 30.0f, 60.0f, 80.0f}) {
        Bsdf b = Bsdf::make(smallvcm_glossy_floor(), arriving_ray(n, degrees(deg)), n, kCamera);
        SphereBinning bins(n, 40, 80);
        double quad = 0;
        for (double v : bins.integrate([&](Vec3f wi) { BsdfEval e = b.evaluate(wi); return double(e.factor.x) * e.cos_out; }, 16))
            quad += v;
        UniformRng rng(31);
        const int N = 400000;
        double sum = 0;
        for (int i = 0; i < N; ++i) {
            float u0 = rng(), u1 = rng(), u2 = rng();
            BsdfSample s = b.sample(u0, u1, u2);
            if (!is_black(s.factor)) sum += s.factor.x * s.cos_out / s.pdf_w;
        }
        EXPECT_NEAR(sum / N, quad, 0.01 * quad) << deg << " degrees";
        EXPECT_LT(quad, 0.8 + 1e-3) << "no more than kd + ks";
        if (deg == 0.0f) {
            EXPECT_NEAR(quad, 0.8, 2e-3);
        }
    }
}

TEST(Bsdf, DiffuseIsTheSameOnCameraAndLightPaths) {
    Vec3f n(0, 0, 1);
    Vec3f ray = arriving_ray(n, degrees(20));
    Bsdf a = Bsdf::make(smallvcm_glossy_floor(), ray, n, kCamera);
    Bsdf b = Bsdf::make(smallvcm_glossy_floor(), ray, n, kLight);
    BsdfSample sa = a.sample(0.2f, 0.7f, 0.05f), sb = b.sample(0.2f, 0.7f, 0.05f);
    EXPECT_TRUE(near_rel(sa.factor, sb.factor, 0.0f));
    EXPECT_EQ(sa.pdf_w, sb.pdf_w);
    EXPECT_NEAR(a.cos_theta_fix(), std::cos(degrees(20)), 1e-6f);
    EXPECT_TRUE(near_rel(a.world_dir_fix(), -ray, 1e-6f));
}

}  // namespace
}  // namespace wf
