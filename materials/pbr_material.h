// A glTF metallic-roughness material (Material::pbr) at one shading point: its factors
// times its textures and the vertex colour, and the normal map applied, giving the
// parameters materials/gltf_bsdf.h takes. What each texture channel means is glTF 2.0's
// (section 3.9): base colour RGBA (sRGB), metallic in B and roughness in G of
// metallicRoughnessTexture, tangent-space normal in RGB (x right along the tangent, y
// along the bitangent, z out), KHR_materials_transmission's factor in R,
// KHR_materials_specular's factor in A and colour in RGB (sRGB), KHR_materials_clearcoat's
// factor in R, roughness in G and its own tangent-space normal map (clearcoatNormalTexture),
// KHR_materials_sheen's colour in RGB (sRGB) and roughness in A.
#pragma once

#include "accel/shading_attributes.h"
#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "materials/gltf_bsdf.h"
#include "materials/pbr_coverage.h"
#include "materials/texture.h"

namespace wf {

struct PbrShadingPoint {
    GltfBsdfParams params;
    Vec3f ns;     // shading normal after the normal map (unit)
    float alpha;  // coverage: base colour alpha (MASK: 0 or 1 after the cutoff; OPAQUE: 1)
};

// Tangent-space normal n (z out of the surface) to world space about the shading frame.
WF_HD_INLINE Vec3f apply_normal_map(const ShadingAttributes& a, Vec3f n) {
    const Vec3f bitangent = a.bitangent_sign * cross(a.ns, a.tangent);
    Vec3f w = n.x * a.tangent + n.y * bitangent + n.z * a.ns;
    const float len2 = length_squared(w);
    return len2 > 1e-20f ? w * (1.0f / sqrtf(len2)) : a.ns;
}

// A normal map's texel as a tangent-space normal (not normalised): glTF's
// (2 rgb - 1) with x and y times the map's scale.
WF_HD_INLINE Vec3f tangent_space_normal(const TextureView& tex, int32_t texture, float scale, const Vec2f* uv) {
    const Vec4f t = sample_texture(tex, texture, uv);
    return {(2.0f * t.x - 1.0f) * scale, (2.0f * t.y - 1.0f) * scale, 2.0f * t.z - 1.0f};
}

WF_HD_INLINE PbrShadingPoint pbr_shading_point(const Material& m, const TextureView& tex, const ShadingAttributes& a) {
    const PbrParams& p = m.pbr;
    PbrShadingPoint out;
    GltfBsdfParams& g = out.params;
    g.base_color = p.base_color * Vec3f(a.color.x, a.color.y, a.color.z);
    float alpha = p.alpha * a.color.w;
    if (p.base_color_texture >= 0) {
        const Vec4f t = sample_texture(tex, p.base_color_texture, a.uv);
        g.base_color *= Vec3f(t.x, t.y, t.z);
        alpha *= t.w;
    }
    g.metallic = p.metallic;
    g.roughness = p.roughness;
    if (p.metallic_roughness_texture >= 0) {
        const Vec4f t = sample_texture(tex, p.metallic_roughness_texture, a.uv);
        g.roughness *= t.y;
        g.metallic *= t.z;
    }
    g.metallic = clampf(g.metallic, 0.0f, 1.0f);
    g.roughness = clampf(g.roughness, 0.0f, 1.0f);
    g.ior = m.ior;
    g.transmission = p.transmission;
    if (p.transmission_texture >= 0) g.transmission *= sample_texture(tex, p.transmission_texture, a.uv).x;
    g.specular = p.specular;
    if (p.specular_texture >= 0) g.specular *= sample_texture(tex, p.specular_texture, a.uv).w;
    g.specular_color = p.specular_color;
    if (p.specular_color_texture >= 0) {
        const Vec4f t = sample_texture(tex, p.specular_color_texture, a.uv);
        g.specular_color *= Vec3f(t.x, t.y, t.z);
    }
    g.thin_walled = p.thin_walled != 0;
    g.clearcoat = p.clearcoat;
    if (p.clearcoat_texture >= 0) g.clearcoat *= sample_texture(tex, p.clearcoat_texture, a.uv).x;
    // The coat's normal: its own map (clearcoatNormalTexture), else the normal before the
    // base's map (the extension gives the coat no other).
    g.clearcoat_normal = a.ns;
    if (p.clearcoat_normal_texture >= 0 && g.clearcoat > 0.0f)
        g.clearcoat_normal = apply_normal_map(a, tangent_space_normal(tex, p.clearcoat_normal_texture, p.clearcoat_normal_scale, a.uv));
    g.clearcoat_roughness = p.clearcoat_roughness;
    if (p.clearcoat_roughness_texture >= 0) g.clearcoat_roughness *= sample_texture(tex, p.clearcoat_roughness_texture, a.uv).y;
    g.sheen_color = p.sheen_color;
    if (p.sheen_color_texture >= 0) {
        const Vec4f t = sample_texture(tex, p.sheen_color_texture, a.uv);
        g.sheen_color *= Vec3f(t.x, t.y, t.z);
    }
    g.sheen_roughness = p.sheen_roughness;
    if (p.sheen_roughness_texture >= 0) g.sheen_roughness *= sample_texture(tex, p.sheen_roughness_texture, a.uv).w;

    out.ns = a.ns;
    if (p.normal_texture >= 0) out.ns = apply_normal_map(a, tangent_space_normal(tex, p.normal_texture, p.normal_scale, a.uv));
    out.alpha = alpha_mode_coverage(p, alpha);
    return out;
}

// KHR_materials_volume's Beer-Lambert absorption. A path segment lies inside the volume of
// material m when, at an end on a surface of m (geometric normal ng), it lies on the back of
// ng: its direction away from that end along the segment, `away`, points below ng. That
// holds for closed, non-overlapping volumes with nothing inside them but the camera and
// punctual lights (docs/scene-format.md says so), and asks nothing of the other end or of
// which way the segment is traced: transmittance is symmetric.
// m's absorption coefficient (per unit length, per channel) along such a segment: sigma_a
// when it runs inside m's volume, else 0 (also for every material without a volume).
WF_HD_INLINE Vec3f volume_sigma_a(const Material& m, Vec3f ng, Vec3f away) {
    if (m.type != MaterialType::GltfPbr || !(dot(away, ng) < 0.0f)) return Vec3f(0.0f);
    return m.pbr.sigma_a;
}

// exp(-sigma_a t) per channel. t is finite (an infinite light's distance is 1e18), so a
// channel of sigma_a 0 gives exactly 1, and one of the loader's 1e30 (colour 0) gives 0.
WF_HD_INLINE Vec3f beer_lambert(Vec3f sigma_a, float t) {
    if (!(max_component(sigma_a) > 0.0f)) return Vec3f(1.0f);
    return {expf(-sigma_a.x * t), expf(-sigma_a.y * t), expf(-sigma_a.z * t)};
}

// The transmittance of a traced segment of length t that ends on a surface of material m,
// arriving along ray_dir at a hit of geometric normal ng: below 1 when it reached the
// surface from the back of ng (it is leaving m's volume). 1 for every other segment.
WF_HD_INLINE Vec3f volume_transmittance(const Material& m, Vec3f ray_dir, Vec3f ng, float t) {
    return beer_lambert(volume_sigma_a(m, ng, -ray_dir), t);
}

}  // namespace wf
