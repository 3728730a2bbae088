// What the bidirectional stages share about a sub-path vertex: its MIS quantities in
// the state records, glTF alpha's pass-through, glTF volume absorption of the segment that
// reached it, and the BSDF of a stored light vertex.
#pragma once

#include <type_traits>

#include "materials/bsdf.h"
#include "materials/coverage_bsdf.h"
#include "materials/surface_bsdf.h"
#include "wavefront/rng_dims.h"
#include "wavefront/scene_view.h"
#include "wavefront/stages/path_vertex.h"
#include "wavefront/state/light_vertex.h"
#include "wavefront/vcm_mis.h"

namespace wf {

template <class PathView>
WF_HD_INLINE SubpathMis load_mis(const PathView& p, uint32_t slot) {
    return SubpathMis{p.d_vcm[slot], p.d_vc[slot], p.d_vm[slot]};
}

template <class PathView>
WF_HD_INLINE void store_mis(const PathView& p, uint32_t slot, const SubpathMis& m) {
    p.d_vcm[slot] = m.d_vcm;
    p.d_vc[slot] = m.d_vc;
    p.d_vm[slot] = m.d_vm;
}

// glTF alpha. A point of coverage a is the mixture a f + (1 - a) delta_pass of the
// surface's BSDF f and a delta lobe that passes the path on straight through, unchanged
// (materials/coverage_bsdf.h). MASK makes a 0 (cut out) or 1; BLEND anything between.
// Shadow rays and connections see every surface as opaque (as pt's next-event estimation
// does), so a path through such a point always has a vertex there, which the sub-paths
// trace: delta_pass is sampled, never connected to or merged at.
//  - a = 0: nothing but delta_pass. The sub-path goes on at the hit, one vertex longer, and
//    nothing is stored, connected or merged there (pass_through_mis, pass_through_ray).
//  - 0 < a < 1: every hit is a regular vertex (stored, connected and merged with a f, pdfs
//    a pdf_f: CoverageBsdf), and the continuation picks delta_pass with probability 1 - a
//    (blend_pass_through) or f's lobes with probability a (scatter_subpath).
// Deciding first and then treating the point as opaque (pt's way) would be wrong here: a
// photon stored with probability a at a point that merges with a f would count a^2, and
// the connection and merge pdfs would not be those the sub-paths were sampled with.
template <class BsdfT>
inline constexpr bool kBidirectionalBsdf = std::is_same_v<BsdfT, Bsdf> || std::is_same_v<BsdfT, CoverageBsdf>;

// Whether a sub-path reaching v passes through at the hit, with no vertex there to use: at
// a cut-out point (a = 0), and, with probability 1 - a, at a partly covered point whose f
// is black on the arriving side (the back of a single-sided surface), where delta_pass is
// all the mixture has (f's share a ends the path, as in pt). The light pass asks twice
// (store_light_vertex, shade_light), with the same random number.
template <class BsdfT>
WF_HD_INLINE bool passes_through_at_hit(const SubpathVertexOf<BsdfT>& v, const PathRng& rng) {
    static_assert(kBidirectionalBsdf<BsdfT>, "the bidirectional stages take Bsdf or CoverageBsdf (glTF alpha)");
    if (v.opacity == 0.0f) return true;
    return v.opacity < 1.0f && !v.bsdf.is_valid() && rng.at(rng_dim::kOpacity) >= v.opacity;
}
// The MIS update of a pass-through at the hit (in place of subpath_at_hit).
template <class PathView>
WF_HD_INLINE void pass_through_mis(const PathView& p, uint32_t slot) {
    store_mis(p, slot, subpath_after_pass_through(load_mis(p, slot)));
}
// The continuation: the same direction from the far side, one vertex longer.
template <class PathView>
WF_HD_INLINE void pass_through_ray(const PathView& p, uint32_t slot, const SurfacePoint& sp) {
    p.ray_origin[slot] = offset_ray_origin(sp.p, sp.p_error, sp.ng, p.ray_dir[slot]);
    p.path_length[slot] = p.path_length[slot] + 1;
}

// The continuation of a sub-path at a partly covered vertex that its techniques have used:
// with probability 1 - a it takes delta_pass, a specular bounce whose outgoing cosine is
// its incoming one (its pdf 1 - a, both ways, cancels in the MIS quantities and against
// its value in the throughput). False (nothing changed) when the surface's lobes are to
// be sampled instead, always at a fully covered vertex.
template <class BsdfT, class PathView>
WF_HD_INLINE bool blend_pass_through(const PathView& p, uint32_t slot, const SubpathVertexOf<BsdfT>& v,
                                     const PathRng& rng) {
    static_assert(kBidirectionalBsdf<BsdfT>, "the bidirectional stages take Bsdf or CoverageBsdf (glTF alpha)");
    if (!(v.opacity < 1.0f) || rng.at(rng_dim::kOpacity) < v.opacity) return false;
    store_mis(p, slot, subpath_after_specular(load_mis(p, slot), v.bsdf.cos_theta_fix()));
    pass_through_ray(p, slot, v.sp);
    return true;
}

// KHR_materials_volume: the segment a sub-path (camera or light) has just traced to v loses
// exp(-sigma_a t) when it reached v's surface from inside an absorbing volume, as in pt
// (materials/pbr_material.h). The throughput carries it on to everything the vertex does:
// emission, the light vertex stored there, connections, merges and the next segment.
// Transmittance is sampled by no technique, so no pdf or MIS quantity changes. The lean
// Bsdf instantiation has no glTF materials and no such code.
template <class BsdfT, class PathView>
WF_HD_INLINE void absorb_traced_segment(const SceneView& scene, const PathView& p, uint32_t slot,
                                        const SubpathVertexOf<BsdfT>& v) {
    if constexpr (!std::is_same_v<BsdfT, Bsdf>) {
        const Material& m = scene.materials[v.info.material];
        if (max_component(m.pbr.sigma_a) > 0.0f)  // no store where nothing absorbs
            p.throughput[slot] *= volume_transmittance(m, p.ray_dir[slot], v.sp.ng, p.hit_t[slot]);
    }
}

// The light vertex stored at `entry`, as the BSDF that scatters light there (built for a
// light path: importance, with the adjoint shading-normal correction of GltfBsdf).
template <class BsdfT>
WF_HD_INLINE BsdfT light_vertex_bsdf(const SceneView& scene, const LightVertexView& lv, uint32_t entry) {
    static_assert(kBidirectionalBsdf<BsdfT>, "the bidirectional stages take Bsdf or CoverageBsdf (glTF alpha)");
    const Material& m = scene.materials[lv.material[entry]];
    const Ray ray{lv.position[entry], -lv.dir_fix[entry]};
    if constexpr (std::is_same_v<BsdfT, Bsdf>) {
        return Bsdf::make(m, ray.dir, lv.normal[entry], false);
    } else {
        // The shading point again from the primitive and barycentrics (hit_t is not needed).
        const uint32_t prim = lv.prim[entry];
        const Hit hit{0.0f, prim, lv.hit_u[entry], lv.hit_v[entry]};
        const SurfacePoint sp{lv.position[entry], lv.position_error[entry], lv.normal[entry]};
        // The coverage again too: connections and camera connections evaluate a f here.
        float coverage;
        const SurfaceBsdf b = surface_bsdf(scene, m, scene.geometry.prims[prim], ray, hit, sp, false, &coverage);
        return CoverageBsdf::make(b, coverage);
    }
}

// Light vertices of the dispatching (CoverageBsdf) instantiation also record where on the primitive they
// lie; the lean Bsdf one needs only the material and the geometric normal, and writes 0 to
// prim, hit_u and hit_v (the record is written whole).
template <class BsdfT, class PathView>
WF_HD_INLINE void store_light_vertex_shading(LightVertexRecord& r, const PathView& p, uint32_t slot) {
    if constexpr (!std::is_same_v<BsdfT, Bsdf>) {
        r.prim = p.hit_prim[slot];
        r.hit_u = p.hit_u[slot];
        r.hit_v = p.hit_v[slot];
    } else {
        r.prim = 0;
        r.hit_u = r.hit_v = 0.0f;
    }
}

// Merging estimates the flux through the geometric surface (|wi.ng| per unit area of the
// surface the photon lies on), while the camera BSDF integrates against |wi.ns|: the ratio
// of the two, 1 for the lean Bsdf (its frame normal is the geometric one). 0 for a
// direction grazing the surface. `geometric_normal` is the light vertex's: on a faceted
// mesh the query point's facet may be another (with it, bpm read 13-17% too bright on a
// 6 x 8 sphere at radius 0.01-0.02 of the scene; the bias grew with the radius).
template <class BsdfT>
WF_HD_INLINE float merge_shading_factor(const BsdfEval& ev, Vec3f wi_world, Vec3f geometric_normal) {
    static_assert(kBidirectionalBsdf<BsdfT>, "the bidirectional stages take Bsdf or CoverageBsdf (glTF alpha)");
    if constexpr (std::is_same_v<BsdfT, Bsdf>) {
        return 1.0f;
    } else {
        const float cos_geo = fabsf(dot(wi_world, geometric_normal));
        return cos_geo >= kEpsCosine ? ev.cos_out / cos_geo : 0.0f;
    }
}

}  // namespace wf
