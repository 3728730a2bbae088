// Stage `compact`: the slots whose path continues become the next bounce's
// active queue, in slot order (a stable select, so the order is deterministic).
#pragma once

#include "wavefront/pt_context.h"

namespace wf {

template <class Backend>
void integrator_compact(Backend& backend, const PtContext& ctx, QueueView next_active) {
    backend.select_flagged_indices("compact", ctx.paths.alive, next_active.items, next_active.size, ctx.num_paths);
}

}  // namespace wf
