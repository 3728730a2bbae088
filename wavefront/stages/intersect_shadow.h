// Stage `intersect_shadow`: any-hit test for every queued shadow ray; an
// unoccluded one adds its contribution to its film pixel. Shared by every
// integrator: next-event estimation, vertex connections and light-to-camera
// connections are all shadow rays.
#pragma once

#include "accel/traverse.h"
#include "accel/traverse_group.h"
#include "accel/traverse_refill.h"
#include "engine/film.h"
#include "materials/emitters.h"
#include "wavefront/queues.h"
#include "wavefront/stages/leaf_order.h"
#include "wavefront/state/shadow_ray.h"

namespace wf {

// The any-hit kernel's blocks per SM: its register cap (a launch bound of 8 blocks of
// 128 threads: 64 registers, which it took anyway under the default bound of 6) and
// the room its small launches spread into (for_all_items' SpreadBlocksPerSm). H200,
// bench_traversal, shadow rays, 6 -> 8 blocks of room (means of two calls):
// MetalRoughSpheres +1-3%, the bump meshes +0.1-1% (bench/NOTES.md).
inline constexpr uint32_t kIntersectShadowResidentBlocks = 8;

template <LeafOrder kOrder, class Backend>
void intersect_shadow_in_order(Backend& backend, const char* name, const GeometryView& geometry,
                               WorkQueue<ShadowRayView> shadow, FilmView film) {
    constexpr uint32_t kBlocks = kIntersectShadowResidentBlocks;
    const uint32_t groups_from = group_walks_from<Backend>(geometry);
    uint32_t leave_above = 0xFFFFFFFFu;
    if constexpr (kOrder == LeafOrder::kPostponed) {
        // (Unoccluded rays add to the film in any order: no pass after.)
        if (const uint32_t refill_below = refill_below_lanes(); refill_below > 0)
            leave_above = for_all_items_refilling<kBlocks>(
                backend, name, shadow.size, shadow.capacity, refill_from_rays_per_thread(),
                WF_LAMBDA(uint32_t t, uint32_t room, uint32_t total, uint32_t* counter) {
                    const ShadowRayView& r = shadow.items;
                    any_hits_refilling(
                        geometry, t, room, total, counter, refill_below,
                        [&](uint32_t i, float* t_max) {
                            *t_max = r.t_max[i];
                            return Ray{r.origin[i], r.dir[i]};
                        },
                        [&](uint32_t i, bool hit) {
                            if (!hit) film.add(r.pixel[i], r.contribution[i]);
                        });
                });
    }
    for_all_queued<kBlocks, kBlocks>(
        backend, name, shadow,
        WF_LAMBDA(uint32_t i) {
            const ShadowRayView& r = shadow.items;
            if (!intersect_any<kOrder>(geometry, Ray{r.origin[i], r.dir[i]}, r.t_max[i]))
                film.add(r.pixel[i], r.contribution[i]);
        },
        groups_from, leave_above);
    if constexpr (Backend::kRunsInWarps) {
        // A ray spread far enough is walked by its lanes together (group_walks_from).
        for_all_queued_in_groups<kBlocks, kBlocks>(
            backend, name, shadow,
            WF_LAMBDA(uint32_t i, uint32_t t, uint32_t shift) {
                const ShadowRayView& r = shadow.items;
                const bool hit = intersect_any_group(geometry, Ray{r.origin[i], r.dir[i]}, r.t_max[i], t & 31u, shift);
                if (!hit && (t & ((1u << shift) - 1u)) == 0) film.add(r.pixel[i], r.contribution[i]);
            },
            groups_from);
    }
}

// Shadow rays run from many surface points toward many light points: scattered
// rays to leaf_order_for.
template <class Backend>
void intersect_shadow(Backend& backend, const char* name, const GeometryView& geometry,
                      WorkQueue<ShadowRayView> shadow, FilmView film) {
    with_leaf_order<Backend>(RayCoherence::kScatteredRays, geometry, [&](auto order) {
        intersect_shadow_in_order<decltype(order)::value>(backend, name, geometry, shadow, film);
    });
}

// The shadow ray from surface point sp toward the light sample ds. Both ends are offset
// off their surfaces by their rounding-error bounds (accel/surface.h), so neither the
// receiver nor the light blocks it; lights at infinity get an unbounded ray.
WF_HD_INLINE Ray shadow_ray_to_light(const SurfacePoint& sp, const DirectSample& ds, float* t_max) {
    *t_max = kInfinity;
    if (ds.is_infinite) return spawn_ray(sp, ds.dir_to_light);
    return spawn_ray_to(sp, ds.light_point, t_max);
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
