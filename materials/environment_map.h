// Equirectangular (latitude-longitude) environment maps: the mapping between texels and
// directions, radiance lookup, and importance sampling of directions from a piecewise-
// constant 2D distribution over the image (pbrt's Distribution2D / PiecewiseConstant2D,
// "Physically Based Rendering", 3rd ed., 13.6.7 and 14.2.4). The distribution is built on
// the backend by materials/environment_map_build.h; kernels read it through
// EnvironmentMapView (materials/emitters.h, EmitterContext::environment_map).
//
// Mapping (Blender's equirectangular world mapping; docs/scene-format.md): a map has a
// frame of three unit world vectors, `up`, `centre` and `side = cross(centre, up)`. Texel
// coordinates (u, v) in [0, 1)^2, u to the right, v down (row 0 at the top):
//   theta = pi v                (polar angle from up: v = 0 looks along up, v = 1 down)
//   phi   = 2 pi (u - 1/2)      (azimuth from centre toward side)
//   w = sin(theta) cos(phi) centre + cos(theta) up + sin(theta) sin(phi) side
// so the image centre (u = 1/2) looks along `centre`, u = 3/4 along `side`, u = 1/4
// along -side, and the left and right edges along -centre. Seen from inside, the image
// is not mirrored (u grows to the right of a viewer looking at `centre` with `up` up).
// With up = +z and no rotation, centre = +x and side = -y: Blender's own mapping.
//
// Sampling: texel (x, y) has weight luminance(texel) * sin(theta at the row's centre);
// a row is picked from the marginal cdf, then a column from the row's conditional cdf,
// each continuously within its cell. The pdf in (u, v) is the product of the picked
// cells' cdf steps times (width, height), the actual density of the float cdfs, so the
// pdf of every direction matches what sampling does exactly (a cell whose step rounds
// to 0 is never sampled and has pdf 0). Per unit solid angle: pdf_uv / (2 pi^2 sin theta).
// Lookups are nearest-texel, the same texel sampling picked.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// The map's orientation: unit, orthogonal world vectors (see the top of this file).
struct EnvironmentFrame {
    Vec3f centre{1.0f, 0.0f, 0.0f};  // u = 1/2, v = 1/2
    Vec3f up{0.0f, 1.0f, 0.0f};      // v = 0
    Vec3f side{0.0f, 0.0f, 1.0f};    // u = 3/4, v = 1/2; cross(centre, up)
};

// A map and its distribution in backend memory, passed by value to kernels.
struct EnvironmentMapView {
    const Vec3f* texels = nullptr;           // width * height, row-major, row 0 at the top; null: no map
    const float* conditional_cdf = nullptr;  // height rows of width + 1: row y's cdf over x, [0] = 0, [width] = 1
    const float* marginal_cdf = nullptr;     // height + 1: the cdf over rows, [0] = 0, [height] = 1
    const double* total_weight = nullptr;    // one value: the sum of all texels' sampling weights (light power)
    uint32_t width = 0, height = 0;
    EnvironmentFrame frame;

    WF_HD bool valid() const { return texels != nullptr; }
};

// The frame for `up` (unit) turned by `degrees` about it, right-handed: at 0 the centre
// is +x made perpendicular to up (-z when up is +-x), and a positive angle turns it
// toward -side. Multiples of 90 degrees are exact. Host only (the loader's values).
inline EnvironmentFrame environment_frame(Vec3f up, float degrees) {
    Vec3f reference = std::fabs(up.x) > 0.9999f ? Vec3f(0.0f, 0.0f, -1.0f) : Vec3f(1.0f, 0.0f, 0.0f);
    Vec3f centre = normalize(reference - dot(reference, up) * up);
    Vec3f side = cross(centre, up);
    double turns = std::fmod(double(degrees), 360.0);
    if (turns < 0.0) turns += 360.0;
    float c = 0.0f, s = 0.0f;
    if (turns == 0.0) c = 1.0f;
    else if (turns == 90.0) s = 1.0f;
    else if (turns == 180.0) c = -1.0f;
    else if (turns == 270.0) s = -1.0f;
    else {
        const double radians = turns * 3.14159265358979323846 / 180.0;
        c = float(std::cos(radians));
        s = float(std::sin(radians));
    }
    EnvironmentFrame f;
    f.up = up;
    f.centre = c * centre - s * side;
    f.side = c * side + s * centre;
    return f;
}

// Sampling weight of a texel in a row whose centre has polar angle theta; in double so
// that no finite texel overflows it.
WF_HD_INLINE double environment_texel_weight(Vec3f texel, float sin_theta) {
    return (0.212671 * double(texel.x) + 0.715160 * double(texel.y) + 0.072169 * double(texel.z)) * double(sin_theta);
}

// sin(theta) at the centre of row y of `height`.
WF_HD_INLINE float environment_row_sin_theta(uint32_t y, uint32_t height) {
    return sinf(kPi * (float(y) + 0.5f) / float(height));
}

// The cell i of cdf[0..n] (cdf[0] = 0, cdf[n] = 1, non-decreasing) with cdf[i] <= u < cdf[i + 1],
// for u in [0, 1): its step is never empty.
WF_HD_INLINE uint32_t environment_find_interval(const float* cdf, uint32_t n, float u) {
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] <= u) lo = mid;
        else hi = mid;
    }
    return lo;
}

// Density in (u, v) of texel (x, y): the steps of the cdfs at it, times (width, height).
WF_HD_INLINE float environment_texel_pdf_uv(const EnvironmentMapView& map, uint32_t x, uint32_t y) {
    const float* row = map.conditional_cdf + size_t(y) * (map.width + 1);
    return (map.marginal_cdf[y + 1] - map.marginal_cdf[y]) * float(map.height) * (row[x + 1] - row[x]) *
           float(map.width);
}

WF_HD_INLINE float environment_pdf_uv_to_w(float pdf_uv, float sin_theta) {
    return sin_theta > 0.0f ? pdf_uv / (2.0f * kPi * kPi * sin_theta) : 0.0f;
}

// Texel coordinates of a direction (any length > 0), and sin(theta) there.
struct EnvironmentTexel {
    uint32_t x = 0, y = 0;
    float sin_theta = 0.0f;
};

WF_HD_INLINE EnvironmentTexel environment_texel_along(const EnvironmentMapView& map, Vec3f w) {
    const float lx = dot(w, map.frame.centre), ly = dot(w, map.frame.up), lz = dot(w, map.frame.side);
    const float horizontal = sqrtf(lx * lx + lz * lz);
    const float theta = atan2f(horizontal, ly);  // in [0, pi]
    const float phi = atan2f(lz, lx);            // in [-pi, pi]
    const float u = phi * (0.5f * kInvPi) + 0.5f, v = theta * kInvPi;
    EnvironmentTexel t;
    t.x = uint32_t(fminf(fmaxf(u * float(map.width), 0.0f), float(map.width - 1)));
    t.y = uint32_t(fminf(fmaxf(v * float(map.height), 0.0f), float(map.height - 1)));
    const float len = sqrtf(horizontal * horizontal + ly * ly);
    t.sin_theta = len > 0.0f ? horizontal / len : 0.0f;
    return t;
}

// Unit world direction of (u, v), given sin and cos of theta = pi v.
WF_HD_INLINE Vec3f environment_direction(const EnvironmentMapView& map, float u, float sin_theta, float cos_theta) {
    const float phi = 2.0f * kPi * (u - 0.5f);
    return map.frame.centre * (sin_theta * cosf(phi)) + map.frame.up * cos_theta +
           map.frame.side * (sin_theta * sinf(phi));
}

// The map's texel along `w` and the solid-angle pdf of sampling w.
struct EnvironmentLookup {
    Vec3f texel{0.0f};
    float pdf_w = 0.0f;
};

WF_HD_INLINE EnvironmentLookup environment_map_lookup(const EnvironmentMapView& map, Vec3f w) {
    const EnvironmentTexel t = environment_texel_along(map, w);
    EnvironmentLookup l;
    l.texel = map.texels[size_t(t.y) * map.width + t.x];
    l.pdf_w = environment_pdf_uv_to_w(environment_texel_pdf_uv(map, t.x, t.y), t.sin_theta);
    return l;
}

// A direction sampled from the map's distribution.
struct EnvironmentSample {
    Vec3f dir{0.0f, 0.0f, 1.0f};  // unit, away from the scene: toward the environment
    Vec3f texel{0.0f};            // the sampled texel's value (before the light's scale)
    float pdf_w = 0.0f;           // per unit solid angle; 0: no sample (theta at a pole)
};

// u0 picks the column, u1 the row (both in [0, 1)).
WF_HD_INLINE EnvironmentSample sample_environment_map(const EnvironmentMapView& map, float u0, float u1) {
    constexpr float kBelowOne = 0x1.fffffep-1f;
    u0 = fminf(u0, kBelowOne);
    u1 = fminf(u1, kBelowOne);
    const uint32_t y = environment_find_interval(map.marginal_cdf, map.height, u1);
    const float m0 = map.marginal_cdf[y], m1 = map.marginal_cdf[y + 1];
    const float* row = map.conditional_cdf + size_t(y) * (map.width + 1);
    const uint32_t x = environment_find_interval(row, map.width, u0);
    const float c0 = row[x], c1 = row[x + 1];
    const float v = (float(y) + fminf((u1 - m0) / (m1 - m0), kBelowOne)) / float(map.height);
    const float u = (float(x) + fminf((u0 - c0) / (c1 - c0), kBelowOne)) / float(map.width);
    const float theta = kPi * v;
    const float sin_theta = sinf(theta), cos_theta = cosf(theta);
    EnvironmentSample s;
    s.pdf_w = environment_pdf_uv_to_w((m1 - m0) * float(map.height) * (c1 - c0) * float(map.width), sin_theta);
    if (!(s.pdf_w > 0.0f)) return EnvironmentSample{};
    s.dir = environment_direction(map, u, sin_theta, cos_theta);
    s.texel = map.texels[size_t(y) * map.width + x];
    return s;
}

}  // namespace wf
