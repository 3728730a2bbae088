// Stage `shade_background`: rays that left the scene pick up the environment
// light, MIS-weighted against next-event estimation; the path ends.
#pragma once

#include "materials/emitters.h"
#include "wavefront/pt_context.h"

namespace wf {

template <class Backend>
void integrator_shade_background(Backend& backend, const PtContext& ctx, QueueView escaped) {
    backend.parallel_for("shade_background", ctx.num_paths, WF_LAMBDA(uint32_t i) {
        if (i >= *escaped.size) return;
        const PathStateView& p = ctx.paths;
        uint32_t slot = escaped.items[i];
        p.alive[slot] = 0;
        if (ctx.scene.environment_light < 0) return;
        const Light& env = ctx.scene.lights[ctx.scene.environment_light];
        EmitterHit e = environment_radiance(env, ctx.scene.emitters(), p.ray_dir[slot]);
        if (is_black(e.radiance)) return;
        float weight = 1.0f;
        if (p.path_length[slot] > 1 && !p.last_specular[slot])
            weight = mis_balance(p.last_pdf_w[slot], e.pdf_direct_a * ctx.light_pick_prob  /* solid angle for the environment */);
        p.radiance[slot] += p.throughput[slot] * e.radiance * weight;
    });
}

}  // namespace wf
