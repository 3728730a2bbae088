// Stage `gather_merge_vertices` (ppm, bpm, vcm): after the hash grid is built,
// copies what merging reads of every stored light vertex into bucket order
// (wavefront/state/merge_vertex.h). The grid's last cell start is the number of
// vertices it holds; the launch strides over those only.
#pragma once

#include <type_traits>

#include "materials/bsdf.h"
#include "wavefront/queues.h"
#include "wavefront/state/merge_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

// lv: the iteration's block of light vertices (the grid's indices are relative to it).
// BsdfT: as the integrator picked for the scene; only the glTF one (CoverageBsdf) reads the normal in merging.
template <class BsdfT, class Backend>
void gather_merge_vertices(Backend& backend, const VcmIteration& it, LightVertexView lv, uint32_t num_entries) {
    const HashGridView grid = it.grid;
    MergePoint* const points = it.merge_points;
    MergeVertex* const out = it.merge_vertices;
    for_all_items(backend, "gather_merge_vertices", grid.cell_starts + grid.num_buckets, num_entries, 1,
                  WF_LAMBDA(uint32_t j) {
        const uint32_t e = grid.sorted_indices[j];
        points[j] = MergePoint{lv.position[e], lv.path_length[e]};
        MergeVertex m;
        m.dir_fix = lv.dir_fix[e];
        m.d_vcm = lv.d_vcm[e];
        m.throughput = lv.throughput[e];
        m.d_vm = lv.d_vm[e];
        m.continuation = lv.continuation[e];
        if constexpr (std::is_same_v<BsdfT, Bsdf>) {
            m.normal = Vec3f(0.0f);
        } else {
            m.normal = lv.normal[e];
        }
        out[j] = m;
    });
}

}  // namespace wf
