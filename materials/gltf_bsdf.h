// glTF 2.0 metallic-roughness BSDF (glTF 2.0 specification, Appendix B), with
// KHR_materials_ior, KHR_materials_specular, KHR_materials_transmission, the refraction of
// KHR_materials_volume (its absorption is the stage's: materials/pbr_material.h,
// volume_transmittance), KHR_materials_clearcoat and KHR_materials_sheen. Host and device
// code; the conventions of sample/evaluate are those written at the top of materials/bsdf.h.
//
// The model, as Appendix B and the extensions write it (alpha = roughness^2, GGX with the
// height-correlated Smith G2 of materials/microfacet.h, V = dir_fix, L = wi, H their
// (generalized) half vector, c = |V . H|):
//   material        = mix(dielectric_brdf, metal_brdf, metallic)
//   metal_brdf      = specular_brdf(alpha) * Schlick(F0 = baseColor, f90 = 1, c)
//   dielectric_brdf = fresnel_mix(base = mix(Lambert(baseColor),
//                                            specular_btdf(alpha) * baseColor, transmission),
//                                 layer = specular_brdf(alpha))
//   fresnel_mix     = (1 - max_component(F)) base + F layer,
//   F               = specular * (f0 + (1 - f0)(1 - c)^5),
//   f0              = min(((ior - 1) / (ior + 1))^2 * specularColor, 1)   (KHR_materials_specular)
//   specular_brdf   = D G2 / (4 |N.L| |N.V|)
// specular_btdf depends on KHR_materials_volume:
// - thin-walled (no volume extension, GltfBsdfParams::thin_walled): light crosses without
//   bending. The BTDF is the BRDF mirrored through the surface, H = normalize(V + L'),
//   L' = L mirrored to V's side, with the separable masking G1(V) G1(L) of
//   KHR_materials_transmission's "Implementation Notes"; its smooth limit is
//   straight-through transmission (pbrt-v4's thin dielectric idea). One knowing
//   departure: the extension's step chi+(H.L / N.L) is left out. It is not reciprocal
//   (V 80 degrees from N, L 10 degrees from -N in the same plane passes it; swapped, it
//   fails), and H faces V and L' by construction, which is the visibility the mirrored
//   lobe needs.
// - volume (thin_walled == false): a rough refracting interface of relative index ior,
//   Walter et al. 2007 (materials/microfacet.h): D G2 |L.H| |V.H| / (|N.L| |N.V|
//   (L.H + V.H / etap)^2), radiance scaled by 1 / etap^2 on camera paths. Seen from inside,
//   F takes the cosine on the outer side (1 beyond the critical angle: total internal
//   reflection), which keeps F the same for both directions of a refracted pair.
// Light paths (camera_path == false) carry importance, and a shading normal makes the
// BSDF non-symmetric in its cosines: sample() and evaluate() then return the adjoint
// f*(fix, wi) = f(fix, wi) |fix.ns| |wi.ng| / (|fix.ng| |wi.ns|) (Veach's thesis 5.3,
// pbrt-v3's CorrectShadingNormal), so that a light sub-path's f*cos_out products equal
// what a camera path gathers along the same edges (1 where ns = ng).
// Energy: the spec's coupling of the Lambert base with F(V . H) is not energy conserving
// (Appendix B, "Coupling Diffuse and Specular Reflection" says so): a white dielectric
// reflects 1.57x what it receives at 85 degrees with roughness 0.1 (values printed by
// tests/materials/gltf_bsdf_test.cpp). GltfBaseFresnel::ViewAndLight selects the fix
// Appendix B cites from Burley 2012: Lambert weighted by (1 - max F(N.V)) (1 - max F(N.L)),
// reciprocal and energy conserving, but dark at grazing angles (0.38 at 85 degrees,
// roughness 1). The transmission base keeps F(V . H), the microfacet's own
// transmittance, which conserves energy.
// Layers over that base (the extensions' order: coat over sheen over the material):
//   sheen layer     = f_sheen + material * min(1 - max(sheenColor) E(N.V), 1 - max(sheenColor) E(N.L))
//   coated          = sheen layer * (1 - clearcoat F_c(N.V)) + clearcoat F_c(N.V) specular_brdf(alpha_c)
// f_sheen, E: materials/sheen.h (Charlie, Estevez-Kulla visibility, tabulated albedo).
// F_c = Schlick with f0 = 0.04 (ior 1.5) at N.V, as KHR_materials_clearcoat writes it, so
// the coat (and the base under it) is not reciprocal; the sheen layer is. The coat has its
// own normal (GltfBsdfParams::clearcoat_normal: clearcoatNormalTexture's mapped normal, or
// without one the normal before the base's normal map), its lobe evaluated and sampled in its own frame;
// a direction the coat frame puts above the surface but the base frame below gets no
// coat (sample() refuses it, evaluate() calls it transmission); one the base frame puts
// above but the coat frame below gets no coat value, but the coat's pdf (a coat sample
// reflected there is kept, as the base frame calls it a reflection). A walk arriving from
// below the coat's surface takes the base's normal for the coat's (make()), so pdf_rev_w
// and continuation_prob_from() of a direction there model a coat in the base's frame.
// Seen from inside a volume, both layers are absent (they lie on the outside); the
// transmission base is scaled by the layers with N.L = |cos| of the transmitted direction.
//
// Lobes sampled: specular reflection (metal and dielectric together: one D and G2, their
// Fresnels summed), Lambert, transmission, the coat (GGX visible normals) and the sheen
// (cosine-weighted). A lobe is picked with probability proportional to its expected
// weight at the fixed direction (c = cos_theta_fix(), luminance of RGB; T = what the
// layers let through, (1 - clearcoat F_c(c)) (1 - max(sheenColor) E(c))):
//   reflection    T (metallic lum(Schlick(baseColor, c)) + (1 - metallic) lum(F(c)))
//   Lambert       T (1 - metallic) (1 - transmission) (1 - max F(c)) lum(baseColor)
//   transmission  T (1 - metallic) transmission       (1 - max F(c)) lum(baseColor)
//   coat          clearcoat F_c(c)
//   sheen         lum(sheenColor) E(c)
// each at least kGltfMinLobeShare of its value with F = 0 (so a lobe that scatters
// somewhere is never left unsampled where F(c) happens to be 1 or 0). Non-delta samples
// return the whole non-delta mixture's value and pdf, as Bsdf does. pdf_rev_w uses the
// lobe probabilities of the reverse walk (computed at wi, on wi's side), so it equals the
// pdf_fwd_w of the BSDF made for the reverse direction.
// Smooth lobes (alpha < kGgxSmoothAlpha, and refraction at ior 1) are delta lobes: left out
// of evaluate(), sampled with pdf_w = lobe probability and factor = weight / |cos|.
//
// Sides and normals:
// - The geometric normal decides the side: a ray coming from the side it points to
//   arrives at the front (from outside a volume). doubleSided = false on an opaque material (no transmission):
//   the back side is black (is_valid() == false). A transmissive material works from both
//   sides, since light leaves volumes and thin sheets through their back faces.
// - The frame normal is the shading normal, taken on the geometric normal's side and
//   flipped to the arriving side; if the arriving direction is not above it (a bump map
//   bending away from the viewer), the geometric normal is used instead.
// - A direction on the wrong side of the geometric normal for its lobe (reflection below
//   the surface, transmission above it) is rejected by sample() and evaluates to 0, so
//   sample() and evaluate() agree.
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"
#include "materials/bsdf_records.h"
#include "materials/fresnel.h"
#include "materials/microfacet.h"
#include "materials/sampling.h"
#include "materials/sheen.h"

namespace wf {

// Floor of a lobe's selection weight, as a share of its weight with the Fresnel term 0 (see top).
inline constexpr float kGltfMinLobeShare = 0.01f;

// Fresnel weight of the Lambert base (see the top comment).
enum class GltfBaseFresnel : uint32_t {
    HalfVector = 0,    // glTF Appendix B: (1 - max F(|V . H|))
    ViewAndLight = 1,  // Burley 2012: (1 - max F(|N . V|)) (1 - max F(|N . L|)), energy conserving
};

// Texture-evaluated glTF material parameters at one shading point. Defaults are glTF's.
struct GltfBsdfParams {
    Vec3f base_color{1.0f};      // linear RGB in [0, 1]
    float metallic = 1.0f;       // [0, 1]
    float roughness = 1.0f;      // perceptual roughness in [0, 1]; alpha = roughness^2
    float ior = 1.5f;            // KHR_materials_ior: >= 1, or 0 (F = specular everywhere)
    float transmission = 0.0f;   // KHR_materials_transmission factor in [0, 1]
    float specular = 1.0f;       // KHR_materials_specular factor in [0, 1]
    Vec3f specular_color{1.0f};  // KHR_materials_specular colour, linear RGB
    bool thin_walled = true;     // no KHR_materials_volume (or thickness 0): no refraction
    float clearcoat = 0.0f;            // KHR_materials_clearcoat factor in [0, 1]
    float clearcoat_roughness = 0.0f;  // perceptual; the coat's alpha = clearcoat_roughness^2
    // The coat's normal (world, unit, either orientation): pbr_shading_point passes
    // clearcoatNormalTexture's mapped normal, or without one the normal before the base's
    // normal map (the extension gives the coat no other). Zero: the frame normal (the
    // base's shading normal).
    Vec3f clearcoat_normal{0.0f};
    Vec3f sheen_color{0.0f};           // KHR_materials_sheen colour, linear RGB in [0, 1]
    float sheen_roughness = 0.0f;      // the Charlie alpha itself (materials/sheen.h), clamped
};

class GltfBsdf {
public:
    // ray_dir_world: unit direction the arriving ray travelled along (toward the hit).
    // shading_normal: unit shading normal (interpolated, normal-mapped), either orientation.
    // geometric_normal: unit geometric normal of the primitive (not flipped).
    // camera_path: as in Bsdf::make (scales refracted radiance on camera paths); false (light
    // paths) also applies the adjoint shading-normal correction (see top).
    // double_sided: glTF's material.doubleSided.
    WF_HD static GltfBsdf make(const GltfBsdfParams& p, Vec3f ray_dir_world, Vec3f shading_normal,
                               Vec3f geometric_normal, bool camera_path, bool double_sided,
                               GltfBaseFresnel base_fresnel = GltfBaseFresnel::HalfVector) {
        GltfBsdf b;
        b.base_ = clamp01(p.base_color);  // before any rejection: albedo() holds everywhere
        float cos_geo = -dot(ray_dir_world, geometric_normal);  // > 0: arrives on the normal's side
        if (!(fabsf(cos_geo) >= kEpsCosine)) return b;
        const bool front = cos_geo > 0.0f;
        b.metallic_ = clampf(p.metallic, 0.0f, 1.0f);
        b.transmission_ = clampf(p.transmission, 0.0f, 1.0f);
        const bool transmissive = b.transmission_ > 0.0f && b.metallic_ < 1.0f;
        if (!front && !double_sided && !transmissive) return b;

        const Vec3f wo_world = -ray_dir_world;
        b.geometric_normal_ = front ? geometric_normal : -geometric_normal;
        Vec3f n = dot(shading_normal, geometric_normal) < 0.0f ? -shading_normal : shading_normal;
        if (!front) n = -n;
        if (!(dot(wo_world, n) >= kEpsCosine)) n = b.geometric_normal_;
        b.frame_ = Frame::from_z(n);
        b.local_fix_ = b.frame_.to_local(wo_world);
        b.local_fix_.z = fmaxf(b.local_fix_.z, kEpsCosine);

        b.specular_ = clampf(p.specular, 0.0f, 1.0f);
        float r = (p.ior - 1.0f) / (p.ior + 1.0f);
        b.f0_ = clamp01(max(p.specular_color, Vec3f(0.0f)) * (r * r));
        b.thin_ = p.thin_walled;
        b.ior_ = p.ior >= 1.0f ? p.ior : 1.0f;  // ior 0 (Fresnel 1) refracts as ior 1
        b.front_ = front;
        b.inside_ = !b.thin_ && !front;
        b.eta_ = b.thin_ ? 1.0f : (front ? b.ior_ : 1.0f / b.ior_);
        float alpha = GgxDistribution::roughness_to_alpha(clampf(p.roughness, 0.0f, 1.0f));
        b.dist_ = GgxDistribution(alpha, alpha);
        b.trans_smooth_ = b.dist_.effectively_smooth() || (!b.thin_ && b.ior_ == 1.0f);
        b.camera_path_ = camera_path;
        b.base_fresnel_ = base_fresnel;
        b.coat_ = clampf(p.clearcoat, 0.0f, 1.0f);
        const float coat_alpha = GgxDistribution::roughness_to_alpha(clampf(p.clearcoat_roughness, 0.0f, 1.0f));
        b.coat_dist_ = GgxDistribution(coat_alpha, coat_alpha);
        if (b.coat_ > 0.0f && length_squared(p.clearcoat_normal) > 0.0f) {
            // Oriented as the frame normal is; the frame normal where V is not above it.
            Vec3f cn = dot(p.clearcoat_normal, geometric_normal) < 0.0f ? -p.clearcoat_normal : p.clearcoat_normal;
            if (!front) cn = -cn;
            b.coat_normal_ = b.frame_.to_local(cn);
            b.coat_n_ = b.coat_normal_from(b.frame_.to_local(wo_world));
        }
        b.sheen_ = clamp01(p.sheen_color);
        b.sheen_max_ = max_component(b.sheen_);
        b.sheen_alpha_ = sheen_alpha(p.sheen_roughness);

        LobeProbs probs = b.lobe_probs(b.local_fix_, b.inside_, b.coat_n_);
        b.p_spec_ = probs.spec;
        b.p_diff_ = probs.diffuse;
        b.p_trans_ = probs.trans;
        b.p_coat_ = probs.coat;
        b.p_sheen_ = probs.sheen;
        // Valid means the hit is well formed (not grazing, not the back of a single-sided
        // surface), as SmallVCM's Bsdf: a black surface (black base colour, specularFactor 0)
        // scatters nothing but is valid, so its emission counts when a path hits it. It is
        // delta (nothing to evaluate, connect or store), as SmallVCM's black materials are.
        b.valid_ = true;
        const bool black = !(probs.spec + probs.diffuse + probs.trans + probs.coat + probs.sheen > 0.0f);
        b.delta_ = black || (b.dist_.effectively_smooth() && b.p_diff_ == 0.0f && b.p_sheen_ == 0.0f &&
                             (b.p_coat_ == 0.0f || b.coat_dist_.effectively_smooth()));

        b.continuation_prob_ = b.continuation_at(b.local_fix_, b.inside_, b.coat_n_);
        return b;
    }

    WF_HD bool is_valid() const { return valid_; }
    // Only delta lobes (every lobe smooth, no Lambert): evaluate() is always 0.
    WF_HD bool is_delta() const { return delta_; }
    // Russian roulette survival probability: the largest component of the expected weight
    // at the fixed direction, clamped to [0, 1].
    WF_HD float continuation_prob() const { return continuation_prob_; }
    // The continuation probability of the BSDF that a walk arriving from wi_world would
    // make here: the reverse walk of a connection or of a sampled direction. Russian
    // roulette's survival depends on the arriving direction through Fresnel, so the
    // bidirectional family multiplies a reverse pdf by this, not by continuation_prob()
    // (SmallVCM's materials have one for every direction); with continuation_prob() in its
    // place, bpt and vcm are biased at grazing views (+0.24% on a red glTF box at 77
    // degrees; tests/wavefront/gltf_bidirectional_test.cpp). The reverse BSDF's frame is
    // this one, flipped for a direction on the other side; where a shading normal would
    // make it fall back to the geometric normal, its cosine differs (not modelled). Its
    // coat's normal is coat_normal_from(wi) (the base's below the coat's surface).
    WF_HD float continuation_prob_from(Vec3f wi_world) const {
        if (!valid_) return 0.0f;
        const Vec3f wi = frame_.to_local(wi_world);
        if (wi.z >= 0.0f) return continuation_at(wi, inside_, coat_normal_from(wi));
        // The other side: the frame and the coat normal flip, and a volume's inside with them.
        return continuation_at(-wi, thin_ ? false : !inside_, coat_normal_from(-wi));
    }
    // |cos| between the arriving direction and the frame normal.
    WF_HD float cos_theta_fix() const { return fabsf(local_fix_.z); }
    // Unit direction back toward where the ray came from (= -ray_dir_world).
    WF_HD Vec3f world_dir_fix() const { return frame_.to_world(local_fix_); }
    // Frame normal: the shading normal on the arriving side (or the geometric one, see top).
    WF_HD Vec3f normal() const { return frame_.z; }
    WF_HD const Frame& frame() const { return frame_; }
    // The ray arrived from the side the geometric normal points to (outside of a volume).
    WF_HD bool front_side() const { return front_; }
    // The base colour (factor x texture x vertex colour, clamped to [0, 1]) for the albedo
    // AOV (engine/aov.h), whatever the metallic and transmission factors: a metal's
    // reflectance colour is its base colour. Defined for invalid BSDFs too.
    WF_HD Vec3f albedo() const { return base_; }

    // Picks a lobe with u2, samples a direction with (u0, u1).
    WF_HD BsdfSample sample(float u0, float u1, float u2) const {
        BsdfSample s;
        if (!valid_) return s;
        const Vec3f wo = local_fix_;
        Vec3f wi;
        Vec3f factor{0.0f};
        float pdf = 0.0f;
        bool reflect = true;
        if (u2 < p_spec_) {
            if (dist_.effectively_smooth()) {
                wi = reflect_local(wo);
                factor = specular_fresnel(wo.z) * (layer_scale(wo.z) / wo.z);
                pdf = p_spec_;
                s.specular = true;
            } else {
                wi = reflect_about(wo, dist_.sample_visible_normal(wo, u0, u1));
            }
        } else if (u2 < p_spec_ + p_diff_) {
            wi = sample_cos_hemisphere(u0, u1);
        } else if (u2 < p_spec_ + p_diff_ + p_coat_) {
            // In the coat's frame (its normal may differ from the base's).
            const Frame cf = Frame::from_z(coat_n_);
            const Vec3f wo_c = cf.to_local(wo);
            if (coat_dist_.effectively_smooth()) {
                wi = cf.to_world(reflect_local(wo_c));
                factor = Vec3f(coat_weight(wo, coat_n_, inside_) / fmaxf(fabsf(wi.z), kEpsCosine));
                pdf = p_coat_;
                s.specular = true;
            } else {
                wi = cf.to_world(reflect_about(wo_c, coat_dist_.sample_visible_normal(wo_c, u0, u1)));
            }
        } else if (u2 < p_spec_ + p_diff_ + p_coat_ + p_sheen_) {
            wi = sample_cos_hemisphere(u0, u1);  // the sheen lobe: cosine-weighted
        } else {
            if (p_trans_ == 0.0f) return s;
            reflect = false;
            if (trans_smooth_) {
                if (thin_) {
                    wi = -wo;
                } else if (!refract_local(wo, 1.0f / eta_, &wi)) {  // eta_incident / eta_transmitted
                    return s;
                }
                float w = (1.0f - metallic_) * transmission_ *
                          (1.0f - max_component(dielectric_fresnel(wo.z, inside_)));
                if (!thin_ && camera_path_) w /= eta_ * eta_;
                factor = base_ * (w * layer_scale(wi.z) / fabsf(wi.z));
                pdf = p_trans_;
                s.specular = true;
            } else {
                Vec3f wm = dist_.sample_visible_normal(wo, u0, u1);
                if (thin_) {
                    Vec3f r = reflect_about(wo, wm);
                    wi = Vec3f(r.x, r.y, -r.z);
                } else {
                    float etap;
                    if (!refract_about(wo, wm, eta_, &wi, &etap)) return s;  // total internal reflection
                }
            }
        }
        float cos_out = fabsf(wi.z);
        if (!(cos_out >= kEpsCosine) || (wi.z > 0.0f) != reflect) return s;
        Vec3f wi_world = frame_.to_world(wi);
        if (!geometric_side_ok(wi, wi_world)) return s;
        if (!s.specular) {
            LocalEval e = eval_local(wi, false);
            factor = e.f;
            pdf = e.pdf_fwd;
            if (!(pdf > 0.0f)) return BsdfSample{};
        }
        if (!camera_path_) factor = factor * adjoint_shading_factor(wi_world);
        if (is_black(factor)) return BsdfSample{};
        s.factor = factor;
        s.wi_world = wi_world;
        s.pdf_w = pdf;
        s.cos_out = cos_out;
        return s;
    }

    // Non-delta lobes for a given generated direction (e.g. toward a light or a light vertex).
    WF_HD BsdfEval evaluate(Vec3f wi_world) const {
        BsdfEval e;
        if (!valid_ || delta_) return e;
        Vec3f wi = frame_.to_local(wi_world);
        if (!(fabsf(wi.z) >= kEpsCosine) || !geometric_side_ok(wi, wi_world)) return e;
        LocalEval l = eval_local(wi, true);
        e.factor = camera_path_ ? l.f : l.f * adjoint_shading_factor(wi_world);
        e.cos_out = fabsf(wi.z);
        e.pdf_fwd_w = l.pdf_fwd;
        e.pdf_rev_w = l.pdf_rev;
        return e;
    }

private:
    struct LobeProbs {
        float spec = 0.0f, diffuse = 0.0f, trans = 0.0f, coat = 0.0f, sheen = 0.0f;
    };
    struct LocalEval {
        Vec3f f{0.0f};
        float pdf_fwd = 0.0f, pdf_rev = 0.0f;
    };

    WF_HD static Vec3f clamp01(Vec3f v) {
        return {clampf(v.x, 0.0f, 1.0f), clampf(v.y, 0.0f, 1.0f), clampf(v.z, 0.0f, 1.0f)};
    }

    // Russian roulette's survival probability for a walk arriving from local direction w
    // (on the frame's side; its cosine clamped as make() clamps local_fix_) whose coat
    // takes normal coat_n: the largest component of the expected weight at w with
    // smooth-surface Fresnel, reflection plus what the base layer passes on (diffuse and
    // transmission share 1 - max F), under the layers above it (none inside a volume):
    // coat over sheen over the base.
    WF_HD float continuation_at(Vec3f w, bool inside, Vec3f coat_n) const {
        const float c = fmaxf(w.z, kEpsCosine);
        Vec3f fd = dielectric_fresnel(c, inside);
        Vec3f albedo = fresnel_schlick_rgb(base_, c) * metallic_ + (fd + base_ * (1.0f - max_component(fd))) * (1.0f - metallic_);
        const float coat_f = coat_weight(w, coat_n, inside);
        const float e_sheen = inside ? 0.0f : sheen_albedo(c, sheen_alpha_);
        albedo = Vec3f(coat_f) + (sheen_ * e_sheen + albedo * (1.0f - sheen_max_ * e_sheen)) * (1.0f - coat_f);
        return clampf(max_component(albedo), 0.0f, 1.0f);
    }

    // Veach's adjoint correction for light paths (see top): |fix.ns| |wi.ng| / (|fix.ng| |wi.ns|).
    // The denominators are at least kEpsCosine: make() and the callers check both.
    WF_HD float adjoint_shading_factor(Vec3f wi_world) const {
        const Vec3f fix_world = frame_.to_world(local_fix_);
        const float num = fabsf(local_fix_.z) * fabsf(dot(wi_world, geometric_normal_));
        const float den = fabsf(dot(fix_world, geometric_normal_)) * fabsf(dot(wi_world, frame_.z));
        return den > 0.0f ? num / den : 0.0f;
    }

    // Reflection (wi.z > 0) must leave on the arriving side of the geometric surface,
    // transmission (wi.z < 0) on the other.
    WF_HD bool geometric_side_ok(Vec3f wi_local, Vec3f wi_world) const {
        float g = dot(wi_world, geometric_normal_);
        return wi_local.z > 0.0f ? g > 0.0f : g < 0.0f;
    }

    // Dielectric Fresnel F (KHR_materials_specular) for |cos| c on the given side: from
    // inside a volume the cosine of the refracted direction outside is used, F = specular
    // (fr = 1) beyond the critical angle.
    WF_HD Vec3f dielectric_fresnel(float c, bool inside) const {
        c = fabsf(c);
        if (inside) {
            float sin2_t = ior_ * ior_ * fmaxf(0.0f, 1.0f - c * c);
            if (sin2_t >= 1.0f) return Vec3f(specular_);
            c = sqrtf(1.0f - sin2_t);
        }
        return fresnel_schlick_rgb(f0_, c) * specular_;
    }

    // Metal and dielectric Fresnel of the reflection lobe.
    WF_HD Vec3f specular_fresnel(float c) const {
        return fresnel_schlick_rgb(base_, c) * metallic_ + dielectric_fresnel(c, inside_) * (1.0f - metallic_);
    }

    // KHR_materials_clearcoat's weight of the coat seen from local direction w (on the
    // arriving side) by a BSDF whose coat takes normal coat_n (coat_n_ for this one):
    // clearcoat times the coat's Fresnel (ior 1.5, f0 = 0.04) at N_c.V, as the extension
    // writes it. No coat is seen from inside a volume (it is on the outside).
    WF_HD float coat_weight(Vec3f w, Vec3f coat_n, bool inside) const {
        if (inside || coat_ == 0.0f) return 0.0f;
        return coat_ * fresnel_schlick_rgb(Vec3f(0.04f), fmaxf(dot(w, coat_n), 0.0f)).x;
    }

    // The coat's normal (in frame_) of the BSDF make() builds for a walk arriving from
    // local direction w on the frame's side: the coat's own where w is above it, else the
    // frame normal. A direction on the other side is passed as -w: the BSDF made for it
    // has this frame and coat normal flipped.
    WF_HD Vec3f coat_normal_from(Vec3f w) const {
        return dot(w, coat_normal_) >= kEpsCosine ? coat_normal_ : Vec3f(0.0f, 0.0f, 1.0f);
    }

    // What the layers above the base (coat, then sheen) let through to it for the fixed
    // direction and a generated one with local z = ci: (1 - clearcoat F_c(N_c.V)) times
    // KHR_materials_sheen's albedo scaling min(1 - max(sheenColor) E(N.V), 1 - max(sheenColor) E(|N.L|)).
    WF_HD float layer_scale(float ci) const {
        if (inside_) return 1.0f;
        float s = 1.0f - coat_weight(local_fix_, coat_n_, false);
        if (sheen_max_ > 0.0f) {
            const float e = fmaxf(sheen_albedo(local_fix_.z, sheen_alpha_), sheen_albedo(ci, sheen_alpha_));
            s *= 1.0f - sheen_max_ * e;
        }
        return s;
    }

    // Lobe-selection probabilities for a walk leaving local direction w (|w.z| its cosine)
    // on a side, whose coat takes normal coat_n. The base's lobes are weighted by what the
    // coat and the sheen let through.
    WF_HD LobeProbs lobe_probs(Vec3f w, bool inside, Vec3f coat_n) const {
        const float c = fabsf(w.z);
        Vec3f fd = dielectric_fresnel(c, inside);
        const float dielectric = 1.0f - metallic_;
        const float lum_base = luminance(base_);
        const float diffuse_max = dielectric * (1.0f - transmission_) * lum_base;
        const float trans_max = dielectric * transmission_ * lum_base;
        const float base_share = 1.0f - max_component(fd);
        float w_spec = metallic_ * luminance(fresnel_schlick_rgb(base_, c)) + dielectric * luminance(fd);
        w_spec = fmaxf(w_spec, kGltfMinLobeShare * (metallic_ + dielectric * specular_));
        float w_diff = fmaxf(diffuse_max * base_share, kGltfMinLobeShare * diffuse_max);
        float w_trans = fmaxf(trans_max * base_share, kGltfMinLobeShare * trans_max);
        float w_coat = 0.0f, w_sheen = 0.0f;
        if (!inside) {
            w_coat = coat_weight(w, coat_n, false);
            float e = 0.0f;
            if (sheen_max_ > 0.0f) {
                e = sheen_albedo(c, sheen_alpha_);
                const float lum_sheen = luminance(sheen_);
                w_sheen = fmaxf(lum_sheen * e, kGltfMinLobeShare * lum_sheen);
            }
            const float through = (1.0f - w_coat) * (1.0f - sheen_max_ * e);
            w_spec *= through;
            w_diff *= through;
            w_trans *= through;
        }
        float total = w_spec + w_diff + w_trans + w_coat + w_sheen;
        LobeProbs p;
        if (!(total > 0.0f)) return p;
        float inv = 1.0f / total;
        p.spec = w_spec * inv;
        p.diffuse = w_diff * inv;
        p.trans = w_trans * inv;
        p.coat = w_coat * inv;
        p.sheen = w_sheen * inv;
        return p;
    }

    // Non-delta mixture at local wi (|wi.z| >= kEpsCosine): value, forward pdf and, with
    // `reverse`, the pdf of the walk from wi back to dir_fix.
    WF_HD LocalEval eval_local(Vec3f wi, bool reverse) const {
        LocalEval e;
        const Vec3f wo = local_fix_;
        const bool rough = !dist_.effectively_smooth();
        if (wi.z > 0.0f) {
            Vec3f wm;
            if (!reflection_half_vector(wo, wi, &wm)) return e;
            float c = dot(wo, wm);
            Vec3f fd = dielectric_fresnel(c, inside_);
            // The reverse walk's BSDF: its coat takes coat_normal_from(wi), which is the
            // base's normal where wi is below the coat's surface (make()).
            LobeProbs rev;
            Vec3f rev_coat_n{0.0f, 0.0f, 1.0f};
            if (reverse) {
                rev_coat_n = coat_normal_from(wi);
                rev = lobe_probs(wi, inside_, rev_coat_n);
            }
            if (rough) {
                Vec3f fs = fresnel_schlick_rgb(base_, c) * metallic_ + fd * (1.0f - metallic_);
                e.f += fs * (dist_.d(wm) * dist_.g2(wo, wi) / (4.0f * wo.z * wi.z));
                e.pdf_fwd += p_spec_ * dist_.visible_normal_pdf(wo, wm) * reflection_jacobian(wo, wm);
                if (reverse) e.pdf_rev += rev.spec * dist_.visible_normal_pdf(wi, wm) * reflection_jacobian(wi, wm);
            }
            float kd = (1.0f - metallic_) * (1.0f - transmission_);
            if (base_fresnel_ == GltfBaseFresnel::HalfVector) {
                kd *= 1.0f - max_component(fd);
            } else {
                kd *= (1.0f - max_component(dielectric_fresnel(wo.z, inside_))) *
                      (1.0f - max_component(dielectric_fresnel(wi.z, inside_)));
            }
            // The Lambert lobe's pdf counts wherever sample() can pick it (p_diff_ > 0), also
            // where its value is 0: Fresnel 1 at the half vector, which total internal
            // reflection inside a volume makes for every wi far enough from a steep wo (and
            // ViewAndLight for a grazing wi). Counted only with the value, the pdf fell short
            // of the density sample() draws with, and f / pdf there was the specular lobe's
            // alone, up to 3x too much: every estimator sampling inside a volume of
            // transmission 0.5 read high, up to +15% (pt, camera inside) and +41% (lt, camera
            // outside) at path length 3 (docs/architecture.md, section 11).
            e.f += base_ * (kd * kInvPi);
            e.pdf_fwd += p_diff_ * wi.z * kInvPi;
            if (reverse) e.pdf_rev += rev.diffuse * wo.z * kInvPi;
            if (inside_) return e;
            e.f *= layer_scale(wi.z);
            if (coat_ > 0.0f && !coat_dist_.effectively_smooth()) {
                // The coat: GGX of its own roughness in its own frame, weighted by clearcoat
                // F_c(N_c.V) (not F(V.H)). Nothing where wi is below the coat's surface.
                const Frame cf = Frame::from_z(coat_n_);
                const Vec3f wo_c = cf.to_local(wo), wi_c = cf.to_local(wi), wm_c = cf.to_local(wm);
                if (wo_c.z > 0.0f) {
                    // The coat's pdf counts below the coat's surface too (wi_c.z <= 0), where
                    // its value is 0: a visible normal can reflect wo there, and where the
                    // coat's normal differs from the base's, sample() keeps such a wi above the
                    // base (as the Lambert lobe's pdf counts where Fresnel zeroes its value).
                    // Counted only with the value, the pdf fell short of the density sample()
                    // draws with, and sample()'s weights in that wedge summed to up to 1.7x
                    // evaluate()'s integral (tests/materials/gltf_coat_normal_test.cpp).
                    e.pdf_fwd += p_coat_ * coat_dist_.visible_normal_pdf(wo_c, wm_c) * reflection_jacobian(wo, wm);
                    if (wi_c.z > 0.0f) {
                        e.f += Vec3f(coat_weight(wo, coat_n_, false) * coat_dist_.d(wm_c) * coat_dist_.g2(wo_c, wi_c) /
                                     (4.0f * wo_c.z * wi_c.z));
                    }
                }
                // The reverse walk's coat lies in the frame of its own normal, rev_coat_n
                // (wi is above it), and its pdf counts wherever wo lies, as pdf_fwd's does.
                // Once added only where wi was above this coat's surface, with the lobe
                // probabilities taken at N_c.wi clamped to 0 (F_c = 1: nothing through to the
                // base), the reverse pdf of clearcoat 1 was 0 (the sheen's aside) in the
                // wedge below the coat, and the bidirectional family's MIS weights did not
                // sum to 1 there (tests/materials/gltf_coat_normal_test.cpp).
                if (reverse) {
                    const Frame rf = Frame::from_z(rev_coat_n);
                    e.pdf_rev += rev.coat * coat_dist_.visible_normal_pdf(rf.to_local(wi), rf.to_local(wm)) *
                                 reflection_jacobian(wi, wm);
                }
            }
            if (sheen_max_ > 0.0f) {
                e.f += sheen_ * sheen_lobe(wo, wi, sheen_alpha_);
                e.pdf_fwd += p_sheen_ * wi.z * kInvPi;
                if (reverse) e.pdf_rev += rev.sheen * wo.z * kInvPi;
            }
            return e;
        }
        if (trans_smooth_ || transmission_ == 0.0f || metallic_ == 1.0f) return e;
        Vec3f wm;
        float c, value, pdf_fwd, pdf_rev = 0.0f;
        if (thin_) {
            // The BRDF mirrored through the surface: wi' = wi reflected to wo's side.
            Vec3f wi_m(wi.x, wi.y, -wi.z);
            if (!reflection_half_vector(wo, wi_m, &wm)) return e;
            c = dot(wo, wm);
            // KHR_materials_transmission's separable masking G1(V) G1(L) (not the height-correlated G2).
            value = dist_.d(wm) * dist_.g1(wo) * dist_.g1(wi_m) / (4.0f * wo.z * wi_m.z);
            pdf_fwd = dist_.visible_normal_pdf(wo, wm) * reflection_jacobian(wo, wm);
            if (reverse) pdf_rev = dist_.visible_normal_pdf(wi_m, wm) * reflection_jacobian(wi_m, wm);
        } else {
            const float etap = eta_;  // eta on wi's side / eta on wo's side
            if (!refraction_half_vector(wo, wi, etap, &wm)) return e;
            c = dot(wo, wm);
            if (!(c > 0.0f) || !(dot(wi, wm) < 0.0f)) return e;  // back-facing microfacet
            float denom = dot(wi, wm) + c / etap;
            value = dist_.d(wm) * dist_.g2(wo, wi) * fabsf(dot(wi, wm)) * c / (wo.z * fabsf(wi.z) * denom * denom);
            if (camera_path_) value /= etap * etap;
            pdf_fwd = dist_.visible_normal_pdf(wo, wm) * refraction_jacobian(wo, wi, wm, etap);
            if (reverse) pdf_rev = dist_.visible_normal_pdf(wi, wm) * refraction_jacobian(wi, wo, wm, 1.0f / etap);
        }
        float kt = (1.0f - metallic_) * transmission_ * (1.0f - max_component(dielectric_fresnel(c, inside_))) *
                   layer_scale(wi.z);
        e.f = base_ * (kt * value);
        e.pdf_fwd = p_trans_ * pdf_fwd;
        // The reverse walk leaves from wi's side: for a volume, the other one.
        // The reverse BSDF's frame is this one flipped: wi there is -wi here.
        if (reverse) e.pdf_rev = lobe_probs(-wi, thin_ ? false : !inside_, coat_normal_from(-wi)).trans * pdf_rev;
        return e;
    }

    Frame frame_{};
    Vec3f local_fix_{0.0f, 0.0f, 1.0f};  // toward where the ray came from, in frame_ (z > 0)
    Vec3f geometric_normal_{0.0f, 0.0f, 1.0f};  // world, flipped to the arriving side
    Vec3f base_{0.0f};
    Vec3f f0_{0.0f};  // dielectric f0, tinted by specular_color, before the specular factor
    GgxDistribution dist_{};
    GgxDistribution coat_dist_{};
    Vec3f sheen_{0.0f};  // sheen colour
    float sheen_max_ = 0.0f, sheen_alpha_ = 1.0f;
    float coat_ = 0.0f;  // clearcoat factor
    Vec3f coat_n_{0.0f, 0.0f, 1.0f};  // the normal this BSDF's coat takes, in frame_ (z > 0 side of V)
    // The coat's own normal in frame_, oriented as the frame normal, whether V is above it
    // or not (then coat_n_ is the frame normal); (0, 0, 1) without one.
    Vec3f coat_normal_{0.0f, 0.0f, 1.0f};
    float p_coat_ = 0.0f, p_sheen_ = 0.0f;
    float metallic_ = 0.0f, transmission_ = 0.0f, specular_ = 0.0f;
    float ior_ = 1.0f;  // eta_inside / eta_outside of a volume (>= 1)
    float eta_ = 1.0f;  // eta beyond the surface / eta on the arriving side (volume)
    float p_spec_ = 0.0f, p_diff_ = 0.0f, p_trans_ = 0.0f;
    float continuation_prob_ = 0.0f;
    bool valid_ = false;
    bool delta_ = true;
    bool thin_ = true;
    bool front_ = true;          // arrived on the side the geometric normal points to
    bool inside_ = false;        // arrived from inside a volume (never for thin walls)
    bool trans_smooth_ = true;   // transmission is a delta lobe
    bool camera_path_ = true;
    GltfBaseFresnel base_fresnel_ = GltfBaseFresnel::HalfVector;
};

}  // namespace wf
