// Work queues between stages, typed by what they hold (pbrt-v4's WorkQueue):
//  - SlotQueue<Record>: indices of slots of one state record (camera paths, light
//    paths); a stage that wants camera-path hits cannot be handed light-path slots.
//  - WorkQueue<ItemView>: the items themselves, stored SoA (shadow rays).
// Sizes live in backend memory, so no stage needs a host round trip. Kernels are
// launched over the queue's capacity and threads past the size return at once;
// for_all_queued() is that guard, written once.
#pragma once

#include <cstdint>

#include "engine/hd.h"

namespace wf {

template <class Record>
struct SlotQueue {
    uint32_t* items;  // slot indices
    uint32_t* size;   // one counter in backend memory
    uint32_t capacity;

    WF_HD void push(uint32_t slot) const {
        uint32_t at = atomic_add(size, 1u);
        items[at] = slot;  // capacity = number of slots: each slot is pushed at most once
    }
};

// Calls fn(slot) for every slot in the queue, one thread each.
template <class Backend, class Record, class F>
void for_all_queued(Backend& backend, const char* name, SlotQueue<Record> queue, F fn) {
    backend.parallel_for(name, queue.capacity, WF_LAMBDA(uint32_t i) {
        if (i >= *queue.size) return;
        fn(queue.items[i]);
    });
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
        uint32_t at = atomic_add(size, 1u);
        return at < capacity ? at : kQueueFull;
    }
};

// Calls fn(index) for every item in the queue, one thread each.
template <class Backend, class ItemView, class F>
void for_all_queued(Backend& backend, const char* name, WorkQueue<ItemView> queue, F fn) {
    backend.parallel_for(name, queue.capacity, WF_LAMBDA(uint32_t i) {
        if (i >= *queue.size) return;
        fn(i);
    });
}

}  // namespace wf
