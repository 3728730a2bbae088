// Small vector math shared by host and device code.
// Conventions: right-handed coordinates, angles in radians, radiance in W/sr/m^2.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/hd.h"

namespace wf {

inline constexpr float kPi = 3.14159265358979323846f;
inline constexpr float kInvPi = 1.0f / kPi;
inline constexpr float kInfinity = 1e30f;  // "no hit yet" distance; finite to stay clear of inf arithmetic

struct Vec2f {
    float x = 0, y = 0;
};

// Four floats: a tangent with its bitangent sign (w = +-1), an RGBA colour.
struct Vec4f {
    float x = 0, y = 0, z = 0, w = 0;
};

struct Vec3f {
    float x = 0, y = 0, z = 0;
    WF_HD constexpr Vec3f() {}
    WF_HD constexpr Vec3f(float a, float b, float c) : x(a), y(b), z(c) {}
    WF_HD constexpr explicit Vec3f(float s) : x(s), y(s), z(s) {}
    WF_HD float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    WF_HD float& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};

WF_HD_INLINE Vec3f operator+(Vec3f a, Vec3f b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
WF_HD_INLINE Vec3f operator-(Vec3f a, Vec3f b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
WF_HD_INLINE Vec3f operator-(Vec3f a) { return {-a.x, -a.y, -a.z}; }
WF_HD_INLINE Vec3f operator*(Vec3f a, Vec3f b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
WF_HD_INLINE Vec3f operator/(Vec3f a, Vec3f b) { return {a.x / b.x, a.y / b.y, a.z / b.z}; }
WF_HD_INLINE Vec3f operator*(Vec3f a, float s) { return {a.x * s, a.y * s, a.z * s}; }
WF_HD_INLINE Vec3f operator*(float s, Vec3f a) { return {a.x * s, a.y * s, a.z * s}; }
WF_HD_INLINE Vec3f operator/(Vec3f a, float s) { return a * (1.0f / s); }
WF_HD_INLINE Vec3f& operator+=(Vec3f& a, Vec3f b) { return a = a + b; }
WF_HD_INLINE Vec3f& operator-=(Vec3f& a, Vec3f b) { return a = a - b; }
WF_HD_INLINE Vec3f& operator*=(Vec3f& a, Vec3f b) { return a = a * b; }
WF_HD_INLINE Vec3f& operator*=(Vec3f& a, float s) { return a = a * s; }

WF_HD_INLINE float dot(Vec3f a, Vec3f b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
WF_HD_INLINE Vec3f cross(Vec3f a, Vec3f b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
WF_HD_INLINE float length_squared(Vec3f a) { return dot(a, a); }
WF_HD_INLINE float length(Vec3f a) { return std::sqrt(dot(a, a)); }
WF_HD_INLINE Vec3f normalize(Vec3f a) { return a * (1.0f / length(a)); }
WF_HD_INLINE Vec3f abs(Vec3f a) { return {std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)}; }
// fminf and fmaxf as C defines them (a NaN operand loses to a number), bit-equal to
// x86-64 glibc's on the host (on ties, signed zeros included, the second operand), but that a
// signalling NaN loses like a quiet one, as on the GPU (arithmetic never makes one). On the
// GPU each is one instruction; g++ cannot inline the library's without
// -ffinite-math-only and calls libm for every component, which made HostScene::bounds
// take 42 ms on a 1M-triangle mesh (8 ms inlined), several times per scene load.
WF_HD_INLINE float fmin_c(float a, float b) {
#if WF_DEVICE_CODE
    return fminf(a, b);
#else
    return (a < b || b != b) ? a : b;
#endif
}
WF_HD_INLINE float fmax_c(float a, float b) {
#if WF_DEVICE_CODE
    return fmaxf(a, b);
#else
    return (a > b || b != b) ? a : b;
#endif
}

WF_HD_INLINE Vec3f min(Vec3f a, Vec3f b) { return {fmin_c(a.x, b.x), fmin_c(a.y, b.y), fmin_c(a.z, b.z)}; }
WF_HD_INLINE Vec3f max(Vec3f a, Vec3f b) { return {fmax_c(a.x, b.x), fmax_c(a.y, b.y), fmax_c(a.z, b.z)}; }
WF_HD_INLINE float max_component(Vec3f a) { return fmax_c(a.x, fmax_c(a.y, a.z)); }
WF_HD_INLINE float min_component(Vec3f a) { return fmin_c(a.x, fmin_c(a.y, a.z)); }
WF_HD_INLINE bool is_black(Vec3f a) { return a.x == 0.0f && a.y == 0.0f && a.z == 0.0f; }
WF_HD_INLINE bool is_finite(Vec3f a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }
WF_HD_INLINE Vec3f reflect(Vec3f dir, Vec3f n) { return dir - 2.0f * dot(dir, n) * n; }

// Luminance with the sRGB / Rec.709 primaries (also SmallVCM's lobe-selection weights).
WF_HD_INLINE float luminance(Vec3f c) { return 0.212671f * c.x + 0.715160f * c.y + 0.072169f * c.z; }

WF_HD_INLINE float clampf(float v, float lo, float hi) { return fmin_c(fmax_c(v, lo), hi); }
WF_HD_INLINE float sqr(float v) { return v * v; }

// Orthonormal frame around a unit vector z (Duff et al. 2017, branchless ONB).
struct Frame {
    Vec3f x, y, z;
    WF_HD static Frame from_z(Vec3f n) {
        Frame f;
        float sign = std::copysign(1.0f, n.z);
        float a = -1.0f / (sign + n.z);
        float b = n.x * n.y * a;
        f.x = {1.0f + sign * n.x * n.x * a, sign * b, -sign * n.x};
        f.y = {b, sign + n.y * n.y * a, -n.y};
        f.z = n;
        return f;
    }
    WF_HD Vec3f to_local(Vec3f v) const { return {dot(v, x), dot(v, y), dot(v, z)}; }
    WF_HD Vec3f to_world(Vec3f v) const { return x * v.x + y * v.y + z * v.z; }
};

struct Aabb {
    Vec3f lo{kInfinity, kInfinity, kInfinity};
    Vec3f hi{-kInfinity, -kInfinity, -kInfinity};
    WF_HD void extend(Vec3f p) { lo = min(lo, p); hi = max(hi, p); }
    WF_HD void extend(const Aabb& b) { lo = min(lo, b.lo); hi = max(hi, b.hi); }
    WF_HD Vec3f centroid() const { return (lo + hi) * 0.5f; }
    WF_HD Vec3f extent() const { return hi - lo; }
    WF_HD bool empty() const { return lo.x > hi.x; }
    WF_HD float surface_area() const {
        if (empty()) return 0.0f;
        Vec3f d = extent();
        return 2.0f * (d.x * d.y + d.y * d.z + d.z * d.x);
    }
};

struct Ray {
    Vec3f origin;
    Vec3f dir;  // unit length
};

}  // namespace wf
