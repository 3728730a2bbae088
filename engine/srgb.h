// The sRGB transfer function (IEC 61966-2-1), for images written (io/tonemap.h) and
// textures read (materials/texture.h). Host functions.
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

// 8-bit sRGB code -> linear value in [0,1] (the inverse of encoding and rounding to 8
// bits, up to quantization).
inline float srgb8_to_linear(uint8_t code) { return srgb_decode(static_cast<float>(code) / 255.0f); }

}  // namespace wf
