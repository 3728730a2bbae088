// Runs a whole render on one backend: build and upload, the sample passes with
// progress, then the readback. Shared by the CPU and CUDA translation units.
#pragma once

#include <chrono>
#include <stdexcept>

#include "engine/render.h"
#include "wavefront/pt_integrator.h"

namespace wf {

template <class Backend>
RenderResult run_integrator(Backend& backend, const HostScene& scene, const RenderOptions& options) {
    const RenderSettings& settings = options.settings;
    if (settings.integrator != "pt")
        throw std::runtime_error("integrator '" + settings.integrator +
                                 "' is not implemented yet (available: pt)");
    backend.set_profiling(options.collect_stage_times);
    backend.memory().reset_peak();
    PathTracer<Backend> tracer(backend, scene, settings, options.max_wave_paths);

    using Clock = std::chrono::steady_clock;
    backend.synchronize();
    auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    // With a time budget, passes run until it is spent (at least one); spp is then
    // only the upper bound.
    const bool timed = options.time_budget_seconds > 0.0;
    uint32_t passes = 0;
    while (passes < settings.spp) {
        tracer.render_pass(passes);
        ++passes;
        if (options.collect_stage_times) backend.flush_profile();
        if (options.progress || timed) backend.synchronize();
        if (options.progress) options.progress(passes, settings.spp);
        if (timed && elapsed() >= options.time_budget_seconds) break;
    }
    backend.synchronize();
    double seconds = elapsed();

    RenderResult result;
    result.image = tracer.resolve();
    result.backend = Backend::kName;
    result.device = backend.device_name();
    result.render_seconds = seconds;
    result.samples = uint64_t(settings.width) * settings.height * passes;
    result.passes = passes;
    result.stats = tracer.stats();
    result.peak_memory_bytes = backend.memory().peak.load();
    return result;
}

}  // namespace wf
