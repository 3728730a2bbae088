// Work queues between stages, typed by what they hold (pbrt-v4's WorkQueue):
//  - SlotQueue<Record>: indices of slots of one state record (camera paths, light
//    paths); a stage that wants camera-path hits cannot be handed light-path slots.
//  - WorkQueue<ItemView>: the items themselves, stored SoA (shadow rays).
// Sizes live in backend memory, so no stage needs a host round trip. A stage over a
// queue is launched over min(capacity, kQueueLaunchThreads) threads that stride over
// the items up to the size on the device: a queue sized for the worst case (a shadow
// queue of 20M rays holding 200k) then costs no more than its items, and a full one
// no more launches. for_all_queued() is that loop, written once.
#pragma once

#include <cstdint>

#include "engine/hd.h"

namespace wf {

template <class Record>
struct SlotQueue {
    uint32_t* items;  // slot indices
    uint32_t* size;   // one counter in backend memory
    uint32_t capacity;

    // Returns the index the slot took (a stage may write a record of its own there).
    WF_HD uint32_t push(uint32_t slot) const {
        uint32_t at = atomic_push_index(size);
        items[at] = slot;  // capacity = number of slots: each slot is pushed at most once
        return at;
    }
};

// Threads a queue stage launches at most; each thread loops over items i, i + launched,
// ... Measured on an H100 (bench_bidirectional, vcm s1): 2^19 2.08 ms/iteration, 2^21
// 2.00. pt's GPU waves of up to 2^24 paths then take up to 8 items per thread.
#ifndef WF_QUEUE_LAUNCH_THREADS
#define WF_QUEUE_LAUNCH_THREADS (1u << 21)
#endif
inline constexpr uint32_t kQueueLaunchThreads = WF_QUEUE_LAUNCH_THREADS;

// How far a spreading launch spreads its items: each takes one thread in every
// 1 << shift (up to 32: one item per warp; the other lanes idle), while the items
// spread so still fill at most half of `room` threads. Ray traversal diverges: the
// lanes of a warp that walk different paths of the tree take turns, so a warp of 32
// rays in a small launch lasts about as long as its rays one after another. Nsight
// Compute, H200, one iteration (1 spp) of MetalRoughSpheres: the closest-hit launches
// of bounces 3 to 7 (a few thousand rays down to a handful) lasted 58-131 us with 4-16
// active lanes per warp, their rays in a few warps on a few SMs while the SMs were
// active 0.8-17% of the launch on average.
WF_HD_INLINE uint32_t lanes_shift_per_item(uint64_t items, uint32_t room) {
    uint32_t shift = 0;
    while (shift < 5 && items <= (room >> (shift + 1))) ++shift;  // items << (shift + 1) <= room
    return shift;
}

// The threads a stage keeps resident on the GPU with ResidentBlocksPerSm blocks per
// SM: the room its small launches spread into (lanes_shift_per_item); 0 (never
// spread) where threads do not run in warps or the stage does not spread.
template <uint32_t ResidentBlocksPerSm, class Backend>
uint32_t spread_room(const Backend& backend) {
    if constexpr (Backend::kRunsInWarps && ResidentBlocksPerSm > 0) return backend.resident_threads(ResidentBlocksPerSm);
    else return 0;
}

// Calls body(i) for every i in [0, *count * per_item); launched over at most
// kQueueLaunchThreads threads sized by the largest count the caller allows.
// MinBlocksPerSm, when not 0, is the room the stage asks for on the GPU: that many
// blocks of the default size per SM, which caps its registers
// (CudaBackend::parallel_for_sized). SpreadBlocksPerSm, when not 0, is for stages
// whose items diverge (ray traversal): a launch whose items fill at most half of the
// threads of that many blocks per SM (spread_room, and at most the launch) spreads
// them over more lanes (lanes_shift_per_item); other stages compile without it.
// The count must not change during the launch: every thread reads it for itself.
// Spread items may also be walked by groups of lanes (intersect_closest_group,
// intersect_any_group: accel/traverse_group.h), in
// a launch of their own so that the ordinary kernel keeps its registers: from a
// spread of 1 << groups_from lanes on (6: never), the ordinary launch leaves the
// items to a second one with kGroups, where every lane of an item's spread calls
// body(i, t, shift) (t: the thread's index, whose low 5 bits are its lane in the
// warp; 1 << shift: the lanes sharing item i, consecutive in one warp). That
// launch holds at most `room` threads, and does nothing below groups_from. Both
// launches carry the stage's name, so its statistics count two launches (three
// with a refilling launch). Items whose count is above leave_above are left to a
// refilling launch (for_all_items_refilling).
template <uint32_t MinBlocksPerSm = 0, uint32_t SpreadBlocksPerSm = 0, bool kGroups = false, class Backend, class F>
void for_all_items(Backend& backend, const char* name, const uint32_t* count, uint32_t max_count, uint32_t per_item,
                   F body, uint32_t groups_from = 6u, uint32_t leave_above = 0xFFFFFFFFu) {
    constexpr bool kSpread = SpreadBlocksPerSm > 0;
    static_assert(kSpread || !kGroups, "groups are made of spread lanes");
    const uint64_t most = uint64_t(max_count) * per_item;
    const uint32_t launched = uint32_t(most < kQueueLaunchThreads ? most : kQueueLaunchThreads);
    const uint32_t spread = spread_room<SpreadBlocksPerSm>(backend);
    const uint32_t room = spread < launched ? spread : launched;
    auto launch = [&](uint32_t threads, auto loop) {
        if constexpr (MinBlocksPerSm == 0) backend.parallel_for(name, threads, loop);
        else backend.template parallel_for_sized<0, MinBlocksPerSm>(name, threads, loop);
    };
    // (`if constexpr` out here, not in the lambdas: a device lambda may not first
    // capture a variable there.)
    if constexpr (kGroups) {
        if (room == 0 || groups_from > 5u) return;
        launch(room, WF_LAMBDA(uint32_t t) {
            const uint64_t total = uint64_t(*count < max_count ? *count : max_count) * per_item;
            const uint32_t shift = lanes_shift_per_item(total, room);
            if (shift < groups_from) return;
            // total << shift <= room (lanes_shift_per_item): one pass, each item once,
            // and every lane of a group below room. (On a geometry with group walks this
            // launch holds `room` threads even when the count leaves them nothing to do:
            // no cost measured on the meshes of bench/NOTES.md.)
            for (uint64_t i = t >> shift; i < total; i += room >> shift) body(uint32_t(i), t, shift);
        });
    } else {
        launch(launched, WF_LAMBDA(uint32_t t) {
            const uint64_t total = uint64_t(*count < max_count ? *count : max_count) * per_item;
            if (total > leave_above) return;
            // room <= launched keeps total << shift <= launched: one pass, each item once.
            const uint32_t shift = kSpread ? lanes_shift_per_item(total, room) : 0u;
            if (kSpread && (shift >= groups_from || (t & ((1u << shift) - 1u)) != 0)) return;
            for (uint64_t i = t >> shift; i < total; i += launched >> shift) body(uint32_t(i));
        });
    }
}

// Calls fn(slot) for every slot in the queue (for the template arguments, see
// for_all_items).
template <uint32_t MinBlocksPerSm = 0, uint32_t SpreadBlocksPerSm = 0, class Backend, class Record, class F>
void for_all_queued(Backend& backend, const char* name, SlotQueue<Record> queue, F fn, uint32_t groups_from = 6u) {
    for_all_items<MinBlocksPerSm, SpreadBlocksPerSm>(
        backend, name, queue.size, queue.capacity, 1, WF_LAMBDA(uint32_t i) { fn(queue.items[i]); }, groups_from);
}

// Calls fn(slot, t, shift) on every lane of the slots that for_all_queued with the
// same groups_from leaves to groups (for_all_items' kGroups).
template <uint32_t MinBlocksPerSm, uint32_t SpreadBlocksPerSm, class Backend, class Record, class F>
void for_all_queued_in_groups(Backend& backend, const char* name, SlotQueue<Record> queue, F fn,
                              uint32_t groups_from) {
    for_all_items<MinBlocksPerSm, SpreadBlocksPerSm, true>(
        backend, name, queue.size, queue.capacity, 1,
        WF_LAMBDA(uint32_t i, uint32_t t, uint32_t shift) { fn(queue.items[i], t, shift); }, groups_from);
}

// For stages whose threads take new items as theirs end (accel/traverse_refill.h):
// where the count may exceed `from` items per thread of the `room` threads of
// MinBlocksPerSm blocks per SM (by max_count, a bound the host knows), launches
// `room` threads that call body(t, room, total, counter) when it does: t the
// thread's index, total the count (at most max_count), counter the backend's
// work counter (two words, zero before and after; refill_lanes says how).
// Returns the count above which this launch took the items, for for_all_items'
// leave_above, or 0xFFFFFFFF where it could not: on a backend without warps or
// a work counter, or where the count cannot exceed from x room.
template <uint32_t MinBlocksPerSm, class Backend, class F>
uint32_t for_all_items_refilling(Backend& backend, const char* name, const uint32_t* count, uint32_t max_count,
                                 uint32_t from, F body) {
    if constexpr (!Backend::kRunsInWarps || !requires { backend.work_counter(); }) {
        return 0xFFFFFFFFu;
    } else {
        const uint32_t room = backend.resident_threads(MinBlocksPerSm);
        const uint64_t above64 = uint64_t(room) * from;
        if (room == 0 || above64 >= 0xFFFFFFFFu || max_count <= above64) return 0xFFFFFFFFu;
        const uint32_t above = uint32_t(above64);
        uint32_t* counter = backend.work_counter();
        backend.template parallel_for_sized<0, MinBlocksPerSm>(name, room, WF_LAMBDA(uint32_t t) {
            const uint32_t total = *count < max_count ? *count : max_count;
            if (total > above) body(t, room, total, counter);
        });
        return above;
    }
}

template <class ItemView>
struct WorkQueue {
    ItemView items;   // SoA storage, `capacity` elements per field
    uint32_t* size;   // one counter in backend memory; may exceed capacity (see push)
    uint32_t capacity;

    // Index to write the new item's fields at, or kQueueFull. Queues are sized for the
    // most any stage can push, so kQueueFull means a sizing bug; the counter keeps
    // counting, so the overflow shows in the queue statistics instead of passing silently.
    static constexpr uint32_t kQueueFull = 0xffffffffu;
    WF_HD uint32_t push() const {
        uint32_t at = atomic_push_index(size);
        return at < capacity ? at : kQueueFull;
    }
    // Pushes this thread's items j marked in `items` (bits j < kMaxItems) at once
    // (atomic_push_items): fn(j, index) writes item j's fields at index. An item beyond
    // the capacity is counted and not written, as with push().
    template <uint32_t kMaxItems, class F>
    WF_HD void push_items(uint32_t items, F&& fn) const {
        atomic_push_items<kMaxItems>(size, items, [&](uint32_t j, uint32_t at) {
            if (at < capacity) fn(j, at);
        });
    }
};

// Calls fn(index) for every item in the queue (for the template arguments, see
// for_all_items).
template <uint32_t MinBlocksPerSm = 0, uint32_t SpreadBlocksPerSm = 0, class Backend, class ItemView, class F>
void for_all_queued(Backend& backend, const char* name, WorkQueue<ItemView> queue, F fn, uint32_t groups_from = 6u,
                    uint32_t leave_above = 0xFFFFFFFFu) {
    for_all_items<MinBlocksPerSm, SpreadBlocksPerSm>(backend, name, queue.size, queue.capacity, 1, fn, groups_from,
                                                     leave_above);
}

// Calls fn(index, t, shift) on every lane of the items that for_all_queued with the
// same groups_from leaves to groups (for_all_items' kGroups).
template <uint32_t MinBlocksPerSm, uint32_t SpreadBlocksPerSm, class Backend, class ItemView, class F>
void for_all_queued_in_groups(Backend& backend, const char* name, WorkQueue<ItemView> queue, F fn,
                              uint32_t groups_from) {
    for_all_items<MinBlocksPerSm, SpreadBlocksPerSm, true>(backend, name, queue.size, queue.capacity, 1, fn,
                                                           groups_from);
}

}  // namespace wf
