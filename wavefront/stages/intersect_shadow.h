// Stage `intersect_shadow`: any-hit test for every queued shadow ray; an
// unoccluded one adds its contribution to its film pixel. Shared by every
// integrator: next-event estimation, vertex connections and light-to-camera
// connections are all shadow rays.
#pragma once

#include "accel/traverse.h"
#include "engine/film.h"
#include "wavefront/queues.h"
#include "wavefront/state/shadow_ray.h"

namespace wf {

template <class Backend>
void intersect_shadow(Backend& backend, const char* name, const GeometryView& geometry,
                      WorkQueue<ShadowRayView> shadow, FilmView film) {
    for_all_queued(backend, name, shadow, WF_LAMBDA(uint32_t i) {
        const ShadowRayView& r = shadow.items;
        if (!intersect_any(geometry, Ray{r.origin[i], r.dir[i]}, r.t_max[i])) film.add(r.pixel[i], r.contribution[i]);
    });
}

// Pushes one shadow ray; false (and nothing written) when the queue is full.
WF_HD_INLINE bool push_shadow_ray(const WorkQueue<ShadowRayView>& queue, const Ray& ray, float t_max,
                                  Vec3f contribution, uint32_t pixel) {
    uint32_t at = queue.push();
    if (at == WorkQueue<ShadowRayView>::kQueueFull) return false;
    queue.items.origin[at] = ray.origin;
    queue.items.dir[at] = ray.dir;
    queue.items.t_max[at] = t_max;
    queue.items.contribution[at] = contribution;
    queue.items.pixel[at] = pixel;
    return true;
}

}  // namespace wf
