// Stage `merge` (ppm, bpm, vcm): vertex merging at every queued non-delta camera
// vertex: a range query over the 2x2x2 hash-grid cells around it (less those entirely
// beyond the radius, accel/hash_grid.h) gathers the light vertices within the merging
// radius, each weighted by the camera BSDF toward its incoming direction and by the MIS
// weight of merging (eqs. 37-39; none for ppm); with a shading normal also by
// |wi.ns| / |wi.ng| (merge_shading_factor).
// The sum, over pi r^2 and the number of light paths, adds to the path's radiance.
#pragma once

#include <algorithm>

#include "accel/traverse.h"  // lowest_set_bit
#include "wavefront/queues.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

// Candidates scanned per chunk: one 32-bit mask of the accepted ones.
inline constexpr uint32_t kMergeChunk = 32;

// Scans a query's candidates (the points of up to 8 buckets as one flat sequence,
// HashGridCandidates) for the light vertices to merge with: within the radius of q, and on
// a light sub-path the camera's may extend (path lengths adding up to at most the
// maximum). They are scanned a chunk of kMergeChunk at a time into a mask of the accepted
// ones, and on_chunk(candidates, chunk, accepted) is called for every chunk with one (bit
// k: candidate chunk + k), in order. Within a chunk they are tested kBatch at a time, every
// point of a batch loaded before any is tested (tested one at a time, each load would wait
// for the previous test's branch); a batch past the last candidate loads the last one
// again (no branch around the loads) and accepts nothing there. Batches run across bucket
// boundaries: candidates() loaded every bucket's start at once. points: the iteration's
// merge points, in bucket order.
template <class F>
WF_HD_INLINE void scan_merge_candidates(const HashGridCandidates& candidates, const MergePoint* points, Vec3f q,
                                        float radius_sq, uint32_t max_light_length, F&& on_chunk) {
    // Eight loads in flight per lane: 0.3 to 0.5% faster on s2 than four (H100), with
    // no spills in the lean instantiation.
    constexpr uint32_t kBatch = 8;
    static_assert(kMergeChunk % kBatch == 0 && kMergeChunk <= 32, "batches tile a chunk; a chunk is a 32-bit mask");
    for (uint32_t chunk = 0; chunk < candidates.count; chunk += kMergeChunk) {
        const uint32_t chunk_end = std::min(candidates.count, chunk + kMergeChunk);
        uint32_t accepted = 0;
        for (uint32_t t = chunk; t < chunk_end; t += kBatch) {
            MergePoint batch[kBatch];
#if WF_DEVICE_CODE
#pragma unroll
#endif
            for (uint32_t k = 0; k < kBatch; ++k)
                batch[k] = points[candidates.position(std::min(t + k, chunk_end - 1u))];
            uint32_t bits = 0;
#if WF_DEVICE_CODE
#pragma unroll
#endif
            for (uint32_t k = 0; k < kBatch; ++k) {
                const bool ok = (t + k < chunk_end) & (length_squared(batch[k].position - q) <= radius_sq) &
                                (batch[k].path_length <= max_light_length);
                bits |= uint32_t(ok) << k;
            }
            accepted |= bits << (t - chunk);
        }
        if (accepted != 0) on_chunk(candidates, chunk, accepted);
    }
}

// vertices: the bounce's camera vertex queue, whose entry i has its query at
// ctx.merge_queries[i] (written by shade_surface).
template <class BsdfT, class Backend>
void merge(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> vertices) {
    for_all_items(backend, "merge", vertices.size, vertices.capacity, 1, WF_LAMBDA(uint32_t i) {
        // The scan needs only the query (wavefront/state/merge_query.h says why); the
        // vertex (its surface point and BSDF, some 25 registers) is built after a chunk's
        // scan, for the chunk's accepted candidates: live through the scan it pushed the
        // loop over the register cap. A chunk with nothing accepted builds nothing.
        const MergeQuery query = ctx.merge_queries[i];
        if (query.max_light_length == 0) return;  // a delta BSDF: nothing to merge
        const uint32_t slot = vertices.items[i];
        const CameraPathView& p = ctx.camera_paths;
        const Vec3f q = query.point;
        const VcmIteration& it = ctx.iteration_of_camera_path(slot);
        const uint32_t max_light_length = query.max_light_length;
        Vec3f sum(0.0f);
        uint32_t merged = 0;
        scan_merge_candidates(it.grid.candidates(q), it.merge_points, q, it.grid.radius_sq, max_light_length,
                              [&](const HashGridCandidates& candidates, uint32_t chunk, uint32_t accepted) {
            const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, true);
            const SubpathMis camera_mis = load_mis(p, slot);
            const float camera_cont = v.bsdf.continuation_prob();
            for (; accepted != 0; accepted &= accepted - 1u) {
                const MergeVertex& m = it.merge_vertices[candidates.position(chunk + lowest_set_bit(accepted))];
                BsdfEval ev = v.bsdf.evaluate(m.dir_fix);
                if (is_black(ev.factor)) continue;
                ++merged;
                float w = 1.0f;
                if (!ctx.techniques.ppm) {
                    // The reverse pdf takes the light vertex's continuation: that would govern
                    // it had the light path continued.
                    w = mis_weight_merge(camera_mis, SubpathMis{m.d_vcm, 0.0f, m.d_vm}, ev.pdf_fwd_w * camera_cont,
                                         ev.pdf_rev_w * m.continuation, it.weights);
                }
                sum += ev.factor * m.throughput * (w * merge_shading_factor<BsdfT>(ev, m.dir_fix, m.normal));
            }
        });
        ctx.count(kCounterMerges, merged);
        if (merged) p.radiance[slot] += p.throughput[slot] * sum * it.vm_normalization;
    });
}

}  // namespace wf
