// Stage `compact`: the slots whose path continues become the next bounce's
// active queue, in slot order (a stable select, so the order is deterministic).
// Shared by camera and light paths.
#pragma once

#include "wavefront/queues.h"

namespace wf {

template <class Backend, class PathView>
void compact(Backend& backend, const char* name, const uint8_t* alive, uint32_t num_slots,
             SlotQueue<PathView> next_active) {
    backend.select_flagged_indices(name, alive, next_active.items, next_active.size, num_slots);
}

}  // namespace wf
