// Stage `intersect_closest`: closest hit for every ray of the active queue, for
// camera paths and light paths alike (any state record with ray_* and hit_*
// fields). Hits go to the surface queue, misses to the escaped queue (or end the
// path when the escaped queue has no storage: light paths that leave the scene).
#pragma once

#include "accel/traverse.h"
#include "wavefront/queues.h"

namespace wf {

// Room for 8 blocks of 128 threads per SM: traversal then fits 64 registers (68
// under the default cap) and keeps a seventh more warps resident. H100,
// bench_traversal, G rays/s: bumps-1M primary 2.93-2.95 -> 3.02-3.06, bounce 1
// 1.11 -> 1.16; 10 blocks (48 registers) spill and do no better; the any-hit
// stage gains nothing from either (bench/NOTES.md).
inline constexpr uint32_t kIntersectClosestBlocksPerSm = 8;

// What a launch holds: camera rays leave the lens together in pixel order and
// stay coherent, so a warp's rays reach their leaves together; scattered rays
// (bounces, light paths) do not.
enum class RayCoherence { kCameraRays, kScatteredRays };

// Scattered rays postpone leaves (LeafOrder, accel/traverse.h) on the GPU in
// scenes of at least this many primitives. H100, against immediate leaves in the
// same call: bounce 1 and all bounces +8-14% in the closest-hit stage on meshes of
// 1M and 10M triangles (bench_traversal); but, in another call, that stage 5%
// slower in SmallVCM's scene 1 and 10% in the Cornell box (bench_pt), whose few
// dozen primitives make short walks that postponing only lengthens. Between the
// two, unmeasured (bench/NOTES.md).
inline constexpr uint32_t kPostponeLeavesMinPrims = 1u << 18;

template <class Backend>
LeafOrder leaf_order_for(RayCoherence rays, const GeometryView& geometry) {
    const bool postpone = Backend::kRunsInWarps && rays == RayCoherence::kScatteredRays &&
                          geometry.num_prims() >= kPostponeLeavesMinPrims;
    return postpone ? LeafOrder::kPostponed : LeafOrder::kImmediate;
}

template <LeafOrder kOrder, class Backend, class PathView>
void intersect_closest_in_order(Backend& backend, const char* name, const GeometryView& geometry, const PathView& paths,
                                SlotQueue<PathView> active, SlotQueue<PathView> surface, SlotQueue<PathView> escaped) {
    for_all_queued<kIntersectClosestBlocksPerSm>(backend, name, active, WF_LAMBDA(uint32_t slot) {
        Ray ray{paths.ray_origin[slot], paths.ray_dir[slot]};
        Hit hit = intersect_closest<kOrder>(geometry, ray, kInfinity);
        if (hit.prim == kNoHit) {
            paths.alive[slot] = 0;
            if (escaped.items) escaped.push(slot);
            return;
        }
        paths.hit_t[slot] = hit.t;
        paths.hit_prim[slot] = hit.prim;
        paths.hit_u[slot] = hit.u;
        paths.hit_v[slot] = hit.v;
        surface.push(slot);
    });
}

template <class Backend, class PathView>
void intersect_closest(Backend& backend, const char* name, const GeometryView& geometry, const PathView& paths,
                       SlotQueue<PathView> active, SlotQueue<PathView> surface, SlotQueue<PathView> escaped,
                       RayCoherence rays) {
    if (leaf_order_for<Backend>(rays, geometry) == LeafOrder::kImmediate)
        intersect_closest_in_order<LeafOrder::kImmediate>(backend, name, geometry, paths, active, surface, escaped);
    else
        intersect_closest_in_order<LeafOrder::kPostponed>(backend, name, geometry, paths, active, surface, escaped);
}

}  // namespace wf
