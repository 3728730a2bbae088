// The layers materials/gltf_bsdf.h puts over the glTF base: KHR_materials_clearcoat (a GGX
// coat of ior 1.5 weighted by clearcoat F_c(N.V)) and KHR_materials_sheen (the Charlie
// lobe of materials/sheen.h with the albedo scaling of the base). sample() against
// evaluate() (chi-square, per sample), reverse pdfs, reciprocity where the model has it,
// the coat in closed form, the sheen albedo table against quadrature, and white furnaces.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "materials/gltf_bsdf.h"
#include "materials/microfacet.h"
#include "materials/sheen.h"
#include "tests/materials/gltf_bsdf_checks.h"

namespace wf {
namespace {

using namespace materials_test;

GltfBsdfParams coated(GltfBsdfParams p, float clearcoat, float roughness) {
    p.clearcoat = clearcoat;
    p.clearcoat_roughness = roughness;
    return p;
}

GltfBsdfParams sheened(GltfBsdfParams p, Vec3f colour, float roughness) {
    p.sheen_color = colour;
    p.sheen_roughness = roughness;
    return p;
}

struct Layered {
    const char* name;
    GltfBsdfParams p;
};

std::vector<Layered> layered_set() {
    const Vec3f paint(0.8f, 0.3f, 0.2f), copper(0.95f, 0.64f, 0.54f), glass(0.9f, 0.95f, 0.8f), velvet(0.9f, 0.6f, 0.8f);
    return {
        {"coat r0.1 over plastic r0.5", coated(params(paint, 0.0f, 0.5f), 1.0f, 0.1f)},
        {"coat 0.6 r0.4 over metal r0.6", coated(params(copper, 1.0f, 0.6f), 0.6f, 0.4f)},
        {"coat r0.3 over smooth plastic", coated(params(paint, 0.0f, 0.0f), 1.0f, 0.3f)},
        {"smooth coat over plastic r0.7", coated(params(paint, 0.0f, 0.7f), 0.8f, 0.0f)},
        {"sheen r0.3 over plastic r0.8", sheened(params(paint, 0.0f, 0.8f), velvet, 0.3f)},
        {"sheen r0 (clamped) over metal r0.4", sheened(params(copper, 1.0f, 0.4f), velvet, 0.0f)},
        {"sheen r1 over smooth metal", sheened(params(copper, 1.0f, 0.0f), Vec3f(0.5f), 1.0f)},
        {"coat and sheen over thin glass r0.3", coated(sheened(params(glass, 0.0f, 0.3f, 1.0f, true), velvet, 0.5f), 0.7f, 0.2f)},
        {"coat over volume glass r0.3", coated(params(glass, 0.0f, 0.3f, 1.0f, false), 1.0f, 0.15f)},
    };
}

bool has_coat(const GltfBsdfParams& p) { return p.clearcoat > 0.0f; }

TEST(GltfLayers, SamplingChiSquare) {
    uint64_t seed = 3000;
    for (const Layered& m : layered_set()) {
        for (float deg : {0.0f, 50.0f, 85.0f}) {
            expect_chi_square_fits(make_at(m.p, deg), m.p, std::string(m.name) + ", " + std::to_string(int(deg)) + " deg",
                                   seed += 2);
        }
        if (transmissive(m.p) && !m.p.thin_walled) {
            // From inside the volume the layers are absent (they are on the outside).
            expect_chi_square_fits(make_at(m.p, 30.0f, false), m.p, std::string(m.name) + ", inside", seed += 2);
        }
    }
}

// Per sample: pdf and value equal evaluate()'s; pdf_rev equals the pdf_fwd of the BSDF made
// for the reverse direction and vice versa. The sheen and its albedo scaling are
// reciprocal (symmetric in V and L); the coat is not (its Fresnel and the base's weight
// 1 - clearcoat F_c take N.V only, as the extension writes them), so values are compared
// both ways only without a coat.
TEST(GltfLayers, SampleMatchesEvaluateAndReverse) {
    UniformRng rng(55);
    for (const Layered& m : layered_set()) {
        int checked = 0;
        for (int i = 0; i < 4000; ++i) {
            const bool front = !transmissive(m.p) || m.p.thin_walled || rng() < 0.7f;
            GltfBsdf b = make_at(m.p, 89.0f * rng(), front, true, kNormal, true);
            ASSERT_TRUE(b.is_valid());
            BsdfSample s = b.sample(rng(), rng(), rng());
            if (is_black(s.factor) || s.specular || s.cos_out < 1e-3f) continue;
            ++checked;
            BsdfEval e = b.evaluate(s.wi_world);
            ASSERT_LT(rel_diff(e.pdf_fwd_w, s.pdf_w), 2e-3) << m.name << " " << i;
            ASSERT_LT(rel_diff(e.factor.y, s.factor.y), 2e-3) << m.name << " " << i;
            const Vec3f wo = b.world_dir_fix();
            GltfBsdf reverse = GltfBsdf::make(m.p, -s.wi_world, kNormal, kNormal, true, true);
            BsdfEval r = reverse.evaluate(wo);
            ASSERT_LT(rel_diff(e.pdf_rev_w, r.pdf_fwd_w), 2e-3) << m.name << " " << i;
            ASSERT_LT(rel_diff(r.pdf_rev_w, e.pdf_fwd_w), 2e-3) << m.name << " " << i;
            const bool transmitted = dot(s.wi_world, kNormal) * dot(wo, kNormal) < 0.0f;
            if (!has_coat(m.p) && (!transmitted || m.p.thin_walled)) {
                ASSERT_LT(rel_diff(e.factor.x, r.factor.x), 2e-3) << m.name << " " << i;
            }
        }
        EXPECT_GT(checked, 500) << m.name;
    }
}

// The coat in closed form: f = f_base (1 - clearcoat F_c(N.V)) + clearcoat F_c(N.V) f_ggx,
// F_c = 0.04 + 0.96 (1 - N.V)^5, f_ggx the coat's GGX lobe without Fresnel (the
// conductor lobe of materials/microfacet.h with F0 = 1), f_base the BSDF without the coat.
TEST(GltfLayers, CoatIsTheExtensionsLayering) {
    UniformRng rng(21);
    for (const Layered& m : layered_set()) {
        if (!has_coat(m.p) || m.p.clearcoat_roughness == 0.0f || m.p.sheen_color.x > 0.0f) continue;
        GltfBsdfParams base_p = m.p;
        base_p.clearcoat = 0.0f;
        const float a = m.p.clearcoat_roughness * m.p.clearcoat_roughness;
        const MicrofacetConductor ggx(GgxDistribution(a, a), Vec3f(1.0f));
        for (int i = 0; i < 300; ++i) {
            const float deg = 88.0f * rng();
            GltfBsdf b = make_at(m.p, deg), base = make_at(base_p, deg);
            const Vec3f wi = sample_uniform_sphere(rng(), rng());
            if (std::fabs(dot(wi, kNormal)) < 1e-2f) continue;
            const float n_v = dot(b.world_dir_fix(), kNormal);
            const float fc = 0.04f + 0.96f * std::pow(1.0f - n_v, 5.0f);
            Vec3f expected = base.evaluate(wi).factor * (1.0f - m.p.clearcoat * fc);
            if (dot(wi, kNormal) > 0.0f) {
                const LobeEval l = ggx.evaluate(b.frame().to_local(b.world_dir_fix()), b.frame().to_local(wi));
                expected += l.f * (m.p.clearcoat * fc);
            }
            const Vec3f got = b.evaluate(wi).factor;
            for (int c = 0; c < 3; ++c) ASSERT_NEAR(got[c], expected[c], 1e-4f * expected[c] + 1e-6f) << m.name << " " << i;
        }
    }
}

// Directional albedo of sheen_lobe() (sheen colour 1) by quadrature: midpoint rule in
// (sqrt(cos theta), phi), which resolves the peak at grazing angles.
double sheen_albedo_quadrature(float mu, float alpha, int n) {
    const Vec3f wo(std::sqrt(1.0f - mu * mu), 0.0f, mu);
    double sum = 0.0;
    for (int a = 0; a < n; ++a) {
        const double t = (a + 0.5) / n, ct = t * t, st = std::sqrt(1.0 - ct * ct);
        for (int b = 0; b < n; ++b) {
            const double phi = (b + 0.5) / n * 2.0 * kPi;
            const Vec3f wi(float(st * std::cos(phi)), float(st * std::sin(phi)), float(ct));
            sum += double(sheen_lobe(wo, wi, alpha)) * ct * (2.0 * t / n) * (2.0 * kPi / n);
        }
    }
    return sum;
}

// A normal-mapped base under a coat that is not (the extension's default): the coat
// lobe lives in the frame of its own normal (here the geometric one), the base in the
// tilted shading frame. Chi-square, sample vs evaluate, reverse pdfs, and the coat's
// value against the GGX lobe in the coat's frame.
TEST(GltfLayers, CoatOverNormalMappedBase) {
    const Vec3f ns = normalize(kNormal + 0.4f * normalize(cross(kNormal, Vec3f(1, 0, 0))));
    uint64_t seed = 5000;
    UniformRng rng(77);
    for (const Layered& m : layered_set()) {
        if (!has_coat(m.p)) continue;
        GltfBsdfParams p = m.p;
        p.clearcoat_normal = kNormal;
        for (float deg : {10.0f, 60.0f}) {
            GltfBsdf b = make_at(p, deg, true, true, ns);
            expect_chi_square_fits(b, p, std::string(m.name) + ", normal-mapped base, " + std::to_string(int(deg)) + " deg",
                                   seed += 2);
        }
        int checked = 0;
        for (int i = 0; i < 3000; ++i) {
            GltfBsdf b = make_at(p, 80.0f * rng(), true, true, ns, true);
            BsdfSample s = b.sample(rng(), rng(), rng());
            if (is_black(s.factor) || s.specular || s.cos_out < 1e-3f) continue;
            ++checked;
            BsdfEval e = b.evaluate(s.wi_world);
            ASSERT_LT(rel_diff(e.pdf_fwd_w, s.pdf_w), 2e-3) << m.name << " " << i;
            ASSERT_LT(rel_diff(e.factor.y, s.factor.y), 2e-3) << m.name << " " << i;
            const Vec3f wo = b.world_dir_fix();
            if (dot(s.wi_world, kNormal) < 0.05f || dot(s.wi_world, ns) < 0.05f) continue;  // both frames agree on the side
            GltfBsdf reverse = GltfBsdf::make(p, -s.wi_world, ns, kNormal, true, true);
            ASSERT_LT(rel_diff(e.pdf_rev_w, reverse.evaluate(wo).pdf_fwd_w), 2e-3) << m.name << " " << i;
            if (m.p.clearcoat_roughness > 0.0f && m.p.sheen_color.x == 0.0f) {
                // Value: base (1 - clearcoat F_c(N_c.V)) + clearcoat F_c(N_c.V) f_ggx in the coat's frame.
                GltfBsdfParams base_p = p;
                base_p.clearcoat = 0.0f;
                GltfBsdf base = GltfBsdf::make(base_p, -wo, ns, kNormal, true, true);
                const float a = m.p.clearcoat_roughness * m.p.clearcoat_roughness;
                const Frame cf = Frame::from_z(kNormal);
                const float fc = 0.04f + 0.96f * std::pow(1.0f - dot(wo, kNormal), 5.0f);
                const LobeEval l = MicrofacetConductor(GgxDistribution(a, a), Vec3f(1.0f)).evaluate(cf.to_local(wo), cf.to_local(s.wi_world));
                const Vec3f expected = base.evaluate(s.wi_world).factor * (1.0f - m.p.clearcoat * fc) + l.f * (m.p.clearcoat * fc);
                ASSERT_LT(rel_diff(e.factor.y, expected.y), 1e-3) << m.name << " " << i;
            }
        }
        EXPECT_GT(checked, 300) << m.name;
    }
}

// The albedo table of materials/sheen.h against quadrature of sheen_lobe() itself: every
// entry (tightly; mu = 1e-4 for the first column, as the table was made), and points
// between entries (within the bilinear interpolation's error).
TEST(GltfLayers, SheenAlbedoTableMatchesQuadrature) {
    double worst_entry = 0.0, worst_between = 0.0;
    for (int j = 0; j < kSheenAlbedoRoughnesses; ++j) {
        const float alpha = kSheenMinRoughness + float(j) * (1.0f - kSheenMinRoughness) / float(kSheenAlbedoRoughnesses - 1);
        for (int i = 1; i < kSheenAlbedoCosines; ++i) {
            const float u = float(i) / float(kSheenAlbedoCosines - 1), mu = u * u;
            const double q = sheen_albedo_quadrature(mu, alpha, 300);
            worst_entry = std::max(worst_entry, std::fabs(sheen_albedo(mu, alpha) - q));
            EXPECT_NEAR(sheen_albedo(mu, alpha), q, 2e-3 + 2e-3 * q) << "entry alpha " << alpha << ", mu " << mu;
            EXPECT_LE(q, 1.0) << "alpha " << alpha << ", mu " << mu;
        }
    }
    for (float alpha : {0.12f, 0.35f, 0.77f}) {
        for (float mu : {0.02f, 0.06f, 0.15f, 0.45f, 0.8f}) {
            const double q = sheen_albedo_quadrature(mu, alpha, 300);
            worst_between = std::max(worst_between, std::fabs(sheen_albedo(mu, alpha) - q));
            EXPECT_NEAR(sheen_albedo(mu, alpha), q, 0.012 + 0.03 * q) << "alpha " << alpha << ", mu " << mu;
        }
    }
    std::printf("  sheen albedo table vs quadrature: largest difference %.4f at entries, %.4f between\n", worst_entry,
                worst_between);
}

// White furnace (light paths), sampled and by quadrature of evaluate(). A coat or a sheen
// over a white metal keeps at most all the energy; over a white dielectric they keep at
// most what the Appendix B base gains (materials/gltf_bsdf.h). The albedos are recorded.
TEST(GltfLayers, WhiteFurnace) {
    const Vec3f white(1.0f);
    struct Case {
        const char* name;
        GltfBsdfParams p;
        float deg;
        double recorded;  // the albedo, as measured when the layers were written
    };
    const Case cases[] = {
        {"coat r0.1 over white metal r0.5, 0 deg", coated(params(white, 1.0f, 0.5f), 1.0f, 0.1f), 0.0f, 0.9186},
        {"coat r0.1 over white metal r0.5, 70 deg", coated(params(white, 1.0f, 0.5f), 1.0f, 0.1f), 70.0f, 0.8647},
        {"coat r0.5 over white dielectric r0.5, 0 deg", coated(params(white, 0.0f, 0.5f), 1.0f, 0.5f), 0.0f, 0.9936},
        {"coat r0.5 over white dielectric r0.5, 80 deg", coated(params(white, 0.0f, 0.5f), 1.0f, 0.5f), 80.0f, 0.9888},
        {"white sheen r0.3 over white metal r1, 0 deg", sheened(params(white, 1.0f, 1.0f), white, 0.3f), 0.0f, 0.2905},
        {"white sheen r0.3 over white metal r1, 80 deg", sheened(params(white, 1.0f, 1.0f), white, 0.3f), 80.0f, 0.8207},
        {"white sheen r1 over white dielectric r0.5, 60 deg", sheened(params(white, 0.0f, 0.5f), white, 1.0f), 60.0f, 0.9732},
        {"white sheen r0.07 over black, 85 deg", sheened(params(Vec3f(0.0f), 0.0f, 1.0f), white, 0.07f), 85.0f, 0.6096},
    };
    uint64_t seed = 90;
    for (const Case& c : cases) {
        GltfBsdf b = make_at(c.p, c.deg, true, false);
        const Albedo a = sampled_albedo(b, 200000, seed++);
        const Vec3f wo = b.world_dir_fix(), n = b.normal();
        RingBinning bins(n, 1e-3, 48, 32);
        const double quad = integrate_mapped(
            bins, [&](Vec3f wi) { return double(b.evaluate(wi).factor.y) * std::fabs(dot(wi, n)); }, reflection_map(wo, n));
        GltfBsdfParams base_p = c.p;
        base_p.clearcoat = 0.0f;
        base_p.sheen_color = Vec3f(0.0f);
        const Albedo base = sampled_albedo(make_at(base_p, c.deg, true, false), 200000, seed++);
        std::printf("  %s: albedo %.4f +- %.4f (sampled), %.4f (quadrature); base alone %.4f\n", c.name, a.mean, a.error,
                    quad, base.mean);
        const bool has_delta = c.p.roughness == 0.0f || (has_coat(c.p) && c.p.clearcoat_roughness == 0.0f);
        if (!has_delta) EXPECT_NEAR(a.mean, quad, 4.0 * a.error + 3e-3) << c.name;
        EXPECT_NEAR(a.mean, c.recorded, 4.0 * a.error + 3e-3) << c.name;
        EXPECT_LE(a.mean, std::max(1.0, base.mean) + 4.0 * a.error + 3e-3) << c.name;
    }
}

}  // namespace
}  // namespace wf
