// Scenes for the AOV tests (engine/aov.h) and their closed-form first hits, shared by the
// CPU and GPU test binaries. The camera is a pinhole at (0, 0, 4) looking down -z (up +y,
// 40 degree vertical field of view, square film), so the ray through raster point (x, y)
// is written here from the pinhole's definition, not taken from engine/camera.h.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/render.h"
#include "tests/common/analytic_scenes.h"

namespace wf::test {

inline constexpr float kAovCameraZ = 4.0f;
inline constexpr float kAovFovDegrees = 40.0f;

// Camera, a material of diffuse colour `kd` as material 0 and a uniform environment.
inline HostScene aov_base_scene(Vec3f kd, uint32_t size) {
    HostScene s;
    look_at_diffuse(s, {0, 0, kAovCameraZ}, {0, 0, -1}, kAovFovDegrees, 0.0f, "surface", size);
    s.materials[0].kd = kd;
    Light env;
    env.type = LightType::Environment;
    env.radiance = Vec3f(1.0f);
    s.lights.push_back(env);
    return s;
}

// A square of half-size 10 in the plane z = 0, filling the view; its geometric normal is
// +z (toward the camera) or -z (`facing_camera` false: the camera sees its back).
inline HostScene aov_plane_scene(Vec3f kd, uint32_t size, bool facing_camera) {
    HostScene s = aov_base_scene(kd, size);
    const float h = 10.0f;
    Vec3f a{-h, -h, 0}, b{h, -h, 0}, c{h, h, 0}, d{-h, h, 0};
    if (facing_camera) {  // counter-clockwise seen from +z
        s.triangles.push_back({a, b, c});
        s.triangles.push_back({a, c, d});
    } else {
        s.triangles.push_back({a, c, b});
        s.triangles.push_back({a, d, c});
    }
    s.prims.push_back({0, -1, 0});
    s.prims.push_back({0, -1, 0});
    return s;
}

// The plane with a glTF metallic-roughness material of base colour `base` (a metal,
// roughness 0.5), single- or double-sided.
inline HostScene aov_gltf_plane_scene(Vec3f base, uint32_t size, bool facing_camera, bool double_sided) {
    HostScene scene = aov_plane_scene(Vec3f(0.0f), size, facing_camera);
    Material& m = scene.materials[0];
    m.type = MaterialType::GltfPbr;
    m.pbr.base_color = base;
    m.pbr.metallic = 1.0f;
    m.pbr.roughness = 0.5f;
    m.two_sided = double_sided ? 1 : 0;
    return scene;
}

// A unit sphere at the origin, which covers the middle of the film and leaves the corners.
inline HostScene aov_sphere_scene(Vec3f kd, uint32_t size) {
    HostScene s = aov_base_scene(kd, size);
    s.spheres.push_back({{0, 0, 0}, 1.0f});
    s.prims.push_back({0, -1, 0});
    return s;
}

// The unit direction of the pinhole ray through raster point (x, y) of a size x size film.
inline Vec3f aov_pinhole_dir(double x, double y, uint32_t size) {
    const double t = std::tan(0.5 * double(kAovFovDegrees) * 3.14159265358979323846 / 180.0);
    const double nx = (2.0 * x / size - 1.0) * t, ny = (1.0 - 2.0 * y / size) * t;
    const double len = std::sqrt(nx * nx + ny * ny + 1.0);
    return Vec3f(float(nx / len), float(ny / len), float(-1.0 / len));
}

// First hit of the camera ray through (x, y): depth and normal (facing the camera).
struct AovHit {
    double depth;
    Vec3f normal;
};
inline AovHit aov_plane_hit(double x, double y, uint32_t size) {
    const Vec3f d = aov_pinhole_dir(x, y, size);
    return {kAovCameraZ / -double(d.z), Vec3f(0, 0, 1)};
}
// Hit of the unit sphere, or nothing. `ambiguous`: the ray passes near the silhouette
// (discriminant within `margin`; it changes by about 0.04 per eighth of a pixel there at
// the sizes used), where a pixel's grid points may miss a sliver of the sphere.
inline std::optional<AovHit> aov_sphere_hit(double x, double y, uint32_t size, bool* ambiguous = nullptr,
                                            double margin = 0.1) {
    const Vec3f d = aov_pinhole_dir(x, y, size);
    const double b = kAovCameraZ * double(d.z);  // dot(origin, d)
    const double disc = b * b - (double(kAovCameraZ) * kAovCameraZ - 1.0);
    if (ambiguous) *ambiguous = std::fabs(disc) < margin;
    if (disc <= 0.0) return std::nullopt;
    const double t = -b - std::sqrt(disc);
    const Vec3f p(float(t * d.x), float(t * d.y), float(kAovCameraZ + t * d.z));
    return AovHit{t, p};  // unit sphere at the origin: the normal is the point
}

// The range a closed-form quantity takes over pixel (px, py), sampled on a 9 x 9 grid
// that includes the pixel's corners, widened by a quarter of its width and `slack`: the
// mean of a pixel's samples must lie in it (a mean of values in a range lies in it; the
// widening covers what the grid misses between its points).
struct AovRange {
    double lo = 1e300, hi = -1e300;
    void add(double v) { lo = std::min(lo, v); hi = std::max(hi, v); }
    bool contains(double v, double slack) const {
        const double w = 0.25 * (hi - lo) + slack;
        return v >= lo - w && v <= hi + w;
    }
};
template <class F>  // f(x, y, &range for depth, ranges[3] for the normal): false where undefined
inline bool aov_pixel_ranges(uint32_t px, uint32_t py, F f, AovRange* depth, AovRange normal[3]) {
    for (int i = 0; i <= 8; ++i)
        for (int j = 0; j <= 8; ++j) {
            const std::optional<AovHit> h = f(px + i / 8.0, py + j / 8.0);
            if (!h) return false;
            depth->add(h->depth);
            for (int c = 0; c < 3; ++c) normal[c].add(h->normal[c]);
        }
    return true;
}

// The AOV layer called `name` of a render result, or a failed assertion.
inline const Image& aov_layer(const RenderResult& r, const std::string& name) {
    for (const ImageLayer& l : r.aovs)
        if (l.name == name) return l.image;
    ADD_FAILURE() << "no AOV layer '" << name << "'";
    static const Image empty;
    return empty;
}

inline constexpr AovSet kAllAovs = aov_bit(Aov::Albedo) | aov_bit(Aov::Normal) | aov_bit(Aov::Depth);

}  // namespace wf::test
