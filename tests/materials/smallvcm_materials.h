// SmallVCM's materials (README, table "Materials") and small helpers for BSDF tests.
#pragma once

#include <cmath>

#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf::materials_test {

inline Material smallvcm_glossy_floor() {
    Material m;
    m.kd = Vec3f(0.1f);
    m.ks = Vec3f(0.7f);
    m.phong_exponent = 90.0f;
    m.two_sided = 0;
    return m;
}

inline Material smallvcm_white() {
    Material m;
    m.kd = Vec3f(0.803922f);
    m.two_sided = 0;
    return m;
}

inline Material smallvcm_red() {
    Material m;
    m.kd = Vec3f(0.803922f, 0.152941f, 0.152941f);
    m.two_sided = 0;
    return m;
}

inline Material smallvcm_mirror() {
    Material m;
    m.km = Vec3f(1.0f);
    m.two_sided = 0;
    return m;
}

inline Material smallvcm_glass() {
    Material m;
    m.km = Vec3f(1.0f);
    m.ior = 1.6f;
    m.two_sided = 0;
    return m;
}

// Unit direction at polar angle theta (radians) and azimuth phi around `axis`.
inline Vec3f direction_around(Vec3f axis, float theta, float phi) {
    Frame f = Frame::from_z(axis);
    return f.to_world(Vec3f(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)));
}

// Ray direction that arrives at a surface with normal n from the side n points to, with
// the direction back to the ray's origin at angle theta from n.
inline Vec3f arriving_ray(Vec3f n, float theta, float phi = 0.3f) { return -direction_around(n, theta, phi); }

inline float degrees(float d) { return d * kPi / 180.0f; }

}  // namespace wf::materials_test
