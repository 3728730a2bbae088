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
    // Paths traced at once (path-state memory); 0: the integrator's choice (pt on a GPU: up
    // to 16M, within an eighth of the free memory; otherwise 2M). The image does not depend on it.
    uint32_t max_wave_paths = 0;
    double time_budget_seconds = 0.0;  // > 0: render passes until this much time is spent (spp = upper bound)
    // > 0: the most bytes the backend's buffers may hold together (--max-memory); a render
    // that needs more fails with OutOfMemoryError (engine/backend/profiler.h).
    uint64_t max_memory_bytes = 0;
    // Threads of the CPU backend (--threads); 0: every hardware thread. The CUDA backend
    // ignores it: the GPU's parallelism is its own.
    uint32_t cpu_threads = 0;
    // pt: sort hits by material before shading (a benchmark knob; the image is the same).
    MaterialSortMode material_sort = MaterialSortMode::Auto;
    // The CUDA backend's BVH builder (--bvh); kAuto also reads WF_BVH_BUILDER.
    BvhBuilderChoice bvh_builder = BvhBuilderChoice::kAuto;
    // Called after each completed iteration (sample pass) with (iterations done, total).
    std::function<void(uint32_t, uint32_t)> progress;
};

struct RenderResult {
    Image image;             // mean radiance per pixel, linear, W/sr/m^2
    std::vector<ImageLayer> aovs;  // RenderSettings::aovs in engine/aov.h's order (kAovs), named as there
    std::string backend;     // "cpu" or "cuda"
    std::string device;      // GPU name or CPU thread count
    double render_seconds = 0.0;  // sample passes only (no BVH build/upload)
    uint64_t samples = 0;    // camera paths traced
    uint32_t passes = 0;     // samples per pixel actually rendered
    uint64_t peak_memory_bytes = 0;  // largest total of the backend's buffers during the render
    RenderStats stats;
    // One line each: why --backend auto fell back to the CPU, samples dropped as NaN/Inf.
    std::vector<std::string> warnings;
};

// Throws std::runtime_error (with a clear message) on failure, e.g. when the CUDA
// backend is requested but unavailable, and OutOfMemoryError when memory runs out.
RenderResult render(const HostScene& scene, const RenderOptions& options);

struct BackendChoice {
    BackendKind kind = BackendKind::Cpu;  // Cpu or Cuda
    std::string warning;                  // one line, or "" (see choose_backend)
};

// The backend a render asking for `requested` runs on. Auto: CUDA when this build has
// it and the device can run its kernels, else the CPU, with a warning when a GPU is
// there but cannot be used (a build without code for it, a driver too old). Cuda:
// throws std::runtime_error saying why CUDA cannot run, when it cannot.
BackendChoice choose_backend(BackendKind requested);

// One line per CUDA device (empty without the CUDA backend or a device).
std::vector<std::string> cuda_device_descriptions_or_empty();

// The GPU code this build carries ("" without the CUDA backend).
std::string cuda_architectures_or_empty();

// True when this build has the CUDA backend and a device that can run its kernels.
bool cuda_backend_available(std::string* why_not = nullptr);

}  // namespace wf
