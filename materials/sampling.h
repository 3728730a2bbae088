// Warping functions from [0,1)^2 to directions and points, with their densities.
// They reproduce SmallVCM's mappings (utils.hxx) so that random-number-for-random-number
// the same directions come out; only the constants' spelling differs.
//
// Conventions:
// - Local directions are unit vectors in a frame whose +z is the lobe axis
//   (the surface normal, or the mirror direction for the Phong lobe).
// - "_w" densities are per unit solid angle (1/sr), "_a" densities per unit area (1/m^2).
// - Every function is float only and safe in CUDA kernels (WF_HD, no allocation).
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// |cos| below this is treated as grazing: the hit or the sampled direction is rejected
// (SmallVCM EPS_COSINE).
inline constexpr float kEpsCosine = 1e-6f;

// ---- Cosine-weighted hemisphere around +z ---------------------------------------------
// phi = 2 pi u0, cos theta = sqrt(u1); density cos theta / pi.
WF_HD_INLINE Vec3f sample_cos_hemisphere(float u0, float u1) {
    float phi = 2.0f * kPi * u0;
    float sin_theta = sqrtf(fmaxf(0.0f, 1.0f - u1));
    return {cosf(phi) * sin_theta, sinf(phi) * sin_theta, sqrtf(u1)};
}

// Density of sample_cos_hemisphere for a direction with cosine `cos_theta` to the axis
// (zero below the hemisphere).
WF_HD_INLINE float cos_hemisphere_pdf_w(float cos_theta) { return fmaxf(0.0f, cos_theta) * kInvPi; }

// ---- Power-cosine lobe around +z (Phong) ------------------------------------------------
// cos theta = u1^(1/(n+1)); density (n+1)/(2 pi) cos^n theta over the hemisphere.
WF_HD_INLINE Vec3f sample_power_cos_hemisphere(float u0, float u1, float exponent) {
    float phi = 2.0f * kPi * u0;
    float cos_theta = powf(u1, 1.0f / (exponent + 1.0f));
    float sin_theta = sqrtf(fmaxf(0.0f, 1.0f - cos_theta * cos_theta));
    return {cosf(phi) * sin_theta, sinf(phi) * sin_theta, cos_theta};
}

WF_HD_INLINE float power_cos_hemisphere_pdf_w(float cos_theta, float exponent) {
    return (exponent + 1.0f) * powf(fmaxf(0.0f, cos_theta), exponent) * (0.5f * kInvPi);
}

// ---- Uniform sphere -------------------------------------------------------------------
// phi = 2 pi u0, z = 1 - 2 u1; density 1/(4 pi).
WF_HD_INLINE Vec3f sample_uniform_sphere(float u0, float u1) {
    float phi = 2.0f * kPi * u0;
    float r = 2.0f * sqrtf(fmaxf(0.0f, u1 - u1 * u1));
    return {cosf(phi) * r, sinf(phi) * r, 1.0f - 2.0f * u1};
}

WF_HD_INLINE float uniform_sphere_pdf_w() { return 0.25f * kInvPi; }

// ---- Uniform cone around +z ------------------------------------------------------------
// Directions within angle theta_max of +z, uniform in solid angle: phi = 2 pi u0,
// 1 - cos theta = u1 (1 - cos theta_max). 1 - cos theta is formed directly (not as a
// difference of cosines near 1) so that narrow cones keep their sin theta.
WF_HD_INLINE Vec3f sample_uniform_cone(float u0, float u1, float cos_theta_max) {
    float phi = 2.0f * kPi * u0;
    float one_minus_cos = u1 * (1.0f - cos_theta_max);
    float sin_theta = sqrtf(fmaxf(0.0f, one_minus_cos * (2.0f - one_minus_cos)));
    return {cosf(phi) * sin_theta, sinf(phi) * sin_theta, 1.0f - one_minus_cos};
}

// Density of sample_uniform_cone inside the cone: 1 / (2 pi (1 - cos theta_max)), the
// inverse of the cone's solid angle. The caller decides whether a direction is inside.
WF_HD_INLINE float uniform_cone_pdf_w(float cos_theta_max) {
    return 1.0f / (2.0f * kPi * (1.0f - cos_theta_max));
}

// ---- Unit disc (Shirley-Chiu concentric mapping) --------------------------------------
// Uniform over the unit disc; density 1/pi per unit area.
WF_HD_INLINE Vec2f sample_concentric_disk(float u0, float u1) {
    float a = 2.0f * u0 - 1.0f;
    float b = 2.0f * u1 - 1.0f;
    float r, phi;
    if (a > -b) {
        if (a > b) {  // right wedge, |a| > |b|
            r = a;
            phi = 0.25f * kPi * (b / a);
        } else {      // top wedge, |b| >= |a|
            r = b;
            phi = 0.25f * kPi * (2.0f - a / b);
        }
    } else {
        if (a < b) {  // left wedge, |a| >= |b|
            r = -a;
            phi = 0.25f * kPi * (4.0f + b / a);
        } else {      // bottom wedge, |b| >= |a|; a = b = 0 lands here
            r = -b;
            phi = (b != 0.0f) ? 0.25f * kPi * (6.0f - a / b) : 0.0f;
        }
    }
    return {r * cosf(phi), r * sinf(phi)};
}

WF_HD_INLINE float concentric_disk_pdf_a() { return kInvPi; }

// ---- Uniform triangle -----------------------------------------------------------------
// Barycentrics (b1, b2) of a uniform point p = p0 + b1 (p1 - p0) + b2 (p2 - p0):
// b1 = 1 - sqrt(u0), b2 = u1 sqrt(u0) (SmallVCM's mapping). Density 1/area.
WF_HD_INLINE Vec2f sample_uniform_triangle(float u0, float u1) {
    float s = sqrtf(u0);
    return {1.0f - s, u1 * s};
}

// ---- Measure conversion -----------------------------------------------------------------
// pdf_w = pdf_a * dist^2 / |cos|, where cos is taken at the point whose area measure pdf_a is in.
WF_HD_INLINE float pdf_area_to_solid_angle(float pdf_a, float dist, float cos_there) {
    return pdf_a * (dist * dist) / fabsf(cos_there);
}

// pdf_a = pdf_w * |cos| / dist^2.
WF_HD_INLINE float pdf_solid_angle_to_area(float pdf_w, float dist, float cos_there) {
    return pdf_w * fabsf(cos_there) / (dist * dist);
}

// ---- Multiple importance sampling -------------------------------------------------------
// SmallVCM uses the balance heuristic (power 1). mis_power() is the single place where a
// power heuristic would be switched in, so partial MIS weights built from it stay consistent.
WF_HD_INLINE float mis_power(float pdf) { return pdf; }

// Weight of the strategy that produced the sample: w = p_s / (p_s + p_o).
WF_HD_INLINE float mis_balance(float pdf_sampled, float pdf_other) {
    float a = mis_power(pdf_sampled);
    float b = mis_power(pdf_other);
    return a / (a + b);
}

}  // namespace wf
