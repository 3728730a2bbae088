// Owns the backend buffers of a scene and builds the SceneView kernels read.
#pragma once

#include <cstdint>

#include "accel/bvh_build.h"
#include "engine/camera.h"
#include "engine/scene.h"
#include "wavefront/scene_view.h"

namespace wf {

template <class Backend>
class DeviceScene {
public:
    // Uploads geometry, materials, lights and a BVH built on the host.
    void upload(const HostScene& scene, const Bvh& bvh, const Camera& camera) {
        triangles_.upload(scene.triangles);
        spheres_.upload(scene.spheres);
        prims_.upload(scene.prims);
        materials_.upload(scene.materials);
        lights_.upload(scene.lights);
        nodes_.upload(bvh.nodes);
        prim_index_.upload(bvh.prim_index);

        view_.geometry.triangles = triangles_.data();
        view_.geometry.num_triangles = uint32_t(scene.triangles.size());
        view_.geometry.spheres = spheres_.data();
        view_.geometry.num_spheres = uint32_t(scene.spheres.size());
        view_.geometry.prims = prims_.data();
        view_.geometry.nodes = nodes_.data();
        view_.geometry.prim_index = prim_index_.data();
        view_.materials = materials_.data();
        view_.lights = lights_.data();
        view_.num_lights = uint32_t(scene.lights.size());
        view_.environment_light = -1;
        for (size_t i = 0; i < scene.lights.size(); ++i)
            if (scene.lights[i].type == LightType::Environment) view_.environment_light = int32_t(i);
        view_.scene_sphere = scene.bounding_sphere();
        view_.bounds = scene.bounds();
        view_.camera = camera;
    }

    const SceneView& view() const { return view_; }

private:
    typename Backend::template Buffer<Triangle> triangles_;
    typename Backend::template Buffer<Sphere> spheres_;
    typename Backend::template Buffer<PrimInfo> prims_;
    typename Backend::template Buffer<Material> materials_;
    typename Backend::template Buffer<Light> lights_;
    typename Backend::template Buffer<BvhNode> nodes_;
    typename Backend::template Buffer<uint32_t> prim_index_;
    SceneView view_{};
};

}  // namespace wf
