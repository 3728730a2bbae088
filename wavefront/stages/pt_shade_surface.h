// Stage `shade_surface` (pt): at each surface hit, add MIS-weighted emission, stop
// at the maximum path length, push a next-event-estimation shadow ray, sample
// the BSDF for the next ray and apply Russian roulette. Follows SmallVCM's path
// tracer estimator exactly (balance heuristic; BSDF pdfs include the RR
// probability), except that emitters may also reflect when their material does, and
// that segments inside absorbing glTF volumes are attenuated (Beer-Lambert).
#pragma once

#include <type_traits>

#include "accel/surface.h"
#include "materials/emitters.h"
#include "materials/pbr_material.h"
#include "materials/surface_bsdf.h"
#include "wavefront/queues.h"
#include "wavefront/rng_dims.h"
#include "wavefront/scene_view.h"
#include "wavefront/stages/intersect_shadow.h"
#include "wavefront/stages/path_vertex.h"
#include "wavefront/state/camera_path.h"

namespace wf {

struct PtShadeContext {
    SceneView scene;
    CameraPathView paths;
    uint32_t max_path_length;  // segments
    uint32_t seed;
};

// Next-event estimation: one picked light, one sample on it; pushes the shadow ray.
template <class BsdfT>
WF_HD_INLINE void pt_sample_direct_light(const PtShadeContext& ctx, uint32_t slot, const PathRng& rng,
                                         const SubpathVertexOf<BsdfT>& v, Vec3f throughput,
                                         const WorkQueue<ShadowRayView>& shadow) {
    const BsdfT& bsdf = v.bsdf;
    const SurfacePoint& sp = v.sp;
    const CameraPathView& p = ctx.paths;
    const uint32_t light_id = ctx.scene.pick_light(rng.at(rng_dim::kLightPick));
    const float pick = ctx.scene.light_pick_prob(light_id);
    DirectSample ds = illuminate<kMayVaryEmission<BsdfT>>(ctx.scene.lights[light_id], ctx.scene.emitters(), sp.p,
                                                          rng.at(rng_dim::kLightU), rng.at(rng_dim::kLightV));
    if (is_black(ds.radiance)) return;
    BsdfEval ev = bsdf.evaluate(ds.dir_to_light);
    if (is_black(ev.factor)) return;
    float weight = 1.0f;
    if (!ds.is_delta) weight = mis_balance(ds.pdf_direct_w * pick, ev.pdf_fwd_w * bsdf.continuation_prob());
    Vec3f contribution = throughput * ds.radiance * ev.factor * (weight * ev.cos_out / (pick * ds.pdf_direct_w));
    // A shadow ray into an absorbing volume reaches only a light inside it (a punctual one).
    contribution *=
        beer_lambert(segment_sigma_a<BsdfT>(ctx.scene, v.info.material, sp.ng, ds.dir_to_light), ds.distance);
    float t_max;
    Ray shadow_ray = shadow_ray_to_light(sp, ds, &t_max);
    push_shadow_ray(shadow, shadow_ray, t_max, contribution, p.pixel[slot]);
}

// BsdfT: Bsdf (SmallVCM and rtiow materials only) or SurfaceBsdf (any material type).
template <class BsdfT, class Backend>
void pt_shade_surface(Backend& backend, const PtShadeContext& ctx, SlotQueue<CameraPathView> surface,
                      WorkQueue<ShadowRayView> shadow) {
    for_all_queued(backend, "shade_surface", surface, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.paths;
        p.alive[slot] = 0;

        const uint32_t path_length = p.path_length[slot];
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, true);
        const SurfacePoint& sp = v.sp;
        const BsdfT& bsdf = v.bsdf;
        PathRng rng{ctx.seed, p.pixel[slot], p.sample[slot], path_length, kRngStreamCamera};
        Vec3f throughput = p.throughput[slot];
        if constexpr (!std::is_same_v<BsdfT, Bsdf>) {
            // KHR_materials_volume: the segment that reached this surface from inside an
            // absorbing volume loses exp(-sigma_a t) (materials/pbr_material.h). Only the
            // dispatching instantiation pays for it.
            throughput *= volume_transmittance(ctx.scene.materials[v.info.material], p.ray_dir[slot], sp.ng, p.hit_t[slot]);
        }
        // Emission first: a point of glTF alpha coverage a emits a Le whichever way the path
        // goes on (materials/emitters.h, area_radiance), as the light samples that reach it
        // count it; counted only where the surface scatters (bsdf valid), as before.
        if (v.info.light >= 0 && bsdf.is_valid()) {
            EmitterHit e = radiance_on_hit(ctx.scene.lights[v.info.light], ctx.scene.emitters(), p.hit_prim[slot], sp.p,
                                           p.hit_u[slot], p.hit_v[slot], p.ray_dir[slot]);
            if (!is_black(e.radiance)) {
                float weight = 1.0f;
                if (path_length > 1 && !p.last_specular[slot]) {
                    // The light's cosine is the geometric one (the BSDF's frame may be a shading normal).
                    const float cos_light = fabsf(dot(p.ray_dir[slot], sp.ng));
                    float pdf_direct_w = pdf_area_to_solid_angle(e.pdf_direct_a, p.hit_t[slot], cos_light);
                    weight = mis_balance(p.last_pdf_w[slot], pdf_direct_w * ctx.scene.light_pick_prob(uint32_t(v.info.light)));
                }
                p.radiance[slot] += throughput * e.radiance * weight;
            }
        }

        if (v.opacity < 1.0f && rng.at(rng_dim::kOpacity) >= v.opacity) {
            // Stochastic transparency (glTF alpha): the path goes on through the surface
            // as if it were not there, one segment longer (a fresh key for its numbers).
            // Shadow rays see every surface as opaque, so next-event estimation never
            // reaches what lies behind: the weight-1 rule of a specular bounce applies.
            if (path_length >= ctx.max_path_length) return;
            p.ray_origin[slot] = offset_ray_origin(sp.p, sp.p_error, sp.ng, p.ray_dir[slot]);
            p.throughput[slot] = throughput;
            p.last_specular[slot] = 1;
            p.path_length[slot] = path_length + 1;
            p.alive[slot] = 1;
            return;
        }
        if (!bsdf.is_valid()) return;

        if (path_length >= ctx.max_path_length) return;
        const float continuation = bsdf.continuation_prob();
        if (continuation == 0.0f) return;

        if (!bsdf.is_delta() && ctx.scene.num_lights > 0) pt_sample_direct_light(ctx, slot, rng, v, throughput, shadow);

        BsdfSample s = bsdf.sample(rng.at(rng_dim::kBsdfU), rng.at(rng_dim::kBsdfV), rng.at(rng_dim::kBsdfLobe));
        if (is_black(s.factor)) return;
        float pdf = s.pdf_w;
        p.last_specular[slot] = s.specular ? 1 : 0;
        p.last_pdf_w[slot] = pdf * continuation;
        if (continuation < 1.0f) {
            if (rng.at(rng_dim::kRoulette) > continuation) return;
            pdf *= continuation;
        }
        p.throughput[slot] = throughput * s.factor * (s.cos_out / pdf);
        p.ray_origin[slot] = offset_ray_origin(sp.p, sp.p_error, sp.ng, s.wi_world);
        p.ray_dir[slot] = s.wi_world;
        p.path_length[slot] = path_length + 1;
        p.alive[slot] = 1;
    });
}

}  // namespace wf
