// The wavefront path tracer `pt`, composed from its stages. The host loop only
// decides which stage runs next; every queue size stays in backend memory. The
// one thing the host reads during a pass is the active-queue size, late and
// asynchronously, to stop issuing bounces once every path has died.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "accel/bvh_build.h"
#include "engine/device_scene.h"
#include "engine/render.h"
#include "wavefront/stages/accumulate.h"
#include "wavefront/stages/compact.h"
#include "wavefront/stages/generate.h"
#include "wavefront/stages/intersect_closest.h"
#include "wavefront/stages/intersect_shadow.h"
#include "wavefront/stages/queue_stats.h"
#include "wavefront/stages/shade_background.h"
#include "wavefront/stages/shade_surface.h"

namespace wf {

template <class Backend>
class PathTracer {
public:
    // max_wave_paths bounds the path state, so that huge films do not need huge
    // path state; a pass is traced in waves of at most that many paths.
    PathTracer(Backend& backend, const HostScene& scene, const RenderSettings& settings, uint32_t max_wave_paths)
        : backend_(backend), settings_(settings) {
        using Clock = std::chrono::steady_clock;
        auto t0 = Clock::now();
        Bvh bvh = build_bvh_binned_sah(scene.triangles, scene.spheres);
        auto t1 = Clock::now();
        scene_.upload(scene, bvh, scene.camera.build(settings.width, settings.height));
        backend_.synchronize();
        auto t2 = Clock::now();
        stats_.bvh_build_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        stats_.upload_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();

        num_pixels_ = settings.width * settings.height;
        wave_size_ = std::min(num_pixels_, std::max(1u, max_wave_paths));
        paths_.allocate(wave_size_);
        for (auto* q : {&active_items_, &surface_items_, &escaped_items_, &shadow_items_}) q->resize(wave_size_);
        queue_sizes_.resize(size_t(settings.max_depth + 1) * kNumQueueKinds);
        film_.resize(num_pixels_);
        film_compensation_.resize(num_pixels_);
        film_samples_.resize(num_pixels_);
        nonfinite_.resize(1);
        queue_size_totals_.resize(queue_sizes_.size());
        active_sizes_on_host_.resize(settings.max_depth + 1);
        bounce_marks_.assign(settings.max_depth + 1, 0);
        // Tuning knob for benchmarks: WF_BOUNCE_CHECK_LAG=0 never stops early.
        if (const char* lag = std::getenv("WF_BOUNCE_CHECK_LAG"); lag && *lag)
            bounce_check_lag_ = uint32_t(std::strtoul(lag, nullptr, 10));
    }

    // Traces one sample per pixel (all waves of one pass).
    void render_pass(uint32_t sample_index) {
        for (uint32_t offset = 0; offset < num_pixels_; offset += wave_size_) {
            uint32_t n = std::min(wave_size_, num_pixels_ - offset);
            render_wave(sample_index, offset, n);
        }
    }

    // Mean radiance per pixel over its finite samples.
    Image resolve() {
        backend_.synchronize();
        std::vector<Vec3f> sums = film_.to_vector();
        std::vector<uint32_t> counts = film_samples_.to_vector();
        Image image(settings_.width, settings_.height);
        for (size_t i = 0; i < sums.size(); ++i)
            if (counts[i]) image.pixels[i] = sums[i] * (1.0f / float(counts[i]));
        return image;
    }

    RenderStats stats() {
        backend_.flush_profile();
        RenderStats s = stats_;
        s.stages = backend_.stages().rows();
        uint32_t nonfinite = 0;
        nonfinite_.download(&nonfinite, 1);
        s.nonfinite_samples = nonfinite;
        std::vector<unsigned long long> totals = queue_size_totals_.to_vector();
        for (uint32_t b = 0; b < settings_.max_depth; ++b) {
            const unsigned long long* q = &totals[size_t(b) * kNumQueueKinds];
            s.bounces.push_back({q[kQueueActive], q[kQueueSurface], q[kQueueEscaped], q[kQueueShadow]});
        }
        return s;
    }

private:
    QueueView queue(typename Backend::template Buffer<uint32_t>& items, uint32_t bounce, QueueKind kind) {
        return {items.data(), queue_sizes_.data() + size_t(bounce) * kNumQueueKinds + kind};
    }

    void render_wave(uint32_t sample_index, uint32_t pixel_offset, uint32_t num_paths) {
        PtContext ctx;
        ctx.scene = scene_.view();
        ctx.paths = paths_.view();
        ctx.width = settings_.width;
        ctx.height = settings_.height;
        ctx.max_path_length = settings_.max_depth;
        ctx.seed = settings_.seed;
        ctx.sample_index = sample_index;
        ctx.pixel_offset = pixel_offset;
        ctx.num_paths = num_paths;
        ctx.light_pick_prob = ctx.scene.num_lights ? 1.0f / float(ctx.scene.num_lights) : 0.0f;

        queue_sizes_.fill_zero();
        uint32_t* active_on_host = active_sizes_on_host_.data();  // [b]: active paths at bounce b
        std::vector<uint32_t>& marks = bounce_marks_;
        integrator_generate(backend_, ctx, queue(active_items_, 0, kQueueActive));
        for (uint32_t bounce = 0; bounce < settings_.max_depth; ++bounce) {
            // Stop issuing bounces once every path has died. The size read is the one from
            // `lag` bounces back, so the device still has lag - 1 bounces queued while the
            // host waits for it.
            const uint32_t lag = bounce_check_lag_;
            if (lag > 0 && bounce >= lag) {
                backend_.wait_mark(marks[bounce - lag]);
                if (active_on_host[bounce - lag + 1] == 0) break;
            }
            QueueView active = queue(active_items_, bounce, kQueueActive);
            QueueView surface = queue(surface_items_, bounce, kQueueSurface);
            QueueView escaped = queue(escaped_items_, bounce, kQueueEscaped);
            QueueView shadow = queue(shadow_items_, bounce, kQueueShadow);
            integrator_intersect_closest(backend_, ctx, active, surface, escaped);
            integrator_shade_background(backend_, ctx, escaped);
            integrator_shade_surface(backend_, ctx, surface, shadow);
            integrator_intersect_shadow(backend_, ctx, shadow);
            QueueView next_active = queue(active_items_, bounce + 1, kQueueActive);
            integrator_compact(backend_, ctx, next_active);
            backend_.copy_counter_to_host(&active_on_host[bounce + 1], next_active.size);
            marks[bounce] = backend_.mark();
        }
        integrator_accumulate(backend_, ctx, film_.data(), film_compensation_.data(), film_samples_.data(),
                              nonfinite_.data());

        // Queue sizes for --stats are summed on the device: no readback per wave.
        integrator_queue_stats(backend_, queue_sizes_.data(), queue_size_totals_.data(),
                               uint32_t(queue_sizes_.size()));
    }

    Backend& backend_;
    RenderSettings settings_;
    DeviceScene<Backend> scene_;
    PathStateStorage<Backend> paths_;
    typename Backend::template Buffer<uint32_t> active_items_, surface_items_, escaped_items_, shadow_items_;
    typename Backend::template Buffer<uint32_t> queue_sizes_;
    typename Backend::template Buffer<Vec3f> film_;          // radiance sums per pixel
    typename Backend::template Buffer<Vec3f> film_compensation_;  // Kahan running error of film_
    typename Backend::template Buffer<uint32_t> film_samples_;  // finite samples per pixel
    typename Backend::template Buffer<uint32_t> nonfinite_;
    typename Backend::template Buffer<unsigned long long> queue_size_totals_;
    typename Backend::CounterMirror active_sizes_on_host_;
    std::vector<uint32_t> bounce_marks_;  // per bounce: the backend mark after its compact
    uint32_t bounce_check_lag_ = 4;  // see render_wave
    uint32_t num_pixels_ = 0, wave_size_ = 0;
    RenderStats stats_;
};

}  // namespace wf
