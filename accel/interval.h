// Float interval arithmetic: every operation widens its result by one ulp on
// each side, so the exact real result always lies inside [lo, hi]. The sphere
// test uses it to accept a root only when its sign is certain (pbrt-v4's
// approach). Rounding to nearest (or a fused multiply-add, which rounds once)
// is within an ulp of the exact value, so stepping one ulp outward is enough.
#pragma once

#include <cmath>

#include "accel/float_error.h"
#include "engine/hd.h"

namespace wf {

struct Interval {
    float lo, hi;

    WF_HD constexpr Interval() : lo(0.0f), hi(0.0f) {}
    WF_HD constexpr explicit Interval(float v) : lo(v), hi(v) {}  // an exact value
    WF_HD constexpr Interval(float l, float h) : lo(l), hi(h) {}

    WF_HD float midpoint() const { return 0.5f * (lo + hi); }
    WF_HD bool contains_zero() const { return lo <= 0.0f && hi >= 0.0f; }
};

WF_HD_INLINE Interval operator+(Interval a, Interval b) {
    return {next_float_down(a.lo + b.lo), next_float_up(a.hi + b.hi)};
}

WF_HD_INLINE Interval operator-(Interval a, Interval b) {
    return {next_float_down(a.lo - b.hi), next_float_up(a.hi - b.lo)};
}

WF_HD_INLINE Interval operator-(Interval a) { return {-a.hi, -a.lo}; }

WF_HD_INLINE Interval operator*(Interval a, Interval b) {
    float p0 = a.lo * b.lo, p1 = a.hi * b.lo, p2 = a.lo * b.hi, p3 = a.hi * b.hi;
    return {next_float_down(fminf(fminf(p0, p1), fminf(p2, p3))),
            next_float_up(fmaxf(fmaxf(p0, p1), fmaxf(p2, p3)))};
}

// Scaling by a power of two is exact (barring overflow and denormals).
WF_HD_INLINE Interval scale_pow2(Interval a, float s) {
    return s >= 0.0f ? Interval(a.lo * s, a.hi * s) : Interval(a.hi * s, a.lo * s);
}

WF_HD_INLINE Interval operator/(Interval a, Interval b) {
    // A divisor interval that straddles zero leaves the quotient unbounded.
    if (b.contains_zero()) return {-INFINITY, INFINITY};
    float q0 = a.lo / b.lo, q1 = a.hi / b.lo, q2 = a.lo / b.hi, q3 = a.hi / b.hi;
    return {next_float_down(fminf(fminf(q0, q1), fminf(q2, q3))),
            next_float_up(fmaxf(fmaxf(q0, q1), fmaxf(q2, q3)))};
}

WF_HD_INLINE Interval sqr(Interval a) {
    float l2 = a.lo * a.lo, h2 = a.hi * a.hi;
    if (a.lo >= 0.0f) return {next_float_down(l2), next_float_up(h2)};
    if (a.hi <= 0.0f) return {next_float_down(h2), next_float_up(l2)};
    return {0.0f, next_float_up(fmaxf(l2, h2))};
}

// Square root of the non-negative part (callers reject negative intervals first).
// Named apart from sqrt so that unqualified sqrt(float) calls in wf stay unambiguous.
WF_HD_INLINE Interval interval_sqrt(Interval a) {
    return {fmaxf(0.0f, next_float_down(std::sqrt(fmaxf(0.0f, a.lo)))),
            next_float_up(std::sqrt(fmaxf(0.0f, a.hi)))};
}

}  // namespace wf
