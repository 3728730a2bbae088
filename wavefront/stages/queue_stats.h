// Stage `queue_stats`: adds this wave's per-bounce queue sizes to running
// totals on the device, so --stats needs no readback per wave.
#pragma once

#include <cstdint>

#include "engine/hd.h"

namespace wf {

template <class Backend>
void queue_stats(Backend& backend, const uint32_t* sizes, unsigned long long* totals, uint32_t n) {
    backend.parallel_for("queue_stats", n, WF_LAMBDA(uint32_t i) { totals[i] += sizes[i]; });
}

}  // namespace wf
