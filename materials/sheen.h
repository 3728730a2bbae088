// KHR_materials_sheen's lobe: the "Charlie" distribution and its visibility term from
// Estevez & Kulla, "Production Friendly Microfacet Sheen BRDF" (SIGGRAPH 2017), as the
// extension's implementation notes write them (alpha = sheenRoughness, not squared), and
// the lobe's directional albedo E that the extension's albedo scaling needs. Host and
// device code. The Ashikhmin visibility the notes offer as a cheaper option is not used:
// the extension says it breaks energy conservation under the albedo scaling.
//
//   D(h)     = (2 + 1/alpha) sin(theta_h)^(1/alpha) / (2 pi)
//   Lambda   = exp(l(|cos|)) below cos 0.5, exp(2 l(0.5) - l(1 - |cos|)) above (the paper's fit)
//   f_sheen  = sheenColor D(h) / ((1 + Lambda(V) + Lambda(L)) 4 |N.V| |N.L|)     (F = 1)
// f_sheen is symmetric in V and L (reciprocal).
//
// E(mu, alpha) = integral of f_sheen(sheenColor = 1) |N.L| dL over the hemisphere. It is
// a table (materials/sheen_albedo_table.inc): 12 roughnesses from kSheenMinRoughness to 1
// by 17 values of sqrt(mu) from 0 to 1, read bilinearly. The values were integrated offline
// in double precision (midpoint rule, 1000 x 1000 points in (sqrt(cos theta_L), phi));
// tests/materials/gltf_layers_test.cpp integrates sheen_lobe() again and checks the table.
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// Sheen roughness is clamped to this (three.js and others clamp at 0.07 as well): at 0
// the Charlie lobe is a delta at grazing angles, and the glTF default roughness is 0.
inline constexpr float kSheenMinRoughness = 0.07f;

WF_HD_INLINE float sheen_alpha(float roughness) { return clampf(roughness, kSheenMinRoughness, 1.0f); }

// Charlie distribution D(h) for cos theta_h = n_h (only the upper hemisphere).
WF_HD_INLINE float sheen_distribution(float n_h, float alpha) {
    const float inv = 1.0f / alpha;
    const float sin2 = fmaxf(0.0f, 1.0f - n_h * n_h);
    return (2.0f + inv) * powf(sin2, 0.5f * inv) * (0.5f * kInvPi);
}

// Estevez & Kulla's fit l(x) of the Charlie Lambda, interpolated in (1 - alpha)^2.
WF_HD_INLINE float sheen_l(float x, float alpha) {
    const float t = (1.0f - alpha) * (1.0f - alpha);
    const float a = 21.5473f + (25.3245f - 21.5473f) * t;
    const float b = 3.82987f + (3.32435f - 3.82987f) * t;
    const float c = 0.19823f + (0.16801f - 0.19823f) * t;
    const float d = -1.97760f + (-1.27393f + 1.97760f) * t;
    const float e = -4.32054f + (-4.85967f + 4.32054f) * t;
    return a / (1.0f + b * powf(x, c)) + d * x + e;
}

WF_HD_INLINE float sheen_lambda(float cos_theta, float alpha) {
    const float c = fminf(fabsf(cos_theta), 1.0f);  // a unit vector's z may round above 1: powf(< 0) is NaN
    return c < 0.5f ? expf(sheen_l(c, alpha)) : expf(2.0f * sheen_l(0.5f, alpha) - sheen_l(1.0f - c, alpha));
}

// f_sheen / sheenColor for local directions wo, wi above the surface (z > 0).
WF_HD_INLINE float sheen_lobe(Vec3f wo, Vec3f wi, float alpha) {
    const Vec3f h = wo + wi;
    const float len2 = length_squared(h);
    if (!(len2 > 0.0f) || !(wo.z > 0.0f) || !(wi.z > 0.0f)) return 0.0f;
    const float n_h = h.z / sqrtf(len2);
    const float vis = 1.0f / ((1.0f + sheen_lambda(wo.z, alpha) + sheen_lambda(wi.z, alpha)) * (4.0f * wo.z * wi.z));
    return sheen_distribution(n_h, alpha) * vis;
}

// The table of E (see the top): rows alpha = kSheenMinRoughness + j (1 - kSheenMinRoughness) / 11,
// j = 0..11; columns mu = (i / 16)^2, i = 0..16 (mu = 1e-4 for i = 0). One copy in
// constant memory for the device, one for the host.
inline constexpr int kSheenAlbedoRoughnesses = 12, kSheenAlbedoCosines = 17;
#if defined(__CUDACC__)
static __constant__ float kSheenAlbedoDevice[kSheenAlbedoRoughnesses * kSheenAlbedoCosines] = {
#include "materials/sheen_albedo_table.inc"
};
#endif
inline constexpr float kSheenAlbedoHost[kSheenAlbedoRoughnesses * kSheenAlbedoCosines] = {
#include "materials/sheen_albedo_table.inc"
};

WF_HD_INLINE float sheen_albedo_entry(int k) {
#if WF_DEVICE_CODE
    return kSheenAlbedoDevice[k];
#else
    return kSheenAlbedoHost[k];
#endif
}

// Directional albedo E(|cos theta|, alpha) of the lobe with sheenColor 1 (see the top),
// bilinear in (sqrt(mu), alpha).
WF_HD_INLINE float sheen_albedo(float cos_theta, float alpha) {
    const int nc = kSheenAlbedoCosines, nr = kSheenAlbedoRoughnesses;
    const float x = sqrtf(clampf(fabsf(cos_theta), 0.0f, 1.0f)) * float(nc - 1);
    const float y = (clampf(alpha, kSheenMinRoughness, 1.0f) - kSheenMinRoughness) * (float(nr - 1) / (1.0f - kSheenMinRoughness));
    const int i = x < float(nc - 2) ? int(x) : nc - 2;
    const int j = y < float(nr - 2) ? int(y) : nr - 2;
    const float fx = x - float(i), fy = y - float(j);
    const int k0 = j * nc + i, k1 = k0 + nc;
    const float a = sheen_albedo_entry(k0) + (sheen_albedo_entry(k0 + 1) - sheen_albedo_entry(k0)) * fx;
    const float b = sheen_albedo_entry(k1) + (sheen_albedo_entry(k1 + 1) - sheen_albedo_entry(k1)) * fx;
    return a + (b - a) * fy;
}

}  // namespace wf
