// Stage `intersect_closest`: closest hit for every ray of the active queue.
// Hits go to the surface queue, misses to the escaped queue.
#pragma once

#include "accel/traverse.h"
#include "wavefront/pt_context.h"

namespace wf {

template <class Backend>
void integrator_intersect_closest(Backend& backend, const PtContext& ctx, QueueView active, QueueView surface,
                       QueueView escaped) {
    backend.parallel_for("intersect_closest", ctx.num_paths, WF_LAMBDA(uint32_t i) {
        if (i >= *active.size) return;
        const PathStateView& p = ctx.paths;
        uint32_t slot = active.items[i];
        Ray ray{p.ray_origin[slot], p.ray_dir[slot]};
        Hit hit = intersect_closest(ctx.scene.geometry, ray, kInfinity);
        if (hit.prim == kNoHit) {
            escaped.push(slot);
            return;
        }
        p.hit_t[slot] = hit.t;
        p.hit_prim[slot] = hit.prim;
        p.hit_u[slot] = hit.u;
        p.hit_v[slot] = hit.v;
        surface.push(slot);
    });
}

}  // namespace wf
