// Stage `intersect_shadow`: any-hit test for the next-event shadow rays; an
// unoccluded ray adds its precomputed contribution to the path's radiance.
#pragma once

#include "accel/traverse.h"
#include "wavefront/pt_context.h"

namespace wf {

template <class Backend>
void integrator_intersect_shadow(Backend& backend, const PtContext& ctx, QueueView shadow) {
    backend.parallel_for("intersect_shadow", ctx.num_paths, WF_LAMBDA(uint32_t i) {
        if (i >= *shadow.size) return;
        const PathStateView& p = ctx.paths;
        uint32_t slot = shadow.items[i];
        Ray ray{p.shadow_origin[slot], p.shadow_dir[slot]};
        if (!intersect_any(ctx.scene.geometry, ray, p.shadow_t_max[slot]))
            p.radiance[slot] += p.shadow_contribution[slot];
    });
}

}  // namespace wf
