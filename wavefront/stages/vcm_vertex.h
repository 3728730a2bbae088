// What the bidirectional stages share about a sub-path vertex: its MIS quantities in
// the state records, and the BSDF of a stored light vertex.
#pragma once

#include <type_traits>

#include "materials/bsdf.h"
#include "materials/surface_bsdf.h"
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

// A sub-path (camera or light) at a point that glTF alpha MASK cuts out goes on through
// it, one vertex longer: a delta vertex no technique connects or merges at. Shadow rays
// and connections see every surface as opaque (as pt's next-event estimation does), so
// the only paths through the cut-out are those the sub-paths trace through it, and the
// MIS quantities (subpath_after_pass_through) count it as the delta vertex it is.
// engine/integrators.h admits MASK (opacity 0 or 1) and refuses BLEND here.
// The MIS update: at the hit (in place of subpath_at_hit).
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

// The light vertex stored at `entry`, as the BSDF that scatters light there (built for a
// light path: importance, with the adjoint shading-normal correction of GltfBsdf).
template <class BsdfT>
WF_HD_INLINE BsdfT light_vertex_bsdf(const SceneView& scene, const LightVertexView& lv, uint32_t entry) {
    const Material& m = scene.materials[lv.material[entry]];
    const Ray ray{lv.position[entry], -lv.dir_fix[entry]};
    if constexpr (std::is_same_v<BsdfT, Bsdf>) {
        return Bsdf::make(m, ray.dir, lv.normal[entry], false);
    } else {
        // The shading point again from the primitive and barycentrics (hit_t is not needed).
        const uint32_t prim = lv.prim[entry];
        const Hit hit{0.0f, prim, lv.hit_u[entry], lv.hit_v[entry]};
        const SurfacePoint sp{lv.position[entry], lv.position_error[entry], lv.normal[entry]};
        float opacity;  // 1: the integrators that store light vertices refuse alpha (engine/integrators.h)
        return surface_bsdf(scene, m, scene.geometry.prims[prim], ray, hit, sp, false, &opacity);
    }
}

// Light vertices of the SurfaceBsdf instantiation also record where on the primitive they
// lie; the lean Bsdf one needs (and writes) only the material and the geometric normal.
template <class BsdfT, class PathView>
WF_HD_INLINE void store_light_vertex_shading(const LightVertexView& lv, uint32_t entry, const PathView& p,
                                             uint32_t slot) {
    if constexpr (!std::is_same_v<BsdfT, Bsdf>) {
        lv.prim[entry] = p.hit_prim[slot];
        lv.hit_u[entry] = p.hit_u[slot];
        lv.hit_v[entry] = p.hit_v[slot];
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
    if constexpr (std::is_same_v<BsdfT, Bsdf>) {
        return 1.0f;
    } else {
        const float cos_geo = fabsf(dot(wi_world, geometric_normal));
        return cos_geo >= kEpsCosine ? ev.cos_out / cos_geo : 0.0f;
    }
}

}  // namespace wf
