// Stage `merge` (ppm, bpm, vcm): vertex merging at every queued non-delta camera
// vertex: a range query over the 2x2x2 hash-grid cells around it gathers the light
// vertices within the merging radius, each weighted by the camera BSDF toward its
// incoming direction and by the MIS weight of merging (eqs. 37-39; none for ppm); with a
// shading normal also by |wi.ns| / |wi.ng| (merge_shading_factor).
// The sum, over pi r^2 and the number of light paths, adds to the path's radiance.
#pragma once

#include "accel/traverse.h"  // lowest_set_bit
#include "wavefront/queues.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class BsdfT, class Backend>
void merge(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> vertices) {
    for_all_queued(backend, "merge", vertices, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.camera_paths;
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, true);
        if (v.bsdf.is_delta()) return;
        const VcmIteration& it = ctx.iteration_of_camera_path(slot);
        const MergePoint* points = it.merge_points;
        const MergeVertex* mv = it.merge_vertices;
        const uint32_t length = p.path_length[slot];
        const SubpathMis camera_mis = load_mis(p, slot);
        const float camera_cont = v.bsdf.continuation_prob();
        const Vec3f q = v.sp.p;
        Vec3f sum(0.0f);
        uint32_t merged = 0;
        // Evaluates accepted light vertex j and adds its contribution to sum.
        const auto contribute = [&](uint32_t j) {
            const MergeVertex& m = mv[j];
            BsdfEval ev = v.bsdf.evaluate(m.dir_fix);
            if (is_black(ev.factor)) return;
            ++merged;
            float w = 1.0f;
            if (!ctx.techniques.ppm) {
                // The reverse pdf takes the light vertex's continuation: that would govern
                // it had the light path continued.
                w = mis_weight_merge(camera_mis, SubpathMis{m.d_vcm, 0.0f, m.d_vm}, ev.pdf_fwd_w * camera_cont,
                                     ev.pdf_rev_w * m.continuation, it.weights);
            }
            sum += ev.factor * m.throughput * (w * merge_shading_factor<BsdfT>(ev, m.dir_fix, m.normal));
        };
        // The query's candidates (the points of up to 8 buckets, one flat sequence) are
        // tested kBatch at a time, their points loaded before any is tested: one at a time,
        // each candidate's load waited for the previous test's branch, a full memory
        // latency per candidate (~15 per query). Batches run across bucket boundaries, and
        // every bucket's start was loaded at once by candidates().
        constexpr uint32_t kBatch = 4;
        const HashGridCandidates candidates = it.grid.candidates(q);
        for (uint32_t t = 0; t < candidates.count; t += kBatch) {
            MergePoint batch[kBatch];
#if WF_DEVICE_CODE
#pragma unroll
#endif
            for (uint32_t k = 0; k < kBatch; ++k)
                if (t + k < candidates.count) batch[k] = points[candidates.position(t + k)];
            uint32_t accepted = 0;  // bit k: candidate t + k lies within r and may extend the path
#if WF_DEVICE_CODE
#pragma unroll
#endif
            for (uint32_t k = 0; k < kBatch; ++k)
                if (t + k < candidates.count && length_squared(batch[k].position - q) <= it.grid.radius_sq &&
                    batch[k].path_length + length <= ctx.max_path_length)
                    accepted |= 1u << k;
            for (; accepted != 0; accepted &= accepted - 1u)
                contribute(candidates.position(t + lowest_set_bit(accepted)));
        }
        ctx.count(kCounterMerges, merged);
        if (merged) p.radiance[slot] += p.throughput[slot] * sum * it.vm_normalization;
    });
}

}  // namespace wf
