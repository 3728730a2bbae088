// Stages `connect` and `connect_vertices` (bpt, vcm): vertex connection from every
// queued camera vertex: next-event estimation to a picked light (eqs. 44-45), and the
// connection to every light vertex of the light sub-path with the camera path's index
// (eqs. 40-41), evaluated one thread per connection.
// Each pushes a shadow ray carrying its MIS-weighted contribution (attenuated where it runs
// inside an absorbing glTF volume); intersect_shadow adds the unoccluded ones to the film.
#pragma once

#include "wavefront/queues.h"
#include "wavefront/rng_dims.h"
#include "wavefront/stages/intersect_shadow.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/state/connection.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class BsdfT>
WF_HD_INLINE void connect_to_light_source(const VcmContext& ctx, uint32_t slot, const SubpathVertexOf<BsdfT>& v,
                                          const WorkQueue<ShadowRayView>& shadow) {
    const CameraPathView& p = ctx.camera_paths;
    PathRng rng{ctx.seed, p.pixel[slot], p.sample[slot], p.path_length[slot], kRngStreamCamera};
    const uint32_t light_id = ctx.scene.pick_light(rng.at(rng_dim::kLightPick));
    const float pick = ctx.scene.light_pick_prob(light_id);
    const Light& light = ctx.scene.lights[light_id];
    DirectSample ds = illuminate<kMayVaryEmission<BsdfT>>(light, ctx.scene.emitters(), v.sp.p, rng.at(rng_dim::kLightU),
                                                          rng.at(rng_dim::kLightV));
    if (is_black(ds.radiance)) return;
    BsdfEval ev = v.bsdf.evaluate(ds.dir_to_light);
    if (is_black(ev.factor)) return;
    const float continuation = v.bsdf.continuation_prob();
    // A delta light can never be hit by BSDF sampling.
    float bsdf_dir_pdf_w = ds.is_delta ? 0.0f : ev.pdf_fwd_w * continuation;
    // The reverse pdf: a walk arriving from the light, with that walk's Russian roulette.
    float w = mis_weight_light_sample(load_mis(p, slot), bsdf_dir_pdf_w,
                                      ev.pdf_rev_w * v.bsdf.continuation_prob_from(ds.dir_to_light),
                                      pick * ds.pdf_direct_w, pick * ds.pdf_emission_w, ev.cos_out, ds.cos_at_light,
                                      ctx.iteration_of_camera_path(slot).weights);
    Vec3f contribution =
        p.throughput[slot] * ds.radiance * ev.factor * (w * ev.cos_out / (pick * ds.pdf_direct_w));
    // Into an absorbing volume the ray reaches only a light inside it (a punctual one), as in pt.
    contribution *=
        beer_lambert(segment_sigma_a<BsdfT>(ctx.scene, v.info.material, v.sp.ng, ds.dir_to_light), ds.distance);
    if (is_black(contribution)) return;
    float t_max;
    Ray ray = shadow_ray_to_light(v.sp, ds, &t_max);
    push_shadow_ray(shadow, ray, t_max, contribution, p.pixel[slot]);
}

// e: the light vertex of path length k that the caller found stored and short enough.
template <class BsdfT>
WF_HD_INLINE void connect_to_light_vertex(const VcmContext& ctx, uint32_t slot, const SubpathVertexOf<BsdfT>& v,
                                          uint32_t e,
                                          const WorkQueue<ShadowRayView>& shadow) {
    const CameraPathView& p = ctx.camera_paths;
    const LightVertexView& lv = ctx.light_vertices;
    ctx.count(kCounterConnections, 1);
    Vec3f dir = lv.position[e] - v.sp.p;
    float dist2 = length_squared(dir);
    if (!(dist2 > 0.0f)) return;
    float dist = sqrtf(dist2);
    dir = dir / dist;
    BsdfEval camera_ev = v.bsdf.evaluate(dir);
    if (is_black(camera_ev.factor)) return;
    const BsdfT light_bsdf = light_vertex_bsdf<BsdfT>(ctx.scene, lv, e);
    BsdfEval light_ev = light_bsdf.evaluate(-dir);
    if (is_black(light_ev.factor)) return;
    const float camera_cont = v.bsdf.continuation_prob();
    const float light_cont = lv.continuation[e];
    float geometry = camera_ev.cos_out * light_ev.cos_out / dist2;
    float camera_dir_pdf_a = pdf_solid_angle_to_area(camera_ev.pdf_fwd_w * camera_cont, dist, light_ev.cos_out);
    float light_dir_pdf_a = pdf_solid_angle_to_area(light_ev.pdf_fwd_w * light_cont, dist, camera_ev.cos_out);
    float w = mis_weight_connection(load_mis(p, slot), SubpathMis{lv.d_vcm[e], lv.d_vc[e], lv.d_vm[e]},
                                    camera_dir_pdf_a, camera_ev.pdf_rev_w * v.bsdf.continuation_prob_from(dir),
                                    light_dir_pdf_a, light_ev.pdf_rev_w * light_bsdf.continuation_prob_from(-dir),
                                    ctx.iteration_of_camera_path(slot).weights);
    Vec3f contribution = p.throughput[slot] * lv.throughput[e] * camera_ev.factor * light_ev.factor * (w * geometry);
    // glTF volume absorption along the connection. Connections see surfaces as opaque, so one
    // inside a volume joins two points of its boundary: either end tells, and where both do
    // (two vertices on the inside of one volume's surface) it counts once.
    Vec3f sigma_a = segment_sigma_a<BsdfT>(ctx.scene, v.info.material, v.sp.ng, dir);
    if (!(max_component(sigma_a) > 0.0f))
        sigma_a = segment_sigma_a<BsdfT>(ctx.scene, lv.material[e], lv.normal[e], -dir);
    contribution *= beer_lambert(sigma_a, dist);
    if (is_black(contribution)) return;
    float t_max;
    Ray ray = spawn_ray_to(v.sp, SurfacePoint{lv.position[e], lv.position_error[e], lv.normal[e]}, &t_max);
    push_shadow_ray(shadow, ray, t_max, contribution, p.pixel[slot]);
}

template <class BsdfT, class Backend>
void connect(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> vertices,
             WorkQueue<ShadowRayView> shadow, WorkQueue<ConnectionView> connections) {
    // One thread per camera vertex: next-event estimation, then the light vertices of
    // its light sub-path (by path length k, while k + 1 + length <= max) are queued for
    // connect_vertices, kPushBatch path lengths at a time: their entries loaded together
    // and pushed with one atomic per (converged) warp (a push per length waited on its atomic before
    // the next entry's load: two memory round trips per light vertex).
    constexpr uint32_t kPushBatch = 8;
    for_all_queued(backend, "connect", vertices, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.camera_paths;
        const uint32_t length = p.path_length[slot];
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, true);
        if (v.bsdf.is_delta()) return;
        if (ctx.scene.num_lights > 0) connect_to_light_source(ctx, slot, v, shadow);
        const uint32_t* light_vertices = ctx.light_vertices_of_path(ctx.light_path_of_camera_path(slot));
        // The largest k: at most the stride, and k + 1 + length <= max.
        uint32_t longest = length + 2 <= ctx.max_path_length ? ctx.max_path_length - 1 - length : 0u;
        if (longest > ctx.vertex_stride) longest = ctx.vertex_stride;
        for (uint32_t k0 = 1; k0 <= longest; k0 += kPushBatch) {
            uint32_t entry[kPushBatch];
            uint32_t stored = 0;  // bit j: a light vertex of length k0 + j exists
#if WF_DEVICE_CODE
#pragma unroll
#endif
            for (uint32_t j = 0; j < kPushBatch; ++j) {
                entry[j] = k0 + j <= longest ? light_vertices[k0 + j - 1] : kNoLightVertex;
                if (entry[j] != kNoLightVertex) stored |= 1u << j;
            }
            connections.template push_items<kPushBatch>(stored, [&](uint32_t j, uint32_t at) {
                connections.items.camera_slot[at] = slot;
                connections.items.light_entry[at] = entry[j];
            });
        }
    });
}

// Stage `connect_vertices` (bpt, vcm): one thread per queued connection.
template <class BsdfT, class Backend>
void connect_vertices(Backend& backend, const VcmContext& ctx, WorkQueue<ConnectionView> connections,
                      WorkQueue<ShadowRayView> shadow) {
    for_all_queued(backend, "connect_vertices", connections, WF_LAMBDA(uint32_t i) {
        const uint32_t slot = connections.items.camera_slot[i];
        const auto v = subpath_vertex<BsdfT>(ctx.scene, ctx.camera_paths, slot, true);
        connect_to_light_vertex(ctx, slot, v, connections.items.light_entry[i], shadow);
    });
}

}  // namespace wf
