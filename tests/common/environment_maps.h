// Synthetic environment maps with known answers, and scenes lit by them, shared by the CPU
// and GPU test binaries. Directions follow materials/environment_map.h: row y spans
// theta in [pi y / H, pi (y + 1) / H] from `up`, column x spans
// phi = 2 pi (x / W - 1/2) .. 2 pi ((x + 1) / W - 1/2) from the frame's centre toward its side.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/host_environment_map.h"
#include "engine/scene.h"
#include "materials/environment_map.h"

namespace wf::test {

inline HostEnvironmentMap constant_environment_map(uint32_t width, uint32_t height, Vec3f value) {
    HostEnvironmentMap m;
    m.file = "<constant map>";
    m.width = width;
    m.height = height;
    m.texels.assign(size_t(width) * height, value);
    return m;
}

// Strong features: a sky gradient, coloured, brighter toward the top; a "sun" texel
// about 1000 times brighter than the sky around it (about half of the sampling weight) at
// column 5/8, row 9/32; a black band at the bottom (rows of zero weight); and one row
// whose only light is a single texel.
inline HostEnvironmentMap sun_and_gradient_map(uint32_t width = 64, uint32_t height = 32) {
    HostEnvironmentMap m;
    m.file = "<sun and gradient>";
    m.width = width;
    m.height = height;
    m.texels.resize(size_t(width) * height);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            float sky = 1.0f - float(y) / float(height);
            float wave = 0.75f + 0.25f * std::cos(6.2831853f * float(x) / float(width));
            m.texels[size_t(y) * width + x] = Vec3f(0.3f * sky * wave, 0.5f * sky, 0.9f * sky * (1.5f - wave));
        }
    for (uint32_t y = height - height / 8; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) m.texels[size_t(y) * width + x] = Vec3f(0.0f);
    const uint32_t lonely_row = height - height / 8 - 1;
    for (uint32_t x = 0; x < width; ++x) m.texels[size_t(lonely_row) * width + x] = Vec3f(0.0f);
    m.texels[size_t(lonely_row) * width + width / 3] = Vec3f(0.2f, 0.1f, 0.4f);
    m.texels[size_t(height * 9 / 32) * width + width * 5 / 8] = Vec3f(300.0f, 270.0f, 210.0f);
    return m;
}

// Black except texels [x0, x1) x [y0, y1), of radiance `value`.
inline HostEnvironmentMap patch_environment_map(uint32_t width, uint32_t height, uint32_t x0, uint32_t x1, uint32_t y0,
                                                uint32_t y1, Vec3f value) {
    HostEnvironmentMap m = constant_environment_map(width, height, Vec3f(0.0f));
    m.file = "<patch map>";
    for (uint32_t y = y0; y < y1; ++y)
        for (uint32_t x = x0; x < x1; ++x) m.texels[size_t(y) * width + x] = value;
    return m;
}

// Irradiance on a surface facing `up` from a patch of radiance L spanning rows [y0, y1)
// (in the upper hemisphere) and columns [x0, x1): L * (phi1 - phi0) / 2 * (sin^2 theta1 - sin^2 theta0).
inline double patch_irradiance_facing_up(uint32_t width, uint32_t height, uint32_t x0, uint32_t x1, uint32_t y0,
                                         uint32_t y1, double radiance) {
    const double pi = 3.14159265358979323846;
    const double theta0 = pi * y0 / height, theta1 = pi * std::min(y1, height / 2) / height;
    const double dphi = 2.0 * pi * (double(x1) - double(x0)) / width;
    return radiance * dphi / 2.0 * (std::sin(theta1) * std::sin(theta1) - std::sin(theta0) * std::sin(theta0));
}

// World direction of (theta, phi) in `frame` (the mapping of materials/environment_map.h,
// written out again in double).
inline Vec3f environment_test_direction(const EnvironmentFrame& f, double theta, double phi) {
    const double st = std::sin(theta), ct = std::cos(theta), sp = std::sin(phi), cp = std::cos(phi);
    Vec3f c = f.centre, u = f.up, s = f.side;
    return Vec3f(float(st * cp * c.x + ct * u.x + st * sp * s.x), float(st * cp * c.y + ct * u.y + st * sp * s.y),
                 float(st * cp * c.z + ct * u.z + st * sp * s.z));
}

// Irradiance at a surface of unit normal n from `map` (times `scale`), by the midpoint
// rule with k x k points per texel, in (theta, phi).
inline double environment_map_irradiance(const HostEnvironmentMap& map, const EnvironmentFrame& frame, Vec3f n,
                                         double scale, int k = 8) {
    const double pi = 3.14159265358979323846;
    const double dtheta = pi / map.height / k, dphi = 2.0 * pi / map.width / k;
    double sum = 0.0;
    for (uint32_t y = 0; y < map.height; ++y)
        for (uint32_t x = 0; x < map.width; ++x) {
            const double l = map.texels[size_t(y) * map.width + x].x;
            if (l == 0.0) continue;
            for (int i = 0; i < k; ++i)
                for (int j = 0; j < k; ++j) {
                    const double theta = (y * k + i + 0.5) * dtheta, phi = (x * k + j + 0.5) * dphi - pi;
                    const double c = dot(n, environment_test_direction(frame, theta, phi));
                    if (c > 0.0) sum += l * c * std::sin(theta) * dtheta * dphi;
                }
        }
    return sum * scale;
}

// A white-ish diffuse square (albedo rho, half-size 1) at y = 0 facing +y, seen from straight
// above (the film sees only the square), lit by an environment light of the given radiance
// scale; `map` (may be empty: a constant environment of radiance `scale`) its image. Nothing
// shadows the square from above: every pixel converges to rho / pi * E.
inline HostScene environment_lit_square_scene(const HostEnvironmentMap& map, float scale, float rho, uint32_t size) {
    HostScene s;
    s.source_path = "<environment-lit square>";
    s.camera.position = {0.0f, 2.0f, 0.0f};
    s.camera.forward = {0.0f, -1.0f, 0.0f};
    s.camera.up = {0.0f, 0.0f, -1.0f};
    s.camera.fov_y_degrees = 40.0f;
    s.settings.width = s.settings.height = size;
    Material m;
    m.kd = Vec3f(rho);
    s.materials.push_back(m);
    s.material_names.push_back("square");
    s.triangles.push_back({{-1, 0, -1}, {-1, 0, 1}, {1, 0, 1}});
    s.triangles.push_back({{-1, 0, -1}, {1, 0, 1}, {1, 0, -1}});
    s.prims.push_back({0, -1, 0});
    s.prims.push_back({0, -1, 0});
    Light env;
    env.type = LightType::Environment;
    env.radiance = Vec3f(scale);
    s.lights.push_back(env);
    s.environment_map = map;
    return s;
}

}  // namespace wf::test
