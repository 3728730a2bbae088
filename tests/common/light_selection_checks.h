// Light selection (materials/light_selection.h) checked on a backend: the distribution
// it builds against powers worked out by hand, and an analytic scene of lights of very
// different power where a pick probability that disagrees with the sampling anywhere
// (an estimator or any MIS weight of any integrator) moves the image mean.
// tests/wavefront/light_selection_test.cpp runs them on the CPU, tests/gpu/ on CUDA.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/render.h"
#include "tests/common/bidirectional_checks.h"

namespace wf::test {

// ---- The scene ----------------------------------------------------------------------------
// A diffuse ground plane (y = 0, albedo 0.5) seen from y = 1 looking down, lit by two
// emitting squares facing down (a small very bright one and a large dim one, two triangle
// lights each), a point light, a directional light and a uniform environment. With path
// length 2 (camera -> ground -> light) each pixel is rho / pi times the ground's
// irradiance, in closed form (lit_ground_irradiance). The lights' powers span 30x, so the
// power distribution picks them with probabilities from 0.017 to 0.53 where uniform
// picking would give each 1/7.
struct LitGround {
    float rho = 0.5f;
    Vec3f bright_centre{0.6f, 2.0f, 0.0f};
    float bright_half = 0.1f, bright_radiance = 300.0f;
    Vec3f dim_centre{-0.5f, 1.5f, 0.4f};
    float dim_half = 0.5f, dim_radiance = 3.0f;
    Vec3f point{0.0f, 1.2f, -0.7f};
    float point_intensity = 2.0f;
    Vec3f sun_dir = normalize(Vec3f(0.3f, -1.0f, 0.2f));  // the direction the light travels
    float sun_irradiance = 1.0f;
    float env_radiance = 0.2f;
};

// A square of half size h at height c.y facing down (-y): two triangles, counter-clockwise
// about -y, in the order the scene lists them.
inline std::vector<Triangle> downward_square(Vec3f c, float h) {
    Vec3f a{c.x - h, c.y, c.z - h}, b{c.x + h, c.y, c.z - h}, d{c.x + h, c.y, c.z + h}, e{c.x - h, c.y, c.z + h};
    return {Triangle{a, d, e}, Triangle{a, b, d}};
}

inline HostScene lit_ground_scene(const LitGround& g, uint32_t size) {
    HostScene s;
    s.source_path = "<lit ground>";
    s.camera.position = {0.0f, 1.0f, 0.0f};
    s.camera.forward = {0.05f, -1.0f, 0.02f};
    s.camera.up = {0.0f, 0.0f, -1.0f};
    s.camera.fov_y_degrees = 50.0f;
    s.settings.width = s.settings.height = size;
    Material ground;
    ground.kd = Vec3f(g.rho);
    s.materials = {ground, Material{}};  // material 1: black, for the emitters
    s.material_names = {"ground", "emitter"};
    s.triangles.push_back({{-3, 0, -3}, {-3, 0, 3}, {3, 0, 3}});
    s.triangles.push_back({{-3, 0, -3}, {3, 0, 3}, {3, 0, -3}});
    s.prims.push_back({0, -1, 0});
    s.prims.push_back({0, -1, 0});
    auto add_square = [&](Vec3f c, float h, float radiance) {
        for (const Triangle& t : downward_square(c, h)) {
            Light l;
            l.type = LightType::Area;
            l.prim = uint32_t(s.triangles.size());
            l.radiance = Vec3f(radiance);
            s.prims.push_back({1, int32_t(s.lights.size()), 0});
            s.triangles.push_back(t);
            s.lights.push_back(l);
        }
    };
    add_square(g.bright_centre, g.bright_half, g.bright_radiance);
    add_square(g.dim_centre, g.dim_half, g.dim_radiance);
    Light point;
    point.type = LightType::Point;
    point.position = g.point;
    point.radiance = Vec3f(g.point_intensity);
    s.lights.push_back(point);
    Light sun;
    sun.type = LightType::Directional;
    sun.direction = g.sun_dir;
    sun.radiance = Vec3f(g.sun_irradiance);
    s.lights.push_back(sun);
    Light env;
    env.type = LightType::Environment;
    env.radiance = Vec3f(g.env_radiance);
    s.lights.push_back(env);
    return s;
}

// Projected solid angle (the integral of cos over the solid angle) of a planar polygon seen
// from x on a surface of normal n, Lambert's formula; the polygon lies wholly above the surface.
inline double projected_solid_angle(Vec3f x, Vec3f n, const std::vector<Vec3f>& polygon) {
    double sum = 0.0;
    for (size_t i = 0; i < polygon.size(); ++i) {
        Vec3f a = normalize(polygon[i] - x), b = normalize(polygon[(i + 1) % polygon.size()] - x);
        double angle = std::acos(std::fmin(1.0, std::fmax(-1.0, double(dot(a, b)))));
        sum += angle * double(dot(normalize(cross(a, b)), n));
    }
    return 0.5 * std::fabs(sum);
}

// Irradiance of the ground at x (y = 0), in closed form: each square contributes its
// radiance times its projected solid angle and hides as much of the environment; the
// squares do not hide one another, nor the point light, from the part of the ground the
// camera sees (their layout is chosen so); the sun is tested against both.
inline double lit_ground_irradiance(const LitGround& g, Vec3f x) {
    const Vec3f n{0.0f, 1.0f, 0.0f};
    auto square = [](Vec3f c, float h) {
        return std::vector<Vec3f>{{c.x - h, c.y, c.z - h}, {c.x + h, c.y, c.z - h}, {c.x + h, c.y, c.z + h},
                                  {c.x - h, c.y, c.z + h}};
    };
    const double bright = projected_solid_angle(x, n, square(g.bright_centre, g.bright_half));
    const double dim = projected_solid_angle(x, n, square(g.dim_centre, g.dim_half));
    const double pi = 3.14159265358979323846;
    double e = g.env_radiance * (pi - bright - dim) + g.bright_radiance * bright + g.dim_radiance * dim;
    Vec3f to_point = g.point - x;
    e += g.point_intensity * double(dot(normalize(to_point), n)) / double(length_squared(to_point));
    Ray to_sun{x, -g.sun_dir};
    bool shadowed = false;
    for (const Triangle& t : downward_square(g.bright_centre, g.bright_half)) shadowed |= ray_hits_triangle(to_sun, t);
    for (const Triangle& t : downward_square(g.dim_centre, g.dim_half)) shadowed |= ray_hits_triangle(to_sun, t);
    if (!shadowed) e += g.sun_irradiance * double(dot(-g.sun_dir, n));
    return e;
}

// The image mean: rho / pi times the irradiance, averaged over each pixel with 16 x 16
// stratified points (the renderer's box filter), over all pixels.
inline double lit_ground_image_mean(const LitGround& g, const HostScene& scene, uint32_t size) {
    const Camera cam = scene.camera.build(size, size);
    const uint32_t k = 16;
    double sum = 0.0;
    for (uint32_t py = 0; py < size; ++py)
        for (uint32_t px = 0; px < size; ++px)
            for (uint32_t j = 0; j < k * k; ++j) {
                Ray r = cam.generate_ray(float(px) + (float(j % k) + 0.5f) / float(k),
                                         float(py) + (float(j / k) + 0.5f) / float(k), 0.5f, 0.5f);
                EXPECT_LT(r.dir.y, 0.0f);
                float t = -r.origin.y / r.dir.y;
                Vec3f x = r.origin + t * r.dir;
                x.y = 0.0f;
                sum += lit_ground_irradiance(g, x);
            }
    return double(g.rho) / 3.14159265358979323846 * sum / (double(size) * size * k * k);
}

// Every pixel's ground point is inside the ground and the ground is lit in closed form;
// the replicate means of `run` against it. lt, as SmallVCM, does not see the lights
// directly, and no pixel sees one: the same expected value for every integrator.
inline void check_lit_ground(BackendKind backend, const AnalyticRun& run,
                             const std::string& light_selection = "power") {
    LitGround g;
    HostScene scene = lit_ground_scene(g, run.size);
    scene.settings.light_selection = light_selection;
    const uint32_t max_depth = 2;
    const double expected = lit_ground_image_mean(g, scene, run.size);
    EstimatorSpec e{run.integrator, backend, run.spp, run.light_paths, run.radius_factor};
    const std::vector<double> means = replicate_image_means(scene, e, run.size, max_depth);
    expect_replicate_mean(("lit ground, " + light_selection + " light selection").c_str(), run, means, expected);
}

}  // namespace wf::test
