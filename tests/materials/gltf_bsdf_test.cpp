// materials/gltf_bsdf.h: sample() against evaluate() (chi-square, per sample), the reverse
// pdfs and reciprocity, energy (white furnace), the smooth limits, and sidedness.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "materials/gltf_bsdf.h"
#include "materials/microfacet.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/gltf_bsdf_checks.h"
#include "tests/materials/ring_binning.h"
#include "tests/materials/smallvcm_materials.h"

namespace wf {
namespace {

using namespace materials_test;

struct Named {
    const char* name;
    GltfBsdfParams p;
};

// The parameter sets most tests run over.
std::vector<Named> material_set() {
    const Vec3f copper(0.95f, 0.64f, 0.54f), paint(0.8f, 0.3f, 0.2f), glass(0.9f, 0.95f, 0.8f);
    return {
        {"plastic r0.5", params(paint, 0.0f, 0.5f)},
        {"metal r0.05", params(copper, 1.0f, 0.05f)},
        {"metal r1", params(copper, 1.0f, 1.0f)},
        {"half metal r0.3 tinted", tinted(params(paint, 0.5f, 0.3f), 0.6f, Vec3f(1.0f, 0.8f, 0.6f))},
        {"plastic r0 (delta + Lambert)", params(paint, 0.0f, 0.0f)},
        {"thin glass r0.3", params(glass, 0.0f, 0.3f, 1.0f, true)},
        {"thin glass r0.05", params(glass, 0.0f, 0.05f, 1.0f, true)},
        {"volume glass r0.3", params(glass, 0.0f, 0.3f, 1.0f, false)},
        {"volume mix r0.6", tinted(params(paint, 0.2f, 0.6f, 0.6f, false), 0.8f, Vec3f(0.9f, 1.0f, 1.0f))},
        // Specular 1: inside, total internal reflection makes the Fresnel at the half vector
        // 1, and the Lambert base's value 0, for directions its lobe still draws (with
        // specular 0.8 above, F stays at most 0.8 and the value never vanishes).
        {"volume mix r0.6 specular 1", params(paint, 0.2f, 0.6f, 0.6f, false)},
    };
}

TEST(GltfBsdf, SamplingChiSquare) {
    uint64_t seed = 100;
    for (const Named& m : material_set()) {
        for (float deg : {0.0f, 50.0f, 85.0f}) {
            expect_chi_square_fits(make_at(m.p, deg), m.p, std::string(m.name) + ", " + std::to_string(int(deg)) + " deg",
                                   seed += 2);
        }
        if (transmissive(m.p) && !m.p.thin_walled) {
            // From inside the volume, below and beyond the critical angle (41.8 degrees). At
            // 20 degrees "volume mix r0.6 specular 1" catches a Lambert pdf counted only
            // where the lobe's value is nonzero (reflection chi2 3218, 569 dof, p 0; 546,
            // p 0.74 counted wherever sample() can pick the lobe). "volume mix r0.6" cannot
            // (the same statistics either way), nor can 60 degrees (528 vs 525), where
            // Fresnel 1 at V leaves the lobe only its minimum share.
            for (float deg : {20.0f, 60.0f}) {
                expect_chi_square_fits(make_at(m.p, deg, false), m.p,
                                       std::string(m.name) + ", inside, " + std::to_string(int(deg)) + " deg", seed += 2);
            }
        }
    }
}

// glTF 2.0 Appendix B (with KHR_materials_specular, and KHR_materials_transmission's
// thin-walled BTDF for L below the surface) written again the way the specifications
// write it: the visibility terms nu and nu_T, D with alpha^2, fresnel_mix with max_value(F).
// In double precision: near the peak of a narrow lobe the spec's D, written with
// (N.H)^2 (alpha^2 - 1) + 1, cancels badly in float.
struct Vec3d {
    double x, y, z;
};
Vec3d to_d(Vec3f a) { return {a.x, a.y, a.z}; }
Vec3d operator+(Vec3d a, Vec3d b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3d operator*(double s, Vec3d a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(Vec3d a, Vec3d b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3d normalize(Vec3d a) { return (1.0 / std::sqrt(dot(a, a))) * a; }

Vec3f spec_material(const GltfBsdfParams& p, Vec3f nf, Vec3f vf, Vec3f lf) {
    Vec3d n = to_d(nf), v = to_d(vf), l = to_d(lf);
    double a = double(p.roughness) * p.roughness, a2 = a * a;
    auto d_ggx = [&](double n_h) { return n_h > 0.0 ? a2 / (M_PI * std::pow(n_h * n_h * (a2 - 1.0) + 1.0, 2.0)) : 0.0; };
    auto root = [&](double c) { return std::sqrt(a2 + (1.0 - a2) * c * c); };
    auto schlick = [](Vec3f f0, double c) {
        double w = std::pow(1.0 - std::fabs(c), 5.0);
        return Vec3f(float(f0.x + (1.0 - f0.x) * w), float(f0.y + (1.0 - f0.y) * w), float(f0.z + (1.0 - f0.z) * w));
    };
    double n_v = dot(n, v), n_l = dot(n, l);
    float r = (1.0f - p.ior) / (1.0f + p.ior);
    Vec3f f0 = min(p.specular_color * (r * r), Vec3f(1.0f));
    if (n_l > 0.0) {
        Vec3d h = normalize(v + l);
        double vis = dot(h, l) > 0.0 && dot(h, v) > 0.0
                         ? 1.0 / (2.0 * (std::fabs(n_v) * root(n_l) + std::fabs(n_l) * root(n_v)))
                         : 0.0;
        float specular_brdf = float(vis * d_ggx(dot(n, h)));
        Vec3f fr = schlick(f0, dot(v, h));
        Vec3f base = p.base_color * ((1.0f - p.transmission) * kInvPi);  // mix(Lambert, btdf): btdf is 0 here
        Vec3f dielectric = base * (1.0f - p.specular * max_component(fr)) + fr * (p.specular * specular_brdf);
        Vec3f metal = schlick(p.base_color, dot(v, h)) * specular_brdf;
        return dielectric * (1.0f - p.metallic) + metal * p.metallic;
    }
    Vec3d h = normalize(v + (-2.0 * n_l) * n + l);  // H_T
    // The extension's chi+(H_T.L / N.L) is left out, as materials/gltf_bsdf.h explains.
    double vis = dot(h, v) / n_v > 0.0 ? 1.0 : 0.0;
    vis *= 1.0 / ((std::fabs(n_l) + root(n_l)) * (std::fabs(n_v) + root(n_v)));
    float specular_btdf = float(vis * d_ggx(dot(n, h)));
    Vec3f fr = schlick(f0, dot(v, h));
    Vec3f dielectric = p.base_color * (p.transmission * specular_btdf * (1.0f - p.specular * max_component(fr)));
    return dielectric * (1.0f - p.metallic);
}

TEST(GltfBsdf, EvaluateIsAppendixB) {
    UniformRng rng(17);
    for (const Named& m : material_set()) {
        if (m.p.roughness == 0.0f || !m.p.thin_walled) continue;
        for (int i = 0; i < 300; ++i) {
            GltfBsdf b = make_at(m.p, 88.0f * rng(), true, true);
            Vec3f wi = sample_uniform_sphere(rng(), rng());
            if (std::fabs(dot(wi, kNormal)) < 1e-2f) continue;
            Vec3f expected = spec_material(m.p, kNormal, b.world_dir_fix(), wi);
            Vec3f got = b.evaluate(wi).factor;
            for (int c = 0; c < 3; ++c) {
                ASSERT_NEAR(got[c], expected[c], 1e-3f * expected[c] + 1e-6f) << m.name << " " << i << " channel " << c;
            }
        }
    }
}

// A bump-mapped normal tilted away from the geometric one: directions on the wrong side
// of the geometric surface are refused by sample() and zero in evaluate(), consistently.
TEST(GltfBsdf, TiltedShadingNormalChiSquare) {
    Vec3f ns = normalize(kNormal + 0.5f * normalize(cross(kNormal, Vec3f(1, 0, 0))));
    uint64_t seed = 700;
    for (const Named& m : material_set()) {
        for (float deg : {30.0f, 75.0f}) {
            GltfBsdf b = make_at(m.p, deg, true, true, ns);
            expect_chi_square_fits(b, m.p, std::string(m.name) + ", tilted, " + std::to_string(int(deg)) + " deg",
                                   seed += 2);
            // Above the shading surface, below the geometric one: 0 (no reflection there, and
            // no transmission either: the shading frame calls it a reflection).
            float c = dot(ns, kNormal);
            Vec3f between = normalize(ns - 0.5f * (c + 1.0f / c) * kNormal);
            ASSERT_GT(dot(between, ns), 0.0f);
            ASSERT_LT(dot(between, kNormal), 0.0f);
            EXPECT_TRUE(is_black(b.evaluate(between).factor)) << m.name;
        }
    }
}

// Per sample: pdf and value equal evaluate()'s; pdf_rev equals the pdf_fwd of the BSDF
// made for the reverse direction, and vice versa; the value is reciprocal (reflection,
// thin transmission) or obeys f(wo, wi) eta_i^2 = f(wi, wo) eta_o^2 (refraction on camera
// paths), and the light-path BSDF is the camera-path one's adjoint.
TEST(GltfBsdf, SampleMatchesEvaluateAndReverse) {
    UniformRng rng(5);
    for (const Named& m : material_set()) {
        int checked = 0;
        for (int i = 0; i < 4000; ++i) {
            bool front = !transmissive(m.p) || rng() < 0.6f;
            float deg = 89.0f * rng();
            GltfBsdf b = make_at(m.p, deg, front, true, kNormal, true);
            ASSERT_TRUE(b.is_valid());
            BsdfSample s = b.sample(rng(), rng(), rng());
            if (is_black(s.factor) || s.specular || s.cos_out < 1e-3f) continue;
            ++checked;
            BsdfEval e = b.evaluate(s.wi_world);
            ASSERT_LT(rel_diff(e.pdf_fwd_w, s.pdf_w), 2e-3) << m.name << " " << i;
            ASSERT_LT(rel_diff(e.factor.y, s.factor.y), 2e-3) << m.name << " " << i;
            ASSERT_NEAR(e.cos_out, s.cos_out, 1e-5f);
            Vec3f wo = b.world_dir_fix();
            GltfBsdf reverse = GltfBsdf::make(m.p, -s.wi_world, kNormal, kNormal, true, true);
            BsdfEval r = reverse.evaluate(wo);
            ASSERT_LT(rel_diff(e.pdf_rev_w, r.pdf_fwd_w), 2e-3) << m.name << " " << i;
            ASSERT_LT(rel_diff(r.pdf_rev_w, e.pdf_fwd_w), 2e-3) << m.name << " " << i;
            bool transmitted = dot(s.wi_world, kNormal) * dot(wo, kNormal) < 0.0f;
            if (!transmitted || m.p.thin_walled) {
                ASSERT_LT(rel_diff(e.factor.x, r.factor.x), 2e-3) << m.name << " " << i;
            } else {
                float eta_o = b.front_side() ? 1.0f : m.p.ior, eta_i = b.front_side() ? m.p.ior : 1.0f;
                ASSERT_LT(rel_diff(e.factor.x * eta_i * eta_i, r.factor.x * eta_o * eta_o), 2e-3) << m.name << " " << i;
                GltfBsdf light = make_at(m.p, deg, front, false, kNormal, true);
                ASSERT_LT(rel_diff(light.evaluate(s.wi_world).factor.x, r.factor.x), 2e-3) << m.name << " " << i;
            }
        }
        EXPECT_GT(checked, 500) << m.name;
    }
}

// conductor lobe.
TEST(GltfBsdf, WhiteFurnace) {
    const Vec3f white(1.0f);
    struct Kind {
        const char* name;
        float transmission;
        bool thin;
        GltfBaseFresnel coupling;
        bool conserving;
    };
    const Kind kinds[] = {{"white dielectric (spec)", 0.0f, true, GltfBaseFresnel::HalfVector, false},
                          {"white dielectric (Burley)", 0.0f, true, GltfBaseFresnel::ViewAndLight, true},
                          {"white thin glass", 1.0f, true, GltfBaseFresnel::HalfVector, true},
                          {"white volume glass", 1.0f, false, GltfBaseFresnel::HalfVector, true}};
    for (float roughness : {0.1f, 0.5f, 1.0f}) {
        for (float deg : {0.0f, 60.0f, 85.0f}) {
            for (const Kind& k : kinds) {
                GltfBsdfParams p = params(white, 0.0f, roughness, k.transmission, k.thin);
                GltfBsdf b = make_at(p, deg, true, false, kNormal, false, k.coupling);
                Albedo a = sampled_albedo(b, 100000, 40 + uint64_t(deg) + uint64_t(10 * roughness));
                Vec3f wo = b.world_dir_fix(), n = b.normal();
                float alpha = roughness * roughness;
                RingBinning bins(n, 0.25 * double(alpha) * alpha, 32, 24);
                auto integrand = [&](Vec3f wi) { return double(b.evaluate(wi).factor.y) * std::fabs(dot(wi, n)); };
                double quad = integrate_mapped(bins, integrand, reflection_map(wo, n));
                if (k.transmission > 0.0f) {
                    quad += integrate_mapped(bins, integrand,
                                             k.thin ? reflection_map(wo, n, true) : refraction_map(wo, n, 1.0f, p.ior));
                }
                std::printf("  glTF %s r%.1f, %2.0f deg: albedo %.4f +- %.4f (sampled), %.4f (quadrature)\n", k.name,
                            roughness, deg, a.mean, a.error, quad);
                EXPECT_NEAR(a.mean, quad, 4.0 * a.error + 3e-3) << k.name << " r" << roughness << ", " << deg;
                if (k.conserving) {
                    EXPECT_LE(quad, 1.0 + 3e-3) << k.name << " r" << roughness << ", " << deg;
                }
            }
            GltfBsdf metal = make_at(params(white, 1.0f, roughness), deg);
            MicrofacetConductor lobe(GgxDistribution(roughness * roughness, roughness * roughness), white);
            Vec3f wo = metal.frame().to_local(metal.world_dir_fix());
            UniformRng rng(9);
            for (int i = 0; i < 200; ++i) {
                Vec3f wi = sample_cos_hemisphere(rng(), rng());
                BsdfEval e = metal.evaluate(metal.frame().to_world(wi));
                LobeEval l = lobe.evaluate(wo, wi);
                ASSERT_LT(rel_diff(e.factor.x, l.f.x), 1e-4) << roughness << ", " << deg;
                ASSERT_LT(rel_diff(e.pdf_fwd_w, l.pdf_fwd), 1e-4) << roughness << ", " << deg;
            }
        }
    }
}

// Roughness 0 is a mirror with Schlick's F0 = base colour; just above the smoothness
// threshold (alpha = 1.001e-3) the rough lobe gives the same albedo.
TEST(GltfBsdf, SmoothMetalIsSchlickMirror) {
    const Vec3f copper(0.95f, 0.64f, 0.54f);
    for (float deg : {0.0f, 40.0f, 75.0f}) {
        GltfBsdf mirror = make_at(params(copper, 1.0f, 0.0f), deg);
        ASSERT_TRUE(mirror.is_delta());
        Vec3f expected = fresnel_schlick_rgb(copper, mirror.cos_theta_fix());
        BsdfSample s = mirror.sample(0.2f, 0.7f, 0.5f);
        ASSERT_TRUE(s.specular);
        Vec3f w = s.factor * (s.cos_out / s.pdf_w);
        EXPECT_NEAR(w.x, expected.x, 1e-5f);
        EXPECT_NEAR(w.z, expected.z, 1e-5f);
        Vec3f r = reflect(-mirror.world_dir_fix(), kNormal);
        EXPECT_GT(dot(s.wi_world, r), 1.0f - 1e-6f);
        EXPECT_TRUE(is_black(mirror.evaluate(r).factor));

        GltfBsdf rough = make_at(params(copper, 1.0f, std::sqrt(1.001e-3f)), deg);
        ASSERT_FALSE(rough.is_delta());
        Albedo a = sampled_albedo(rough, 20000, 3, 2);
        EXPECT_NEAR(a.mean, expected.z, 2e-3) << deg;
    }
}

// Smooth glass: delta reflection (probability ~ F) and delta transmission, straight
// through (thin) or refracted by Snell's law (volume); the weights average to
// F + (1 - F) baseColor on a light path.
TEST(GltfBsdf, SmoothGlassIsDelta) {
    const Vec3f tint(0.9f, 0.8f, 0.7f);
    for (bool thin : {true, false}) {
        for (float deg : {0.0f, 50.0f, 80.0f}) {
            GltfBsdfParams p = params(tint, 0.0f, 0.0f, 1.0f, thin);
            GltfBsdf b = make_at(p, deg, true, false);
            ASSERT_TRUE(b.is_delta());
            float c = b.cos_theta_fix();
            float f = fresnel_schlick_rgb(Vec3f(0.04f), c).x;
            double mean = 0.0;
            const int n = 4000;
            Vec3f wo = b.world_dir_fix();
            for (int i = 0; i < n; ++i) {
                BsdfSample s = b.sample(0.5f, 0.5f, (i + 0.5f) / n);
                ASSERT_TRUE(s.specular);
                mean += double(s.factor.y) * s.cos_out / s.pdf_w / n;
                if (dot(s.wi_world, kNormal) < 0.0f) {
                    Vec3f expected = -wo;
                    if (!thin) {
                        ASSERT_TRUE(refract_local(b.frame().to_local(wo), 1.0f / 1.5f, &expected));
                        expected = b.frame().to_world(expected);
                    }
                    ASSERT_GT(dot(s.wi_world, expected), 1.0f - 1e-5f);
                }
                ASSERT_TRUE(is_black(b.evaluate(s.wi_world).factor));
            }
            EXPECT_NEAR(mean, f + (1.0f - f) * tint.y, 1e-3) << (thin ? "thin " : "volume ") << deg;
        }
    }
    // A camera path entering the volume carries radiance compressed by 1 / ior^2.
    GltfBsdf camera = make_at(params(Vec3f(1.0f), 0.0f, 0.0f, 1.0f, false), 0.0f, true, true);
    BsdfSample s = camera.sample(0.5f, 0.5f, 0.999f);
    ASSERT_LT(dot(s.wi_world, kNormal), 0.0f);
    EXPECT_NEAR(s.factor.x * s.cos_out, (1.0f - 0.04f) / (1.5f * 1.5f), 1e-4f);  // weight times pdf_w
}

TEST(GltfBsdf, SidednessAndValidity) {
    GltfBsdfParams opaque = params(Vec3f(0.5f), 0.0f, 0.5f);
    EXPECT_TRUE(make_at(opaque, 30.0f, true).is_valid());
    EXPECT_FALSE(make_at(opaque, 30.0f, false).is_valid());  // single-sided, from behind
    GltfBsdf two = make_at(opaque, 30.0f, false, true, kNormal, true);
    ASSERT_TRUE(two.is_valid());
    EXPECT_GT(dot(two.normal(), -kNormal), 0.999f);  // flipped to the arriving side
    EXPECT_FALSE(two.front_side());
    GltfBsdfParams glass = params(Vec3f(1.0f), 0.0f, 0.2f, 1.0f, false);
    GltfBsdf inside = make_at(glass, 30.0f, false);
    EXPECT_TRUE(inside.is_valid());  // transmissive: the back side works single-sided
    EXPECT_FALSE(inside.front_side());
    // Grazing the geometric surface: no BSDF.
    EXPECT_FALSE(GltfBsdf::make(opaque, normalize(cross(kNormal, Vec3f(1, 0, 0))), kNormal, kNormal, true, true).is_valid());
    // A shading normal the arriving direction is behind: the geometric normal is used.
    Vec3f ray = arriving_ray(kNormal, degrees(70.0f), 0.4f);
    Vec3f ns = normalize(kNormal + 3.0f * normalize(ray - dot(ray, kNormal) * kNormal));
    ASSERT_LT(dot(-ray, ns), 0.0f);
    GltfBsdf bent = GltfBsdf::make(opaque, ray, ns, kNormal, true, false);
    ASSERT_TRUE(bent.is_valid());
    EXPECT_GT(dot(bent.normal(), kNormal), 0.9999f);
    // Black and specular 0: nothing scatters, but the hit is valid (its emission counts,
    // as on SmallVCM's black lights), and delta: nothing to evaluate, sample or continue.
    GltfBsdfParams black = tinted(params(Vec3f(0.0f), 0.0f, 0.5f), 0.0f, Vec3f(1.0f));
    const GltfBsdf b = make_at(black, 30.0f);
    EXPECT_TRUE(b.is_valid());
    EXPECT_TRUE(b.is_delta());
    EXPECT_EQ(b.continuation_prob(), 0.0f);
    EXPECT_TRUE(is_black(b.sample(0.3f, 0.6f, 0.5f).factor));
    EXPECT_TRUE(is_black(b.evaluate(normalize(Vec3f(0.2f, 0.1f, 1.0f))).factor));
}

TEST(GltfBsdf, DeltaFlagsAndContinuation) {
    EXPECT_TRUE(make_at(params(Vec3f(0.9f), 1.0f, 0.0f), 30.0f).is_delta());
    EXPECT_FALSE(make_at(params(Vec3f(0.9f), 0.0f, 0.0f), 30.0f).is_delta());  // Lambert under the coat
    EXPECT_TRUE(make_at(params(Vec3f(0.9f), 0.0f, 0.0f, 1.0f, false), 30.0f).is_delta());
    EXPECT_FALSE(make_at(params(Vec3f(0.9f), 0.0f, 0.2f, 1.0f, false), 30.0f).is_delta());
    UniformRng rng(8);
    for (int i = 0; i < 2000; ++i) {
        GltfBsdfParams p = params(Vec3f(rng(), rng(), rng()), rng(), rng(), rng() < 0.5f ? rng() : 0.0f, rng() < 0.5f);
        p.specular = rng();
        p.specular_color = Vec3f(rng(), rng(), rng()) * 2.0f;
        GltfBsdf b = make_at(p, 89.0f * rng(), transmissive(p) ? rng() < 0.5f : true);
        if (!b.is_valid()) continue;
        ASSERT_GE(b.continuation_prob(), 0.0f);
        ASSERT_LE(b.continuation_prob(), 1.0f);
    }
    // Specular 0, metallic 0: Lambert exactly.
    GltfBsdf lambert = make_at(tinted(params(Vec3f(0.6f, 0.5f, 0.4f), 0.0f, 0.4f), 0.0f, Vec3f(1.0f)), 35.0f);
    Vec3f wi = direction_around(kNormal, degrees(50.0f), 2.0f);
    BsdfEval e = lambert.evaluate(wi);
    EXPECT_NEAR(e.factor.x, 0.6f * kInvPi, 1e-6f);
    EXPECT_NEAR(e.pdf_fwd_w, std::cos(degrees(50.0f)) * kInvPi, 1e-5f);
}

}  // namespace
}  // namespace wf
