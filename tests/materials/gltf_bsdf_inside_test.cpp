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
//    integral of evaluate()'s f cos over the same band (uniform directions on the sphere):
//    an estimator built from sample() must see what evaluate() says is there;
//  - the chi-square fit of sample()'s directions to evaluate()'s pdf (gltf_bsdf_checks.h).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "materials/gltf_bsdf.h"
#include "materials/sampling.h"
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
constexpr int kBands = 4;
int band_of(float c) { return c < -0.7f ? 0 : c < 0.0f ? 1 : c < 0.7f ? 2 : 3; }

struct BandSums {
    std::array<double, kBands> mean{}, error{};
};

BandSums finish(const std::array<double, kBands>& sum, const std::array<double, kBands>& sum2, double n) {
    BandSums b;
    for (int i = 0; i < kBands; ++i) {
        b.mean[i] = sum[i] / n;
        b.error[i] = std::sqrt(std::max(0.0, sum2[i] / n - b.mean[i] * b.mean[i]) / n);
    }
    return b;
}

// Mean of f cos / pdf (green) over sample()'s draws, per band; delta samples left out
// (there are none at roughness 1).
BandSums sampled_bands(const GltfBsdf& b, int n, uint64_t seed) {
    UniformRng rng(seed);
    std::array<double, kBands> sum{}, sum2{};
    for (int i = 0; i < n; ++i) {
        const BsdfSample s = b.sample(rng(), rng(), rng());
        if (is_black(s.factor) || s.specular) continue;
        const double w = double(s.factor.y) * s.cos_out / s.pdf_w;
        const int k = band_of(dot(s.wi_world, kNormal));
        sum[k] += w;
        sum2[k] += w * w;
    }
    return finish(sum, sum2, n);
}

// The integral of evaluate()'s f cos (green) over each band, by uniform directions on the sphere.
BandSums integrated_bands(const GltfBsdf& b, int n, uint64_t seed) {
    UniformRng rng(seed);
    std::array<double, kBands> sum{}, sum2{};
    for (int i = 0; i < n; ++i) {
        const Vec3f w = sample_uniform_sphere(rng(), rng());
        const BsdfEval e = b.evaluate(w);
        const double v = double(e.factor.y) * e.cos_out / uniform_sphere_pdf_w();
        const int k = band_of(dot(w, kNormal));
        sum[k] += v;
        sum2[k] += v * v;
    }
    return finish(sum, sum2, n);
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
            const BandSums s = sampled_bands(b, n, seed++), q = integrated_bands(b, n, seed++);
            for (int k = 0; k < kBands; ++k) {
                const double se = std::hypot(s.error[k], q.error[k]);
                std::printf("%s, band %d: sampled %.4f +- %.4f, evaluate() %.4f +- %.4f (%+.1f standard errors)\n",
                            what.c_str(), k, s.mean[k], s.error[k], q.mean[k], q.error[k],
                            se > 0.0 ? (s.mean[k] - q.mean[k]) / se : 0.0);
                EXPECT_LE(std::fabs(s.mean[k] - q.mean[k]), 5.0 * se + 1e-6) << what << ", band " << k;
            }
            expect_chi_square_fits(b, p, what, seed += 2);
        }
}

}  // namespace
}  // namespace wf
