// Host-callable wrappers around HashGrid (copy in, build and query on the backend,
// copy out), one instantiation per backend. Tests check each backend against a
// brute-force search through them, and bench_hash_grid times the build; engine code
// uses HashGrid<Backend> directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend/profiler.h"
#include "engine/math.h"

namespace wf {

// One build's input. valid: empty means every point is valid, else one flag per point.
struct HashGridInput {
    std::vector<Vec3f> points;
    std::vector<uint8_t> valid;
    Aabb bounds;
    float radius = 0.0f;
};

// The grid's arrays after a build, copied to the host.
struct HashGridLayout {
    uint32_t num_buckets = 0;
    uint32_t cells_used = 0;                // the device-side counter
    std::vector<uint32_t> cell_starts;      // num_buckets + 1
    std::vector<uint32_t> sorted_indices;   // cell_starts[num_buckets] entries
};

struct HashGridBuildTiming {
    std::string device;
    uint32_t num_points = 0, num_buckets = 0, cells_used = 0;
    uint32_t reps = 0;
    double median_ms = 0.0, min_ms = 0.0, max_ms = 0.0;  // whole build (CUDA events / host clock)
    std::vector<StageStat> stages;  // per stage, summed over `reps` extra builds timed launch by launch
};

struct HashGridHost {
    const char* backend;
    // Builds a grid (reserved for the input's point count and at least min_buckets
    // buckets; 0: as many as points) and returns its arrays.
    HashGridLayout (*build_layout)(const HashGridInput& input, uint32_t min_buckets);
    // Builds from buckets computed in advance on the backend (prepare, then
    // build_from_buckets) over the first `count` points, with the count in backend
    // memory, and as many buckets as points; the input's valid flags are ignored.
    HashGridLayout (*build_layout_from_buckets)(const HashGridInput& input, uint32_t count);
    // Builds a grid as build_layout does, then runs view().query for every query on the
    // backend: per query, the indices in the order the query reported them (so a
    // duplicate shows).
    std::vector<std::vector<uint32_t>> (*query_all)(const HashGridInput& input, const std::vector<Vec3f>& queries,
                                                    uint32_t min_buckets);
    // Builds `first`, then `second` on the same grid (reserved once, for the larger),
    // and queries the second build: nothing of the first may leak into it.
    std::vector<std::vector<uint32_t>> (*query_after_rebuild)(const HashGridInput& first, const HashGridInput& second,
                                                              const std::vector<Vec3f>& queries);
    // Uploads the points, builds `warmup` times, then times `reps` builds (all valid).
    HashGridBuildTiming (*time_build)(const std::vector<Vec3f>& points, const Aabb& bounds, float radius,
                                      uint32_t warmup, uint32_t reps);
};

HashGridHost cpu_hash_grid_host();
#if defined(WF_HAVE_CUDA)
HashGridHost cuda_hash_grid_host();
#endif

}  // namespace wf
