// Stage `gather_merge_vertices` (ppm, bpm, vcm): after the hash grid is built,
// copies what merging reads of every stored light vertex into bucket order
// (wavefront/state/merge_vertex.h). Launched over every light-vertex entry; the
// grid's last cell start is the number of vertices it holds.
#pragma once

#include "wavefront/state/merge_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class Backend>
void gather_merge_vertices(Backend& backend, const VcmContext& ctx, uint32_t num_entries, MergeVertexView out) {
    backend.parallel_for("gather_merge_vertices", num_entries, WF_LAMBDA(uint32_t j) {
        if (j >= ctx.grid.cell_starts[ctx.grid.num_buckets]) return;
        const LightVertexView& lv = ctx.light_vertices;
        const uint32_t e = ctx.grid.sorted_indices[j];
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
