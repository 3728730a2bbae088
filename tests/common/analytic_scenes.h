// Scenes with known answers, built in code (no files), shared by the CPU and
// GPU test binaries.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/scene.h"

namespace wf::test {

// A size x size camera (y up) and a diffuse material of albedo rho as material 0.
inline void look_at_diffuse(HostScene& s, Vec3f position, Vec3f forward, float fov_y_degrees, float rho,
                            const char* material_name, uint32_t size) {
    s.camera.position = position;
    s.camera.forward = forward;
    s.camera.up = {0, 1, 0};
    s.camera.fov_y_degrees = fov_y_degrees;
    s.settings.width = s.settings.height = size;
    Material m;
    m.kd = Vec3f(rho);
    s.materials.push_back(m);
    s.material_names.push_back(material_name);
}

// Camera on +z at distance 4 looking at the origin, and a grey diffuse material
// (albedo rho) as material 0: the furnace scenes' setting.
inline void look_from_z4_at_grey_ball(HostScene& s, float rho, uint32_t size) {
    look_at_diffuse(s, {0, 0, 4}, {0, 0, -1}, 40.0f, rho, "grey", size);
}

// A diffuse sphere of albedo rho (radius 1 at the origin) in a uniform
// environment of radiance 1, seen from z = 4. Convex, so every pixel on the
// sphere converges to rho and every other pixel to 1.
inline HostScene white_furnace_scene(float rho, uint32_t size) {
    HostScene s;
    s.source_path = "<white furnace>";
    look_from_z4_at_grey_ball(s, rho, size);
    s.spheres.push_back({{0, 0, 0}, 1.0f});
    s.prims.push_back({0, -1, 0});
    Light env;
    env.type = LightType::Environment;
    env.radiance = Vec3f(1.0f);
    s.lights.push_back(env);
    return s;
}

// Camera at the origin looking at the wall of a sphere around it, and the wall's
// diffuse material (albedo rho) as material 0.
inline void look_from_centre_at_diffuse_wall(HostScene& s, float rho, uint32_t size) {
    look_at_diffuse(s, {0, 0, 0}, {0.3f, -0.2f, -1}, 70.0f, rho, "wall", size);
}

// Camera at the centre of a closed sphere (normals flipped inward) whose wall
// emits Le and reflects diffusely with albedo rho. With path length up to D the
// radiance is Le * (1 + rho + ... + rho^(D-1)); without a limit Le / (1 - rho).
inline HostScene closed_sphere_scene(float le, float rho, uint32_t size) {
    HostScene s;
    s.source_path = "<closed sphere>";
    look_from_centre_at_diffuse_wall(s, rho, size);
    s.spheres.push_back({{0, 0, 0}, 2.0f});
    s.prims.push_back({0, 0, kPrimFlipNormal});
    Light area;
    area.type = LightType::Area;
    area.prim = 0;  // the sphere (no triangles)
    area.radiance = Vec3f(le);
    s.lights.push_back(area);
    return s;
}

// A latitude-longitude triangle mesh of a sphere (`stacks` bands of `slices` quads, fans
// at the poles: 2 * slices * (stacks - 1) triangles, vertices shared exactly), every
// triangle its own area light of radiance Le on material 0. `inward`: the winding makes
// every geometric normal (and so the emitting side) point toward the centre.
inline void add_emissive_mesh_sphere(HostScene& s, Vec3f center, float radius, uint32_t stacks, uint32_t slices,
                                     bool inward, float le) {
    std::vector<Vec3f> ring((stacks + 1) * slices);
    for (uint32_t i = 0; i <= stacks; ++i)
        for (uint32_t j = 0; j < slices; ++j) {
            float theta = kPi * float(i) / float(stacks), phi = 2.0f * kPi * float(j) / float(slices);
            Vec3f d = i == 0        ? Vec3f(0, 0, 1)
                      : i == stacks ? Vec3f(0, 0, -1)
                                    : Vec3f(sinf(theta) * cosf(phi), sinf(theta) * sinf(phi), cosf(theta));
            ring[i * slices + j] = center + radius * d;
        }
    auto v = [&](uint32_t i, uint32_t j) { return ring[i * slices + j % slices]; };
    auto add = [&](Vec3f a, Vec3f b, Vec3f c) {
        // The normal cross(b - a, c - a) points away from the centre unless `inward`.
        bool outward = dot(cross(b - a, c - a), (a + b + c) / 3.0f - center) > 0.0f;
        if (outward == inward) std::swap(b, c);
        s.prims.push_back({0, int32_t(s.lights.size()), 0});
        Light light;
        light.type = LightType::Area;
        light.prim = uint32_t(s.triangles.size());
        light.radiance = Vec3f(le);
        s.lights.push_back(light);
        s.triangles.push_back({a, b, c});
    };
    for (uint32_t i = 0; i < stacks; ++i)
        for (uint32_t j = 0; j < slices; ++j) {
            if (i == 0) add(v(0, 0), v(1, j), v(1, j + 1));
            else if (i == stacks - 1) add(v(i, j), v(stacks, 0), v(i, j + 1));
            else {
                add(v(i, j), v(i + 1, j), v(i + 1, j + 1));
                add(v(i, j), v(i + 1, j + 1), v(i, j + 1));
            }
        }
}

// The closed sphere again, but as a mesh (radius 2, 10 x 10: 180 triangles) with inward
// normals and EVERY triangle its own area light of radiance Le on a diffuse material of
// albedo rho. The enclosure is closed (shared vertices, watertight triangle test), every
// wall emits Le and reflects diffusely, so the radiance is Le / (1 - rho) everywhere,
// truncated at the maximum path length as truncated_closed_sphere_radiance says, whatever
// the shape. With many lights the light-pick probability is small, so an MIS weight that
// leaves it out is far off.
inline HostScene closed_emissive_mesh_sphere_scene(float le, float rho, uint32_t size, uint32_t stacks = 10,
                                                   uint32_t slices = 10) {
    HostScene s;
    s.source_path = "<closed emissive mesh sphere>";
    look_from_centre_at_diffuse_wall(s, rho, size);
    add_emissive_mesh_sphere(s, Vec3f(0.0f), 2.0f, stacks, slices, true, le);
    return s;
}

// A convex emissive mesh sphere (radius 1 at the origin, 8 x 6: 80 triangles, each its
// own light emitting outward with radiance Le, diffuse albedo rho) in a uniform
// environment of radiance `env`, seen from z = 4. Convex, so no point of it sees the
// sphere: every pixel on it converges to Le + rho env, every other pixel to env. 81
// lights, the environment among them.
inline HostScene furnace_emissive_mesh_sphere_scene(float le, float rho, float env, uint32_t size) {
    HostScene s;
    s.source_path = "<furnace emissive mesh sphere>";
    look_from_z4_at_grey_ball(s, rho, size);
    add_emissive_mesh_sphere(s, Vec3f(0.0f), 1.0f, 6, 8, false, le);
    Light e;
    e.type = LightType::Environment;
    e.radiance = Vec3f(env);
    s.lights.push_back(e);
    return s;
}

inline float truncated_closed_sphere_radiance(float le, float rho, uint32_t max_path_length) {
    float sum = 0.0f, term = le;
    for (uint32_t k = 0; k < max_path_length; ++k, term *= rho) sum += term;
    return sum;
}

// A diffuse ground (albedo rho) of half-size s at y = 0, as two triangles, lit
// by a directional light of irradiance e, seen from one unit above it. Direct
// light only reaches the camera (nothing else to bounce off), so every pixel
// that sees the ground has radiance rho / pi * e * cos(theta) exactly.
inline HostScene lit_ground_scene(float s, float rho, float e, Vec3f light_direction, uint32_t size) {
    HostScene sc;
    sc.source_path = "<lit ground>";
    look_at_diffuse(sc, {0.3f, 1.0f, 0.2f}, {0.0f, -0.5f, -1.0f}, 60.0f, rho, "ground", size);
    sc.triangles.push_back({{-s, 0, -s}, {s, 0, s}, {s, 0, -s}});
    sc.triangles.push_back({{-s, 0, -s}, {-s, 0, s}, {s, 0, s}});
    sc.prims.push_back({0, -1, 0});
    sc.prims.push_back({0, -1, 0});
    Light sun;
    sun.type = LightType::Directional;
    sun.radiance = Vec3f(e);
    sun.direction = normalize(light_direction);
    sc.lights.push_back(sun);
    return sc;
}

// KHR_lights_punctual's recommended spot falloff, written out here from the spec (not
// the engine's materials/emitters.h spot_falloff): with c the cosine to the axis,
// t = clamp((c - cos outer) / max(1e-3, cos inner - cos outer), 0, 1), falloff t^2.
inline double gltf_spot_falloff(double cos_axis, double inner_degrees, double outer_degrees) {
    const double ci = std::cos(inner_degrees * M_PI / 180.0), co = std::cos(outer_degrees * M_PI / 180.0);
    const double t = std::clamp((cos_axis - co) / std::max(1e-3, ci - co), 0.0, 1.0);
    return t * t;
}

// A spot light over a diffuse ground, the closed form the spot tests check against.
struct SpotOverGround {
    Vec3f position{0.0f, 2.0f, 0.0f};
    Vec3f axis = normalize(Vec3f(0.2f, -1.0f, 0.1f));  // tilted, so that the axis is really used
    float intensity = 3.0f;                               // W/sr on the axis
    float inner_degrees = 20.0f, outer_degrees = 35.0f;
    float rho = 0.5f;

    double falloff(double cos_axis) const { return gltf_spot_falloff(cos_axis, inner_degrees, outer_degrees); }
    // Radiance leaving the ground (y = 0, normal +y) at p toward any direction:
    // rho / pi * I * falloff * cos(theta at the ground) / d^2.
    double ground_radiance(Vec3f p) const {
        const Vec3f v = p - position;
        const double d = length(v);
        const double cos_axis = dot(axis, v) / d, cos_ground = double(position.y - p.y) / d;
        return rho / kPi * intensity * falloff(cos_axis) * cos_ground / (d * d);
    }
};

// The spot of `spot` over a diffuse ground of half-size 100 at y = 0 (two triangles),
// seen from (0, 4, 4) looking down at 45 degrees: every camera ray meets the ground. One
// light, nothing to bounce toward: each pixel is the ground radiance averaged over it.
inline HostScene spot_lit_ground_scene(const SpotOverGround& spot, uint32_t size) {
    HostScene sc;
    sc.source_path = "<spot-lit ground>";
    look_at_diffuse(sc, {0.0f, 4.0f, 4.0f}, {0.0f, -1.0f, -1.0f}, 60.0f, spot.rho, "ground", size);
    const float s = 100.0f;
    sc.triangles.push_back({{-s, 0, -s}, {s, 0, s}, {s, 0, -s}});
    sc.triangles.push_back({{-s, 0, -s}, {-s, 0, s}, {s, 0, s}});
    sc.prims.push_back({0, -1, 0});
    sc.prims.push_back({0, -1, 0});
    Light l;
    l.type = LightType::Spot;
    l.position = spot.position;
    l.direction = spot.axis;
    l.radiance = Vec3f(spot.intensity);
    l.cos_inner = std::cos(spot.inner_degrees * kPi / 180.0f);
    l.cos_outer = std::cos(spot.outer_degrees * kPi / 180.0f);
    sc.lights.push_back(l);
    return sc;
}

}  // namespace wf::test
