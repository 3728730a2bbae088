// Helpers of the glTF BSDF tests (gltf_bsdf_test.cpp, gltf_layers_test.cpp): parameter
// sets, a BSDF lit from a given angle, the chi-square fit of sample() against evaluate()'s
// pdf, and the sampled directional albedo.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "materials/gltf_bsdf.h"
#include "materials/microfacet.h"
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

inline ChiSquareResult gltf_chi_square(const GltfBsdf& b, const RingBinning& bins, const DirectionMap& map, uint64_t seed) {
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

struct Albedo {
    double mean, error;
};

// Mean sample weight (factor cos / pdf; delta lobes included): the directional albedo.
inline Albedo sampled_albedo(const GltfBsdf& b, int n, uint64_t seed, int channel = 1) {
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
