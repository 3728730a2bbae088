// A glTF volume seen through: a sphere of a clear, index-matched (ior 1), absorbing glTF
// material (KHR_materials_volume) in a uniform environment, built in code (glTF files
// hold no spheres). Shared by the CPU render test and the CPU-vs-GPU test.
#pragma once

#include <cmath>

#include "engine/scene.h"

namespace wf::test {

// sigma_a as KHR_materials_volume defines it: a colour c remains after the distance d.
inline Vec3f absorption_of(Vec3f attenuation_color, float attenuation_distance) {
    return {-std::log(attenuation_color.x) / attenuation_distance, -std::log(attenuation_color.y) / attenuation_distance,
            -std::log(attenuation_color.z) / attenuation_distance};
}

// Sphere of radius `radius` at the origin, material: white, metallic 0, roughness 0,
// transmission 1, ior 1, a volume with the given absorption. Environment radiance L.
// Camera on +z at distance 4 looking along -z through the point (offset, 0) of the
// sphere's silhouette, with a field of view narrow enough that every pixel's ray
// crosses the sphere on a chord of 2 sqrt(r^2 - offset^2) (to 1e-4).
inline HostScene absorbing_sphere_scene(Vec3f sigma_a, float radius, float offset, Vec3f environment, uint32_t size) {
    HostScene s;
    s.source_path = "<absorbing glTF sphere>";
    s.camera.position = {offset, 0, 4};
    s.camera.forward = {0, 0, -1};
    s.camera.up = {0, 1, 0};
    s.camera.fov_y_degrees = 0.1f;
    s.settings.width = s.settings.height = size;
    Material m;
    m.type = MaterialType::GltfPbr;
    m.ior = 1.0f;
    m.two_sided = 1;
    m.pbr.base_color = Vec3f(1.0f);
    m.pbr.metallic = 0.0f;
    m.pbr.roughness = 0.0f;
    m.pbr.transmission = 1.0f;
    m.pbr.thin_walled = 0;
    m.pbr.sigma_a = sigma_a;
    s.materials.push_back(m);
    s.material_names.push_back("absorbing glass");
    s.spheres.push_back({{0, 0, 0}, radius});
    s.prims.push_back({0, -1, 0});
    Light env;
    env.type = LightType::Environment;
    env.radiance = environment;
    s.lights.push_back(env);
    return s;
}

}  // namespace wf::test
