// Closest hit (and any hit) of one ray by a group of lanes that share its walk: for launches too
// small to fill the GPU, where a ray's time is a chain of dependent node loads and
// the lanes beside it would otherwise idle (wavefront/queues.h spreads such
// launches over 2..32 lanes per ray).
//
// Each lane of the group walks the tree as intersect_closest does, with its own
// stack, and all of them step together: one node or one leaf per lane per step.
// After each step the group shares its nearest hit (so every lane culls by the
// best t any of them found) and lanes left without work take the top entry of a
// busy lane's stack: the node that lane's own walk would pop next. So the k lanes
// of a ray walk the front of the nearest-first order k nodes at a time, and
// the walk takes fewer dependent steps, at the cost of the nodes a single walk
// would have culled by the time it got to them. Giving the bottom entry instead
// (the farthest node pushed nearest the root, the largest subtree left: work
// stealing's usual choice) walked MetalRoughSpheres' late bounces 0-9% slower
// (H200, bench/NOTES.md): those far subtrees are the ones a near hit culls. Any
// hit walks the same way and ends when a lane of the group finds a hit. Leaves are
// tested as they are reached (LeafOrder::kImmediate), whatever the launch's order.
//
// Device only: the CPU runs no warps and never spreads, so there a group is one
// lane and these are intersect_closest and intersect_any.
#pragma once

#include <cstdint>

#include "accel/traverse.h"

namespace wf {

#if WF_DEVICE_CODE
// The lanes of this thread's group in its warp: 1 << shift consecutive lanes
// starting at a multiple of 1 << shift.
__device__ __forceinline__ uint32_t group_lane_mask(uint32_t warp_lane, uint32_t shift) {
    const uint32_t size = 1u << shift;
    const uint32_t ones = size == 32u ? 0xFFFFFFFFu : (1u << size) - 1u;
    return ones << (warp_lane & ~(size - 1u));
}
#endif

#if WF_DEVICE_CODE
// The group's walk for closest hit, or for any hit (kAny: the walk ends at the first
// hit any lane finds, and only best.prim means anything: whether there was one).
template <bool kAny>
__device__ __forceinline__ Hit walk_in_group(const GeometryView& g, const Ray& ray, float t_max, uint32_t warp_lane,
                                             uint32_t shift) {
    Hit best;
    best.t = t_max;
    if (g.num_prims() == 0) return best;

    const uint32_t group = group_lane_mask(warp_lane, shift);
    const uint32_t below = (1u << (warp_lane & 31u)) - 1u;  // lanes before this one
    const RayBoxQuery q = RayBoxQuery::from(ray);
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);
    const float slack = 1.0f + 2.0f * rounding_gamma(3);  // as in intersect_box

    // Its content is always one walk's stack below the node the lane started from
    // (less what it gave away), so it never holds more than intersect_closest's.
    uint64_t stack[kTraversalStackSize];
    int sp = 0;
    float t_group = t_max;  // the nearest hit any lane of the group has found

    auto pop = [&](uint32_t* ref) {
        while (sp != 0) {
            const uint64_t e = stack[--sp];
            if (entry_t(e) <= t_group * slack) {
                *ref = entry_ref(e);
                return true;
            }
        }
        return false;
    };

    uint32_t ref = 0;  // the root (always an interior node): the group's first lane starts there
    bool live = (group & below) == 0;
    for (;;) {
        if (live) {
            if (is_leaf_ref(ref)) {
                const uint32_t first = leaf_ref_first(ref), end = first + leaf_ref_count(ref);
                for (uint32_t i = first; i < end; ++i)
                    if (intersect_leaf_prim(g, load_leaf_prim(g.leaf_prims, i), ray, tq, t_group, &best)) {
                        if (kAny) break;
                        t_group = best.t;
                    }
                live = pop(&ref);
            } else {
                const OrientedNode n = load_oriented_node(g.traversal_nodes, ref, q);
                ChildHits h = intersect_children(n, q, t_group);
                if (h.mask == 0) {
                    live = pop(&ref);
                } else {
                    ref = push_farther_children(n, h, stack, sp);
                }
            }
        }
        if (kAny) {
            const uint32_t found = __ballot_sync(group, best.prim != kNoHit) & group;
            if (found != 0) {
                best.prim = __shfl_sync(group, best.prim, __ffs(found) - 1);
                return best;
            }
        } else {
            // The group's nearest hit (t >= 0, so its bits order as the floats do).
            uint32_t t_bits = float_to_bits(t_group);
            for (uint32_t d = 1; d < (1u << shift); d <<= 1)
                t_bits = ::min(t_bits, __shfl_xor_sync(group, t_bits, d));
            t_group = bits_to_float(t_bits);
        }

        // Idle lanes have empty stacks: when none is live, the walk is over.
        const uint32_t busy = __ballot_sync(group, live) & group;
        if (busy == 0) break;
        const uint32_t idle = group & ~busy;
        if (idle == 0) continue;
        const uint32_t donors = __ballot_sync(group, sp != 0) & group;
        if (donors == 0) continue;
        // The r-th idle lane takes the top entry of the r-th donor, while both last.
        const uint32_t pairs = uint32_t(::min(__popc(idle), __popc(donors)));
        const uint32_t rank = __popc((live ? donors : idle) & below);
        const uint32_t from = !live && rank < pairs ? __fns(donors, 0, int(rank) + 1) : (warp_lane & 31u);
        const uint64_t given = __shfl_sync(group, sp != 0 ? stack[sp - 1] : uint64_t(0), from);
        if (live && sp != 0 && rank < pairs) --sp;
        if (!live && rank < pairs && entry_t(given) <= t_group * slack) {
            ref = entry_ref(given);
            live = true;
        }
    }

    // The lane holding the group's nearest hit hands it to the others.
    uint32_t holder = best.t == t_group && best.prim != kNoHit ? (1u << (warp_lane & 31u)) : 0u;
    holder = __ballot_sync(group, holder != 0) & group;
    if (holder == 0) return best;  // no lane found a hit: best is the miss, t_max
    const uint32_t src = __ffs(holder) - 1;
    best.t = __shfl_sync(group, best.t, src);
    best.prim = __shfl_sync(group, best.prim, src);
    best.u = __shfl_sync(group, best.u, src);
    best.v = __shfl_sync(group, best.v, src);
    return best;
}
#endif

// Every lane of the group calls this together with the same ray and t_max;
// warp_lane is the calling thread's lane in its warp, shift the group's size as a
// power of two (0..5). Every lane returns the same hit: the nearest t, as
// intersect_closest finds it (where primitives share that t, either may be named).
WF_HD_INLINE Hit intersect_closest_group(const GeometryView& g, const Ray& ray, float t_max, uint32_t warp_lane,
                                         uint32_t shift) {
#if WF_DEVICE_CODE
    return walk_in_group<false>(g, ray, t_max, warp_lane, shift);
#else
    (void)warp_lane;
    (void)shift;
    return intersect_closest(g, ray, t_max);
#endif
}

// intersect_any by the group: whether any primitive is hit in (0, t_max); every
// lane returns the same answer.
WF_HD_INLINE bool intersect_any_group(const GeometryView& g, const Ray& ray, float t_max, uint32_t warp_lane,
                                      uint32_t shift) {
#if WF_DEVICE_CODE
    return walk_in_group<true>(g, ray, t_max, warp_lane, shift).prim != kNoHit;
#else
    (void)warp_lane;
    (void)shift;
    return intersect_any(g, ray, t_max);
#endif
}

}  // namespace wf
