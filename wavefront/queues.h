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

// Calls body(i) for every i in [0, *count * per_item); launched over at most
// kQueueLaunchThreads threads sized by the largest count the caller allows.
// MinBlocksPerSm, when not 0, is the room the stage asks for on the GPU: that many
// blocks of the default size per SM, which caps its registers
// (CudaBackend::parallel_for_sized).
template <uint32_t MinBlocksPerSm = 0, class Backend, class F>
void for_all_items(Backend& backend, const char* name, const uint32_t* count, uint32_t max_count, uint32_t per_item,
                   F body) {
    const uint64_t most = uint64_t(max_count) * per_item;
    const uint32_t launched = uint32_t(most < kQueueLaunchThreads ? most : kQueueLaunchThreads);
    auto loop = WF_LAMBDA(uint32_t t) {
        const uint64_t total = uint64_t(*count < max_count ? *count : max_count) * per_item;
        for (uint64_t i = t; i < total; i += launched) body(uint32_t(i));
    };
    if constexpr (MinBlocksPerSm == 0) backend.parallel_for(name, launched, loop);
    else backend.template parallel_for_sized<0, MinBlocksPerSm>(name, launched, loop);
}

// Calls fn(slot) for every slot in the queue.
template <uint32_t MinBlocksPerSm = 0, class Backend, class Record, class F>
void for_all_queued(Backend& backend, const char* name, SlotQueue<Record> queue, F fn) {
    for_all_items<MinBlocksPerSm>(backend, name, queue.size, queue.capacity, 1,
                                  WF_LAMBDA(uint32_t i) { fn(queue.items[i]); });
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

// Calls fn(index) for every item in the queue.
template <class Backend, class ItemView, class F>
void for_all_queued(Backend& backend, const char* name, WorkQueue<ItemView> queue, F fn) {
    for_all_items(backend, name, queue.size, queue.capacity, 1, fn);
}

}  // namespace wf
