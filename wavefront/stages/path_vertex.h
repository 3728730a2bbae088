// The surface vertex a path (camera or light, any integrator) has just reached,
// rebuilt from its state record by each stage that works on it (cheaper than
// storing it): the hit point with its error bound, the primitive's record and the BSDF.
//
// Three BSDF types: `Bsdf` (SmallVCM's model and the rtiow lobes, the lean instantiation
// of every integrator), `SurfaceBsdf` (any material type, the microfacet and glTF ones
// included, with shading normals and textures: what pt renders such scenes with) and
// `CoverageBsdf` (SurfaceBsdf times the glTF alpha coverage: what the bidirectional family
// renders them with, materials/coverage_bsdf.h). The vertex is the same otherwise.
#pragma once

#include <type_traits>

#include "accel/shading_attributes.h"
#include "accel/surface.h"
#include "materials/bsdf.h"
#include "materials/coverage_bsdf.h"
#include "materials/pbr_material.h"
#include "materials/surface_bsdf.h"
#include "wavefront/scene_view.h"

namespace wf {

// Whether a stage instantiated for BsdfT may meet area lights whose emission varies (an
// emissive texture, glTF alpha coverage): the lean Bsdf runs only for scenes without glTF
// materials, which have none (app/device_scene.h checks it). illuminate<> leaves the
// look-ups out where they cannot apply.
template <class BsdfT>
inline constexpr bool kMayVaryEmission = !std::is_same_v<BsdfT, Bsdf>;

template <class BsdfT>
struct SubpathVertexOf {
    SurfacePoint sp;
    BsdfT bsdf;
    PrimInfo info;
    float opacity = 1.0f;  // glTF alpha coverage: below 1 the surface lets that share of paths through
};
using SubpathVertex = SubpathVertexOf<Bsdf>;

// The BSDF of material `m` at hit `hit` (on primitive `prim`) reached along `ray`.
WF_HD_INLINE SurfaceBsdf surface_bsdf(const SceneView& scene, const Material& m, const PrimInfo& info, const Ray& ray,
                                      const Hit& hit, const SurfacePoint& sp, bool camera_path, float* opacity) {
    *opacity = 1.0f;
    if (is_microfacet_material(m.type)) return SurfaceBsdf::from(MicrofacetBsdf::make(m, ray.dir, sp.ng, camera_path));
    if (m.type != MaterialType::GltfPbr) return SurfaceBsdf::from(Bsdf::make(m, ray.dir, sp.ng, camera_path));
    ShadingAttributes a;
    if (hit.prim < scene.geometry.num_triangles) {
        a = triangle_shading(scene.shading, scene.geometry.triangles[hit.prim], hit.prim, info.flags, hit.u, hit.v, sp.ng);
    } else {  // spheres: the normal is the shading normal; no texture coordinates
        a.ns = sp.ng;
        a.uv[0] = a.uv[1] = Vec2f{0.0f, 0.0f};
        a.tangent = Frame::from_z(sp.ng).x;
    }
    const PbrShadingPoint s = pbr_shading_point(m, scene.textures, a);
    *opacity = s.alpha;
    return SurfaceBsdf::from(GltfBsdf::make(s.params, ray.dir, s.ns, sp.ng, camera_path, m.two_sided != 0));
}

// KHR_materials_volume (materials/pbr_material.h): the absorption coefficient along a
// segment that leaves a surface point of material `material` (geometric normal ng) along
// `away` untraced (a shadow ray, a connection): the volume's sigma_a when it runs into the
// volume behind the surface, else 0. Shadow rays and connections see every surface as
// opaque, so such a segment stays inside the volume to its end. Always 0 in the lean Bsdf
// instantiation, which renders no glTF material: beer_lambert of it folds away.
template <class BsdfT>
WF_HD_INLINE Vec3f segment_sigma_a(const SceneView& scene, uint32_t material, Vec3f ng, Vec3f away) {
    if constexpr (std::is_same_v<BsdfT, Bsdf>) {
        return Vec3f(0.0f);
    } else {
        return volume_sigma_a(scene.materials[material], ng, away);
    }
}

template <class BsdfT = Bsdf, class PathView>
WF_HD_INLINE SubpathVertexOf<BsdfT> subpath_vertex(const SceneView& scene, const PathView& p, uint32_t slot,
                                                   bool camera_path) {
    SubpathVertexOf<BsdfT> v;
    const uint32_t prim = p.hit_prim[slot];
    v.info = scene.geometry.prims[prim];
    Ray ray{p.ray_origin[slot], p.ray_dir[slot]};
    const Hit hit{p.hit_t[slot], prim, p.hit_u[slot], p.hit_v[slot]};
    v.sp = surface_point(scene.geometry, ray, hit);
    const Material& m = scene.materials[v.info.material];
    if constexpr (std::is_same_v<BsdfT, Bsdf>) {
        v.bsdf = Bsdf::make(m, ray.dir, v.sp.ng, camera_path);
    } else if constexpr (std::is_same_v<BsdfT, SurfaceBsdf>) {
        v.bsdf = surface_bsdf(scene, m, v.info, ray, hit, v.sp, camera_path, &v.opacity);
    } else {
        static_assert(std::is_same_v<BsdfT, CoverageBsdf>, "a vertex's BSDF is Bsdf, SurfaceBsdf or CoverageBsdf");
        const SurfaceBsdf b = surface_bsdf(scene, m, v.info, ray, hit, v.sp, camera_path, &v.opacity);
        v.bsdf = CoverageBsdf::make(b, v.opacity);
    }
    return v;
}

}  // namespace wf
