// Light vertices in hash-grid bucket order, for merging: what the merge stage
// reads of each light vertex, copied once per iteration after the grid is built
// (stage gather_merge_vertices). Like the light vertices, this cache is arrays of
// structures, two of them: a query tests every candidate of 8 buckets against the radius
// (about ten per query) but accepts about one, so the test reads a 16-byte record
// per candidate and only an accepted candidate reads the 48-byte rest. (ncu on an
// H100: merge over seven SoA fields was latency-bound at a 24-36% L2 hit rate.)
#pragma once

#include <cstdint>

#include "engine/math.h"

namespace wf {

// What the radius and path-length tests read.
struct alignas(16) MergePoint {
    Vec3f position;        // hit point, world space
    uint32_t path_length;  // segments from the light to this vertex
};
static_assert(sizeof(MergePoint) == 16, "one merge point is one 16-byte load");

// What an accepted candidate contributes with.
struct alignas(16) MergeVertex {
    Vec3f dir_fix;        // unit direction back toward the previous vertex (toward the light)
    float d_vcm;          // MIS: dVCM at the vertex
    Vec3f throughput;     // light sub-path throughput at the vertex
    float d_vm;           // MIS: dVM at the vertex (merging does not use dVC)
    float continuation;   // Russian-roulette continuation probability at the vertex
    Vec3f normal;         // glTF scenes: unit geometric normal at the vertex (merge_shading_factor); else 0
};
static_assert(sizeof(MergeVertex) == 48, "three 16-byte loads");

}  // namespace wf
