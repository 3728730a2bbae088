// MicrofacetBsdf (materials/microfacet_bsdf.h): the scene's rough conductor, rough
// dielectric and thin dielectric placed in the world. The lobes themselves are checked in
// microfacet_test.cpp (chi-square in the local frame, furnace, reciprocity); here, what
// placing them adds: sides (which way is inside, the index flipping with it), the frame
// on a tilted normal (chi-square of sample() against evaluate()'s pdf in world space,
// sample()'s weights against evaluate() per band of directions), the reverse pdf against
// the BSDF the reverse walk makes, Russian roulette, and the smooth limits.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "materials/microfacet_bsdf.h"
#include "tests/materials/gltf_bsdf_checks.h"

namespace wf::materials_test {
namespace {

Material conductor(Vec3f f0, float roughness) {
    Material m;
    m.type = MaterialType::RoughConductor;
    m.km = f0;
    m.roughness = roughness;
    return m;
}

Material dielectric(float ior, float roughness) {
    Material m;
    m.type = MaterialType::RoughDielectric;
    m.ior = ior;
    m.roughness = roughness;
    return m;
}

Material thin(float ior) {
    Material m;
    m.type = MaterialType::ThinDielectric;
    m.ior = ior;
    return m;
}

// The BSDF at kNormal lit from `deg` degrees on the normal's side (front) or the other.
MicrofacetBsdf at(const Material& m, float deg, bool front = true, bool camera_path = true) {
    return MicrofacetBsdf::make(m, arriving_ray(front ? kNormal : -kNormal, degrees(deg), 0.4f), kNormal, camera_path);
}

// Chi-square of non-delta samples against evaluate()'s pdf: reflection about the frame
// normal, and refraction for the rough dielectric (indices from the side).
void expect_fits(const MicrofacetBsdf& b, const Material& m, bool front, const std::string& what, uint64_t seed) {
    ASSERT_TRUE(b.is_valid()) << what;
    const Vec3f wo = b.world_dir_fix(), n = b.normal();
    const float alpha = m.roughness * m.roughness;
    RingBinning bins(n, 0.25 * double(alpha) * alpha, 32, 24);
    ChiSquareResult r = gltf_chi_square(b, bins, reflection_map(wo, n), seed);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << what << ", reflection: " << r.message;
    if (m.type != MaterialType::RoughDielectric) return;
    const float eta_o = front ? 1.0f : m.ior, eta_w = front ? m.ior : 1.0f;
    r = gltf_chi_square(b, bins, refraction_map(wo, n, eta_o, eta_w), seed + 1);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << what << ", transmission: " << r.message;
}

TEST(MicrofacetBsdf, SamplingChiSquareOnATiltedNormalFromBothSides) {
    uint64_t seed = 1;
    for (float roughness : {0.2f, 0.6f}) {
        for (float deg : {10.0f, 60.0f}) {
            for (bool front : {true, false}) {
                const std::string where = "roughness " + std::to_string(roughness) + ", " + std::to_string(int(deg)) +
                                          " deg, " + (front ? "front" : "back");
                const Material c = conductor(Vec3f(0.9f, 0.6f, 0.3f), roughness);
                expect_fits(at(c, deg, front), c, front, "conductor " + where, seed += 2);
                const Material d = dielectric(1.5f, roughness);
                expect_fits(at(d, deg, front), d, front, "dielectric " + where, seed += 2);
            }
        }
    }
}

// sample()'s mean weight per band of directions against the integral of evaluate()'s f cos
// there: the bands split reflection from transmission and each by the angle to the normal.
TEST(MicrofacetBsdf, SampleWeightsMatchEvaluatePerBand) {
    uint64_t seed = 100;
    for (const Material& m : {conductor(Vec3f(0.95f, 0.64f, 0.54f), 0.4f), dielectric(1.5f, 0.35f),
                              dielectric(1.33f, 0.7f)}) {
        for (bool front : {true, false}) {
            for (bool camera_path : {true, false}) {
                const MicrofacetBsdf b = at(m, 50.0f, front, camera_path);
                const Vec3f n = b.normal();
                const BandOf band_of = [n](Vec3f w) {
                    const float c = dot(w, n);
                    return (c < 0.0f ? 2 : 0) + (std::fabs(c) < 0.5f ? 1 : 0);
                };
                expect_bands_match(b, band_of, 400000, seed += 2,
                                   std::string(m.type == MaterialType::RoughConductor ? "conductor" : "dielectric") +
                                       " ior " + std::to_string(m.ior) + (front ? " front" : " back") +
                                       (camera_path ? " camera" : " light"));
            }
        }
    }
}

// pdf_rev_w is the density with which the BSDF made for the reverse walk (arriving along
// -wi, on the same kind of path) samples dir_fix; the values agree the same way with the
// radiance scaling undone (the adjoint of a refraction is the refraction scaled back).
TEST(MicrofacetBsdf, ReversePdfIsTheReverseWalksPdf) {
    UniformRng rng(7);
    for (const Material& m : {conductor(Vec3f(0.8f), 0.3f), dielectric(1.5f, 0.3f), dielectric(1.5f, 0.8f)}) {
        for (bool front : {true, false}) {
            for (bool camera_path : {true, false}) {
                const MicrofacetBsdf b = at(m, 35.0f, front, camera_path);
                int checked = 0;
                for (int i = 0; i < 2000 && checked < 200; ++i) {
                    const BsdfSample s = b.sample(rng(), rng(), rng());
                    if (is_black(s.factor) || s.specular) continue;
                    const BsdfEval e = b.evaluate(s.wi_world);
                    const MicrofacetBsdf r = MicrofacetBsdf::make(m, -s.wi_world, kNormal, camera_path);
                    const BsdfEval re = r.evaluate(b.world_dir_fix());
                    if (!(e.pdf_rev_w > 1e-3f) || !(re.pdf_fwd_w > 1e-3f)) continue;
                    ++checked;
                    EXPECT_NEAR(e.pdf_rev_w, re.pdf_fwd_w, 2e-3f * re.pdf_fwd_w) << int(m.type) << " " << front;
                    EXPECT_NEAR(e.pdf_fwd_w, s.pdf_w, 1e-3f * s.pdf_w);
                    EXPECT_NEAR(e.factor.y, s.factor.y, 1e-3f * s.factor.y);
                    // Reciprocity: f(wi, wo) = f(wo, wi) for reflection. For a refraction, with
                    // etap = eta on wi's side / eta on wo's side, Walter's BTDF without the
                    // radiance scaling has f(wo, wi) = etap^2 f(wi, wo) (light paths), and
                    // with it (1 / etap^2 each way) f(wi, wo) = etap^2 f(wo, wi) (camera paths):
                    // the ratio Veach's eta_i^2 f(wo, wi) = eta_o^2 f(wi, wo) requires of radiance.
                    const bool refracted = dot(s.wi_world, b.normal()) < 0.0f;
                    float ratio = 1.0f;  // f(wi, wo) / f(wo, wi)
                    if (refracted) {
                        const float etap2 = front ? m.ior * m.ior : 1.0f / (m.ior * m.ior);
                        ratio = camera_path ? etap2 : 1.0f / etap2;
                    }
                    EXPECT_NEAR(re.factor.y, e.factor.y * ratio, 2e-3f * e.factor.y * ratio)
                        << int(m.type) << " " << front << " " << camera_path;
                }
                EXPECT_GE(checked, 100) << int(m.type);
            }
        }
    }
}

// Arriving from inside (against the geometric normal) the dielectric's index flips: past
// the critical angle (41.8 degrees at ior 1.5) nothing leaves a smooth interface, and
// below it a camera path's weight leaving is ior^2 (the radiance outside is 1 / ior^2 of
// what it becomes inside).
TEST(MicrofacetBsdf, DielectricInsideFlipsTheIndex) {
    const Material smooth = dielectric(1.5f, 0.0f);
    const MicrofacetBsdf tir = at(smooth, 50.0f, false);
    ASSERT_TRUE(tir.is_valid());
    EXPECT_TRUE(tir.is_delta());
    UniformRng rng(3);
    for (int i = 0; i < 100; ++i) {
        const BsdfSample s = tir.sample(rng(), rng(), rng());
        ASSERT_FALSE(is_black(s.factor));
        EXPECT_GT(dot(s.wi_world, tir.normal()), 0.0f) << "total internal reflection";
        EXPECT_NEAR(s.factor.y * s.cos_out / s.pdf_w, 1.0f, 1e-5f);
    }
    // Normal incidence from inside: R = 0.04, T = 0.96, radiance times 1.5^2 leaving.
    const MicrofacetBsdf out = at(smooth, 0.0f, false);
    int transmitted = 0;
    for (int i = 0; i < 1000; ++i) {
        const BsdfSample s = out.sample(rng(), rng(), rng());
        if (dot(s.wi_world, out.normal()) > 0.0f) continue;
        ++transmitted;
        EXPECT_NEAR(s.pdf_w, 0.96f, 1e-4f);
        EXPECT_NEAR(s.factor.y * s.cos_out / s.pdf_w, 2.25f, 1e-4f);
        EXPECT_NEAR(dot(s.wi_world, kNormal), 1.0f, 1e-5f) << "leaves along the geometric normal";
    }
    EXPECT_NEAR(transmitted, 960, 30);
    // From outside the same interface compresses radiance by 1 / 1.5^2; light paths do not scale.
    for (bool camera_path : {true, false}) {
        const MicrofacetBsdf in = at(smooth, 0.0f, true, camera_path);
        for (int i = 0; i < 200; ++i) {
            const BsdfSample s = in.sample(rng(), rng(), rng());
            if (dot(s.wi_world, in.normal()) > 0.0f) continue;
            EXPECT_NEAR(s.factor.y * s.cos_out / s.pdf_w, camera_path ? 1.0f / 2.25f : 1.0f, 1e-5f);
        }
    }
}

// A thin slab at normal incidence reflects R' = 2R / (1 + R) = 0.0769 (R = 0.04): the sum of
// the bounces inside, pbrt-v4's closed form. Both sides alike; the transmitted direction is
// the arriving one, unbent; every sample weighs 1 (R' + T' = 1).
TEST(MicrofacetBsdf, ThinDielectricReflectsTheSlabsSumAndPassesStraight) {
    for (bool front : {true, false}) {
        const MicrofacetBsdf b = at(thin(1.5f), 0.0f, front);
        ASSERT_TRUE(b.is_valid());
        EXPECT_TRUE(b.is_delta());
        EXPECT_EQ(b.continuation_prob(), 1.0f);
        UniformRng rng(5);
        int reflected = 0;
        const int n = 100000;
        for (int i = 0; i < n; ++i) {
            const BsdfSample s = b.sample(rng(), rng(), rng());
            ASSERT_TRUE(s.specular);
            EXPECT_NEAR(s.factor.y * s.cos_out / s.pdf_w, 1.0f, 1e-5f);
            if (dot(s.wi_world, b.normal()) > 0.0f) {
                ++reflected;
                EXPECT_NEAR(s.pdf_w, 0.08f / 1.04f, 1e-5f);
            } else {
                EXPECT_NEAR(dot(s.wi_world, -b.world_dir_fix()), 1.0f, 1e-6f) << "straight through";
            }
        }
        const double r = 0.08 / 1.04;
        EXPECT_NEAR(double(reflected) / n, r, 5.0 * std::sqrt(r * (1 - r) / n));
        EXPECT_TRUE(is_black(b.evaluate(b.world_dir_fix()).factor)) << "delta lobes evaluate to 0";
    }
}

// Roughness below the GGX threshold (alpha < 1e-3) makes delta lobes: the conductor is
// Schlick's mirror. A conductor of F0 = 0 still reflects Schlick's (1 - cos)^5.
TEST(MicrofacetBsdf, SmoothLimitsAndBlackConductor) {
    const Vec3f f0(0.9f, 0.6f, 0.3f);
    const MicrofacetBsdf mirror = at(conductor(f0, 0.0f), 60.0f);
    EXPECT_TRUE(mirror.is_delta());
    const BsdfSample s = mirror.sample(0.3f, 0.7f, 0.5f);
    ASSERT_TRUE(s.specular);
    const Vec3f expected = fresnel_schlick_rgb(f0, std::cos(degrees(60.0f)));
    EXPECT_NEAR(s.factor.x * s.cos_out / s.pdf_w, expected.x, 1e-5f);
    EXPECT_NEAR(s.factor.z * s.cos_out / s.pdf_w, expected.z, 1e-5f);
    EXPECT_NEAR(dot(s.wi_world, mirror.normal()), std::cos(degrees(60.0f)), 1e-5f);
    EXPECT_FALSE(at(conductor(f0, 0.05f), 60.0f).is_delta());  // alpha 0.0025
    EXPECT_TRUE(at(dielectric(1.5f, 0.03f), 60.0f).is_delta());  // alpha 0.0009
    EXPECT_TRUE(at(dielectric(1.0f, 0.5f), 60.0f).is_delta()) << "index-matched: passes straight through";
    const MicrofacetBsdf black = at(conductor(Vec3f(0.0f), 0.5f), 80.0f);
    EXPECT_TRUE(black.is_valid());
    EXPECT_FALSE(black.is_delta());
    EXPECT_NEAR(black.continuation_prob(), std::pow(1.0f - std::cos(degrees(80.0f)), 5.0f), 1e-5f);  // 0.39
    EXPECT_EQ(at(conductor(Vec3f(0.0f), 0.5f), 0.0f).continuation_prob(), kMicrofacetMinContinuation) << "head-on";
    EXPECT_GT(black.evaluate(direction_around(kNormal, degrees(75.0f), 0.4f + kPi)).factor.y, 0.0f);
}

// Russian roulette follows Schlick's F at the arriving direction's cosine for the
// conductor (read at wi for the reverse walk), at least kMicrofacetMinContinuation, and
// never ends a dielectric path.
TEST(MicrofacetBsdf, ContinuationProbabilities) {
    const Vec3f f0(0.2f, 0.5f, 0.8f);
    const MicrofacetBsdf b = at(conductor(f0, 0.4f), 20.0f);
    EXPECT_NEAR(b.continuation_prob(), max_component(fresnel_schlick_rgb(f0, std::cos(degrees(20.0f)))), 1e-5f);
    const Vec3f wi = direction_around(kNormal, degrees(80.0f), 1.0f);
    EXPECT_NEAR(b.continuation_prob_from(wi), max_component(fresnel_schlick_rgb(f0, std::cos(degrees(80.0f)))), 1e-5f);
    EXPECT_NEAR(b.continuation_prob_from(wi), at(conductor(f0, 0.4f), 80.0f).continuation_prob(), 1e-4f);
    EXPECT_EQ(at(dielectric(1.5f, 0.3f), 20.0f, false).continuation_prob(), 1.0f);
    EXPECT_EQ(at(dielectric(1.5f, 0.3f), 20.0f).continuation_prob_from(-wi), 1.0f);
}

// Grazing arrivals are refused as by every BSDF (kEpsCosine), and so are grazing
// directions to evaluate (sample() never returns one); albedo() names the colour.
TEST(MicrofacetBsdf, GrazingIsInvalidAndAlbedoIsTheColour) {
    Material m = conductor(Vec3f(0.9f, 0.6f, 0.3f), 0.3f);
    const Vec3f along = normalize(Vec3f(kNormal.y, -kNormal.x, 0.0f));  // perpendicular to the normal
    const MicrofacetBsdf grazing = MicrofacetBsdf::make(m, along, kNormal, true);
    EXPECT_FALSE(grazing.is_valid());
    EXPECT_TRUE(is_black(grazing.sample(0.5f, 0.5f, 0.5f).factor));
    EXPECT_NEAR(grazing.albedo().z, 0.3f, 1e-6f);
    const MicrofacetBsdf lit = at(m, 30.0f);
    EXPECT_TRUE(is_black(lit.evaluate(along).factor));
    EXPECT_FALSE(is_black(lit.evaluate(direction_around(kNormal, degrees(30.0f), 0.4f + kPi)).factor));
    EXPECT_EQ(at(dielectric(1.5f, 0.3f), 10.0f).albedo().x, 1.0f);
    EXPECT_EQ(at(thin(1.5f), 10.0f).albedo().y, 1.0f);
}

}  // namespace
}  // namespace wf::materials_test
