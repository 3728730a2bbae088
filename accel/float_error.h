// Floating-point error tools for robust intersection (pbrt-v4, section 6.8):
// Higham's gamma bounds, ulp stepping and an accurately rounded a*b - c*d.
// Used by the primitive tests and the ray-origin offset; they assume IEEE
// round-to-nearest float arithmetic (no fast-math).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/hd.h"

namespace wf {

// Unit roundoff of float (half an ulp of 1).
inline constexpr float kFloatUnitRoundoff = 0.5f * 1.1920928955078125e-7f;

// gamma_n = n u / (1 - n u): bound on the relative error of n chained roundings.
// (Not called `gamma` so it cannot collide with libm's gamma or a tone-mapping gamma.)
WF_HD_INLINE constexpr float rounding_gamma(int n) {
    return (float(n) * kFloatUnitRoundoff) / (1.0f - float(n) * kFloatUnitRoundoff);
}

WF_HD_INLINE uint32_t float_to_bits(float f) {
#if WF_DEVICE_CODE
    return __float_as_uint(f);
#else
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}

WF_HD_INLINE float bits_to_float(uint32_t u) {
#if WF_DEVICE_CODE
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
#endif
}

// Next representable float above v (+inf and NaN stay as they are).
WF_HD_INLINE float next_float_up(float v) {
    if (std::isinf(v) && v > 0.0f) return v;
    if (v == 0.0f) v = 0.0f;  // -0 -> +0, so both step to the smallest positive denormal
    uint32_t u = float_to_bits(v);
    u = v >= 0.0f ? u + 1u : u - 1u;
    return bits_to_float(u);
}

// Next representable float below v (-inf and NaN stay as they are).
WF_HD_INLINE float next_float_down(float v) {
    if (std::isinf(v) && v < 0.0f) return v;
    if (v == 0.0f) v = -0.0f;
    uint32_t u = float_to_bits(v);
    u = v > 0.0f ? u - 1u : u + 1u;
    return bits_to_float(u);
}

// a*b - c*d with relative error below 2 ulp (Kahan's algorithm, Jeannerod et
// al. 2013). Its sign is always exact (and it is exactly 0 when a*b == c*d),
// which the watertight triangle test relies on: a shared edge gets opposite
// signs in its two triangles even when the compiler contracts to FMA.
WF_HD_INLINE float difference_of_products(float a, float b, float c, float d) {
    float cd = c * d;
    float err = fmaf(-c, d, cd);     // exact rounding error of c*d
    float dop = fmaf(a, b, -cd);
    return dop + err;
}

}  // namespace wf
