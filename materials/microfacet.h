// Microfacet scattering with the Trowbridge-Reitz (GGX) distribution, and the lobes built
// on it: a rough conductor with Schlick's Fresnel, a rough dielectric (Walter et al. 2007,
// as pbrt-v4's DielectricBxDF) and pbrt-v4's thin dielectric. Host and device code.
//
// Conventions (shared with materials/bsdf.h, whose top comment is the contract):
// - Local frame: the macro-surface normal is +z. Every direction is a unit vector pointing
//   AWAY from the surface. `wo` is the fixed direction (Bsdf's dir_fix: toward the camera on
//   camera paths, toward the light on light paths); `wi` is the generated one.
// - Microfacet normals `wm` are always on the +z side (wm.z >= 0), as in pbrt-v4, whichever
//   side wo is on; formulas take |w . wm| where the side does not matter.
// - A lobe's value `f` excludes the cosine. A delta lobe returns f = weight / |wi.z| and, as
//   pdf, the discrete probability of that branch within the lobe (1 for a single branch), so
//   that f |cos| / pdf is the sample weight, as in Bsdf. The caller multiplies in its own
//   lobe-selection probability.
// - `eta` of a dielectric is the relative index eta_below / eta_above (below: the -z side).
//   Radiance crossing into a denser medium is compressed by (eta_o / eta_i)^2 (pbrt-v4
//   4e 9.5.2); only camera paths carry radiance, so the scaling is applied when
//   `camera_path` is true, with the meaning Bsdf::make gives the flag.
//
// References:
// - Trowbridge, Reitz 1975; Walter, Marschner, Li, Torrance, "Microfacet Models for
//   Refraction through Rough Surfaces", EGSR 2007 (GGX, generalized half vector, Jacobians).
// - Heitz, "Understanding the Masking-Shadowing Function in Microfacet-Based BRDFs",
//   JCGT 2014 (Lambda, height-correlated Smith G2).
// - Heitz, "Sampling the GGX Distribution of Visible Normals", JCGT 2018, and Dupuy,
//   Benyoub, "Sampling Visible GGX Normals with Spherical Caps", HPG 2023 (the sampler here).
// - Pharr, Jakob, Humphreys, pbrt-v4, sections 9.5-9.7 (TrowbridgeReitzDistribution,
//   ConductorBxDF, DielectricBxDF, ThinDielectricBxDF, EffectivelySmooth).
// - Schlick, "An Inexpensive BRDF Model for Physically-based Rendering", 1994.
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"
#include "materials/fresnel.h"

namespace wf {

// Below this roughness alpha a lobe is a delta lobe (pbrt-v4's EffectivelySmooth): the GGX
// peak would be too narrow for float sampling and evaluation to agree.
inline constexpr float kGgxSmoothAlpha = 1e-3f;

// Smallest alpha used in the formulas (a rough anisotropic lobe may have one alpha below
// the smoothness threshold); keeps 1/alpha finite. Smoothness is decided before clamping.
inline constexpr float kGgxMinAlpha = 1e-4f;

// ---- The distribution -----------------------------------------------------------------
// D(wm) = 1 / (pi ax ay ((x/ax)^2 + (y/ay)^2 + z^2)^2), normalised so that the projected
// microfacet area equals the macro-surface's: integral of D(wm) wm.z dwm = 1.
class GgxDistribution {
public:
    WF_HD GgxDistribution() {}
    WF_HD GgxDistribution(float alpha_x, float alpha_y)
        : smooth_(fmaxf(alpha_x, alpha_y) < kGgxSmoothAlpha),
          ax_(fmaxf(alpha_x, kGgxMinAlpha)),
          ay_(fmaxf(alpha_y, kGgxMinAlpha)) {}

    // glTF and most assets: alpha = roughness^2 (Burley 2012).
    WF_HD static float roughness_to_alpha(float roughness) { return roughness * roughness; }

    WF_HD bool effectively_smooth() const { return smooth_; }
    WF_HD float alpha_x() const { return ax_; }
    WF_HD float alpha_y() const { return ay_; }

    // Microfacet normal density (per steradian of wm); zero below the horizon.
    WF_HD float d(Vec3f wm) const {
        if (!(wm.z > 0.0f)) return 0.0f;
        float x = wm.x / ax_, y = wm.y / ay_;
        float s = x * x + y * y + wm.z * wm.z;
        return 1.0f / (kPi * ax_ * ay_ * s * s);
    }

    // Smith's Lambda: (sqrt(1 + alpha(phi)^2 tan^2 theta) - 1) / 2, written as
    // a / (2 (1 + sqrt(1 + a))) with a = alpha^2 tan^2, which does not cancel for small a.
    // Symmetric in the side of w (depends on w.z^2 only).
    WF_HD float lambda(Vec3f w) const {
        float z2 = w.z * w.z;
        if (!(z2 > 0.0f)) return kInfinity;
        float a = (ax_ * ax_ * w.x * w.x + ay_ * ay_ * w.y * w.y) / z2;
        return 0.5f * a / (1.0f + sqrtf(1.0f + a));
    }

    // Masking of one direction.
    WF_HD float g1(Vec3f w) const { return 1.0f / (1.0f + lambda(w)); }

    // Height-correlated Smith masking-shadowing (Heitz 2014, eq. 99), used for reflection
    // and, as pbrt-v4 does, for transmission.
    WF_HD float g2(Vec3f wo, Vec3f wi) const { return 1.0f / (1.0f + lambda(wo) + lambda(wi)); }

    // Density of visible normals seen from w: D_w(wm) = G1(w) max(0, w' . wm) D(wm) / |w.z|,
    // w' = w mirrored to the +z side (w' = -w when w.z < 0). Integrates to 1 over wm.
    WF_HD float visible_normal_pdf(Vec3f w, Vec3f wm) const {
        float cos_w = fabsf(w.z);
        if (!(cos_w > 0.0f)) return 0.0f;
        float c = dot(w, wm);
        if (w.z < 0.0f) c = -c;
        if (!(c > 0.0f)) return 0.0f;
        return g1(w) * c * d(wm) / cos_w;
    }

    // Samples D_w (Dupuy & Benyoub 2023): stretch w to the alpha = 1 configuration, where the
    // visible normals are a spherical cap about the stretched w, sample that cap uniformly,
    // unstretch the normal. A lower-hemisphere w is mirrored (-w): the returned wm (z >= 0)
    // is then a normal seen from below, which is what D_w above describes.
    WF_HD Vec3f sample_visible_normal(Vec3f w, float u0, float u1) const {
        if (w.z < 0.0f) w = -w;
        Vec3f ws = normalize(Vec3f(ax_ * w.x, ay_ * w.y, w.z));
        float phi = 2.0f * kPi * u0;
        float z = (1.0f - u1) * (1.0f + ws.z) - ws.z;
        float sin_theta = sqrtf(clampf(1.0f - z * z, 0.0f, 1.0f));
        Vec3f h(sin_theta * cosf(phi) + ws.x, sin_theta * sinf(phi) + ws.y, z + ws.z);
        return normalize(Vec3f(ax_ * h.x, ay_ * h.y, fmaxf(h.z, 0.0f)));
    }

private:
    bool smooth_ = true;
    float ax_ = kGgxMinAlpha, ay_ = kGgxMinAlpha;
};

// ---- Fresnel, reflection, refraction about a microfacet ----------------------------------

// Schlick's approximation with an RGB reflectance at normal incidence and f90 = 1.
// cos_theta: |cos| of the angle between the incident direction and the (micro)normal.
WF_HD_INLINE Vec3f fresnel_schlick_rgb(Vec3f f0, float cos_theta) {
    float m = 1.0f - clampf(cos_theta, 0.0f, 1.0f);
    float m2 = m * m;
    return f0 + (Vec3f(1.0f) - f0) * (m2 * m2 * m);
}

// Mirror of w about the unit normal m (either orientation).
WF_HD_INLINE Vec3f reflect_about(Vec3f w, Vec3f m) { return 2.0f * dot(w, m) * m - w; }

// Refraction of w about the unit normal m (pbrt-v4's Refract). eta = eta behind m / eta
// in front of m (eta_below / eta_above for m on the +z side). w may be on either side. On success *etap = eta_transmitted / eta_incident. False under total
// internal reflection.
WF_HD_INLINE bool refract_about(Vec3f w, Vec3f m, float eta, Vec3f* wt, float* etap) {
    float cos_i = dot(m, w);
    if (cos_i < 0.0f) {
        eta = 1.0f / eta;
        cos_i = -cos_i;
        m = -m;
    }
    float sin2_t = fmaxf(0.0f, 1.0f - cos_i * cos_i) / (eta * eta);
    if (sin2_t >= 1.0f) return false;
    float cos_t = sqrtf(1.0f - sin2_t);
    *wt = -w / eta + (cos_i / eta - cos_t) * m;
    *etap = eta;
    return true;
}

// Half vector of a reflection pair (same side), on the +z side; false if degenerate.
WF_HD_INLINE bool reflection_half_vector(Vec3f wo, Vec3f wi, Vec3f* wm) {
    Vec3f h = wo + wi;
    float len2 = length_squared(h);
    if (!(len2 > 0.0f)) return false;
    h = h * (1.0f / sqrtf(len2));
    *wm = h.z < 0.0f ? -h : h;
    return true;
}

// Generalized half vector of a refraction pair (Walter 2007, eq. 16): wm ~ wo + etap wi,
// etap = eta_i / eta_o (eta on wi's side over eta on wo's side), on the +z side.
WF_HD_INLINE bool refraction_half_vector(Vec3f wo, Vec3f wi, float etap, Vec3f* wm) {
    Vec3f h = wo + wi * etap;
    float len2 = length_squared(h);
    if (!(len2 > 0.0f)) return false;
    h = h * (1.0f / sqrtf(len2));
    *wm = h.z < 0.0f ? -h : h;
    return true;
}

// d wm / d wi of reflection: 1 / (4 |wo . wm|) (Walter 2007, eq. 14).
WF_HD_INLINE float reflection_jacobian(Vec3f wo, Vec3f wm) { return 1.0f / (4.0f * fabsf(dot(wo, wm))); }

// d wm / d wi of refraction: |wi . wm| / (wi . wm + wo . wm / etap)^2 (Walter 2007, eq. 17,
// with etap = eta_i / eta_o).
WF_HD_INLINE float refraction_jacobian(Vec3f wo, Vec3f wi, Vec3f wm, float etap) {
    float denom = dot(wi, wm) + dot(wo, wm) / etap;
    return fabsf(dot(wi, wm)) / (denom * denom);
}

// ---- What a lobe returns ----------------------------------------------------------------

struct LobeEval {
    Vec3f f{0.0f};         // value (no cosine); 0 for delta lobes
    float pdf_fwd = 0.0f;  // density of wi given wo
    float pdf_rev = 0.0f;  // density of wo given wi
};

struct LobeSample {
    Vec3f wi{0.0f};     // local direction
    Vec3f f{0.0f};      // value (delta: weight / |wi.z|); black: no sample
    float pdf = 0.0f;   // solid-angle density (delta: the branch probability)
    bool delta = false;
};

// ---- Conductor: GGX with Schlick's Fresnel from an RGB F0 (glTF's metal_brdf) ------------
// f = D(wm) G2(wo, wi) F(|wo . wm|) / (4 |wo.z| |wi.z|), wm the half vector; sampled by
// visible normals, pdf = D_wo(wm) / (4 |wo . wm|). Works from either side (the pair must be
// on one side). Smooth: a mirror with weight F(|wo.z|).
class MicrofacetConductor {
public:
    WF_HD MicrofacetConductor(GgxDistribution distribution, Vec3f f0) : dist_(distribution), f0_(f0) {}

    WF_HD bool is_delta() const { return dist_.effectively_smooth(); }

    WF_HD LobeEval evaluate(Vec3f wo, Vec3f wi) const {
        LobeEval e;
        Vec3f wm;
        if (is_delta() || !(wo.z * wi.z > 0.0f) || !reflection_half_vector(wo, wi, &wm)) return e;
        float c = fabsf(dot(wo, wm));
        e.f = fresnel_schlick_rgb(f0_, c) * (dist_.d(wm) * dist_.g2(wo, wi) / (4.0f * fabsf(wo.z * wi.z)));
        e.pdf_fwd = dist_.visible_normal_pdf(wo, wm) / (4.0f * c);
        e.pdf_rev = dist_.visible_normal_pdf(wi, wm) / (4.0f * fabsf(dot(wi, wm)));
        return e;
    }

    WF_HD LobeSample sample(Vec3f wo, float u0, float u1) const {
        LobeSample s;
        if (wo.z == 0.0f) return s;
        if (is_delta()) {
            s.wi = reflect_local(wo);
            s.f = fresnel_schlick_rgb(f0_, fabsf(wo.z)) / fabsf(wo.z);
            s.pdf = 1.0f;
            s.delta = true;
            return s;
        }
        Vec3f wm = dist_.sample_visible_normal(wo, u0, u1);
        Vec3f wi = reflect_about(wo, wm);
        if (!(wo.z * wi.z > 0.0f)) return s;  // reflected below the surface: no sample
        float c = fabsf(dot(wo, wm));
        float pdf = dist_.visible_normal_pdf(wo, wm) / (4.0f * c);
        if (!(pdf > 0.0f)) return s;
        s.wi = wi;
        s.f = fresnel_schlick_rgb(f0_, c) * (dist_.d(wm) * dist_.g2(wo, wi) / (4.0f * fabsf(wo.z * wi.z)));
        s.pdf = pdf;
        return s;
    }

private:
    GgxDistribution dist_;
    Vec3f f0_;
};

// ---- Dielectric interface: Walter et al. 2007 as pbrt-v4's DielectricBxDF -----------------
// Exact unpolarised Fresnel R at the microfacet, T = 1 - R; reflection or transmission is
// chosen with probability R or T (sample's u2). With wm the (generalized) half vector:
//   reflection:   f = D G2 R / (4 |wo.z| |wi.z|),            pdf = R D_wo(wm) / (4 |wo . wm|)
//   transmission: f = D G2 T |wi.wm| |wo.wm| / (|wo.z| |wi.z| (wi.wm + wo.wm / etap)^2)
//                     [ / etap^2 on camera paths ],           pdf = T D_wo(wm) |wi.wm| / (wi.wm + wo.wm / etap)^2
// etap = eta_i / eta_o. Microfacets back-facing to either direction contribute nothing.
// Smooth (or index-matched, eta = 1): delta reflection with probability R, delta
// refraction about +z with probability T. pdf_rev is the density of the reverse walk
// (wo sampled from wi), with the same lobe and the same radiance/importance mode.
class MicrofacetDielectric {
public:
    // eta: eta_below / eta_above (> 0). camera_path: scale transmitted radiance (see top).
    WF_HD MicrofacetDielectric(GgxDistribution distribution, float eta, bool camera_path)
        : dist_(distribution), eta_(eta), camera_path_(camera_path) {}

    WF_HD bool is_delta() const { return eta_ == 1.0f || dist_.effectively_smooth(); }

    WF_HD LobeEval evaluate(Vec3f wo, Vec3f wi) const {
        LobeEval e;
        if (is_delta() || wo.z == 0.0f || wi.z == 0.0f) return e;
        bool reflect = wo.z * wi.z > 0.0f;
        float etap = reflect ? 1.0f : (wo.z > 0.0f ? eta_ : 1.0f / eta_);  // eta_i / eta_o
        Vec3f wm;
        if (!(reflect ? reflection_half_vector(wo, wi, &wm) : refraction_half_vector(wo, wi, etap, &wm))) return e;
        // Both directions must see the microfacet from their own side.
        if (dot(wm, wi) * wi.z <= 0.0f || dot(wm, wo) * wo.z <= 0.0f) return e;
        float r_fwd = fresnel_dielectric(dot(wo, wm), eta_);
        float r_rev = fresnel_dielectric(dot(wi, wm), eta_);  // equal up to rounding (Fresnel is symmetric)
        float dg = dist_.d(wm) * dist_.g2(wo, wi);
        if (reflect) {
            e.f = Vec3f(dg * r_fwd / (4.0f * fabsf(wo.z * wi.z)));
            e.pdf_fwd = r_fwd * dist_.visible_normal_pdf(wo, wm) * reflection_jacobian(wo, wm);
            e.pdf_rev = r_rev * dist_.visible_normal_pdf(wi, wm) * reflection_jacobian(wi, wm);
            return e;
        }
        float denom = dot(wi, wm) + dot(wo, wm) / etap;
        float ft = dg * (1.0f - r_fwd) * fabsf(dot(wi, wm) * dot(wo, wm) / (wo.z * wi.z * denom * denom));
        if (camera_path_) ft /= etap * etap;
        e.f = Vec3f(ft);
        e.pdf_fwd = (1.0f - r_fwd) * dist_.visible_normal_pdf(wo, wm) * refraction_jacobian(wo, wi, wm, etap);
        e.pdf_rev = (1.0f - r_rev) * dist_.visible_normal_pdf(wi, wm) * refraction_jacobian(wi, wo, wm, 1.0f / etap);
        return e;
    }

    WF_HD LobeSample sample(Vec3f wo, float u0, float u1, float u2) const {
        LobeSample s;
        if (wo.z == 0.0f) return s;
        if (is_delta()) {
            float r = fresnel_dielectric(wo.z, eta_);
            s.delta = true;
            if (u2 < r) {
                s.wi = reflect_local(wo);
                s.f = Vec3f(r / fabsf(wo.z));
                s.pdf = r;
                return s;
            }
            // refract_local wants eta_incident / eta_transmitted.
            float eta_it = wo.z > 0.0f ? 1.0f / eta_ : eta_;
            Vec3f wi;
            if (!refract_local(wo, eta_it, &wi)) return LobeSample{};
            float t = 1.0f - r;
            if (camera_path_) t *= eta_it * eta_it;
            s.wi = wi;
            s.f = Vec3f(t / fabsf(wi.z));
            s.pdf = 1.0f - r;
            return s;
        }
        Vec3f wm = dist_.sample_visible_normal(wo, u0, u1);
        float r = fresnel_dielectric(dot(wo, wm), eta_);
        float dvis = dist_.visible_normal_pdf(wo, wm);
        Vec3f wi;
        if (u2 < r) {
            wi = reflect_about(wo, wm);
            if (!(wo.z * wi.z > 0.0f)) return s;
            s.f = Vec3f(dist_.d(wm) * dist_.g2(wo, wi) * r / (4.0f * fabsf(wo.z * wi.z)));
            s.pdf = r * dvis * reflection_jacobian(wo, wm);
        } else {
            float etap;
            if (!refract_about(wo, wm, eta_, &wi, &etap)) return s;
            if (!(wo.z * wi.z < 0.0f)) return s;
            float denom = dot(wi, wm) + dot(wo, wm) / etap;
            float ft = dist_.d(wm) * dist_.g2(wo, wi) * (1.0f - r) *
                       fabsf(dot(wi, wm) * dot(wo, wm) / (wo.z * wi.z * denom * denom));
            if (camera_path_) ft /= etap * etap;
            s.f = Vec3f(ft);
            s.pdf = (1.0f - r) * dvis * refraction_jacobian(wo, wi, wm, etap);
        }
        if (!(s.pdf > 0.0f)) return LobeSample{};
        s.wi = wi;
        return s;
    }

private:
    GgxDistribution dist_;
    float eta_ = 1.0f;
    bool camera_path_ = true;
};

// ---- Thin dielectric slab: pbrt-v4's ThinDielectricBxDF ----------------------------------
// Two parallel smooth interfaces with the same medium on both outer sides, light bouncing
// inside summed in closed form: R' = R + T^2 R / (1 - R^2), T' = 1 - R' (R the Fresnel
// reflectance of one interface at |wo.z|). Delta lobes only: mirror reflection with
// probability R', straight-through transmission (wi = -wo) with probability T'. No radiance
// scaling: the light leaves into the medium it came from. Energy-conserving (R' + T' = 1).
class ThinDielectric {
public:
    // eta: index of the slab relative to its surroundings.
    WF_HD explicit ThinDielectric(float eta) : eta_(eta) {}

    WF_HD bool is_delta() const { return true; }

    // R' for an incident direction with |cos| = cos_theta.
    WF_HD float reflectance(float cos_theta) const {
        float r = fresnel_dielectric(fabsf(cos_theta), eta_);
        float t = 1.0f - r;
        if (r < 1.0f) r += t * t * r / (1.0f - r * r);
        return r;
    }

    WF_HD LobeEval evaluate(Vec3f, Vec3f) const { return LobeEval{}; }

    WF_HD LobeSample sample(Vec3f wo, float /*u0*/, float /*u1*/, float u2) const {
        LobeSample s;
        if (wo.z == 0.0f) return s;
        float r = reflectance(wo.z);
        s.delta = true;
        if (u2 < r) {
            s.wi = reflect_local(wo);
            s.f = Vec3f(r / fabsf(wo.z));
            s.pdf = r;
        } else {
            s.wi = -wo;
            s.f = Vec3f((1.0f - r) / fabsf(wo.z));
            s.pdf = 1.0f - r;
        }
        return s;
    }

private:
    float eta_ = 1.5f;
};

}  // namespace wf
