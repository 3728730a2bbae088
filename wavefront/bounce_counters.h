// Per-bounce queue sizes of one pass (camera paths or light paths), kept on the
// device, and the host's lagged view of how many paths are still alive.
//  - The sizes of every queue at every bounce stay in backend memory; the stage
//    `queue_stats` adds them to running totals there, so --stats needs no readback.
//  - The host reads one number per bounce, asynchronously and `lag` bounces late:
//    the active-queue size, to stop issuing bounces once every path has died.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "wavefront/queues.h"
#include "wavefront/render_stats.h"
#include "wavefront/stages/queue_stats.h"

namespace wf {

enum QueueKind : uint32_t {
    kQueueActive = 0,   // paths tracing a ray this bounce
    kQueueSurface = 1,  // rays that hit a surface
    kQueueEscaped = 2,  // rays that left the scene
    kQueueShadow = 3,   // shadow rays pushed this bounce
    kNumQueueKinds = 4,
};

template <class Backend>
class BounceCounters {
public:
    void allocate(uint32_t max_bounces) {
        max_bounces_ = max_bounces;
        sizes_.resize(size_t(max_bounces + 1) * kNumQueueKinds);
        totals_.resize(sizes_.size());
        active_on_host_.resize(max_bounces + 1);
        marks_.assign(max_bounces + 1, 0);
        // Tuning knob for benchmarks: WF_BOUNCE_CHECK_LAG=0 never stops early.
        if (const char* lag = std::getenv("WF_BOUNCE_CHECK_LAG"); lag && *lag)
            lag_ = uint32_t(std::strtoul(lag, nullptr, 10));
    }

    // Zeroes this wave's sizes.
    void begin_wave() { sizes_.fill_zero(); }
    uint32_t* size(uint32_t bounce, QueueKind kind) { return sizes_.data() + size_t(bounce) * kNumQueueKinds + kind; }

    // False once the host has seen, `lag` bounces late, that no path is left. Call at
    // the top of bounce `bounce`; after each bounce call end_bounce with the next
    // bounce's active-queue counter.
    bool any_alive(Backend& backend, uint32_t bounce) {
        if (lag_ == 0 || bounce < lag_) return true;
        backend.wait_mark(marks_[bounce - lag_]);
        return active_on_host_.data()[bounce - lag_ + 1] != 0;
    }
    // How many threads the stages of bounce `bounce` need at most: paths only die, so the
    // active count the host last saw (lag bounces back) bounds every queue of this bounce.
    // Launching over that instead of the wave's capacity keeps late, nearly empty bounces
    // cheap. Call after any_alive(bounce).
    uint32_t launch_bound(uint32_t bounce, uint32_t capacity) {
        if (lag_ == 0 || bounce < lag_) return capacity;
        uint32_t seen = active_on_host_.data()[bounce - lag_ + 1];
        return seen < capacity ? seen : capacity;
    }
    void end_bounce(Backend& backend, uint32_t bounce) {
        backend.copy_counter_to_host(&active_on_host_.data()[bounce + 1], size(bounce + 1, kQueueActive));
        marks_[bounce] = backend.mark();
    }

    // Adds this wave's sizes to the totals (on the device).
    void end_wave(Backend& backend) {
        queue_stats(backend, sizes_.data(), totals_.data(), uint32_t(sizes_.size()));
    }

    std::vector<BounceQueueSizes> totals() const {
        std::vector<unsigned long long> t = totals_.to_vector();
        std::vector<BounceQueueSizes> out;
        for (uint32_t b = 0; b < max_bounces_; ++b) {
            const unsigned long long* q = &t[size_t(b) * kNumQueueKinds];
            out.push_back({q[kQueueActive], q[kQueueSurface], q[kQueueEscaped], q[kQueueShadow]});
        }
        return out;
    }

private:
    uint32_t max_bounces_ = 0;
    uint32_t lag_ = 4;
    typename Backend::template Buffer<uint32_t> sizes_;
    typename Backend::template Buffer<unsigned long long> totals_;
    typename Backend::CounterMirror active_on_host_;
    std::vector<uint32_t> marks_;  // per bounce: the backend mark after its compact
};

}  // namespace wf
