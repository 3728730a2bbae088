// Stage `store_light_vertex`: at each light sub-path hit, completes the MIS
// quantities (eqs. 31-36 of the tech. report) and the glTF volume absorption
// (vcm_vertex.h) of the segment just traced and, where the BSDF has a non-delta lobe,
// stores the vertex in the next free entry of its iteration's block of the light-vertex
// buffer (when merging, with its bucket in the iteration's prepared hash grid), and that
// entry in the light path's row of the vertex table: at a point
// glTF alpha BLEND covers in part too, whichever way shade_light continues from it
// (vcm_vertex.h).
#pragma once

#include "wavefront/queues.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

// BsdfT: Bsdf or CoverageBsdf, as the integrator picks for the scene (wavefront/integrators/vcm.h).
// kMerging: the integrator merges (ctx.light_vertex_buckets is set), and each vertex's
// bucket is stored too. A template flag, not a test of the pointer: lt and bpt took 1 to
// 1.5% longer with the test and the unused hash in their kernel.
template <class BsdfT, bool kMerging, class Backend>
void store_light_vertex(Backend& backend, const VcmContext& ctx, SlotQueue<LightPathView> surface) {
    for_all_queued(backend, "store_light_vertex", surface, WF_LAMBDA(uint32_t slot) {
        const LightPathView& p = ctx.light_paths;
        const auto v = subpath_vertex<BsdfT>(ctx.scene, p, slot, false);
        const uint32_t length = p.path_length[slot];
        // The first stage of the light bounce: connect_to_camera and shade_light read the
        // absorbed throughput (the stored vertex's and the path's).
        absorb_traced_segment(ctx.scene, p, slot, v);
        if (passes_through_at_hit(v, ctx.light_rng(p.path[slot], length))) {  // shade_light passes the path on
            pass_through_mis(p, slot);
            return;
        }
        if (!v.bsdf.is_valid()) return;
        // Lights at infinity sample their first segment per solid angle: no distance^2.
        bool apply_distance = length > 1 || p.from_finite_light[slot];
        SubpathMis mis = subpath_at_hit(load_mis(p, slot), p.hit_t[slot], v.bsdf.cos_theta_fix(), apply_distance);
        store_mis(p, slot, mis);
        if (v.bsdf.is_delta()) return;
        LightVertexRecord r;
        r.position = v.sp.p;
        r.position_error = v.sp.p_error;
        r.normal = v.sp.ng;
        r.dir_fix = -p.ray_dir[slot];
        r.throughput = p.throughput[slot];
        r.material = v.info.material;
        r.path_length = length;
        r.d_vcm = mis.d_vcm;
        r.d_vc = mis.d_vc;
        r.d_vm = mis.d_vm;
        r.continuation = v.bsdf.continuation_prob();
        store_light_vertex_shading<BsdfT>(r, p, slot);
        const uint32_t e = ctx.claim_light_vertex(p.path[slot]);
        ctx.light_vertices.records[e] = r;  // whole: six 16-byte stores
        if constexpr (kMerging) {  // the grid's build reads this instead of the record's position
            ctx.light_vertex_buckets[e] = ctx.iteration_of_light_path(p.path[slot]).grid.bucket_of(r.position);
        }
        ctx.light_vertices_of_path(p.path[slot])[length - 1] = e;
        ctx.count(kCounterLightVertices, 1);
    });
}

}  // namespace wf
