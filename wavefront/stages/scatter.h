// Stage `scatter` (bidirectional family): continues each queued camera vertex
// after connect and merge have used it: samples the BSDF, Russian roulette, and
// the MIS quantities for the next vertex. ppm stops after its first merge, except
// through the pass-through of a point glTF alpha BLEND covers in part (vcm_vertex.h).
#pragma once

#include "wavefront/queues.h"
#include "wavefront/stages/shade_light.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class BsdfT, class Backend>
void scatter(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> vertices) {
    for_all_queued(backend, "scatter", vertices, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.camera_paths;
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, true);
        PathRng rng{ctx.seed, p.pixel[slot], p.sample[slot], p.path_length[slot], kRngStreamCamera};
        if (ctx.techniques.ppm && !v.bsdf.is_delta()) {
            // Merged here: the non-delta part ends the path; a BLEND point's pass-through,
            // a delta lobe, goes on (specular_path unchanged).
            if (blend_pass_through(p, slot, v, rng)) p.alive[slot] = 1;
            return;
        }
        bool specular = false;
        if (!scatter_subpath(ctx.iteration_of_camera_path(slot).weights, p, slot, v, rng, &specular)) return;
        if (!specular) p.specular_path[slot] = 0;
        p.alive[slot] = 1;
    });
}

}  // namespace wf
