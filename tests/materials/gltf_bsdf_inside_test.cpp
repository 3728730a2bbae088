// materials/gltf_bsdf.h seen from inside a volume whose base is partly Lambert
// (transmissionFactor below 1, KHR_materials_volume). Inside, the base's Fresnel at the
// half vector is 1 beyond the critical angle (41.8 degrees at ior 1.5), so from a steep
// arriving direction the Lambert value is 0 for most grazing reflections, while the lobe,
// picked by the Fresnel at the arriving direction, still draws them. Its pdf must count
// there too: once it was added only with a nonzero value, sample()'s f / pdf for those
// directions was the specular lobe's alone (3x the truth in the band tested below), and pt,
// lt and ppm, which sample inside, read 16-40% high (docs/architecture.md, section 11).
//
// Checked two ways, on camera and light paths, from 20 and 60 degrees inside:
//  - sample()'s weights f cos / pdf, summed over bands of the outgoing cosine, against the
//    integral of evaluate()'s f cos over the same band (uniform directions on the sphere;
//    gltf_bsdf_checks.h): an estimator built from sample() must see what evaluate() says is there;
//  - the chi-square fit of sample()'s directions to evaluate()'s pdf (gltf_bsdf_checks.h).
#include <gtest/gtest.h>

#include <string>

#include "materials/gltf_bsdf.h"
#include "tests/materials/gltf_bsdf_checks.h"

namespace wf {
namespace {

using namespace materials_test;

// White rough glass whose base is half Lambert, half transmission: the cube of the
// bidirectional family's volume tests (tests/wavefront/gltf_inside_volume_scenes.h).
GltfBsdfParams half_lambert_glass() {
    GltfBsdfParams p = params(Vec3f(1.0f), 0.0f, 1.0f, 0.5f, false);
    p.ior = 1.5f;
    return p;
}

// Bands of the outgoing direction by its cosine c to the geometric normal (negative: on the
// arriving side, the inside): [-1, -0.7), [-0.7, 0), [0, 0.7), [0.7, 1].
int band_of(Vec3f w) {
    const float c = dot(w, kNormal);
    return c < -0.7f ? 0 : c < 0.0f ? 1 : c < 0.7f ? 2 : 3;
}

TEST(GltfBsdfInsideVolume, SampledWeightsMatchEvaluateWhereTotalInternalReflectionZeroesLambert) {
    const GltfBsdfParams p = half_lambert_glass();
    const int n = 1000000;
    uint64_t seed = 1;
    for (bool camera_path : {true, false})
        for (float deg : {20.0f, 60.0f}) {
            const GltfBsdf b = make_at(p, deg, false, camera_path);
            ASSERT_TRUE(b.is_valid());
            const std::string what = std::string(camera_path ? "camera" : "light") + " path, inside, " +
                                     std::to_string(int(deg)) + " deg";
            expect_bands_match(b, band_of, n, seed, what);
            seed += 2;
            expect_chi_square_fits(b, p, what, seed += 2);
        }
}

}  // namespace
}  // namespace wf
