// Closest and any hit for a stream of rays on warps that refill their idle lanes
// (Aila and Laine 2009, "persistent while-while" with dynamic fetch): a warp of
// bounce rays otherwise lasts as long as its longest walk, its lanes idling one
// by one as their rays end. Here a lane whose ray has ended takes a new one, once
// fewer than `refill_below` lanes of its warp still walk, so a resident warp keeps
// most of its lanes busy until the stream runs dry.
//
// The walk is LeafOrder::kPostponed's, cut at the end of each of its rounds
// (postponed_round: descend until enough lanes hold a leaf, then test the
// leaves): there the warp checks how many lanes still walk and refills. The
// steps are intersect_closest's and intersect_any's (closest_hit_pop and the
// rest, accel/traverse.h).
//
// Rays end in the order their walks end, not in stream order, so `record` should
// write each hit in place; whoever needs the hits in order reads them after the
// launch (intersect_closest.h's ordinary launch pushes its queues).
//
// On the CPU (no warps) each thread takes its items one after another, the same
// items in the same way.
#pragma once

#include <cstdint>

#include "accel/traverse.h"

namespace wf {

// The warp's loop, whole warp, every lane (launches of whole warps). Items [0,
// total): this thread first takes item `first` (its index in the launch of
// `launched` threads), then items launched + the values of counter[0], reserved
// for the warp's idle lanes at once. counter[1] counts the warps that are done
// (on the CPU, the threads); the last one puts both back to zero for the next
// launch (they must be zero before the first). Every warp counts itself done only
// after its last reservation, whose answer it has read (it decides the warp's
// exit), so the reset follows every reservation of the launch. start(item) sets
// up an item's walk, round() walks one round of it and returns whether it has
// ended, finish(item) takes its answer.
template <class Start, class Round, class Finish>
WF_HD_INLINE void refill_lanes(uint32_t first, uint32_t launched, uint32_t total, uint32_t* counter,
                               uint32_t refill_below, Start&& start, Round&& round, Finish&& finish) {
#if WF_DEVICE_CODE
    const uint32_t lane = first & 31u;
    const uint32_t below = (1u << lane) - 1u;
    uint32_t item = first;
    bool walking = item < total;
    if (walking) start(item);
    for (;;) {
        if (walking && round()) {
            finish(item);
            walking = false;
        }
        const uint32_t busy = __ballot_sync(0xFFFFFFFFu, walking);
        if (busy != 0 && uint32_t(__popc(busy)) >= refill_below) continue;
        const uint32_t idle = ~busy;
        const uint32_t leader = uint32_t(__ffs(int(idle)) - 1);
        uint32_t base = 0;
        if (lane == leader) base = atomicAdd(counter, uint32_t(__popc(idle)));
        base = __shfl_sync(0xFFFFFFFFu, base, int(leader));
        if (!walking) {
            item = launched + base + uint32_t(__popc(idle & below));
            walking = item < total;
            if (walking) start(item);
        }
        if (__ballot_sync(0xFFFFFFFFu, walking) == 0) break;
    }
    // The fences make the order formal: every warp's reservations come before its
    // done count (a release), and the last warp's reset after all the counts it
    // read (an acquire).
    if (lane == 0) {
        __threadfence();
        if (atomicAdd(&counter[1], 1u) == launched / 32u - 1u) {
            __threadfence();
            counter[0] = 0;  // no warp fetches any more
            counter[1] = 0;
        }
    }
#else
    (void)refill_below;
    for (uint32_t item = first; item < total; item = launched + __atomic_fetch_add(counter, 1u, __ATOMIC_RELAXED)) {
        start(item);
        while (!round()) {
        }
        finish(item);
    }
    if (__atomic_fetch_add(&counter[1], 1u, __ATOMIC_ACQ_REL) == launched - 1u) {
        __atomic_store_n(&counter[0], 0u, __ATOMIC_RELAXED);
        __atomic_store_n(&counter[1], 0u, __ATOMIC_RELAXED);
    }
#endif
}

// Closest hit (t_max: kInfinity) of every item's ray: ray_of(item) is its ray,
// record(item, hit) takes its hit (on a miss, prim == kNoHit).
template <class RayOf, class Record>
WF_HD_INLINE void closest_hits_refilling(const GeometryView& g, uint32_t first, uint32_t launched, uint32_t total,
                                         uint32_t* counter, uint32_t refill_below, RayOf&& ray_of, Record&& record) {
    Ray ray;
    RayBoxQuery q;
    RayTriangleQuery tq;
    Hit best;
    uint64_t stack[kTraversalStackSize];
    int sp = 0;
    uint32_t ref = 0, leaf = 0;
    bool live = false;
    auto pop = closest_hit_pop(stack, sp, best);
    auto descend = closest_hit_descend(g, q, stack, sp, best, pop);
    auto test_leaf = closest_hit_test_leaf(g, ray, tq, best);
    refill_lanes(
        first, launched, total, counter, refill_below,
        [&](uint32_t item) {
            ray = ray_of(item);
            q = RayBoxQuery::from(ray);
            tq = RayTriangleQuery::from(ray);
            best = Hit{};
            sp = 0;
            ref = 0;  // the root, always an interior node (traversal_bvh.h)
            leaf = 0;
            live = g.num_prims() > 0;
        },
        [&]() {
            postponed_round(descend, pop, test_leaf, ref, live, leaf);
            return !live;
        },
        [&](uint32_t item) { record(item, best); });
}

// Any hit of every item's ray: ray_of(item, &t_max) is its ray and segment,
// record(item, hit) whether it hit anything.
template <class RayOf, class Record>
WF_HD_INLINE void any_hits_refilling(const GeometryView& g, uint32_t first, uint32_t launched, uint32_t total,
                                     uint32_t* counter, uint32_t refill_below, RayOf&& ray_of, Record&& record) {
    Ray ray;
    float t_max = 0.0f;
    RayBoxQuery q;
    RayTriangleQuery tq;
    uint32_t stack[kTraversalStackSize];
    int sp = 0;
    uint32_t ref = 0, leaf = 0;
    bool live = false, found = false;
    Hit scratch;
    auto take_children = any_hit_take_children(stack, sp);
    auto pop = any_hit_pop(stack, sp);
    auto descend = any_hit_descend(g, q, t_max, take_children, pop);
    auto test_leaf = any_hit_test_leaf(g, ray, tq, t_max, scratch);
    refill_lanes(
        first, launched, total, counter, refill_below,
        [&](uint32_t item) {
            ray = ray_of(item, &t_max);
            q = RayBoxQuery::from(ray);
            tq = RayTriangleQuery::from(ray);
            sp = 0;
            ref = 0;
            leaf = 0;
            live = g.num_prims() > 0;
            found = false;
        },
        [&]() {
            found = postponed_round(descend, pop, test_leaf, ref, live, leaf);
            return found || !live;
        },
        [&](uint32_t item) { record(item, found); });
}

}  // namespace wf
