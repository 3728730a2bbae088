// Scenes with known answers, built in code (no files), shared by the CPU and
// GPU test binaries.
#pragma once

#include "engine/scene.h"

namespace wf::test {

// A diffuse sphere of albedo rho (radius 1 at the origin) in a uniform
// environment of radiance 1, seen from z = 4. Convex, so every pixel on the
// sphere converges to rho and every other pixel to 1.
inline HostScene white_furnace_scene(float rho, uint32_t size) {
    HostScene s;
    s.source_path = "<white furnace>";
    s.camera.position = {0, 0, 4};
    s.camera.forward = {0, 0, -1};
    s.camera.up = {0, 1, 0};
    s.camera.fov_y_degrees = 40.0f;
    s.settings.width = s.settings.height = size;
    Material m;
    m.kd = Vec3f(rho);
    s.materials.push_back(m);
    s.material_names.push_back("grey");
    s.spheres.push_back({{0, 0, 0}, 1.0f});
    s.prims.push_back({0, -1, 0});
    Light env;
    env.type = LightType::Environment;
    env.radiance = Vec3f(1.0f);
    s.lights.push_back(env);
    return s;
}

// Camera at the centre of a closed sphere (normals flipped inward) whose wall
// emits Le and reflects diffusely with albedo rho. With path length up to D the
// radiance is Le * (1 + rho + ... + rho^(D-1)); without a limit Le / (1 - rho).
inline HostScene closed_sphere_scene(float le, float rho, uint32_t size) {
    HostScene s;
    s.source_path = "<closed sphere>";
    s.camera.position = {0, 0, 0};
    s.camera.forward = {0.3f, -0.2f, -1};
    s.camera.up = {0, 1, 0};
    s.camera.fov_y_degrees = 70.0f;
    s.settings.width = s.settings.height = size;
    Material m;
    m.kd = Vec3f(rho);
    s.materials.push_back(m);
    s.material_names.push_back("wall");
    s.spheres.push_back({{0, 0, 0}, 2.0f});
    s.prims.push_back({0, 0, kPrimFlipNormal});
    Light area;
    area.type = LightType::Area;
    area.prim = 0;  // the sphere (no triangles)
    area.radiance = Vec3f(le);
    s.lights.push_back(area);
    return s;
}

inline float truncated_closed_sphere_radiance(float le, float rho, uint32_t max_path_length) {
    float sum = 0.0f, term = le;
    for (uint32_t k = 0; k < max_path_length; ++k, term *= rho) sum += term;
    return sum;
}

}  // namespace wf::test
