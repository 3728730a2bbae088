// glTF alpha coverage at a point (glTF 2.0, 3.9.4): the base colour's alpha (factor x
// vertex colour x texture), then the alpha mode: OPAQUE covers everything, MASK covers
// where alpha reaches the cutoff, BLEND covers the share alpha. One definition for what a
// path sees (materials/pbr_material.h) and what an emissive surface emits
// (materials/emitters.h: a point of coverage a emits a Le), so that hits and light
// samples agree.
#pragma once

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "materials/texture.h"

namespace wf {

WF_HD_INLINE float alpha_mode_coverage(const PbrParams& p, float alpha) {
    switch (p.alpha_mode) {
        case AlphaMode::Mask: return alpha >= p.alpha_cutoff ? 1.0f : 0.0f;
        case AlphaMode::Blend: return clampf(alpha, 0.0f, 1.0f);
        default: return 1.0f;
    }
}

// Coverage at texture coordinates uv (both sets) with vertex colour alpha color_alpha,
// for a point whose base colour texture is not sampled otherwise.
WF_HD_INLINE float pbr_coverage(const PbrParams& p, const TextureView& tex, const Vec2f uv[2], float color_alpha) {
    if (p.alpha_mode == AlphaMode::Opaque) return 1.0f;
    float alpha = p.alpha * color_alpha;
    if (p.base_color_texture >= 0) alpha *= sample_texture(tex, p.base_color_texture, uv).w;
    return alpha_mode_coverage(p, alpha);
}

}  // namespace wf
