// Stage `shade_surface` (bidirectional family): at each camera-path hit, completes
// the MIS quantities and the glTF volume absorption (vcm_vertex.h) of the segment just
// traced, adds emission with its full MIS weight (eqs. 42-43), and queues the vertex for
// connect, merge and scatter unless the path has reached the maximum length (with its
// merge query when merging: the point and the longest light sub-path). A point glTF
// alpha cuts out passes the path on (vcm_vertex.h, passes_through_at_hit); a partly
// covered one (BLEND) is a vertex like any other here, whose pass-through scatter samples.
#pragma once

#include "wavefront/queues.h"
#include "wavefront/stages/vcm_shade_background.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class BsdfT, class Backend>
void vcm_shade_surface(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> surface,
                       SlotQueue<CameraPathView> vertices) {
    for_all_queued(backend, "shade_surface", surface, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.camera_paths;
        p.alive[slot] = 0;
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, true);
        const uint32_t length = p.path_length[slot];
        const PathRng rng{ctx.seed, p.pixel[slot], p.sample[slot], length, kRngStreamCamera};
        absorb_traced_segment(ctx.scene, p, slot, v);  // before anything reads the throughput
        if (passes_through_at_hit(v, rng)) {  // no vertex here: neither emits nor scatters
            if (length >= ctx.max_path_length) return;
            pass_through_mis(p, slot);
            pass_through_ray(p, slot, v.sp);
            p.alive[slot] = 1;
            return;
        }
        if (!v.bsdf.is_valid()) return;
        SubpathMis mis = subpath_at_hit(load_mis(p, slot), p.hit_t[slot], v.bsdf.cos_theta_fix(), true);
        store_mis(p, slot, mis);
        if (v.info.light >= 0) {
            EmitterHit e = radiance_on_hit(ctx.scene.lights[v.info.light], ctx.scene.emitters(), p.hit_prim[slot],
                                           v.sp.p, p.hit_u[slot], p.hit_v[slot], p.ray_dir[slot]);
            if (!is_black(e.radiance)) {
                float w = vcm_emitter_weight(ctx, uint32_t(v.info.light), length, p.specular_path[slot], mis, e.pdf_direct_a,
                                             e.pdf_emission_w);
                p.radiance[slot] += p.throughput[slot] * e.radiance * w;
            }
        }
        if (length >= ctx.max_path_length) return;
        const uint32_t at = vertices.push(slot);
        // Merging: the query merge scans the grid from (wavefront/state/merge_query.h).
        if (ctx.merge_queries)
            ctx.merge_queries[at] = MergeQuery{v.sp.p, v.bsdf.is_delta() ? 0u : ctx.max_path_length - length};
    });
}

}  // namespace wf
