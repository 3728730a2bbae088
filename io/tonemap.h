// Tone curve for 8-bit output, and its inverse for reading 8-bit images back.
//
// The only tone curve in the project:
//   PNG = clamp(linear * 2^exposure) then sRGB OETF, no filmic curve (exposure default 0).
// i.e. value8 = round(255 * srgb_encode(clamp(linear * 2^exposure, 0, 1))), rounding with +0.5.
// Radiance (.hdr) and OpenEXR (.exr) files store linear radiance and never pass through it.
//
// Plain host functions (no WF_HD): images are written on the CPU after readback.
#pragma once

#include <cmath>
#include <cstdint>

namespace wf {

// sRGB transfer function, IEC 61966-2-1: linear [0,1] -> encoded [0,1].
// Linear segment below the break point 0.0031308, power segment 1.055 v^(1/2.4) - 0.055 above.
inline float srgb_encode(float linear) {
    if (linear <= 0.0031308f) return 12.92f * linear;
    return 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

// Inverse of srgb_encode: encoded [0,1] -> linear [0,1]. The break point 0.04045 is
// 12.92 * 0.0031308 (rounded as in the standard).
inline float srgb_decode(float encoded) {
    if (encoded <= 0.04045f) return encoded / 12.92f;
    return std::pow((encoded + 0.055f) / 1.055f, 2.4f);
}

// Exposure in stops: scales linear radiance by 2^exposure.
inline float apply_exposure(float linear, float exposure) { return linear * std::exp2(exposure); }

// Clamp to [0,1]; NaN maps to 0 (fmax returns the non-NaN operand).
inline float clamp01(float v) { return std::fmin(std::fmax(v, 0.0f), 1.0f); }

// Encoded [0,1] -> 8-bit code, rounding to nearest (+0.5). Out-of-range input is clamped.
inline uint8_t quantize_8bit(float encoded) {
    return static_cast<uint8_t>(clamp01(encoded) * 255.0f + 0.5f);
}

// The whole PNG tone curve for one channel: linear radiance -> 8-bit sRGB code.
inline uint8_t tonemap_srgb8(float linear, float exposure = 0.0f) {
    return quantize_8bit(srgb_encode(clamp01(apply_exposure(linear, exposure))));
}

// 8-bit sRGB code -> linear value in [0,1] (inverse of tonemap_srgb8 at exposure 0, up to
// quantization).
inline float srgb8_to_linear(uint8_t code) { return srgb_decode(static_cast<float>(code) / 255.0f); }

}  // namespace wf
