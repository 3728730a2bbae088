// Light vertices in hash-grid bucket order, for merging: what the merge stage
// reads of each light vertex, copied once per iteration after the grid is built
// (stage gather_merge_vertices), so a query reads a bucket's vertices from
// contiguous memory instead of following an index per vertex.
#pragma once

#include <cstdint>

#include "engine/math.h"
#include "engine/soa.h"

// X(type, name, comment)
#define WF_MERGE_VERTEX_FIELDS(X)                                                                  \
    X(wf::Vec3f, position, "hit point, world space")                                               \
    X(wf::Vec3f, dir_fix, "unit direction back toward the previous vertex (toward the light)")     \
    X(wf::Vec3f, throughput, "light sub-path throughput at the vertex")                            \
    X(uint32_t, path_length, "segments from the light to this vertex")                             \
    X(float, d_vcm, "MIS: dVCM at the vertex")                                                      \
    X(float, d_vm, "MIS: dVM at the vertex (merging does not use dVC)")                            \
    X(float, continuation, "Russian-roulette continuation probability at the vertex")

namespace wf {
WF_DECLARE_SOA(MergeVertex, WF_MERGE_VERTEX_FIELDS)
}  // namespace wf
