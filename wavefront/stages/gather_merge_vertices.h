// Stage `gather_merge_vertices` (ppm, bpm, vcm): after the hash grid is built,
// copies what merging reads of every stored light vertex into bucket order
// (wavefront/state/merge_vertex.h). Launched over every light-vertex entry; the
// grid's last cell start is the number of vertices it holds.
#pragma once

#include "wavefront/state/merge_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

// lv: the iteration's block of light vertices (the grid's indices are relative to it).
template <class Backend>
void gather_merge_vertices(Backend& backend, const VcmIteration& it, LightVertexView lv, uint32_t num_entries) {
    const HashGridView grid = it.grid;
    const MergeVertexView out = it.merge_vertices;
    backend.parallel_for("gather_merge_vertices", num_entries, WF_LAMBDA(uint32_t j) {
        if (j >= grid.cell_starts[grid.num_buckets]) return;
        const uint32_t e = grid.sorted_indices[j];
        out.position[j] = lv.position[e];
        out.dir_fix[j] = lv.dir_fix[e];
        out.throughput[j] = lv.throughput[e];
        out.path_length[j] = lv.path_length[e];
        out.d_vcm[j] = lv.d_vcm[e];
        out.d_vm[j] = lv.d_vm[e];
        out.continuation[j] = lv.continuation[e];
    });
}

}  // namespace wf
