// Texture lookups for materials: 8-bit RGBA images, filtered bilinearly (or nearest),
// wrapped per axis as glTF's samplers say, through a binding's UV set and transform,
// decoded from sRGB where the binding holds colour.
//
// Conventions (glTF 2.0): u runs right, v runs DOWN the image (v = 0 is the top row, as
// stored); texel (i, j) covers [i, i+1) x [j, j+1) in pixel units, its centre at
// ((i + 0.5) / width, (j + 0.5) / height). Bilinear filtering weighs the four texels whose
// centres surround the point, each decoded to linear first (as GPUs filter sRGB
// textures). No mip-mapping: a minified texture aliases (noted in docs/scene-format.md).
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "engine/srgb.h"

namespace wf {

struct TextureView {
    const uint32_t* texels = nullptr;         // RGBA8, r in the low byte
    const TextureImage* images = nullptr;
    const TextureBinding* bindings = nullptr;
    const float* srgb_to_linear = nullptr;    // 256 entries: srgb8_to_linear of each 8-bit code (engine/srgb.h)
};

namespace texture_detail {

// Integer texel coordinate i (any integer) wrapped into [0, n).
WF_HD_INLINE int32_t wrap_texel(int32_t i, int32_t n, TextureWrap mode) {
    switch (mode) {
        case TextureWrap::ClampToEdge: return i < 0 ? 0 : (i >= n ? n - 1 : i);
        case TextureWrap::MirroredRepeat: {
            int32_t period = 2 * n;
            int32_t m = i % period;
            if (m < 0) m += period;
            return m < n ? m : period - 1 - m;
        }
        case TextureWrap::Repeat:
        default: {
            int32_t m = i % n;
            return m < 0 ? m + n : m;
        }
    }
}

WF_HD_INLINE Vec4f fetch(const TextureView& t, const TextureImage& img, int32_t x, int32_t y, bool srgb) {
    const uint32_t c = t.texels[img.offset + uint64_t(y) * img.width + uint64_t(x)];
    const uint32_t r = c & 0xffu, g = (c >> 8) & 0xffu, b = (c >> 16) & 0xffu, a = c >> 24;
    constexpr float k = 1.0f / 255.0f;
    if (srgb) return Vec4f{t.srgb_to_linear[r], t.srgb_to_linear[g], t.srgb_to_linear[b], float(a) * k};
    return Vec4f{float(r) * k, float(g) * k, float(b) * k, float(a) * k};
}

// Brings a texture coordinate into [-1, 2) without changing what it reads, so texel
// indices stay small integers whatever the coordinate: a repeating axis loses whole
// periods of 2 (a multiple of both repeat periods), a clamped one is clamped.
WF_HD_INLINE float reduce_coordinate(float x, TextureWrap mode) {
    if (mode == TextureWrap::ClampToEdge) return clampf(x, -1.0f, 2.0f);
    return x - 2.0f * floorf(0.5f * x);
}

}  // namespace texture_detail

// The texture coordinate a binding reads: its UV set through its transform.
WF_HD_INLINE Vec2f binding_uv(const TextureBinding& b, const Vec2f uv[2]) {
    const Vec2f p = uv[b.uv_set ? 1 : 0];
    return Vec2f{b.transform[0] * p.x + b.transform[1] * p.y + b.transform[2],
                 b.transform[3] * p.x + b.transform[4] * p.y + b.transform[5]};
}

// RGBA of binding `id` at texture coordinate set uv (linear values; alpha is never decoded).
WF_HD_INLINE Vec4f sample_texture(const TextureView& t, int32_t id, const Vec2f uv[2]) {
    using namespace texture_detail;
    const TextureBinding& b = t.bindings[id];
    const TextureImage& img = t.images[b.image];
    const Vec2f st = binding_uv(b, uv);
    if (!(st.x == st.x) || !(st.y == st.y) || fabsf(st.x) > 1e30f || fabsf(st.y) > 1e30f)
        return Vec4f{0.0f, 0.0f, 0.0f, 0.0f};  // NaN or infinite coordinates: black, never a stray read
    const float x = reduce_coordinate(st.x, b.wrap_s) * float(img.width);
    const float y = reduce_coordinate(st.y, b.wrap_t) * float(img.height);
    const int32_t w = int32_t(img.width), h = int32_t(img.height);
    const bool srgb = b.srgb != 0;
    if (b.nearest) {
        const int32_t i = wrap_texel(int32_t(floorf(x)), w, b.wrap_s), j = wrap_texel(int32_t(floorf(y)), h, b.wrap_t);
        return fetch(t, img, i, j, srgb);
    }
    const float fx = x - 0.5f, fy = y - 0.5f;
    const float x0f = floorf(fx), y0f = floorf(fy);
    const float ax = fx - x0f, ay = fy - y0f;
    const int32_t x0 = int32_t(x0f), y0 = int32_t(y0f);
    const int32_t i0 = wrap_texel(x0, w, b.wrap_s), i1 = wrap_texel(x0 + 1, w, b.wrap_s);
    const int32_t j0 = wrap_texel(y0, h, b.wrap_t), j1 = wrap_texel(y0 + 1, h, b.wrap_t);
    const Vec4f c00 = fetch(t, img, i0, j0, srgb), c10 = fetch(t, img, i1, j0, srgb);
    const Vec4f c01 = fetch(t, img, i0, j1, srgb), c11 = fetch(t, img, i1, j1, srgb);
    const float w00 = (1.0f - ax) * (1.0f - ay), w10 = ax * (1.0f - ay), w01 = (1.0f - ax) * ay, w11 = ax * ay;
    return Vec4f{w00 * c00.x + w10 * c10.x + w01 * c01.x + w11 * c11.x,
                 w00 * c00.y + w10 * c10.y + w01 * c01.y + w11 * c11.y,
                 w00 * c00.z + w10 * c10.z + w01 * c01.z + w11 * c11.z,
                 w00 * c00.w + w10 * c10.w + w01 * c01.w + w11 * c11.w};
}

}  // namespace wf
