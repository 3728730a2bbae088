// Work queues between stages: a list of path-slot indices plus a size that
// lives in backend memory, so no stage needs a host round trip. Kernels are
// launched over the queue's capacity and threads past the size return at once.
#pragma once

#include <cstdint>

#include "engine/hd.h"

namespace wf {

struct QueueView {
    uint32_t* items;  // path slot indices
    uint32_t* size;   // one counter in backend memory

    WF_HD uint32_t push(uint32_t slot) const {
        uint32_t at = atomic_add(size, 1u);
        items[at] = slot;
        return at;
    }
};

// Per-bounce queue sizes, kept for --stats. Index: bounce * kNumQueueKinds + kind.
enum QueueKind : uint32_t {
    kQueueActive = 0,   // paths tracing a ray this bounce
    kQueueSurface = 1,  // rays that hit a surface
    kQueueEscaped = 2,  // rays that left the scene
    kQueueShadow = 3,   // shadow rays for next-event estimation
    kNumQueueKinds = 4,
};

inline const char* queue_kind_name(uint32_t kind) {
    switch (kind) {
        case kQueueActive: return "active";
        case kQueueSurface: return "surface";
        case kQueueEscaped: return "escaped";
        default: return "shadow";
    }
}

}  // namespace wf
