// Tone curves for 8-bit output, and the inverse of the sRGB curve for reading 8-bit images back.
//
// A PNG pixel is made from linear radiance in four steps (docs/tone-mapping.md gives every
// formula and constant with its source):
//   1. exposure: each channel times 2^exposure (exposure in stops, |exposure| <= 32);
//   2. a tone curve on the RGB triple: linear scene value -> linear display value in [0, 1];
//   3. the sRGB OETF (IEC 61966-2-1);
//   4. 8-bit quantization, rounding to nearest (+0.5).
// The curves (ToneCurve):
//   none         clamp each channel to [0, 1] (the default for JSON scenes; PNG output before
//                the curves existed, byte for byte);
//   aces         Stephen Hill's fit of the ACES RRT + sRGB ODT, with its sRGB -> AP1 (RRT_SAT)
//                and ODT_SAT -> sRGB matrices (BakingLab ACES.hlsl, 2016);
//   pbr-neutral  the Khronos PBR Neutral tone mapper (Khronos 3D Formats WG, 2024; the
//                default for glTF/GLB files rendered on their own);
//   agx          Troy Sobotka's AgX, as Benjamin Wrensch's "Minimal AgX Implementation" (2023):
//                inset matrix, log2 encoding, 6th-order polynomial sigmoid, outset matrix,
//                then his 2.2 power back to linear for an sRGB output.
// Radiance (.hdr) and OpenEXR (.exr) files store linear radiance and never pass through them.
//
// Plain host functions (no WF_HD): images are written on the CPU after readback.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/math.h"
#include "engine/srgb.h"

namespace wf {

// Exposure in stops: scales linear radiance by 2^exposure.
inline float apply_exposure(float linear, float exposure) { return linear * std::exp2(exposure); }

// Clamp to [0,1]; NaN maps to 0 (fmax returns the non-NaN operand).
inline float clamp01(float v) { return std::fmin(std::fmax(v, 0.0f), 1.0f); }

// Encoded [0,1] -> 8-bit code, rounding to nearest (+0.5). Out-of-range input is clamped.
inline uint8_t quantize_8bit(float encoded) {
    return static_cast<uint8_t>(clamp01(encoded) * 255.0f + 0.5f);
}

// The `none` curve for one channel: linear radiance -> 8-bit sRGB code.
inline uint8_t tonemap_srgb8(float linear, float exposure = 0.0f) {
    return quantize_8bit(srgb_encode(clamp01(apply_exposure(linear, exposure))));
}


// ---- Tone curves -------------------------------------------------------------------------

enum class ToneCurve { None, Aces, PbrNeutral, Agx };

struct ToneCurveInfo {
    ToneCurve curve;
    std::string_view name;  // for --tonemap and the scene's render.tonemap
};

inline constexpr ToneCurveInfo kToneCurves[] = {
    {ToneCurve::None, "none"},
    {ToneCurve::Aces, "aces"},
    {ToneCurve::PbrNeutral, "pbr-neutral"},
    {ToneCurve::Agx, "agx"},
};

// The names alone, in table order (for "one of ..." checks and hints).
inline constexpr auto kToneCurveNames = [] {
    std::array<std::string_view, std::size(kToneCurves)> names{};
    for (size_t i = 0; i < names.size(); ++i) names[i] = kToneCurves[i].name;
    return names;
}();

// The entry named `name`, or nullptr.
inline const ToneCurveInfo* find_tone_curve(std::string_view name) {
    for (const ToneCurveInfo& info : kToneCurves)
        if (info.name == name) return &info;
    return nullptr;
}

// "none, aces, pbr-neutral, agx", for messages.
inline std::string tone_curve_name_list() {
    std::string out;
    for (const ToneCurveInfo& info : kToneCurves) {
        if (!out.empty()) out += ", ";
        out += info.name;
    }
    return out;
}

// The largest |exposure| in stops (--exposure, render.exposure): 2^32 either way spans any
// radiance a float film holds without making a finite pixel infinite.
inline constexpr float kMaxExposureStops = 32.0f;

// What turns linear radiance into a PNG: a curve and an exposure in stops.
struct ToneMap {
    ToneCurve curve = ToneCurve::None;
    float exposure = 0.0f;
};

namespace tone_detail {

// A 3x3 matrix as its rows: M * v = (dot(r0, v), dot(r1, v), dot(r2, v)).
struct Rows3 {
    Vec3f r0, r1, r2;
};
inline Vec3f mul(const Rows3& m, Vec3f v) { return {dot(m.r0, v), dot(m.r1, v), dot(m.r2, v)}; }

// The filmic curves take non-negative finite input: NaN and negatives become 0, and values
// are capped at 1e18, past which every curve is at its white (and far below where ACES's
// v^2 would overflow a float).
inline float curve_input(float v) { return v > 0.0f ? std::fmin(v, 1e18f) : 0.0f; }
inline Vec3f curve_input(Vec3f v) { return {curve_input(v.x), curve_input(v.y), curve_input(v.z)}; }
inline Vec3f clamp01(Vec3f v) { return {wf::clamp01(v.x), wf::clamp01(v.y), wf::clamp01(v.z)}; }

}  // namespace tone_detail

// ACES, Stephen Hill's fit (MJP's BakingLab, ACES.hlsl, 2016): the ACES 1.0 RRT and sRGB
// ODT fitted by one rational function per channel, between the matrix from linear sRGB to
// ACES AP1 with the RRT's saturation (ACESInputMat: sRGB -> XYZ -> D65-to-D60 -> AP1 ->
// RRT_SAT) and the matrix back (ACESOutputMat: ODT_SAT -> XYZ -> D60-to-D65 -> sRGB):
//   v = ACESInputMat * rgb
//   v = (v (v + 0.0245786) - 0.000090537) / (v (0.983729 v + 0.4329510) + 0.238081)
//   out = clamp(ACESOutputMat * v, 0, 1)
// Linear sRGB in, linear sRGB out. Grey stays grey (the rows sum to 1); grey 0.18 -> 0.1056;
// white (1.0) is reached at grey ~25.7.
inline Vec3f tone_curve_aces(Vec3f rgb) {
    static constexpr tone_detail::Rows3 kInput{{0.59719f, 0.35458f, 0.04823f},
                                               {0.07600f, 0.90834f, 0.01566f},
                                               {0.02840f, 0.13383f, 0.83777f}};
    static constexpr tone_detail::Rows3 kOutput{{1.60475f, -0.53108f, -0.07367f},
                                                {-0.10208f, 1.10813f, -0.00605f},
                                                {-0.00327f, -0.07276f, 1.07602f}};
    auto rrt_odt_fit = [](float v) {
        return (v * (v + 0.0245786f) - 0.000090537f) / (v * (0.983729f * v + 0.4329510f) + 0.238081f);
    };
    const Vec3f v = tone_detail::mul(kInput, tone_detail::curve_input(rgb));
    const Vec3f fitted{rrt_odt_fit(v.x), rrt_odt_fit(v.y), rrt_odt_fit(v.z)};
    return tone_detail::clamp01(tone_detail::mul(kOutput, fitted));
}

// Khronos PBR Neutral (Khronos 3D Formats WG, 2024; github.com/KhronosGroup/ToneMapping,
// PBR_Neutral/README.md, "PBR Neutral Specification"), in the specification's notation:
//   F90 = 0.04, Ks = 0.8 - F90 (start of highlight compression), Kd = 0.15 (desaturation)
//   x = min(R, G, B);  f = x - x^2 / (4 F90) if x <= 2 F90, else F90   (the small-value offset)
//   p = max(R, G, B) - f
//   p <= Ks:  out = rgb - f
//   p >  Ks:  pn = 1 - (1 - Ks)^2 / (p + 1 - 2 Ks),  g = 1 / (Kd (p - pn) + 1),
//             out = (rgb - f) (pn / p) g + pn (1 - g)
// Linear Rec.709 in (non-negative), linear Rec.709 out in [0, 1). Below the knee it is a
// shift by f only (grey 0.5 -> 0.46); grey 1.0 -> 1 - 0.0576 / 0.44 = 0.86909.
inline Vec3f tone_curve_pbr_neutral(Vec3f rgb) {
    constexpr float kF90 = 0.04f;
    constexpr float kStartCompression = 0.8f - kF90;  // Ks
    constexpr float kDesaturation = 0.15f;            // Kd
    Vec3f c = tone_detail::curve_input(rgb);
    const float x = min_component(c);
    const float offset = x <= 2.0f * kF90 ? x - x * x / (4.0f * kF90) : kF90;
    c -= Vec3f(offset);
    const float peak = max_component(c);
    if (peak <= kStartCompression) return c;
    const float d = 1.0f - kStartCompression;
    const float new_peak = 1.0f - d * d / (peak + d - kStartCompression);
    const float g = 1.0f / (kDesaturation * (peak - new_peak) + 1.0f);
    return c * (new_peak / peak * g) + Vec3f(new_peak * (1.0f - g));
}

// AgX (Troy Sobotka, github.com/sobotka/AgX; the view transform of Blender 4), as Benjamin
// Wrensch's "Minimal AgX Implementation" (iolite-engine.com/blog_posts/
// minimal_agx_implementation, 2023), default look, 6th-order sigmoid:
//   v = Inset * rgb
//   v = (clamp(log2(v), -12.47393, 4.026069) + 12.47393) / (4.026069 + 12.47393)
//   v = 15.5 v^6 - 40.14 v^5 + 31.96 v^4 - 6.868 v^3 + 0.4298 v^2 + 0.1191 v - 0.00232
//   v = Outset * v                   (Outset = Inset^-1)
//   out = clamp(max(v, 0)^2.2, 0, 1)  (his agxEotf: the sigmoid's 2.2 display encoding undone,
//                                     so that the sRGB OETF can follow)
// Linear sRGB in, linear sRGB out. The encoding puts grey 0.18 at 0.606 of the log range;
// grey 2^4.026 = 16.3 is the top (0.9986 after the sigmoid, code 255).
inline Vec3f tone_curve_agx(Vec3f rgb) {
    // Wrensch's GLSL mat3 literals are column-major; these are the rows of the same matrices.
    static constexpr tone_detail::Rows3 kInset{{0.842479062253094f, 0.0784335999999992f, 0.0792237451477643f},
                                               {0.0423282422610123f, 0.878468636469772f, 0.0791661274605434f},
                                               {0.0423756549057051f, 0.0784336f, 0.879142973793104f}};
    static constexpr tone_detail::Rows3 kOutset{{1.19687900512017f, -0.0980208811401368f, -0.0990297440797205f},
                                                {-0.0528968517574562f, 1.15190312990417f, -0.0989611768448433f},
                                                {-0.0529716355144438f, -0.0980434501171241f, 1.15107367264116f}};
    constexpr float kMinEv = -12.47393f, kMaxEv = 4.026069f;
    auto sigmoid = [&](float v) {
        // log2(0) = -inf clamps to kMinEv.
        const float e = std::fmin(std::fmax(std::log2(v), kMinEv), kMaxEv);
        const float x = (e - kMinEv) / (kMaxEv - kMinEv);
        const float x2 = x * x, x4 = x2 * x2;
        return 15.5f * x4 * x2 - 40.14f * x4 * x + 31.96f * x4 - 6.868f * x2 * x + 0.4298f * x2 + 0.1191f * x -
               0.00232f;
    };
    const Vec3f v = tone_detail::mul(kInset, tone_detail::curve_input(rgb));
    const Vec3f display = tone_detail::mul(kOutset, Vec3f(sigmoid(v.x), sigmoid(v.y), sigmoid(v.z)));
    auto to_linear = [](float e) { return wf::clamp01(std::pow(std::fmax(e, 0.0f), 2.2f)); };
    return {to_linear(display.x), to_linear(display.y), to_linear(display.z)};
}

// The curve alone: linear (exposed) radiance -> linear display value in [0, 1].
inline Vec3f apply_tone_curve(ToneCurve curve, Vec3f rgb) {
    switch (curve) {
        case ToneCurve::None: return tone_detail::clamp01(rgb);
        case ToneCurve::Aces: return tone_curve_aces(rgb);
        case ToneCurve::PbrNeutral: return tone_curve_pbr_neutral(rgb);
        case ToneCurve::Agx: return tone_curve_agx(rgb);
    }
    return tone_detail::clamp01(rgb);
}

// One pixel through the whole PNG pipeline: exposure, curve, sRGB OETF, 8 bits.
inline std::array<uint8_t, 3> tonemap_pixel_srgb8(Vec3f linear, const ToneMap& tone) {
    if (tone.curve == ToneCurve::None)  // exactly the per-channel arithmetic PNGs always had
        return {tonemap_srgb8(linear.x, tone.exposure), tonemap_srgb8(linear.y, tone.exposure),
                tonemap_srgb8(linear.z, tone.exposure)};
    const float scale = std::exp2(tone.exposure);
    const Vec3f display = apply_tone_curve(tone.curve, linear * scale);
    return {quantize_8bit(srgb_encode(display.x)), quantize_8bit(srgb_encode(display.y)),
            quantize_8bit(srgb_encode(display.z))};
}

}  // namespace wf
