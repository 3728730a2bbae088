// materials/gltf_bsdf.h's clear coat over a normal-mapped base, with the coat's normal
// (KHR_materials_clearcoat without clearcoatNormalTexture: the interpolated normal, which
// pbr_shading_point passes) differing from both the base's shading normal and the geometric
// normal. The frames then disagree on a wedge of directions near the horizon:
//  - above the coat, below the base: sample() refuses the coat's samples there (the base
//    frame calls them transmission), and evaluate() has no coat there;
//  - above the base, below the coat: a visible normal of a rough coat can reflect the
//    arriving direction there, and sample() keeps it. The coat's value is 0 there, but its
//    pdf must count: once it was added only with the value, f / pdf of every sample landing
//    there was too large, and sample()'s weights there summed to up to 1.7x the integral of
//    evaluate() (coat r1 over thin glass at 30 degrees, 24.6 standard errors; chi-square
//    p down to 0).
// tests/materials/gltf_layers_test.cpp's CoatOverNormalMappedBase takes the geometric normal
// as the coat's, which hides the second wedge: below the geometric surface, sample() refuses
// every reflection.
//
// Checked four ways, for every lobe (specular, Lambert, thin and volume transmission,
// sheen, coat) at rough and moderate coats:
//  - sample()'s weights f cos / pdf per region (which side of each frame) against the
//    integral of evaluate()'s f cos over it (gltf_bsdf_checks.h's bands);
//  - the pdf and value sample() reports against evaluate()'s for the same direction,
//    where the frames disagree included;
//  - the chi-square fit of sample()'s directions to evaluate()'s pdf;
//  - the reverse pdf and continuation (what bpt, vcm and bpm weigh a reverse walk with)
//    against the forward ones of the BSDF make() builds for the reverse walk: that one
//    takes the base's normal for the coat's where the direction it arrives from is below
//    the coat's surface.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "materials/gltf_bsdf.h"
#include "tests/materials/gltf_bsdf_checks.h"

namespace wf {
namespace {

using namespace materials_test;

// The geometric normal kNormal tilted by deg degrees in one plane (negative: the other way).
Vec3f tilted_normal(float deg) {
    const Vec3f t = normalize(cross(kNormal, Vec3f(1, 0, 0)));
    return normalize(kNormal * std::cos(degrees(deg)) + t * std::sin(degrees(deg)));
}

// The coat's normal 15 degrees one way, the base's normal-mapped one 20 degrees the other.
const Vec3f kCoatNormal = tilted_normal(15.0f);
const Vec3f kBaseNormal = tilted_normal(-20.0f);

struct Coated {
    const char* name;
    GltfBsdfParams p;
};

GltfBsdfParams coated(GltfBsdfParams p, float roughness) {
    p.clearcoat = 1.0f;
    p.clearcoat_roughness = roughness;
    p.clearcoat_normal = kCoatNormal;
    return p;
}

std::vector<Coated> coated_set() {
    const Vec3f paint(0.8f, 0.3f, 0.2f), copper(0.95f, 0.64f, 0.54f), glass(0.9f, 0.95f, 0.8f);
    GltfBsdfParams sheen = params(paint, 0.0f, 0.0f);
    sheen.sheen_color = Vec3f(0.5f);
    sheen.sheen_roughness = 0.4f;
    return {
        {"coat r1 over plastic r0.5", coated(params(paint, 0.0f, 0.5f), 1.0f)},
        {"coat r1 over metal r0.3", coated(params(copper, 1.0f, 0.3f), 1.0f)},
        {"coat r1 over thin glass r0.4", coated(params(glass, 0.0f, 0.4f, 1.0f, true), 1.0f)},
        {"coat r1 over half-transmissive volume r0.6", coated(params(paint, 0.0f, 0.6f, 0.5f, false), 1.0f)},
        {"coat r0.3 over sheen over smooth plastic", coated(sheen, 0.3f)},
    };
}

GltfBsdf make_coated(const GltfBsdfParams& p, float deg) { return make_at(p, deg, true, true, kBaseNormal); }

// Regions of the outgoing direction: 2 (above the base's frame) + 1 (above the coat's).
// Region 2 is where a coat sample lands above the base but below the coat.
int region_of(Vec3f w) { return (dot(w, kBaseNormal) > 0.0f ? 2 : 0) + (dot(w, kCoatNormal) > 0.0f ? 1 : 0); }

TEST(GltfCoatNormal, SampledWeightsMatchEvaluatePerRegion) {
    uint64_t seed = 7100;
    UniformRng rng(71);
    for (const Coated& m : coated_set()) {
        for (float deg : {30.0f, 80.0f}) {
            const GltfBsdf b = make_coated(m.p, deg);
            ASSERT_TRUE(b.is_valid());
            // The frames are the ones meant: the base's normal-mapped one, and a coat normal
            // that V is above (else make() falls back to the base's).
            ASSERT_GT(dot(b.normal(), kBaseNormal), 0.9999f) << m.name;
            ASSERT_GT(dot(b.world_dir_fix(), kCoatNormal), 0.05f) << m.name;
            const std::string what = std::string(m.name) + ", " + std::to_string(int(deg)) + " deg";
            expect_bands_match(b, region_of, 1000000, seed += 2, what);
            // Per sample: pdf and value are evaluate()'s, in region 2 too.
            int in_region_2 = 0;
            for (int i = 0; i < 20000; ++i) {
                const BsdfSample s = b.sample(rng(), rng(), rng());
                if (is_black(s.factor) || s.specular || s.cos_out < 1e-3f) continue;
                in_region_2 += region_of(s.wi_world) == 2;
                const BsdfEval e = b.evaluate(s.wi_world);
                ASSERT_LT(rel_diff(e.pdf_fwd_w, s.pdf_w), 2e-3) << what << " " << i;
                ASSERT_LT(rel_diff(e.factor.y, s.factor.y), 2e-3) << what << " " << i;
            }
            EXPECT_GT(in_region_2, 50) << what;  // the region the coat's pdf was missing from
        }
    }
}

TEST(GltfCoatNormal, SamplingChiSquare) {
    uint64_t seed = 7300;
    for (const Coated& m : coated_set()) {
        for (float deg : {30.0f, 60.0f, 80.0f}) {
            expect_chi_square_fits(make_coated(m.p, deg), m.p, std::string(m.name) + ", " + std::to_string(int(deg)) + " deg",
                                   seed += 2);
        }
    }
}

// The pdf of the reverse walk, e.pdf_rev_w = pdf(wi -> wo), must be the pdf_fwd_w of the
// BSDF the reverse walk builds at the vertex (GltfBsdf::make with the same shading point,
// arriving from wi, on the other kind of path, as connect.h and shade_light.h have it), and
// continuation_prob_from(wi) that BSDF's continuation_prob(): the bidirectional family's
// MIS weights sum to one only then. Directions are drawn uniformly (not from sample()), so
// every lobe's pdf is met where the frames disagree; pairs near any surface (geometric,
// base, coat) are left out, and so are directions below the base's normal on their side,
// where make() takes the geometric normal for the frame (docs/architecture.md, "Known").
// A pair is off where the two differ by more than 1e-4 relative plus 1e-6 (per sr, for the
// pdfs): the volume's refraction far in its tails (pdfs near 1e-7 per sr) differs by float
// rounding between this frame and the reverse BSDF's flipped one, up to 0.45% relative.
// Counted apart, with the largest relative differences printed:
//  - wi below the coat's surface, above the base's: the reverse BSDF's coat takes the
//    base's normal (its pdf is GGX in the base's frame, its weight F_c(N.wi));
//  - wo below the coat's surface: this BSDF's coat takes the base's normal, the reverse
//    one's the coat's own;
//  - transmitted pairs (the reverse walk leaves from the other side).
struct ReverseGaps {
    int pairs = 0, wi_below_coat = 0, wo_below_coat = 0, transmitted = 0;
    int pdf_rev_off = 0, pdf_fwd_off = 0, continuation_off = 0;  // pairs off
    double pdf_rev = 0.0, pdf_fwd = 0.0, continuation = 0.0;  // largest relative differences
    double pdf_rev_wi_below_coat = 0.0, pdf_rev_wo_below_coat = 0.0;
};

bool off(double a, double b) { return std::fabs(a - b) > 1e-4 * std::max(a, b) + 1e-6; }

ReverseGaps reverse_gaps(const GltfBsdfParams& p, int n, uint64_t seed) {
    UniformRng rng(seed);
    ReverseGaps g;
    // Well clear of a surface (the sides make() and evaluate() decide by kEpsCosine).
    const auto clear = [](Vec3f w) {
        return std::fabs(dot(w, kNormal)) > 0.02f && std::fabs(dot(w, kBaseNormal)) > 0.02f &&
               std::fabs(dot(w, kCoatNormal)) > 0.01f;
    };
    // Above the base's normal on its side of the geometric surface: the frame is the base's.
    const auto base_frame = [](Vec3f w) { return dot(w, kBaseNormal) * dot(w, kNormal) > 0.0f; };
    for (int i = 0; i < n; ++i) {
        const Vec3f wo = sample_uniform_sphere(rng(), rng()), wi = sample_uniform_sphere(rng(), rng());
        const bool camera_path = rng() < 0.5f;
        if (!clear(wo) || !clear(wi) || !base_frame(wo) || !base_frame(wi)) continue;
        const GltfBsdf b = GltfBsdf::make(p, -wo, kBaseNormal, kNormal, camera_path, true);
        const GltfBsdf reverse = GltfBsdf::make(p, -wi, kBaseNormal, kNormal, !camera_path, true);
        if (!b.is_valid() || !reverse.is_valid()) continue;  // the back of an opaque surface
        const BsdfEval e = b.evaluate(wi), r = reverse.evaluate(wo);
        ++g.pairs;
        const float side = dot(wo, kNormal) > 0.0f ? 1.0f : -1.0f;  // orients the normals to wo's side
        const bool transmitted = dot(wi, kNormal) * side < 0.0f;
        const bool wi_below_coat = !transmitted && dot(wi, kCoatNormal) * side < 0.0f;
        const bool wo_below_coat = dot(wo, kCoatNormal) * side < 0.0f;
        g.transmitted += transmitted;
        g.wi_below_coat += wi_below_coat;
        g.wo_below_coat += wo_below_coat;
        const double d_rev = rel_diff(e.pdf_rev_w, r.pdf_fwd_w);
        g.pdf_rev = std::max(g.pdf_rev, d_rev);
        g.pdf_fwd = std::max(g.pdf_fwd, rel_diff(r.pdf_rev_w, e.pdf_fwd_w));
        const float cont = b.continuation_prob_from(wi), cont_reverse = reverse.continuation_prob();
        g.continuation = std::max(g.continuation, rel_diff(cont, cont_reverse));
        g.pdf_rev_off += off(e.pdf_rev_w, r.pdf_fwd_w);
        g.pdf_fwd_off += off(r.pdf_rev_w, e.pdf_fwd_w);
        g.continuation_off += off(cont, cont_reverse);
        if (wi_below_coat) g.pdf_rev_wi_below_coat = std::max(g.pdf_rev_wi_below_coat, d_rev);
        if (wo_below_coat) g.pdf_rev_wo_below_coat = std::max(g.pdf_rev_wo_below_coat, d_rev);
    }
    return g;
}

TEST(GltfCoatNormal, ReversePdfAndContinuationAreTheReverseBsdfs) {
    uint64_t seed = 7500;
    for (const Coated& m : coated_set()) {
        const ReverseGaps g = reverse_gaps(m.p, 200000, seed += 2);
        std::printf("%s: %d pairs (wi below the coat %d, wo below it %d, transmitted %d); pairs off: pdf_rev %d, "
                    "pdf_fwd %d, continuation %d; largest relative differences: pdf_rev %.3g (wi below the coat "
                    "%.3g, wo below it %.3g), pdf_fwd %.3g, continuation %.3g\n",
                    m.name, g.pairs, g.wi_below_coat, g.wo_below_coat, g.transmitted, g.pdf_rev_off, g.pdf_fwd_off,
                    g.continuation_off, g.pdf_rev, g.pdf_rev_wi_below_coat, g.pdf_rev_wo_below_coat, g.pdf_fwd,
                    g.continuation);
        // Both wedges are met often (each holds a few percent of the sphere).
        EXPECT_GT(g.wi_below_coat, 1000) << m.name;
        EXPECT_GT(g.wo_below_coat, 1000) << m.name;
        EXPECT_EQ(g.pdf_rev_off, 0) << m.name;
        EXPECT_EQ(g.pdf_fwd_off, 0) << m.name;
        EXPECT_EQ(g.continuation_off, 0) << m.name;
    }
}

}  // namespace
}  // namespace wf
