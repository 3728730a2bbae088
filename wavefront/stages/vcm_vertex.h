// The surface vertex a camera or light sub-path has just reached, rebuilt from
// its state record by each stage that works on it (cheaper than storing it).
#pragma once

#include "accel/surface.h"
#include "materials/bsdf.h"
#include "wavefront/scene_view.h"
#include "wavefront/state/light_vertex.h"
#include "wavefront/vcm_mis.h"

namespace wf {

struct SubpathVertex {
    SurfacePoint sp;
    Bsdf bsdf;
    PrimInfo info;
};

template <class PathView>
WF_HD_INLINE SubpathVertex subpath_vertex(const SceneView& scene, const PathView& p, uint32_t slot, bool camera_path) {
    SubpathVertex v;
    const uint32_t prim = p.hit_prim[slot];
    v.info = scene.geometry.prims[prim];
    Ray ray{p.ray_origin[slot], p.ray_dir[slot]};
    v.sp = surface_point(scene.geometry, ray, Hit{p.hit_t[slot], prim, p.hit_u[slot], p.hit_v[slot]});
    v.bsdf = Bsdf::make(scene.materials[v.info.material], ray.dir, v.sp.ng, camera_path);
    return v;
}

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

// The light vertex stored at `entry`, as the BSDF that scatters light there.
WF_HD_INLINE Bsdf light_vertex_bsdf(const SceneView& scene, const LightVertexView& lv, uint32_t entry) {
    return Bsdf::make(scene.materials[lv.material[entry]], -lv.dir_fix[entry], lv.normal[entry], false);
}

}  // namespace wf
