// The renderer's public face: render a loaded scene on a chosen backend.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/scene.h"
#include "io/image.h"
#include "wavefront/render_stats.h"

namespace wf {

enum class BackendKind { Auto, Cpu, Cuda };

const char* backend_kind_name(BackendKind kind);

struct RenderOptions {
    RenderSettings settings;       // resolution, spp, max depth, seed, integrator
    BackendKind backend = BackendKind::Auto;
    bool collect_stage_times = false;  // time every stage (CUDA events / host clock)
    uint32_t max_wave_paths = 1u << 21;  // paths traced at once (path-state memory); the image does not depend on it
    double time_budget_seconds = 0.0;  // > 0: render passes until this much time is spent (spp = upper bound)
    // Called after each completed iteration (sample pass) with (iterations done, total).
    std::function<void(uint32_t, uint32_t)> progress;
};

struct RenderResult {
    Image image;             // mean radiance per pixel, linear, W/sr/m^2
    std::string backend;     // "cpu" or "cuda"
    std::string device;      // GPU name or CPU thread count
    double render_seconds = 0.0;  // sample passes only (no BVH build/upload)
    uint64_t samples = 0;    // camera paths traced
    uint32_t passes = 0;     // samples per pixel actually rendered
    uint64_t peak_memory_bytes = 0;  // largest total of the backend's buffers during the render
    RenderStats stats;
};

// Throws std::runtime_error (with a clear message) on failure, e.g. when the CUDA
// backend is requested but unavailable.
RenderResult render(const HostScene& scene, const RenderOptions& options);

// One line per CUDA device (empty without the CUDA backend or a device).
std::vector<std::string> cuda_device_descriptions_or_empty();

// True when this build has the CUDA backend and a device is present.
bool cuda_backend_available(std::string* why_not = nullptr);

}  // namespace wf
