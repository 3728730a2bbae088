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
// Checked three ways, for every lobe (specular, Lambert, thin and volume transmission,
// sheen, coat) at rough and moderate coats:
//  - sample()'s weights f cos / pdf per region (which side of each frame) against the
//    integral of evaluate()'s f cos over it (gltf_bsdf_checks.h's bands);
//  - the pdf and value sample() reports against evaluate()'s for the same direction,
//    where the frames disagree included;
//  - the chi-square fit of sample()'s directions to evaluate()'s pdf.
#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace wf
