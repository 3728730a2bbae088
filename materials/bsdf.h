// SmallVCM's BSDF: Lambert + normalised Phong + Fresnel-weighted mirror + smooth glass,
// one lobe picked per sample by albedo. Reproduces SmallVCM's bsdf.hxx semantics (lobe
// probabilities, pdfs, Russian roulette probability, grazing rejection), so images and
// MIS weights match its renders.
//
// Direction conventions (as SmallVCM, "Fix" and "Gen"):
// - The fixed direction is the one the path arrived along, stored pointing BACK toward
//   where the ray came from: dir_fix = -ray_dir. On a camera path it is the direction
//   toward the camera (the radiance-outgoing direction); on a light path it points toward
//   the light (the importance-outgoing direction).
// - The generated direction `wi_world` (sampled or passed to evaluate) points AWAY from
//   the surface, along the next ray of the path.
// - cos values are |cos| against the local frame normal.
// - BsdfEval::pdf_fwd_w: solid-angle density of generating wi given dir_fix;
//   BsdfEval::pdf_rev_w: density of generating dir_fix given wi (the reverse walk).
//   Both include the lobe-selection probabilities, neither includes Russian roulette.
//
// Estimators: the path throughput is multiplied by factor * cos_out / pdf_w. For the
// specular lobes (mirror, glass) `factor` already holds weight / |cos_out| and pdf_w is the
// discrete lobe probability, so the same formula applies (SmallVCM convention).
//
// Lobes: diffuse kd/pi; Phong ks (n+2)/(2 pi) cos^n(alpha) (zero for cos alpha <= 1e-3);
// mirror F km; refraction (1 - F), NOT scaled by km (SmallVCM; km only scales reflection).
// Lobe probabilities are proportional to luminance(kd), luminance(ks), F luminance(km) and
// (1 - F)[ior > 0]. A non-delta sample adds the other non-delta lobe's value and pdf.
//
// Sidedness: the frame normal is the geometric normal. With Material::two_sided == 1 it is
// flipped to the side the ray came from, so diffuse and Phong respond from both sides.
// With two_sided == 0 (SmallVCM) the diffuse and Phong lobes are zero when the ray arrives
// from behind the geometric normal; the mirror and glass lobes are unaffected, and a
// material with no specular lobe is then invalid (is_valid() == false), which is what
// SmallVCM's all-zero samples and evaluations amount to. Glass always decides inside vs.
// outside from the geometric normal (the side the normal points to is outside, IOR 1).
//
// The "Ray Tracing in One Weekend" materials (Material::type, materials/rtiow_lobes.h) use
// the same lobe slots with other shapes: rtiow_lambertian's diffuse lobe is cos^3 (value
// kd 2 cos^2 / pi), rtiow_metal's glossy lobe is the fuzz ball about the mirror direction
// (value ks p / cos, p its density, in place of Phong), rtiow_dielectric's glass uses
// Schlick's reflectance. These lobes are not reciprocal, and are right on camera paths
// only: engine/integrators.h lets only pt render them.
//
// One knowing departure, selectable: SmallVCM keeps Phong samples that land below the
// surface (evaluate() calls them 0). PhongHorizon::Reject (default) drops them so that
// sample() and evaluate() agree; PhongHorizon::SmallVcm reproduces SmallVCM exactly.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "materials/bsdf_records.h"
#include "materials/fresnel.h"
#include "materials/rtiow_lobes.h"
#include "materials/sampling.h"

namespace wf {

// Phong samples with cos(angle to the mirror direction) <= this are rejected (SmallVCM EPS_PHONG).
inline constexpr float kEpsPhong = 1e-3f;

// How Phong samples that fall below the surface are treated.
enum class PhongHorizon : uint32_t {
    Reject = 0,    // rejected (factor 0), so sample() agrees with evaluate() and pdfs integrate
    SmallVcm = 1,  // kept, as SmallVCM's SamplePhong does (evaluate() still returns 0 there):
                   // near-grazing glossy hits then send a few paths through the surface
};

class Bsdf {
public:
    // ray_dir_world: unit direction the arriving ray travelled along (toward the hit).
    // geometric_normal: unit geometric normal of the hit primitive (not flipped).
    // camera_path: true on camera (eye) sub-paths; scales refraction by (eta_i/eta_t)^2.
    WF_HD static Bsdf make(const Material& m, Vec3f ray_dir_world, Vec3f geometric_normal,
                           bool camera_path, PhongHorizon phong_horizon = PhongHorizon::Reject) {
        Bsdf b;
        float cos_geo = -dot(ray_dir_world, geometric_normal);  // > 0: arrives on the normal's side
        // The reflectances (and eta's sign: refraction) before any rejection, so that
        // albedo() describes the material even where the BSDF is invalid.
        b.kd_ = m.kd;
        b.ks_ = m.ks;
        b.km_ = m.km;
        b.eta_ = cos_geo < 0.0f ? m.ior : 1.0f / m.ior;
        // Reject rays too parallel to the tangent plane.
        if (!(fabsf(cos_geo) >= kEpsCosine)) return b;

        Vec3f n = geometric_normal;
        if (m.two_sided != 0 && cos_geo < 0.0f) n = -n;
        b.frame_ = Frame::from_z(n);
        b.local_fix_ = b.frame_.to_local(-ray_dir_world);

        b.phong_exponent_ = m.phong_exponent;
        b.camera_path_ = camera_path;
        b.phong_horizon_ = phong_horizon;

        // Lobe probabilities proportional to albedo (luminance); refraction albedo is 1.
        b.diffuse_cos3_ = m.type == MaterialType::RtiowLambertian;
        b.fuzz_ = m.type == MaterialType::RtiowMetal ? m.fuzz : 0.0f;
        b.fresnel_ = m.type == MaterialType::RtiowDielectric ? fresnel_schlick(cos_geo, m.ior)
                                                             : fresnel_dielectric(cos_geo, m.ior);
        float a_diffuse = luminance(m.kd);
        float a_phong = luminance(m.ks);
        float a_reflect = b.fresnel_ * luminance(m.km);
        float a_refract = m.ior > 0.0f ? 1.0f - b.fresnel_ : 0.0f;
        float total = a_diffuse + a_phong + a_reflect + a_refract;
        if (total >= 1e-9f) {
            float inv = 1.0f / total;
            b.prob_diffuse_ = a_diffuse * inv;
            b.prob_phong_ = a_phong * inv;
            b.prob_reflect_ = a_reflect * inv;
            b.prob_refract_ = a_refract * inv;
            // Max reflectance component, so a path's weight never grows through RR
            // (F = 1 without IOR, so the refraction term vanishes there).
            b.continuation_prob_ =
                clampf(max_component(m.kd + m.ks + b.fresnel_ * m.km) + (1.0f - b.fresnel_), 0.0f, 1.0f);
        }
        b.delta_ = b.prob_diffuse_ == 0.0f && b.prob_phong_ == 0.0f;

        // One-sided surface seen from behind: only the specular lobes could respond.
        bool back_one_sided = m.two_sided == 0 && cos_geo < 0.0f;
        b.valid_ = !(back_one_sided && b.prob_reflect_ == 0.0f && b.prob_refract_ == 0.0f);
        return b;
    }

    WF_HD bool is_valid() const { return valid_; }
    // No non-delta lobe: evaluate() is always 0, and sample() returns only specular samples.
    WF_HD bool is_delta() const { return delta_; }
    // Russian roulette survival probability, clamp(max(kd + ks + F km) + (1 - F), 0, 1).
    WF_HD float continuation_prob() const { return continuation_prob_; }
    // The continuation probability for a walk arriving from wi_world (see GltfBsdf): the
    // same as continuation_prob(), as in SmallVCM. It is the same for every direction
    // unless a material mixes diffuse or glossy lobes with Fresnel-weighted glass (km with
    // an ior), which none of SmallVCM's scenes do; there, like the lobe probabilities of the
    // reverse pdf, it is the arriving direction's.
    WF_HD float continuation_prob_from(Vec3f) const { return continuation_prob_; }
    // |cos| between the arriving direction and the frame normal.
    WF_HD float cos_theta_fix() const { return fabsf(local_fix_.z); }
    // Unit direction back toward where the ray came from (= -ray_dir_world).
    WF_HD Vec3f world_dir_fix() const { return frame_.to_world(local_fix_); }
    // Frame normal: the geometric normal, flipped to the arriving side on two-sided materials.
    WF_HD Vec3f normal() const { return frame_.z; }
    WF_HD const Frame& frame() const { return frame_; }
    WF_HD float fresnel() const { return fresnel_; }
    // The material's reflectance colour for the albedo AOV (engine/aov.h): diffuse + glossy
    // + mirror, refraction counting as 1 (a clear glass is white), clamped to [0, 1]. Defined
    // for invalid BSDFs too (grazing or back-side hits): it describes the material.
    WF_HD Vec3f albedo() const {
        const Vec3f a = kd_ + ks_ + km_ + Vec3f(eta_ > 0.0f ? 1.0f : 0.0f);
        return {clampf(a.x, 0.0f, 1.0f), clampf(a.y, 0.0f, 1.0f), clampf(a.z, 0.0f, 1.0f)};
    }

    // Picks a lobe with u2, samples a direction with (u0, u1).
    WF_HD BsdfSample sample(float u0, float u1, float u2) const {
        BsdfSample s;
        if (!valid_) return s;
        Vec3f local;
        Vec3f factor{0.0f};
        float pdf = 0.0f;
        if (u2 < prob_diffuse_ && diffuse_cos3_) {
            if (local_fix_.z < kEpsCosine) return s;
            local = sample_rtiow_lambertian(u0, u1);
            add_diffuse(local, &factor, &pdf, nullptr);
            add_phong(local, &factor, &pdf, nullptr);
        } else if (u2 < prob_diffuse_) {
            if (local_fix_.z < kEpsCosine) return s;
            local = sample_cos_hemisphere(u0, u1);
            pdf = prob_diffuse_ * cos_hemisphere_pdf_w(local.z);
            factor = kd_ * kInvPi;
            add_phong(local, &factor, &pdf, nullptr);
        } else if (u2 < prob_diffuse_ + prob_phong_ && fuzz_ > 0.0f) {
            if (local_fix_.z < kEpsCosine) return s;
            // u2 chose this lobe; rescaled to [0, 1) it is a fresh number for the ball's radius.
            float u_radius = (u2 - prob_diffuse_) / prob_phong_;
            local = sample_rtiow_fuzz(reflect_local(local_fix_), fuzz_, u0, u1, u_radius);
            if (local.z < kEpsCosine) return s;  // below the surface: absorbed, as the book does
            add_phong(local, &factor, &pdf, nullptr);
            add_diffuse(local, &factor, &pdf, nullptr);
        } else if (u2 < prob_diffuse_ + prob_phong_) {
            if (local_fix_.z < kEpsCosine) return s;
            Vec3f r = reflect_local(local_fix_);
            local = Frame::from_z(r).to_world(sample_power_cos_hemisphere(u0, u1, phong_exponent_));
            if (phong_horizon_ == PhongHorizon::Reject && local.z < kEpsCosine) return s;
            float cos_r = dot(r, local);
            if (cos_r <= kEpsPhong) return s;
            // pdf recomputed from the direction, exactly as evaluate() does (MIS consistency).
            phong_lobe(cos_r, &factor, &pdf, nullptr);
            add_diffuse(local, &factor, &pdf, nullptr);
        } else if (u2 < prob_diffuse_ + prob_phong_ + prob_reflect_) {
            local = reflect_local(local_fix_);
            pdf = prob_reflect_;
            // The estimator multiplies by cos; a mirror must not, so divide here.
            factor = km_ * (fresnel_ / fabsf(local.z));
            s.specular = true;
        } else {
            if (prob_refract_ == 0.0f) return s;
            if (!refract_local(local_fix_, eta_, &local)) return s;  // total internal reflection
            pdf = prob_refract_;
            // Radiance is compressed by (eta_i/eta_t)^2 crossing the interface; only camera
            // paths carry radiance (light paths carry importance, which is not scaled).
            float w = 1.0f - fresnel_;
            if (camera_path_) w *= eta_ * eta_;
            factor = Vec3f(w / fabsf(local.z));
            s.specular = true;
        }
        float cos_out = fabsf(local.z);
        if (cos_out < kEpsCosine || is_black(factor)) return BsdfSample{};
        s.factor = factor;
        s.wi_world = frame_.to_world(local);
        s.pdf_w = pdf;
        s.cos_out = cos_out;
        return s;
    }

    // Non-delta lobes for a given generated direction (e.g. toward a light or a light vertex).
    WF_HD BsdfEval evaluate(Vec3f wi_world) const {
        BsdfEval e;
        if (!valid_) return e;
        Vec3f local = frame_.to_local(wi_world);
        if (local.z * local_fix_.z < 0.0f) return e;  // no non-delta transmission
        e.cos_out = fabsf(local.z);
        add_diffuse(local, &e.factor, &e.pdf_fwd_w, &e.pdf_rev_w);
        add_phong(local, &e.factor, &e.pdf_fwd_w, &e.pdf_rev_w);
        return e;
    }

private:
    // Lambert lobe: value kd/pi (rtiow: kd 2 cos^2 / pi); pdfs include the lobe probability.
    WF_HD void add_diffuse(Vec3f local, Vec3f* f, float* pdf_fwd, float* pdf_rev) const {
        if (prob_diffuse_ == 0.0f) return;
        if (local_fix_.z < kEpsCosine || local.z < kEpsCosine) return;
        if (diffuse_cos3_) {
            *f += kd_ * (2.0f * kInvPi * local.z * local.z);
            *pdf_fwd += prob_diffuse_ * rtiow_lambertian_pdf_w(local.z);
            if (pdf_rev) *pdf_rev += prob_diffuse_ * rtiow_lambertian_pdf_w(local_fix_.z);
            return;
        }
        *f += kd_ * kInvPi;
        *pdf_fwd += prob_diffuse_ * local.z * kInvPi;
        if (pdf_rev) *pdf_rev += prob_diffuse_ * local_fix_.z * kInvPi;
    }

    // Modified normalised Phong: ks (n+2)/(2 pi) cos^n(alpha), alpha to the mirror direction;
    // sampled with a cos^n lobe, a density symmetric in the two directions.
    WF_HD void add_phong(Vec3f local, Vec3f* f, float* pdf_fwd, float* pdf_rev) const {
        if (prob_phong_ == 0.0f) return;
        if (local_fix_.z < kEpsCosine || local.z < kEpsCosine) return;
        if (fuzz_ > 0.0f) {
            fuzz_lobe(local, f, pdf_fwd, pdf_rev);
            return;
        }
        float cos_r = dot(reflect_local(local_fix_), local);
        if (cos_r <= kEpsPhong) return;
        phong_lobe(cos_r, f, pdf_fwd, pdf_rev);
    }

    // rtiow metal: value ks p / cos, so that value * cos / p = ks (the book's weight). The
    // density depends only on the angle to the mirror direction: the same in reverse.
    WF_HD void fuzz_lobe(Vec3f local, Vec3f* f, float* pdf_fwd, float* pdf_rev) const {
        float p = rtiow_fuzz_pdf_w(local, reflect_local(local_fix_), fuzz_);
        if (!(p > 0.0f)) return;
        *f += ks_ * (p / local.z);
        *pdf_fwd += prob_phong_ * p;
        if (pdf_rev) *pdf_rev += prob_phong_ * p;
    }

    // Value and pdf of the Phong lobe at cos(alpha) = cos_r > kEpsPhong.
    WF_HD void phong_lobe(float cos_r, Vec3f* f, float* pdf_fwd, float* pdf_rev) const {
        float lobe = powf(cos_r, phong_exponent_);
        float pdf = prob_phong_ * (phong_exponent_ + 1.0f) * lobe * (0.5f * kInvPi);
        *f += ks_ * ((phong_exponent_ + 2.0f) * (0.5f * kInvPi) * lobe);
        *pdf_fwd += pdf;
        if (pdf_rev) *pdf_rev += pdf;
    }

    Frame frame_{};
    Vec3f local_fix_{0.0f, 0.0f, 1.0f};  // toward where the ray came from, in frame_
    Vec3f kd_{0.0f}, ks_{0.0f}, km_{0.0f};
    float phong_exponent_ = 1.0f;
    float fuzz_ = 0.0f;          // > 0: the glossy lobe is rtiow's fuzz ball, not Phong
    bool diffuse_cos3_ = false;  // the diffuse lobe is rtiow's cos^3 lambertian
    float eta_ = 1.0f;      // eta on the arriving side / eta on the other side (glass)
    float fresnel_ = 1.0f;  // F for the arriving direction; 1 without IOR
    float prob_diffuse_ = 0.0f, prob_phong_ = 0.0f, prob_reflect_ = 0.0f, prob_refract_ = 0.0f;
    float continuation_prob_ = 0.0f;
    PhongHorizon phong_horizon_ = PhongHorizon::Reject;
    bool valid_ = false;
    bool delta_ = true;
    bool camera_path_ = true;
};

}  // namespace wf
