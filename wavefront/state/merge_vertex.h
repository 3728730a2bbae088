// Light vertices in hash-grid bucket order, for merging: what the merge stage
// reads of each light vertex, copied once per iteration after the grid is built
// (stage gather_merge_vertices). Unlike the state records this cache is an array
// of structures: a query reads a few scattered vertices, and one 64-byte record
// (two sectors, 16-byte aligned loads) costs less than seven SoA fields (ncu on an
// H100: merge was latency-bound at a 36% L2 hit rate with the SoA layout).
#pragma once

#include <cstdint>

#include "engine/math.h"

namespace wf {

struct alignas(16) MergeVertex {
    Vec3f position;       // hit point, world space
    float d_vcm;          // MIS: dVCM at the vertex
    Vec3f dir_fix;        // unit direction back toward the previous vertex (toward the light)
    float d_vm;           // MIS: dVM at the vertex (merging does not use dVC)
    Vec3f throughput;     // light sub-path throughput at the vertex
    float continuation;   // Russian-roulette continuation probability at the vertex
    uint32_t path_length; // segments from the light to this vertex
    uint32_t unused[3];
};
static_assert(sizeof(MergeVertex) == 64, "one merge vertex is two 32-byte sectors");

}  // namespace wf
