// Helpers of the glTF BSDF tests (gltf_bsdf_test.cpp, gltf_layers_test.cpp,
// gltf_bsdf_inside_test.cpp, gltf_coat_normal_test.cpp): parameter sets, a BSDF lit from a
// given angle, the chi-square fit of sample() against evaluate()'s pdf, sample()'s weights
// against evaluate() per region of the outgoing direction, and the sampled directional
// albedo. The last three take any BSDF of materials/ (microfacet_bsdf_test.cpp uses them too).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "materials/gltf_bsdf.h"
#include "materials/microfacet.h"
#include "materials/sampling.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/ring_binning.h"
#include "tests/materials/smallvcm_materials.h"

namespace wf::materials_test {

inline constexpr uint64_t kChiSamples = 200000;

inline const Vec3f kNormal = normalize(Vec3f(0.3f, -0.2f, 0.9f));

inline GltfBsdfParams params(Vec3f base, float metallic, float roughness, float transmission = 0.0f, bool thin = true) {
    GltfBsdfParams p;
    p.base_color = base;
    p.metallic = metallic;
    p.roughness = roughness;
    p.transmission = transmission;
    p.thin_walled = thin;
    return p;
}

inline GltfBsdfParams tinted(GltfBsdfParams p, float specular, Vec3f specular_color) {
    p.specular = specular;
    p.specular_color = specular_color;
    return p;
}


inline bool transmissive(const GltfBsdfParams& p) { return p.transmission > 0.0f && p.metallic < 1.0f; }

// A BSDF at normal n lit from angle theta (degrees) on n's side (front) or the other.
inline GltfBsdf make_at(const GltfBsdfParams& p, float deg, bool front = true, bool camera_path = true,
                 Vec3f shading_normal = kNormal, bool double_sided = false,
                 GltfBaseFresnel base_fresnel = GltfBaseFresnel::HalfVector) {
    Vec3f ray = arriving_ray(front ? kNormal : -kNormal, degrees(deg), 0.4f);
    return GltfBsdf::make(p, ray, shading_normal, kNormal, camera_path, double_sided, base_fresnel);
}

inline double rel_diff(double a, double b) { return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), 1e-30}); }

template <class B>
inline ChiSquareResult gltf_chi_square(const B& b, const RingBinning& bins, const DirectionMap& map, uint64_t seed) {
    UniformRng rng(seed);
    return chi_square_rings(
        bins,
        [&]() -> std::optional<Vec3f> {
            float u0 = rng(), u1 = rng(), u2 = rng();
            BsdfSample s = b.sample(u0, u1, u2);
            if (is_black(s.factor) || s.specular) return std::nullopt;
            return s.wi_world;
        },
        [&](Vec3f wi) { return double(b.evaluate(wi).pdf_fwd_w); }, kChiSamples, map);
}

// Reflection, and transmission where there is any, each binned in its half-vector space.
inline void expect_chi_square_fits(const GltfBsdf& b, const GltfBsdfParams& p, const std::string& what, uint64_t seed) {
    ASSERT_TRUE(b.is_valid()) << what;
    // Rings as fine as the narrowest rough GGX lobe (base or clear coat).
    float alpha = p.roughness * p.roughness;
    const float coat_alpha = p.clearcoat_roughness * p.clearcoat_roughness;
    if (p.clearcoat > 0.0f && coat_alpha >= kGgxSmoothAlpha && (coat_alpha < alpha || alpha < kGgxSmoothAlpha)) alpha = coat_alpha;
    if (alpha < kGgxSmoothAlpha) alpha = 0.3f;  // only Lambert (and sheen) are not delta lobes
    Vec3f wo = b.world_dir_fix(), n = b.normal();
    RingBinning bins(n, 0.25 * double(alpha) * alpha, 32, 24);
    auto r = gltf_chi_square(b, bins, reflection_map(wo, n), seed);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << what << ", reflection: " << r.message;
    if (!transmissive(p)) return;
    DirectionMap t = p.thin_walled ? reflection_map(wo, n, true)
                                   : refraction_map(wo, n, b.front_side() ? 1.0f : p.ior, b.front_side() ? p.ior : 1.0f);
    r = gltf_chi_square(b, bins, t, seed + 1);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << what << ", transmission: " << r.message;
}

// sample()'s weights against evaluate(), per region ("band") of the outgoing direction:
// the mean of f cos / pdf (green) over sample()'s draws that land in a band must equal the
// integral of evaluate()'s f cos over it (uniform directions on the sphere). An estimator
// built from sample() then sees what evaluate() says is there; a pdf below the density
// sample() draws with (a lobe's pdf left out where sample() can pick it) shows up as a band
// that weighs too much. Delta samples are left out (evaluate() has no delta lobes).
inline constexpr int kBands = 4;
using BandOf = std::function<int(Vec3f)>;  // world direction -> band in [0, kBands)

struct BandSums {
    std::array<double, kBands> mean{}, error{};
};

inline BandSums finish_bands(const std::array<double, kBands>& sum, const std::array<double, kBands>& sum2, double n) {
    BandSums b;
    for (int i = 0; i < kBands; ++i) {
        b.mean[size_t(i)] = sum[size_t(i)] / n;
        b.error[size_t(i)] = std::sqrt(std::max(0.0, sum2[size_t(i)] / n - b.mean[size_t(i)] * b.mean[size_t(i)]) / n);
    }
    return b;
}

template <class B>
inline BandSums sampled_bands(const B& b, const BandOf& band_of, int n, uint64_t seed) {
    UniformRng rng(seed);
    std::array<double, kBands> sum{}, sum2{};
    for (int i = 0; i < n; ++i) {
        const BsdfSample s = b.sample(rng(), rng(), rng());
        if (is_black(s.factor) || s.specular) continue;
        const double w = double(s.factor.y) * s.cos_out / s.pdf_w;
        const size_t k = size_t(band_of(s.wi_world));
        sum[k] += w;
        sum2[k] += w * w;
    }
    return finish_bands(sum, sum2, n);
}

template <class B>
inline BandSums integrated_bands(const B& b, const BandOf& band_of, int n, uint64_t seed) {
    UniformRng rng(seed);
    std::array<double, kBands> sum{}, sum2{};
    for (int i = 0; i < n; ++i) {
        const Vec3f w = sample_uniform_sphere(rng(), rng());
        const BsdfEval e = b.evaluate(w);
        const double v = double(e.factor.y) * e.cos_out / uniform_sphere_pdf_w();
        const size_t k = size_t(band_of(w));
        sum[k] += v;
        sum2[k] += v * v;
    }
    return finish_bands(sum, sum2, n);
}

// n draws each way (seeds seed, seed + 1); fails a band more than 5 standard errors off.
template <class B>
inline void expect_bands_match(const B& b, const BandOf& band_of, int n, uint64_t seed, const std::string& what) {
    const BandSums s = sampled_bands(b, band_of, n, seed), q = integrated_bands(b, band_of, n, seed + 1);
    for (size_t k = 0; k < size_t(kBands); ++k) {
        const double se = std::hypot(s.error[k], q.error[k]);
        std::printf("%s, band %zu: sampled %.4f +- %.4f, evaluate() %.4f +- %.4f (%+.1f standard errors)\n",
                    what.c_str(), k, s.mean[k], s.error[k], q.mean[k], q.error[k],
                    se > 0.0 ? (s.mean[k] - q.mean[k]) / se : 0.0);
        EXPECT_LE(std::fabs(s.mean[k] - q.mean[k]), 5.0 * se + 1e-6) << what << ", band " << k;
    }
}

struct Albedo {
    double mean, error;
};

// Mean sample weight (factor cos / pdf; delta lobes included): the directional albedo.
template <class B>
inline Albedo sampled_albedo(const B& b, int n, uint64_t seed, int channel = 1) {
    UniformRng rng(seed);
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; ++i) {
        BsdfSample s = b.sample(rng(), rng(), rng());
        double w = is_black(s.factor) ? 0.0 : double(s.factor[channel]) * s.cos_out / s.pdf_w;
        sum += w;
        sum2 += w * w;
    }
    double mean = sum / n;
    return {mean, std::sqrt(std::max(0.0, sum2 / n - mean * mean) / n)};
}

// White furnace (light paths: no radiance scaling), importance sampling against quadrature
// of evaluate(). White glass (thin or volume) and a white dielectric with Burley's
// coupling keep at most all the energy; the spec's coupling F(V . H) gains energy at

}  // namespace wf::materials_test
