// What a render reports beyond its image (--stats, the summary line, benchmarks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend/profiler.h"

namespace wf {

// Queue sizes of one bounce, summed over all iterations.
struct BounceQueueSizes {
    uint64_t active = 0, surface = 0, escaped = 0, shadow = 0;
};

// A named count (summed over all iterations) or size, e.g. "light vertices stored".
struct RenderCounter {
    std::string name;
    double value = 0.0;
    bool per_iteration = true;  // printed divided by the iteration count
};

// Which builder makes the scene's BVH (RenderOptions::bvh_builder, --bvh). On the
// CUDA backend: kFast, H-PLOC on the GPU; kSah, binned SAH on the GPU (a slower
// build of a tree that traces faster); kCpu, the CPU builder; kAuto, kFast or kSah
// by how many paths the render traces per primitive (app/device_scene.h). The CPU
// backend always uses the CPU builder.
enum class BvhBuilderChoice { kAuto, kFast, kSah, kCpu };

// How the scene's BVH was built (--stats; the summary on a fallback).
struct BvhBuildStats {
    std::string builder;  // "gpu" (H-PLOC), "gpu-sah" (binned SAH on the device) or "cpu" (binned SAH on the host)
    double sah = 0.0;     // SAH cost of the tree (accel/bvh_quality.h)
    uint32_t depth = 0, nodes = 0;
    std::string note;     // why this builder: --bvh auto's reason, WF_BVH_BUILDER, a fallback; or ""
    bool fell_back = false;  // the default builder's tree was unusable (a warning)
};

struct RenderStats {
    std::vector<StageStat> stages;                // per stage: launches, total ms
    std::vector<BounceQueueSizes> bounces;        // camera paths, per bounce (index 0 = camera rays)
    std::vector<BounceQueueSizes> light_bounces;  // light paths, per bounce (index 0 = emitted rays)
    std::vector<RenderCounter> counters;
    uint64_t nonfinite_samples = 0;  // NaN/Inf contributions dropped from the film
    double bvh_build_ms = 0.0;  // building the tree and reading its figures back
    BvhBuildStats bvh;
    double upload_ms = 0.0;             // the scene's other buffers and the film
    double integrator_setup_ms = 0.0;   // the integrator's state: paths, queues, light vertices
    // Set by the command line, which loads the scene and starts the device (app/main.cpp).
    double scene_load_seconds = 0.0;    // reading and checking the scene and its files
    double device_wait_seconds = 0.0;   // the device's start that the load did not hide
};

// The summary's "setup": the device's start that the load did not hide, the BVH, the
// uploads and the integrator's state (not the few checks and the backend's construction
// between them).
inline double setup_seconds(const RenderStats& s) {
    return s.device_wait_seconds + (s.bvh_build_ms + s.upload_ms + s.integrator_setup_ms) * 1e-3;
}

}  // namespace wf
