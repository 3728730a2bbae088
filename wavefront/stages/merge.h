// Stage `merge` (ppm, bpm, vcm): vertex merging at every queued non-delta camera
// vertex: a range query over the 2x2x2 hash-grid cells around it gathers the light
// vertices within the merging radius, each weighted by the camera BSDF toward its
// incoming direction and by the MIS weight of merging (eqs. 37-39; none for ppm).
// The sum, over pi r^2 and the number of light paths, adds to the path's radiance.
#pragma once

#include "wavefront/queues.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class Backend>
void merge(Backend& backend, const VcmContext& ctx, SlotQueue<CameraPathView> vertices) {
    for_all_queued(backend, "merge", vertices, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.camera_paths;
        SubpathVertex v = subpath_vertex(ctx.scene, p, slot, true);
        if (v.bsdf.is_delta()) return;
        const LightVertexView& lv = ctx.light_vertices;
        const uint32_t length = p.path_length[slot];
        const SubpathMis camera_mis = load_mis(p, slot);
        const float camera_cont = v.bsdf.continuation_prob();
        Vec3f sum(0.0f);
        uint32_t merged = 0;
        ctx.grid.query(v.sp.p, lv.position, [&](uint32_t e) {
            if (lv.path_length[e] + length > ctx.max_path_length) return;
            BsdfEval ev = v.bsdf.evaluate(lv.dir_fix[e]);
            if (is_black(ev.factor)) return;
            ++merged;
            float w = 1.0f;
            if (!ctx.techniques.ppm) {
                // The reverse pdf takes the light vertex's continuation: that would govern
                // it had the light path continued.
                w = mis_weight_merge(camera_mis, SubpathMis{lv.d_vcm[e], lv.d_vc[e], lv.d_vm[e]},
                                     ev.pdf_fwd_w * camera_cont, ev.pdf_rev_w * lv.continuation[e], ctx.weights);
            }
            sum += ev.factor * lv.throughput[e] * w;
        });
        ctx.count(kCounterMerges, merged);
        if (merged) p.radiance[slot] += p.throughput[slot] * sum * ctx.vm_normalization;
    });
}

}  // namespace wf
