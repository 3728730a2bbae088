// Stage `shade_light`: continues each light sub-path from its vertex: stops when
// one more segment could not be used (light path length + 2 > max), samples the
// BSDF (light paths carry importance: no (eta_i/eta_t)^2 on refraction, and glTF BSDFs
// apply the adjoint shading-normal correction, materials/gltf_bsdf.h), Russian
// roulette, and the MIS quantities for the next vertex.
#pragma once

#include "wavefront/queues.h"
#include "wavefront/rng_dims.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

// Samples the next direction of a sub-path (camera or light) at vertex v, with Russian
// roulette, and updates its throughput, MIS and ray. False when the path ends. At a point
// glTF alpha BLEND covers in part, the pass-through first (vcm_vertex.h), then the lobes.
template <class BsdfT, class PathView>
WF_HD_INLINE bool scatter_subpath(const VcmWeights& weights, const PathView& p, uint32_t slot,
                                  const SubpathVertexOf<BsdfT>& v,
                                  const PathRng& rng, bool* specular) {
    if (blend_pass_through(p, slot, v, rng)) {
        *specular = true;
        return true;
    }
    const BsdfT& bsdf = v.bsdf;
    BsdfSample s = bsdf.sample(rng.at(rng_dim::kBsdfU), rng.at(rng_dim::kBsdfV), rng.at(rng_dim::kBsdfLobe));
    if (is_black(s.factor)) return false;
    const float continuation = bsdf.continuation_prob();
    if (rng.at(rng_dim::kRoulette) > continuation) return false;
    const float pdf_dir = s.pdf_w * continuation;
    // The reverse walk arrives from wi, with its own Russian roulette (unused when specular).
    const float pdf_rev = s.specular ? 0.0f : bsdf.evaluate(s.wi_world).pdf_rev_w * bsdf.continuation_prob_from(s.wi_world);
    SubpathMis mis = load_mis(p, slot);
    mis = s.specular ? subpath_after_specular(mis, s.cos_out)
                     : subpath_after_scatter(mis, s.cos_out, pdf_dir, pdf_rev, weights);
    store_mis(p, slot, mis);
    p.throughput[slot] = p.throughput[slot] * s.factor * (s.cos_out / pdf_dir);
    p.ray_origin[slot] = offset_ray_origin(v.sp.p, v.sp.p_error, v.sp.ng, s.wi_world);
    p.ray_dir[slot] = s.wi_world;
    p.path_length[slot] = p.path_length[slot] + 1;
    *specular = s.specular;
    return true;
}

template <class BsdfT, class Backend>
void shade_light(Backend& backend, const VcmContext& ctx, SlotQueue<LightPathView> surface) {
    for_all_queued(backend, "shade_light", surface, WF_LAMBDA(uint32_t slot) {
        const LightPathView& p = ctx.light_paths;
        p.alive[slot] = 0;
        const uint32_t length = p.path_length[slot];
        if (length + 2 > ctx.max_path_length) return;
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, false);
        const PathRng rng = ctx.light_rng(p.path[slot], length);
        if (passes_through_at_hit(v, rng)) {  // store_light_vertex updated the MIS
            pass_through_ray(p, slot, v.sp);
            p.alive[slot] = 1;
            return;
        }
        if (!v.bsdf.is_valid()) return;
        bool specular;
        if (scatter_subpath(ctx.iteration_of_light_path(p.path[slot]).weights, p, slot, v, rng, &specular))
            p.alive[slot] = 1;
    });
}

}  // namespace wf
