// A render session on one backend: build the BVH, upload the scene, allocate the
// film, make the integrator, run its iterations with progress and a time budget,
// then resolve the image. Shared by the CPU and CUDA translation units.
#pragma once

#include <algorithm>
#include <chrono>

#include "app/device_scene.h"
#include "app/render.h"
#include "engine/film.h"
#include "wavefront/integrator_registry.h"

namespace wf {

template <class Backend>
RenderResult run_render_session(Backend& backend, const HostScene& scene, const RenderOptions& options) {
    const RenderSettings& settings = options.settings;
    backend.set_profiling(options.collect_stage_times);
    backend.memory().reset_peak();

    using Clock = std::chrono::steady_clock;
    auto t1 = Clock::now();
    DeviceScene<Backend> device_scene;
    BvhBuildStats bvh_stats;
    double bvh_ms = 0.0;
    {
        MemoryCounter::Phase phase(backend.memory(), "scene upload and BVH");
        // The paths the render may trace: how long the tree will be used (spp is an
        // upper bound under a time budget).
        const uint64_t paths = uint64_t(settings.width) * settings.height * settings.spp;
        device_scene.upload(backend, scene, scene.camera.build(settings.width, settings.height),
                            light_selection_mode(settings.light_selection), BvhRequest{options.bvh_builder, paths},
                            &bvh_stats, &bvh_ms);
    }
    Film<Backend> film;
    {
        MemoryCounter::Phase phase(backend.memory(), "film");
        film.allocate(settings.width, settings.height, settings.aovs);
    }
    backend.synchronize();
    auto t2 = Clock::now();

    RenderResources<Backend> resources;
    resources.backend = &backend;
    resources.scene = device_scene.view();
    resources.film = &film;
    resources.settings = settings;
    resources.max_wave_paths = options.max_wave_paths;
    resources.material_sort = resolve_material_sort(options.material_sort, scene);
    // With a time budget, iterations run until it is spent (at least one), one per call
    // (below); spp is then only the upper bound. The integrator sizes its waves for one.
    const bool timed = options.time_budget_seconds > 0.0;
    if (timed) resources.settings.spp = 1;
    resources.count_events = options.collect_stage_times;
    std::unique_ptr<Integrator<Backend>> integrator;
    {
        MemoryCounter::Phase phase(backend.memory(), "integrator state (paths, queues, light vertices)");
        integrator = make_integrator(resources);
    }
    MemoryCounter::Phase rendering_phase(backend.memory(), "rendering");

    backend.synchronize();
    auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    const uint32_t batch = timed ? 1u : std::max(1u, integrator->max_batch());
    uint32_t iterations = 0;
    while (iterations < settings.spp) {
        uint32_t count = std::min(batch, settings.spp - iterations);
        integrator->render(iterations, count);
        iterations += count;
        if (options.collect_stage_times) backend.flush_profile();
        if (options.progress || timed) backend.synchronize();
        if (options.progress) options.progress(iterations, settings.spp);
        if (timed && elapsed() >= options.time_budget_seconds) break;
    }
    backend.synchronize();
    double seconds = elapsed();

    RenderResult result;
    std::vector<Vec3f> pixels = film.resolve(iterations ? 1.0 / double(iterations) : 0.0);
    result.image = Image(settings.width, settings.height);
    result.image.pixels = std::move(pixels);
    for (const AovInfo& info : kAovs) {  // averaged over the samples as the beauty is
        if (!has_aov(settings.aovs, info.aov)) continue;
        ImageLayer layer{std::string(info.name), std::string(info.channels), Image(settings.width, settings.height)};
        layer.image.pixels = film.resolve_aov(info.aov, iterations ? 1.0 / double(iterations) : 0.0);
        result.aovs.push_back(std::move(layer));
    }
    result.backend = Backend::kName;
    result.device = backend.device_name();
    result.render_seconds = seconds;
    result.samples = uint64_t(settings.width) * settings.height * iterations;
    result.passes = iterations;
    backend.flush_profile();
    result.stats.stages = backend.stages().rows();
    integrator->report(result.stats);
    result.stats.nonfinite_samples = film.nonfinite_count();
    result.stats.bvh_build_ms = bvh_ms;
    result.stats.bvh = bvh_stats;
    if (bvh_stats.fell_back) result.warnings.push_back(bvh_stats.note);
    result.stats.upload_ms = std::chrono::duration<double, std::milli>(t2 - t1).count() - bvh_ms;
    result.stats.integrator_setup_ms = std::chrono::duration<double, std::milli>(start - t2).count();
    result.peak_memory_bytes = backend.memory().peak.load();
    return result;
}

}  // namespace wf
