// The surface vertex a path (camera or light, any integrator) has just reached,
// rebuilt from its state record by each stage that works on it (cheaper than
// storing it): the hit point with its error bound, the primitive's record and the BSDF.
#pragma once

#include "accel/surface.h"
#include "materials/bsdf.h"
#include "wavefront/scene_view.h"

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

}  // namespace wf
