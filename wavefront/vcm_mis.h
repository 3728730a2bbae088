// MIS weights of the bidirectional family, one named function per technique, so
// that tests can call them. Balance heuristic with the recursive quantities dVCM,
// dVC, dVM of Georgiev's "Implementing Vertex Connection and Merging" (tech.
// report, 2012); equation numbers below refer to it. Every function is host-device.
//
// Conventions: pdfs "_w" per solid angle, "_a" per area. Light pdfs passed here
// already include the light-pick probability. BSDF pdfs include the Russian
// roulette continuation probability of the vertex they are sampled at (the reverse
// pdf uses the probability of the vertex that would have sampled it).
// A technique's weight is 1 / (w_light + 1 + w_camera), the partial weights being
// the ratios of the other techniques' pdfs to its own (mis_power() of each).
#pragma once

#include "engine/hd.h"
#include "materials/sampling.h"

namespace wf {

// The three partial-weight quantities a sub-path carries to its next vertex.
struct SubpathMis {
    float d_vcm = 0.0f, d_vc = 0.0f, d_vm = 0.0f;
};

// Which techniques an integrator uses, and their relative sample counts (eq. 20,
// n_VC = 1, n_VM = light paths): eta_VCM = pi r^2 N_light.
struct VcmWeights {
    float vm_factor = 0.0f;  // mis(eta_VCM) when merging is used, else 0
    float vc_factor = 0.0f;  // mis(1 / eta_VCM) when connections are used, else 0
    float light_paths = 1.0f;

    WF_HD static VcmWeights make(bool use_vc, bool use_vm, float radius, float light_paths) {
        VcmWeights w;
        float eta_vcm = kPi * radius * radius * light_paths;
        w.vm_factor = use_vm ? mis_power(eta_vcm) : 0.0f;
        w.vc_factor = use_vc ? mis_power(1.0f / eta_vcm) : 0.0f;
        w.light_paths = light_paths;
        return w;
    }
};

// ---- Sub-path starts (eqs. 31-33, 48-50) -------------------------------------------------
// Camera: pixel area 1 on the image plane, so the ray's solid-angle pdf is
// Camera::pdf_direction_per_pixel; light paths per iteration weigh the light-tracing technique.
WF_HD_INLINE SubpathMis camera_subpath_start(float light_paths, float camera_pdf_w) {
    SubpathMis m;
    m.d_vcm = camera_pdf_w > 0.0f ? mis_power(light_paths / camera_pdf_w) : 0.0f;
    return m;
}

// Light: direct_pdf_a and emission_pdf_w include the pick probability. cos_light is the
// cosine at an area light (used as 1 for lights at infinity); delta lights cannot be
// connected to, so their dVC is 0.
WF_HD_INLINE SubpathMis light_subpath_start(float direct_pdf_a, float emission_pdf_w, float cos_light,
                                            bool is_delta, bool is_finite, const VcmWeights& w) {
    SubpathMis m;
    m.d_vcm = mis_power(direct_pdf_a / emission_pdf_w);
    m.d_vc = is_delta ? 0.0f : mis_power((is_finite ? cos_light : 1.0f) / emission_pdf_w);
    m.d_vm = m.d_vc * w.vc_factor;
    return m;
}

// ---- Along a sub-path --------------------------------------------------------------------
// At a surface hit reached over `distance` with |cos| cos_fix there. The squared distance
// is left out for the first segment from a light at infinity (solid-angle measure there).
WF_HD_INLINE SubpathMis subpath_at_hit(SubpathMis m, float distance, float cos_fix, bool apply_distance) {
    if (apply_distance) m.d_vcm *= mis_power(distance * distance);
    float inv_cos = 1.0f / mis_power(fabsf(cos_fix));
    m.d_vcm *= inv_cos;
    m.d_vc *= inv_cos;
    m.d_vm *= inv_cos;
    return m;
}

// After sampling a non-delta lobe (eqs. 34-36): pdfs include the continuation probability.
WF_HD_INLINE SubpathMis subpath_after_scatter(const SubpathMis& m, float cos_out, float pdf_dir_w, float pdf_rev_w,
                                              const VcmWeights& w) {
    SubpathMis n;
    float f = mis_power(cos_out / pdf_dir_w);
    n.d_vc = f * (m.d_vc * mis_power(pdf_rev_w) + m.d_vcm + w.vm_factor);
    n.d_vm = f * (m.d_vm * mis_power(pdf_rev_w) + m.d_vcm * w.vc_factor + 1.0f);
    n.d_vcm = mis_power(1.0f / pdf_dir_w);
    return n;
}

// After a delta lobe (eqs. 53-55): forward and reverse pdfs are equal and cancel.
WF_HD_INLINE SubpathMis subpath_after_specular(const SubpathMis& m, float cos_out) {
    SubpathMis n;
    n.d_vcm = 0.0f;
    n.d_vc = m.d_vc * mis_power(cos_out);
    n.d_vm = m.d_vm * mis_power(cos_out);
    return n;
}

// Through a point of a surface that glTF alpha MASK cuts out (a delta vertex that passes
// the path on unchanged): eqs. 53-55 with cos_out = cos_in at the same point, so the
// at-hit division by the cosine and the specular multiplication by it cancel, and so
// do the distance factors on d_vcm, which becomes 0. Call it in place of subpath_at_hit.
WF_HD_INLINE SubpathMis subpath_after_pass_through(const SubpathMis& m) {
    SubpathMis n = m;
    n.d_vcm = 0.0f;
    return n;
}

// ---- Technique weights -------------------------------------------------------------------
// A camera path hits an emitter (or escapes to the environment), eqs. 42-43. For area
// lights call it with the quantities updated at the hit; for the environment with those
// after the last scattering. Camera path length 1 (the emitter seen directly) has weight 1.
WF_HD_INLINE float mis_weight_emitter_hit(const SubpathMis& camera, float direct_pdf_a, float emission_pdf_w) {
    float w_camera = mis_power(direct_pdf_a) * camera.d_vcm + mis_power(emission_pdf_w) * camera.d_vc;
    return 1.0f / (1.0f + w_camera);
}

// Next-event estimation from a camera vertex, eqs. 44-45. bsdf_dir_pdf_w: the camera BSDF
// sampling the light direction (0 for delta lights); bsdf_rev_pdf_w: the reverse. pick_direct_pdf_w:
// pick x the light's solid-angle pdf at the receiver; emission_pdf_w: the light emitting
// toward the receiver (with the pick); cos_to_light at the receiver, cos_at_light at the light.
WF_HD_INLINE float mis_weight_light_sample(const SubpathMis& camera, float bsdf_dir_pdf_w, float bsdf_rev_pdf_w,
                                           float pick_direct_pdf_w, float emission_pdf_w, float cos_to_light,
                                           float cos_at_light, const VcmWeights& w) {
    float w_light = mis_power(bsdf_dir_pdf_w / pick_direct_pdf_w);
    float w_camera = mis_power(emission_pdf_w * cos_to_light / (pick_direct_pdf_w * cos_at_light)) *
                     (w.vm_factor + camera.d_vcm + camera.d_vc * mis_power(bsdf_rev_pdf_w));
    return 1.0f / (w_light + 1.0f + w_camera);
}

// Connection of a camera vertex and a light vertex, eqs. 40-41. *_dir_pdf_a: each BSDF
// sampling the other vertex, converted to area at the other vertex; *_rev_pdf_w: each BSDF's
// reverse pdf (solid angle) toward its own predecessor.
WF_HD_INLINE float mis_weight_connection(const SubpathMis& camera, const SubpathMis& light, float camera_dir_pdf_a,
                                         float camera_rev_pdf_w, float light_dir_pdf_a, float light_rev_pdf_w,
                                         const VcmWeights& w) {
    float w_light = mis_power(camera_dir_pdf_a) * (w.vm_factor + light.d_vcm + light.d_vc * mis_power(light_rev_pdf_w));
    float w_camera = mis_power(light_dir_pdf_a) * (w.vm_factor + camera.d_vcm + camera.d_vc * mis_power(camera_rev_pdf_w));
    return 1.0f / (w_light + 1.0f + w_camera);
}

// Merging a camera vertex with a light vertex, eqs. 37-39. camera_dir_pdf_w: the camera BSDF
// sampling the light vertex's incoming direction (with the camera's continuation);
// camera_rev_pdf_w: the reverse (with the light vertex's continuation).
WF_HD_INLINE float mis_weight_merge(const SubpathMis& camera, const SubpathMis& light, float camera_dir_pdf_w,
                                    float camera_rev_pdf_w, const VcmWeights& w) {
    float w_light = light.d_vcm * w.vc_factor + light.d_vm * mis_power(camera_dir_pdf_w);
    float w_camera = camera.d_vcm * w.vc_factor + camera.d_vm * mis_power(camera_rev_pdf_w);
    return 1.0f / (w_light + 1.0f + w_camera);
}

// A light vertex connected to the camera (light tracing), eqs. 46-47. camera_pdf_a: the
// camera generating the vertex, per unit area there; bsdf_rev_pdf_w: the light vertex's BSDF
// sampling its predecessor (with its continuation).
WF_HD_INLINE float mis_weight_camera_connection(const SubpathMis& light, float camera_pdf_a, float bsdf_rev_pdf_w,
                                                const VcmWeights& w) {
    float w_light = mis_power(camera_pdf_a / w.light_paths) *
                    (w.vm_factor + light.d_vcm + light.d_vc * mis_power(bsdf_rev_pdf_w));
    return 1.0f / (w_light + 1.0f);
}

// Merging radius of iteration i (0-based): r_0 / (i + 1)^((1 - alpha) / 2), at least 1e-7.
WF_HD_INLINE float merge_radius(float base_radius, float alpha, uint32_t iteration) {
    float r = base_radius / powf(float(iteration) + 1.0f, 0.5f * (1.0f - alpha));
    return fmaxf(r, 1e-7f);
}

}  // namespace wf
