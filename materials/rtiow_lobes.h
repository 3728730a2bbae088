// The scattering of "Ray Tracing in One Weekend" (Shirley, 2016 edition) as lobes with
// exact densities, so that a path tracer with next-event estimation and MIS converges to
// the image the book's renderer (BSDF sampling only) produces.
//
// The book scatters along axis + radius * b, with b uniform in the unit ball and a unit
// axis: the normal (lambertian, radius 1) or the mirror direction (metal, radius fuzz).
// Whatever direction comes out, the sample's weight is the albedo (metal absorbs the
// samples that point below the surface). As a BSDF that is f(w) cos(w) = albedo p(w), p
// the density of the direction, which these functions give.
//
// Density of the direction w of axis + f b (|axis| = 1, 0 < f <= 1): the segment of the
// ray s w (s >= 0) inside the ball of radius f around axis runs over s in [c - q, c + q],
// c = dot(w, axis), q = sqrt(f^2 - sin^2), sin the sine of the angle between w and axis.
// Integrating s^2 ds over it and dividing by the ball's volume 4/3 pi f^3:
//   p(w) = ((c + q)^3 - (c - q)^3) / (4 pi f^3) = q (3 c^2 + q^2) / (2 pi f^3),
// zero when the ray misses the ball (sin > f). c >= q always holds since
// c^2 - q^2 = 1 - f^2 >= 0. For f = 1 (the lambertian) q = c, and p = 2 c^3 / pi: the
// book's "lambertian" is a cos^3 lobe, not Lambert's cos.
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"
#include "materials/sampling.h"

namespace wf {

// Smallest fuzz a metal may have (0 itself is a mirror). The density above peaks at
// 3 / (2 pi f^2); with f = 1e-4 that is 5e7, and the float sine of an angle that small is
// still good to 0.1%.
inline constexpr float kMinRtiowFuzz = 1e-4f;

// ---- Lambertian: cos^3 about the normal (+z) --------------------------------------------
WF_HD_INLINE float rtiow_lambertian_pdf_w(float cos_theta) {
    return cos_theta > 0.0f ? 2.0f * kInvPi * cos_theta * cos_theta * cos_theta : 0.0f;
}
// Same distribution as normal + a point in the unit ball (cos theta = u1^(1/4)).
WF_HD_INLINE Vec3f sample_rtiow_lambertian(float u0, float u1) { return sample_power_cos_hemisphere(u0, u1, 3.0f); }

// ---- Metal: ball of radius `fuzz` about the unit mirror direction `axis` -----------------
WF_HD_INLINE float rtiow_fuzz_pdf_w(Vec3f w, Vec3f axis, float fuzz) {
    float c = dot(w, axis);
    if (!(c > 0.0f)) return 0.0f;
    // sin^2 from the cross product, which keeps its precision at small angles (1 - c^2 does not).
    float sin2 = length_squared(cross(w, axis));
    float sin_theta = sqrtf(sin2);
    float q2 = (fuzz - sin_theta) * (fuzz + sin_theta);
    if (!(q2 > 0.0f)) return 0.0f;
    float q = sqrtf(q2);
    return q * (3.0f * c * c + q2) / (2.0f * kPi * fuzz * fuzz * fuzz);
}

// axis + fuzz * (a point uniform in the unit ball: a uniform direction from (u0, u1) at
// radius u2^(1/3)), normalised.
WF_HD_INLINE Vec3f sample_rtiow_fuzz(Vec3f axis, float fuzz, float u0, float u1, float u2) {
    Vec3f b = sample_uniform_sphere(u0, u1) * cbrtf(u2);
    return normalize(axis + b * fuzz);
}

// ---- Dielectric: Schlick's reflectance ----------------------------------------------------
// Same contract as fresnel_dielectric (materials/bsdf.h): cos_inc < 0 means the incident
// direction is inside the medium of index `ior` (> 0). Total internal reflection returns 1
// on either side (outside too when ior < 1, an air bubble). The cosine Schlick needs is
// the one on the IOR-1 side: the incident one outside, the transmitted one inside, as
// the book computes it.
WF_HD_INLINE float fresnel_schlick(float cos_inc, float ior) {
    const bool inside = cos_inc < 0.0f;
    const float eta = inside ? ior : 1.0f / ior;  // eta_incident / eta_transmitted
    const float sin_t2 = eta * eta * (1.0f - cos_inc * cos_inc);
    if (sin_t2 >= 1.0f) return 1.0f;
    const float cos_out = inside ? sqrtf(1.0f - sin_t2) : cos_inc;
    float r0 = (1.0f - ior) / (1.0f + ior);
    r0 *= r0;
    float m = 1.0f - cos_out;
    float m2 = m * m;
    return r0 + (1.0f - r0) * m2 * m2 * m;
}

}  // namespace wf
