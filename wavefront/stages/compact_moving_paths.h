// Stages `compact` and `move_paths` as the bidirectional family runs them: the slots
// whose path continues become the next bounce's active queue, and those paths' state
// moves, in slot order, to the front of the other of two state buffers, so that the
// next bounce's stages read and write dense arrays. (pt compacts the queue only:
// wavefront/stages/compact.h.)
// Why: left where they are, a late bounce's few paths are spread over the whole wave,
// and each field a stage reads or writes costs a 32-byte sector per path. On an H100
// (ncu, SmallVCM scene 2, vcm, a batch of 8 iterations) shade_light read 92 MB of DRAM
// at its eighth bounce for 152k paths, where its first read 159 MB for 1.68M.
// Why two buffers: the survivors are read in slot order, nearly contiguous, and written
// contiguously. Moving only the survivors above the new count into the slots of ended
// paths (in place) copies fewer paths, but each field of each moved path is then a
// scattered read and a scattered write: measured, that move cost more than the dense
// stages saved, and it mixed the iterations of a batch, which merge pays for in L2 misses
// (bench/NOTES.md).
// `alive` is one array both buffers' views share: afterwards it is 1 on the new slots
// [0, c) and 0 above (the old slots of paths that moved are cleared), so the next
// bounce's range may be any bound on its active count (BounceCounters::launch_bound). A
// path's random numbers are keyed by its pixel, sample or light-path index, never by its
// slot: moving it changes no image.
#pragma once

#include "wavefront/queues.h"

namespace wf {

// from, to: the two buffers' views (to.alive == from.alive); every path of this bounce
// lies in slots [0, range) of `from`.
template <class Backend, class PathView>
void compact_moving_paths(Backend& backend, const char* compact_name, const char* move_name, const PathView& from,
                          const PathView& to, uint32_t range, SlotQueue<PathView> next_active) {
    backend.select_flagged_indices(compact_name, from.alive, next_active.items, next_active.size, range);
    uint32_t* const items = next_active.items;
    const uint32_t* const count = next_active.size;
    for_all_items(backend, move_name, count, range, 1, WF_LAMBDA(uint32_t i) {
        const uint32_t slot = items[i];
        to.copy_element(i, from, slot);  // alive too: the shared array's slot i becomes 1
        items[i] = i;
        if (slot >= *count) from.alive[slot] = 0;
    });
}

}  // namespace wf
