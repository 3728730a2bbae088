// Stage `shade_background` (bidirectional family): camera rays that left the
// scene pick up the environment light with the full MIS weight (eqs. 42-43, with
// the quantities of the last scattering: no distance at infinity); the path ends.
#pragma once

#include "materials/emitters.h"
#include "wavefront/queues.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

// Weight of an emitter (light `light`) found by a camera path: 1 when seen directly; with
// merging but no connections (ppm, bpm) only all-specular paths count (merging covers the rest).
WF_HD_INLINE float vcm_emitter_weight(const VcmContext& ctx, uint32_t light, uint32_t path_length, bool specular_path,
                                      const SubpathMis& mis, float direct_pdf_a, float emission_pdf_w) {
    if (path_length == 1) return 1.0f;
    if (ctx.techniques.merge && !ctx.techniques.connect) return specular_path ? 1.0f : 0.0f;
    const float pick = ctx.scene.light_pick_prob(light);
    return mis_weight_emitter_hit(mis, direct_pdf_a * pick, emission_pdf_w * pick);
}

template <class Backend>
void vcm_shade_background(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> escaped) {
    for_all_queued(backend, "shade_background", escaped, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.camera_paths;
        p.alive[slot] = 0;
        if (ctx.scene.environment_light < 0) return;
        const Light& env = ctx.scene.lights[ctx.scene.environment_light];
        EmitterHit e = environment_radiance(env, ctx.scene.emitters(), p.ray_dir[slot]);
        if (is_black(e.radiance)) return;
        float w = vcm_emitter_weight(ctx, uint32_t(ctx.scene.environment_light), p.path_length[slot],
                                     p.specular_path[slot], load_mis(p, slot),
                                     e.pdf_direct_a, e.pdf_emission_w);
        p.radiance[slot] += p.throughput[slot] * e.radiance * w;
    });
}

}  // namespace wf
