// The scene as kernels see it: raw pointers into backend memory plus a few
// scalars, passed by value to every stage. The render session (app/) owns the
// buffers behind it.
#pragma once

#include <cstdint>

#include "accel/geometry_view.h"
#include "accel/shading_attributes.h"
#include "engine/camera.h"
#include "engine/scene_types.h"
#include "materials/emitters.h"
#include "materials/light_selection.h"
#include "materials/texture.h"

namespace wf {

struct SceneView {
    GeometryView geometry;
    const Material* materials;
    uint32_t num_materials;
    bool needs_surface_bsdf;        // some material is not Bsdf's (engine/scene_types.h): stages shade with SurfaceBsdf
    ShadingAttributesView shading;  // mesh normals, UVs, tangents, colours
    TextureView textures;
    const Light* lights;
    uint32_t num_lights;
    LightSelectionView light_selection;  // pick probabilities over `lights`
    int32_t environment_light;  // index into lights, or -1
    EnvironmentMapView environment_map;  // that light's image, or invalid (materials/environment_map.h)
    SceneSphere scene_sphere;
    Aabb bounds;                // of all geometry (light vertices lie inside it)
    Camera camera;

    WF_HD EmitterContext emitters() const {
        EmitterContext ctx;
        ctx.triangles = geometry.triangles;
        ctx.num_triangles = geometry.num_triangles;
        ctx.spheres = geometry.spheres;
        ctx.prims = geometry.prims;
        ctx.scene_sphere = scene_sphere;
        ctx.environment_map = environment_map;
        ctx.shading = shading;
        ctx.textures = textures;
        ctx.materials = materials;
        return ctx;
    }

    // Light selection, the one place its probability is defined (materials/light_selection.h).
    // Every estimator and every MIS weight takes the pick probability from here.
    WF_HD float light_pick_prob(uint32_t light) const { return light_selection.prob(light); }
    WF_HD uint32_t pick_light(float u) const { return light_selection.pick(u); }
};

}  // namespace wf
