// Stage `shade_background` (pt): rays that left the scene pick up the environment
// light, MIS-weighted against next-event estimation; the path ends.
#pragma once

#include "materials/emitters.h"
#include "wavefront/queues.h"
#include "wavefront/scene_view.h"
#include "wavefront/state/camera_path.h"

namespace wf {

template <class Backend>
void pt_shade_background(Backend& backend, const SceneView& scene, const CameraPathView& paths,
                         SlotQueue<CameraPathView> escaped) {
    for_all_queued(backend, "shade_background", escaped, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = paths;
        p.alive[slot] = 0;
        if (scene.environment_light < 0) return;
        const Light& env = scene.lights[scene.environment_light];
        EmitterHit e = environment_radiance(env, scene.emitters(), p.ray_dir[slot]);
        if (is_black(e.radiance)) return;
        float weight = 1.0f;
        if (p.path_length[slot] > 1 && !p.last_specular[slot])  // the environment's pdf is per solid angle
            weight = mis_balance(p.last_pdf_w[slot], e.pdf_direct_a * scene.light_pick_prob(uint32_t(scene.environment_light)));
        p.radiance[slot] += p.throughput[slot] * e.radiance * weight;
    });
}

}  // namespace wf
