// Stage `intersect_closest`: closest hit for every ray of the active queue, for
// camera paths and light paths alike (any state record with ray_* and hit_*
// fields). Hits go to the surface queue, misses to the escaped queue (or end the
// path when the escaped queue has no storage: light paths that leave the scene).
#pragma once

#include "accel/traverse.h"
#include "accel/traverse_group.h"
#include "accel/traverse_refill.h"
#include "wavefront/queues.h"
#include "wavefront/stages/leaf_order.h"

namespace wf {

// Room for 8 blocks of 128 threads per SM: traversal then fits 64 registers (68
// under the default cap) and keeps a seventh more warps resident. H100,
// bench_traversal, G rays/s: bumps-1M primary 2.93-2.95 -> 3.02-3.06, bounce 1
// 1.11 -> 1.16; 10 blocks (48 registers) spill and do no better; the any-hit
// stage gained nothing from either (bench/NOTES.md; measured before it
// postponed leaves).
inline constexpr uint32_t kIntersectClosestBlocksPerSm = 8;

// kSpread: launches too small to fill the GPU spread their rays over more lanes
// (for_all_items' SpreadBlocksPerSm). Camera rays come a whole wave at a time and
// would never spread, and the check compiled into their kernel had them 1-3% slower
// (H200, bench_traversal, bench/NOTES.md): theirs is compiled without it.
inline constexpr bool spreads_small_launches(RayCoherence rays) { return rays == RayCoherence::kScatteredRays; }

template <LeafOrder kOrder, bool kSpread, class Backend, class PathView>
void intersect_closest_in_order(Backend& backend, const char* name, const GeometryView& geometry, const PathView& paths,
                                SlotQueue<PathView> active, SlotQueue<PathView> surface, SlotQueue<PathView> escaped) {
    // Where the ray goes: a miss to the escaped queue (or the path ends), a hit to
    // the surface queue.
    auto push_outcome = WF_LAMBDA(uint32_t slot, bool found) {
        if (!found) {
            paths.alive[slot] = 0;
            if (escaped.items) escaped.push(slot);
            return;
        }
        surface.push(slot);
    };
    // The hit's outcome, written by one lane per ray.
    auto record = WF_LAMBDA(uint32_t slot, const Hit& hit) {
        if (hit.found()) {
            paths.hit_t[slot] = hit.t;
            paths.hit_prim[slot] = hit.prim;
            paths.hit_u[slot] = hit.u;
            paths.hit_v[slot] = hit.v;
        }
        push_outcome(slot, hit.found());
    };
    auto trace = WF_LAMBDA(uint32_t slot) {
        const Ray ray{paths.ray_origin[slot], paths.ray_dir[slot]};
        record(slot, intersect_closest<kOrder>(geometry, ray, kInfinity));
    };
    if constexpr (kSpread) {
        const uint32_t groups_from = group_walks_from<Backend>(geometry);
        if constexpr (kOrder == LeafOrder::kPostponed) {
            // Large launches on warps that refill their lanes (refill_below_lanes): each
            // hit written in place (hit_prim kNoHit for a miss), as the rays end out of
            // queue order...
            uint32_t refilled_above = 0xFFFFFFFFu;
            if (const uint32_t refill_below = refill_below_lanes(); refill_below > 0)
                refilled_above = for_all_items_refilling<kIntersectClosestBlocksPerSm>(
                    backend, name, active.size, active.capacity, refill_from_rays_per_thread(),
                    WF_LAMBDA(uint32_t t, uint32_t room, uint32_t total, uint32_t* counter) {
                        closest_hits_refilling(
                            geometry, t, room, total, counter, refill_below,
                            [&](uint32_t i) {
                                const uint32_t slot = active.items[i];
                                return Ray{paths.ray_origin[slot], paths.ray_dir[slot]};
                            },
                            [&](uint32_t i, const Hit& hit) {
                                const uint32_t slot = active.items[i];
                                paths.hit_prim[slot] = hit.prim;
                                if (!hit.found()) return;
                                paths.hit_t[slot] = hit.t;
                                paths.hit_u[slot] = hit.u;
                                paths.hit_v[slot] = hit.v;
                            });
                    });
            // ... and then pushed to their queues by the ordinary launch in queue order,
            // the order the shading stages read their slots' fields in (pushed as the
            // rays ended, a render of MetalRoughSpheres was slower: bench/NOTES.md). In
            // that launch, not a pass of its own: on the glTF scene an extra launch per
            // bounce, mostly with nothing to do, cost more than its pushes.
            auto trace_or_push = WF_LAMBDA(uint32_t slot) {
                if (refilled_above != 0xFFFFFFFFu) {
                    const uint32_t total = *active.size < active.capacity ? *active.size : active.capacity;
                    if (total > refilled_above) {
                        push_outcome(slot, paths.hit_prim[slot] != kNoHit);
                        return;
                    }
                }
                trace(slot);
            };
            for_all_queued<kIntersectClosestBlocksPerSm, kIntersectClosestBlocksPerSm>(backend, name, active,
                                                                                       trace_or_push, groups_from);
        } else {
            for_all_queued<kIntersectClosestBlocksPerSm, kIntersectClosestBlocksPerSm>(backend, name, active, trace,
                                                                                       groups_from);
        }
        // A ray spread far enough is walked by its lanes together.
        auto trace_group = WF_LAMBDA(uint32_t slot, uint32_t t, uint32_t shift) {
            const Ray ray{paths.ray_origin[slot], paths.ray_dir[slot]};
            const Hit hit = intersect_closest_group(geometry, ray, kInfinity, t & 31u, shift);
            if ((t & ((1u << shift) - 1u)) == 0) record(slot, hit);
        };
        for_all_queued_in_groups<kIntersectClosestBlocksPerSm, kIntersectClosestBlocksPerSm>(backend, name, active,
                                                                                            trace_group, groups_from);
    } else {
        for_all_queued<kIntersectClosestBlocksPerSm>(backend, name, active, trace);
    }
}

template <class Backend, class PathView>
void intersect_closest(Backend& backend, const char* name, const GeometryView& geometry, const PathView& paths,
                       SlotQueue<PathView> active, SlotQueue<PathView> surface, SlotQueue<PathView> escaped,
                       RayCoherence rays) {
    with_leaf_order<Backend>(rays, geometry, [&](auto order) {
        constexpr LeafOrder kOrder = decltype(order)::value;
        // Postponed launches are scattered rays (leaf_order_for); the CPU never
        // spreads (spread_room), so it compiles one kernel.
        if constexpr (kOrder == LeafOrder::kPostponed || !Backend::kRunsInWarps)
            intersect_closest_in_order<kOrder, Backend::kRunsInWarps>(backend, name, geometry, paths, active, surface,
                                                                      escaped);
        else if (spreads_small_launches(rays))
            intersect_closest_in_order<kOrder, true>(backend, name, geometry, paths, active, surface, escaped);
        else
            intersect_closest_in_order<kOrder, false>(backend, name, geometry, paths, active, surface, escaped);
    });
}

}  // namespace wf
