// The scene's microfacet material types (engine/scene_types.h MaterialType): a rough
// conductor, a rough dielectric interface and a thin dielectric slab, each one lobe of
// materials/microfacet.h placed in the world with the conventions of materials/bsdf.h
// (dir_fix, pdfs with lobe choice, a delta lobe's factor holding weight / |cos|). Host and
// device code.
//
//   RoughConductor   MicrofacetConductor: GGX, height-correlated Smith G2, Schlick's
//                    Fresnel from F0 = Material::km; reflects from either side.
//   RoughDielectric  MicrofacetDielectric: Walter et al. 2007 with the exact Fresnel
//                    reflectance; the side the geometric normal points to is outside
//                    (index 1), the other inside (index Material::ior).
//   ThinDielectric   ThinDielectric: two parallel smooth interfaces, light leaving on
//                    either side unbent; delta lobes only.
// alpha = roughness^2 (Material::roughness, perceptual, as glTF); below kGgxSmoothAlpha a
// lobe is a delta lobe (a mirror, smooth glass).
//
// Frame: the geometric normal flipped to the side the ray arrived from, as Bsdf's
// two-sided materials (the mesh's shading normals are not used, as for every JSON
// material type, so no shading-normal adjoint correction is needed; the refraction's
// adjoint on light paths is the camera_path flag below). In this
// frame the fixed direction is always above the surface (local z > 0), and a dielectric's
// relative index eta = eta_below / eta_above is ior arriving from outside, 1 / ior from
// inside. On camera paths, transmitted radiance is scaled by 1 / etap^2 (microfacet.h);
// light paths carry importance, which is not.
//
// Russian roulette: for the conductor the largest component of Schlick's F at the
// arriving direction's |cos| (that of a mirror of its F0: an estimate of the weight a
// sample keeps), at least kMicrofacetMinContinuation; the same rule read at the other end
// gives continuation_prob_from. The floor keeps a dark metal seen head-on from ending
// nearly every path (F0 = 0 gives F = 0 along the normal, yet rough facets reflect
// there), which would leave the survivors heavy and drop next-event estimation. 1 for the
// dielectrics, which absorb nothing.
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "materials/bsdf_records.h"
#include "materials/microfacet.h"
#include "materials/sampling.h"

namespace wf {

// Russian roulette never ends more than this share of the paths at a conductor (see top).
inline constexpr float kMicrofacetMinContinuation = 0.1f;

class MicrofacetBsdf {
public:
    // m: a RoughConductor, RoughDielectric or ThinDielectric record.
    // ray_dir_world: unit direction the arriving ray travelled along (toward the hit).
    // geometric_normal: unit geometric normal of the hit primitive (not flipped).
    // camera_path: true on camera sub-paths (radiance: refraction scaled by 1 / etap^2).
    WF_HD static MicrofacetBsdf make(const Material& m, Vec3f ray_dir_world, Vec3f geometric_normal,
                                     bool camera_path) {
        MicrofacetBsdf b;
        b.type_ = m.type;
        b.f0_ = Vec3f(clampf(m.km.x, 0.0f, 1.0f), clampf(m.km.y, 0.0f, 1.0f), clampf(m.km.z, 0.0f, 1.0f));
        const float cos_geo = -dot(ray_dir_world, geometric_normal);  // > 0: arrives from outside
        if (!(fabsf(cos_geo) >= kEpsCosine)) return b;  // grazing: invalid, as Bsdf
        const bool front = cos_geo > 0.0f;
        b.frame_ = Frame::from_z(front ? geometric_normal : -geometric_normal);
        b.local_fix_ = b.frame_.to_local(-ray_dir_world);
        b.local_fix_.z = fmaxf(b.local_fix_.z, kEpsCosine);
        const float ior = m.ior > 0.0f ? m.ior : 1.0f;
        b.eta_ = type_uses_side(m.type) ? (front ? ior : 1.0f / ior) : ior;
        const float alpha = GgxDistribution::roughness_to_alpha(clampf(m.roughness, 0.0f, 1.0f));
        b.dist_ = GgxDistribution(alpha, alpha);
        b.camera_path_ = camera_path;
        b.valid_ = true;
        b.continuation_prob_ = b.continuation_at(b.local_fix_.z);
        // Delta: only delta lobes. (A conductor of F0 = 0 is not black: Schlick's F rises to
        // 1 at grazing angles.)
        switch (m.type) {
            case MaterialType::RoughConductor: b.delta_ = MicrofacetConductor(b.dist_, b.f0_).is_delta(); break;
            case MaterialType::RoughDielectric:
                b.delta_ = MicrofacetDielectric(b.dist_, b.eta_, camera_path).is_delta();
                break;
            default: b.delta_ = true;
        }
        return b;
    }

    WF_HD bool is_valid() const { return valid_; }
    // No non-delta lobe: evaluate() is always 0, and sample() returns only delta samples.
    WF_HD bool is_delta() const { return delta_; }
    WF_HD float continuation_prob() const { return continuation_prob_; }
    // The continuation probability of the BSDF a walk arriving from wi_world would make
    // here (the reverse walk): the same rule at wi's cosine (see top).
    WF_HD float continuation_prob_from(Vec3f wi_world) const {
        if (!valid_) return 0.0f;
        return continuation_at(fabsf(dot(wi_world, frame_.z)));
    }
    // |cos| between the arriving direction and the frame normal.
    WF_HD float cos_theta_fix() const { return local_fix_.z; }
    // Unit direction back toward where the ray came from (= -ray_dir_world).
    WF_HD Vec3f world_dir_fix() const { return frame_.to_world(local_fix_); }
    // Frame normal: the geometric normal on the arriving side.
    WF_HD Vec3f normal() const { return frame_.z; }
    // For the albedo AOV (engine/aov.h): a conductor's F0, a dielectric's 1 (clear glass is
    // white). Defined for invalid BSDFs too.
    WF_HD Vec3f albedo() const { return type_ == MaterialType::RoughConductor ? f0_ : Vec3f(1.0f); }

    // The conductor samples visible normals with (u0, u1); the dielectrics choose
    // reflection or transmission with u2.
    WF_HD BsdfSample sample(float u0, float u1, float u2) const {
        BsdfSample s;
        if (!valid_) return s;
        LobeSample ls;
        switch (type_) {
            case MaterialType::RoughConductor: ls = MicrofacetConductor(dist_, f0_).sample(local_fix_, u0, u1); break;
            case MaterialType::RoughDielectric:
                ls = MicrofacetDielectric(dist_, eta_, camera_path_).sample(local_fix_, u0, u1, u2);
                break;
            default: ls = ThinDielectric(eta_).sample(local_fix_, u0, u1, u2);
        }
        const float cos_out = fabsf(ls.wi.z);
        if (!(ls.pdf > 0.0f) || is_black(ls.f) || cos_out < kEpsCosine) return s;
        s.factor = ls.f;
        s.wi_world = frame_.to_world(ls.wi);
        s.pdf_w = ls.pdf;
        s.cos_out = cos_out;
        s.specular = ls.delta;
        return s;
    }

    // The non-delta lobe for a given generated direction (reflection, and for the rough
    // dielectric transmission too).
    WF_HD BsdfEval evaluate(Vec3f wi_world) const {
        BsdfEval e;
        if (!valid_ || delta_) return e;
        const Vec3f wi = frame_.to_local(wi_world);
        if (!(fabsf(wi.z) >= kEpsCosine)) return e;  // as sample() refuses it
        LobeEval le;
        if (type_ == MaterialType::RoughConductor) le = MicrofacetConductor(dist_, f0_).evaluate(local_fix_, wi);
        else le = MicrofacetDielectric(dist_, eta_, camera_path_).evaluate(local_fix_, wi);
        if (!(le.pdf_fwd > 0.0f)) return e;
        e.factor = le.f;
        e.cos_out = fabsf(wi.z);
        e.pdf_fwd_w = le.pdf_fwd;
        e.pdf_rev_w = le.pdf_rev;
        return e;
    }

private:
    // The rough dielectric's index depends on the side the ray arrives from; a thin slab's
    // does not (the same medium on both sides).
    WF_HD static bool type_uses_side(MaterialType t) { return t == MaterialType::RoughDielectric; }

    WF_HD float continuation_at(float cos_theta) const {
        if (type_ != MaterialType::RoughConductor) return 1.0f;
        return clampf(max_component(fresnel_schlick_rgb(f0_, cos_theta)), kMicrofacetMinContinuation, 1.0f);
    }

    Frame frame_{};
    Vec3f local_fix_{0.0f, 0.0f, 1.0f};  // toward where the ray came from, in frame_ (z > 0)
    Vec3f f0_{0.0f};                     // conductor: reflectance at normal incidence
    GgxDistribution dist_{};
    float eta_ = 1.0f;  // dielectric: eta_below / eta_above in frame_; thin: the slab's index
    float continuation_prob_ = 0.0f;
    MaterialType type_ = MaterialType::RoughConductor;
    bool camera_path_ = true;
    bool valid_ = false;
    bool delta_ = true;
};

}  // namespace wf
