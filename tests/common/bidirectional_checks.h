// Statistical checks of the bidirectional family (lt, bpt, ppm, bpm, vcm) and of pt,
// run on a given backend: tests/wavefront/bidirectional_test.cpp calls them on the CPU,
// tests/gpu/bidirectional_cuda_test.cpp on CUDA.
//
// Every tolerance comes from noise: measured by the check itself, or (the relative
// tolerances of channel means) chosen from spreads over seeds measured once and written
// down where they are set:
//  * analytic scenes: K independent renders (seeds 1..K); the spread of their image
//    means gives the standard error, which is sound also for estimators whose pixels
//    are correlated (light tracing splats one light path into several pixels; merging
//    shares one light vertex among many pixels, which makes the per-pixel estimate of the
//    error of the mean too small: measured 2.2x for bpm with r = 0.1);
//  * image comparisons: two renders of each estimator (different seeds) give the
//    per-pixel variance of each (E|A1-A2|^2 = 2 var_A); the mean squared difference of
//    the two estimators is var_A + var_B + bias^2, so it must not exceed var_A + var_B by
//    more than the allowance for the sampling error of those variance estimates.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "app/render.h"
#include "io/image.h"
#include "io/image_metrics.h"
#include "io/scene_loader.h"
#include "tests/common/analytic_scenes.h"
#include "tests/common/smallvcm_parity.h"
#include "tests/common/source_dir.h"

namespace wf::test {

// How one estimator renders: integrator, backend, iterations and its knobs.
struct EstimatorSpec {
    std::string integrator = "pt";
    BackendKind backend = BackendKind::Cpu;
    uint32_t spp = 1;
    uint32_t light_paths = 0;    // 0: one per pixel
    float radius_factor = 0.0f;  // 0: the scene's
};

// count_events: also time the stages and count the integrator's events (RenderStats).
inline RenderResult render_estimator(const HostScene& scene, const EstimatorSpec& e, uint32_t size, uint32_t max_depth,
                                     uint32_t seed, bool count_events = false) {
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = size;
    o.settings.max_depth = max_depth;
    o.settings.spp = e.spp;
    o.settings.seed = seed;
    o.settings.integrator = e.integrator;
    o.settings.light_paths = e.light_paths;
    if (e.radius_factor > 0.0f) o.settings.radius_factor = e.radius_factor;
    o.backend = e.backend;
    o.collect_stage_times = count_events;
    return render(scene, o);
}

// Mean and standard error of independent replicates.
struct ReplicateMean {
    double mean = 0, standard_error = 0;
    uint32_t count = 0;
};

inline ReplicateMean replicate_mean(const std::vector<double>& v) {
    ReplicateMean r;
    r.count = uint32_t(v.size());
    if (v.size() < 2) return r;
    double sum = 0;
    for (double x : v) sum += x;
    r.mean = sum / double(v.size());
    double ss = 0;
    for (double x : v) ss += (x - r.mean) * (x - r.mean);
    r.standard_error = std::sqrt(ss / double(v.size() - 1) / double(v.size()));
    return r;
}

// ---- Analytic scenes with many lights -----------------------------------------------------

// The allowance for analytic checks: 5 standard errors of K = 8 replicates (Student t with
// 7 degrees of freedom: P(|t| > 5) = 0.0016), plus float accumulation (1e-5 relative).
inline constexpr uint32_t kReplicates = 8;
inline constexpr double kReplicateSigmas = 5.0;

struct AnalyticRun {
    std::string integrator;
    uint32_t spp = 8;              // per replicate
    uint32_t size = 32;
    uint32_t light_paths = 0;
    float radius_factor = 0.0f;
    double max_relative_error = 0.004;  // the relative standard error must be below this (the test's power)
};

// The mean over replicate renders against its expected value: within
// kReplicateSigmas standard errors, and those small enough to make it a test.
inline void expect_replicate_mean(const char* what, const AnalyticRun& run, const std::vector<double>& means,
                                  double expected) {
    ReplicateMean m = replicate_mean(means);
    std::printf("%s, %s: mean %.6f +- %.6f (expected %.6f, %+.2f standard errors)\n", what,
                run.integrator.c_str(), m.mean, m.standard_error, expected, (m.mean - expected) / m.standard_error);
    EXPECT_NEAR(m.mean, expected, kReplicateSigmas * m.standard_error + 1e-5 * expected)
        << run.integrator << ": mean " << m.mean << " +- " << m.standard_error << " over " << m.count << " renders";
    EXPECT_LT(m.standard_error, run.max_relative_error * expected) << run.integrator << ": too noisy to be a test";
}

// Image means (all channels; all pixels, or those pixel(x, y) keeps) of kReplicates
// renders, seeds 1..K; none may drop a sample as NaN/Inf.
inline std::vector<double> replicate_image_means(const HostScene& scene, const EstimatorSpec& e, uint32_t size,
                                                 uint32_t max_depth,
                                                 const std::function<bool(uint32_t x, uint32_t y)>& pixel = {}) {
    std::vector<double> means;
    for (uint32_t seed = 1; seed <= kReplicates; ++seed) {
        RenderResult r = render_estimator(scene, e, size, max_depth, seed);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << e.integrator << " seed " << seed;
        double sum = 0;
        size_t count = 0;
        for (uint32_t y = 0; y < size; ++y)
            for (uint32_t x = 0; x < size; ++x) {
                if (pixel && !pixel(x, y)) continue;
                const Vec3f& v = r.image.pixels[size_t(y) * size + x];
                sum += double(v.x) + v.y + v.z;
                ++count;
            }
        means.push_back(count ? sum / (3.0 * double(count)) : 0.0);
    }
    return means;
}

// The value of the render's statistics counter `name` (RenderStats::counters; needs
// count_events), or a test failure and -1 when it has none.
inline double counter_value(const RenderResult& r, const std::string& name) {
    for (const RenderCounter& c : r.stats.counters)
        if (c.name == name) return c.value;
    ADD_FAILURE() << "no counter \"" << name << "\"";
    return -1.0;
}

// Closed emissive mesh sphere (180 triangles, each its own light; Le = 1, rho = 0.8, path
// length at most 6): every pixel converges to truncated_closed_sphere_radiance(1, 0.8, 6)
// = 3.68928, except with lt, which (as SmallVCM) does not show the light sources
// themselves: 1 less. The MIS weights of pt, bpt and vcm carry the light-pick probability
// 1/180 in every technique; leaving it out of any of them moves the mean by 15-50%.
inline void check_closed_emissive_mesh_sphere(BackendKind backend, const AnalyticRun& run) {
    const float le = 1.0f, rho = 0.8f;
    const uint32_t max_depth = 6;
    HostScene scene = closed_emissive_mesh_sphere_scene(le, rho, run.size);
    ASSERT_EQ(scene.lights.size(), 180u);
    double expected = truncated_closed_sphere_radiance(le, rho, max_depth);
    if (run.integrator == "lt") expected -= le;
    EstimatorSpec e{run.integrator, backend, run.spp, run.light_paths, run.radius_factor};
    const std::vector<double> means = replicate_image_means(scene, e, run.size, max_depth);
    expect_replicate_mean("closed emissive mesh sphere", run, means, expected);
}

// Does a ray hit the triangle (double precision, two-sided)?
inline bool ray_hits_triangle(const Ray& r, const Triangle& t) {
    double o[3] = {r.origin.x, r.origin.y, r.origin.z}, d[3] = {r.dir.x, r.dir.y, r.dir.z};
    double p0[3] = {t.p0.x, t.p0.y, t.p0.z}, e1[3], e2[3], s[3];
    for (int i = 0; i < 3; ++i) {
        e1[i] = double(t.p1[i]) - p0[i];
        e2[i] = double(t.p2[i]) - p0[i];
        s[i] = o[i] - p0[i];
    }
    auto cross3 = [](const double* a, const double* b, double* c) {
        c[0] = a[1] * b[2] - a[2] * b[1];
        c[1] = a[2] * b[0] - a[0] * b[2];
        c[2] = a[0] * b[1] - a[1] * b[0];
    };
    auto dot3 = [](const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
    double p[3], q[3];
    cross3(d, e2, p);
    double det = dot3(e1, p);
    if (std::fabs(det) < 1e-300) return false;
    double u = dot3(s, p) / det;
    cross3(s, e1, q);
    double v = dot3(d, q) / det;
    double t_hit = dot3(e2, q) / det;
    return u >= 0 && v >= 0 && u + v <= 1 && t_hit > 0;
}

// A convex emissive mesh sphere (80 triangles, each its own light emitting outward with
// radiance Le, diffuse albedo rho) in a uniform environment of radiance E, seen from
// outside. Convex: a point on it never sees the sphere, so every pixel fully on the sphere
// converges to Le + rho E (lt: rho E, it shows neither lights nor the environment). 81
// lights: the environment's MIS weights (pt_shade_background, vcm_shade_background, NEE
// toward the environment) carry the pick probability 1/81.
inline void check_furnace_emissive_mesh_sphere(BackendKind backend, const AnalyticRun& run) {
    const float le = 0.5f, rho = 0.7f, env = 1.0f;
    HostScene scene = furnace_emissive_mesh_sphere_scene(le, rho, env, run.size);
    ASSERT_EQ(scene.lights.size(), 81u);
    const bool lt = run.integrator == "lt";
    const double expected = (lt ? 0.0 : le) + double(rho) * env;
    // Pixels whose four corners see the sphere lie entirely on it (its outline is convex).
    Camera cam = scene.camera.build(run.size, run.size);
    std::vector<uint32_t> inside;
    for (uint32_t y = 0; y < run.size; ++y)
        for (uint32_t x = 0; x < run.size; ++x) {
            int corners = 0;
            for (int c = 0; c < 4; ++c) {
                Ray ray = cam.generate_ray(float(x + (c & 1)), float(y + (c >> 1)), 0.5f, 0.5f);
                for (const Triangle& t : scene.triangles)
                    if (ray_hits_triangle(ray, t)) { ++corners; break; }
            }
            if (corners == 4) inside.push_back(y * run.size + x);
        }
    ASSERT_GT(inside.size(), run.size * run.size / 8);
    EstimatorSpec e{run.integrator, backend, run.spp, run.light_paths, run.radius_factor};
    std::vector<double> means;
    for (uint32_t seed = 1; seed <= kReplicates; ++seed) {
        RenderResult r = render_estimator(scene, e, run.size, 10, seed);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << run.integrator << " seed " << seed;
        double sum = 0;
        for (uint32_t i : inside) sum += double(r.image.pixels[i].x) + r.image.pixels[i].y + r.image.pixels[i].z;
        means.push_back(sum / (3.0 * inside.size()));
    }
    expect_replicate_mean("furnace emissive mesh sphere", run, means, expected);
}

// ---- Two estimators of the same image ---------------------------------------------------

// Pixels to compare; empty: all.
using PixelMask = std::vector<uint8_t>;

struct AgreementOptions {
    uint32_t size = 64;
    uint32_t max_depth = 10;
    double mean_tolerance = 0.01;  // relative, per channel, on the masked pixels
    double allowance = 1.25;       // on var_A + var_B, as check_smallvcm_parity
};

// A CPU render of `integrator` with spp iterations (bpm and ppm: light_paths per iteration
// and the radius factor; 0 for their defaults), as the scene tests compare them.
inline EstimatorSpec cpu_spec(const char* integrator, uint32_t spp, uint32_t light_paths = 0,
                              float radius_factor = 0.0f) {
    return EstimatorSpec{integrator, BackendKind::Cpu, spp, light_paths, radius_factor};
}

// Agreement on 32 x 32 images of paths of at most 6 segments (the glTF and microfacet
// scenes' tests), channel means within mean_tolerance.
inline AgreementOptions small_image_agreement(double mean_tolerance) {
    AgreementOptions opt;
    opt.size = 32;
    opt.max_depth = 6;
    opt.mean_tolerance = mean_tolerance;
    return opt;
}

inline double masked_mse(const Image& a, const Image& b, const PixelMask& mask) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        if (!mask.empty() && !mask[i]) continue;
        for (int c = 0; c < 3; ++c) {
            double d = double(a.pixels[i][c]) - b.pixels[i][c];
            sum += d * d;
        }
        ++n;
    }
    return n ? sum / (3.0 * n) : 0.0;
}

inline Vec3f masked_mean(const Image& a, const PixelMask& mask) {
    double s[3] = {0, 0, 0};
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        if (!mask.empty() && !mask[i]) continue;
        for (int c = 0; c < 3; ++c) s[c] += a.pixels[i][c];
        ++n;
    }
    return n ? Vec3f(float(s[0] / n), float(s[1] / n), float(s[2] / n)) : Vec3f(0.0f);
}

// X (seeds 1, 2) and each Y (seeds 3, 4, then 5, 6, ...: never the random numbers of
// another render) estimate the same image: channel means over the mask within
// mean_tolerance of X's, and the per-pixel difference consistent with their noise.
inline void check_estimators_agree(const HostScene& scene, const EstimatorSpec& x, const std::vector<EstimatorSpec>& ys,
                                   const AgreementOptions& opt, const PixelMask& mask = {},
                                   const std::string& label = "") {
    Image x1 = render_estimator(scene, x, opt.size, opt.max_depth, 1).image;
    Image x2 = render_estimator(scene, x, opt.size, opt.max_depth, 2).image;
    EXPECT_EQ(count_nonfinite(x1) + count_nonfinite(x2), 0u) << label << " " << x.integrator;
    const Vec3f mx = 0.5f * (masked_mean(x1, mask) + masked_mean(x2, mask));
    const double var_x = masked_mse(x1, x2, mask) / 2.0;
    uint32_t seed = 3;
    for (const EstimatorSpec& y : ys) {
        Image y1 = render_estimator(scene, y, opt.size, opt.max_depth, seed++).image;
        Image y2 = render_estimator(scene, y, opt.size, opt.max_depth, seed++).image;
        const std::string what = label + ": " + x.integrator + " vs " + y.integrator;
        EXPECT_EQ(count_nonfinite(y1) + count_nonfinite(y2), 0u) << what;
        Vec3f my = 0.5f * (masked_mean(y1, mask) + masked_mean(y2, mask));
        for (int c = 0; c < 3; ++c) {
            double scale = std::max(mx[c], my[c]);
            if (scale < 1e-3 * std::max({mx.x, mx.y, mx.z})) continue;  // a channel the light does not have
            EXPECT_NEAR(my[c], mx[c], opt.mean_tolerance * scale)
                << what << " channel " << c << ": " << my[c] << " vs " << mx[c];
        }
        double var_y = masked_mse(y1, y2, mask) / 2.0;
        double cross = 0.25 * (masked_mse(x1, y1, mask) + masked_mse(x1, y2, mask) + masked_mse(x2, y1, mask) +
                               masked_mse(x2, y2, mask));
        std::printf("%s: channel means %+.2f%% %+.2f%% %+.2f%%; mean squared difference %.4g, noise %.4g + %.4g "
                    "(ratio %.3f, allowed %.2f)\n",
                    what.c_str(), 100.0 * (my.x / mx.x - 1.0), 100.0 * (my.y / mx.y - 1.0),
                    mx.z > 0 ? 100.0 * (my.z / mx.z - 1.0) : 0.0, cross, var_x, var_y, cross / (var_x + var_y),
                    opt.allowance);
        EXPECT_LT(cross, opt.allowance * (var_x + var_y) + 1e-9)
            << what << ": mean squared difference " << cross << ", noise " << var_x << " + " << var_y;
    }
}

// One seed rendered by `a` and by `b` (the same estimator on two backends) gives nearly the
// same image: the squared difference is a small share of the noise variance (two seeds of
// `a` measure it). The backends differ only by float rounding (docs/architecture.md, 5).
inline void expect_same_seed_agrees(const HostScene& scene, const EstimatorSpec& a, const EstimatorSpec& b,
                                    const AgreementOptions& opt, const char* label) {
    Image a1 = render_estimator(scene, a, opt.size, opt.max_depth, 1).image;
    Image a2 = render_estimator(scene, a, opt.size, opt.max_depth, 2).image;
    Image b1 = render_estimator(scene, b, opt.size, opt.max_depth, 1).image;
    const double noise = masked_mse(a1, a2, {}) / 2.0, same_seed = masked_mse(a1, b1, {});
    std::printf("%s %s, seed 1 on both backends: mean squared difference %.3g, noise variance %.3g\n", label,
                a.integrator.c_str(), same_seed, noise);
    EXPECT_LT(same_seed, 0.05 * noise) << label << " " << a.integrator;
}

// Pixels whose camera ray (at any of 3x3 points across the pixel, corners included) may
// first meet a specular sphere (a mirror or glass ball), grown by one pixel: 0 there, 1
// elsewhere. On the other pixels the first camera vertex is non-specular.
inline PixelMask non_specular_first_hit_mask(const HostScene& scene, uint32_t size) {
    Camera cam = scene.camera.build(size, size);
    std::vector<uint8_t> near_specular(size_t(size) * size, 0);
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x)
            for (int k = 0; k < 9; ++k) {
                Ray r = cam.generate_ray(float(x) + 0.5f * float(k % 3), float(y) + 0.5f * float(k / 3), 0.5f, 0.5f);
                for (size_t s = 0; s < scene.spheres.size(); ++s) {
                    const Material& m = scene.materials[scene.prims[scene.triangles.size() + s].material];
                    if (!(max_component(m.km) > 0.0f || m.ior > 0.0f)) continue;
                    const Vec3f oc = r.origin - scene.spheres[s].center;
                    const double radius = scene.spheres[s].radius;
                    const double b = dot(oc, r.dir), c = double(dot(oc, oc)) - radius * radius;
                    if (b * b - c >= 0 && -b + std::sqrt(b * b - c) > 0) near_specular[y * size + x] = 1;
                }
            }
    PixelMask mask(size_t(size) * size, 1);
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int xx = int(x) + dx, yy = int(y) + dy;
                    if (xx >= 0 && yy >= 0 && xx < int(size) && yy < int(size) && near_specular[yy * size + xx])
                        mask[y * size + x] = 0;
                }
    return mask;
}

// The scene with every specular material (mirror, glass) replaced by SmallVCM's white
// diffuse: no caustics left, so every estimator samples every path.
inline HostScene without_specular_materials(HostScene scene) {
    for (Material& m : scene.materials)
        if (max_component(m.km) > 0.0f || m.ior > 0.0f) {
            Material white;
            white.kd = Vec3f(0.803922f);
            white.two_sided = m.two_sided;
            m = white;
        }
    return scene;
}

inline HostScene load_smallvcm_scene(const std::string& file) {
    return load_scene(test::source_dir() + "/scenes/smallvcm/" + file);
}

// SmallVCM's scene 2 with diffuse balls (without_specular_materials), its point light
// turned into a spot (same position and intensity, inner 15, outer 35 degrees) aimed
// down at the floor behind the right ball: a lit ellipse with a soft edge, the walls lit
// only indirectly.
inline HostScene spot_lit_smallvcm_box() {
    HostScene scene = without_specular_materials(load_smallvcm_scene("s2-point.json"));
    for (Light& l : scene.lights)
        if (l.type == LightType::Point) {
            l.type = LightType::Spot;
            l.direction = normalize(Vec3f(0.3f, 0.5f, -1.0f));
            l.cos_inner = std::cos(15.0f * kPi / 180.0f);
            l.cos_outer = std::cos(35.0f * kPi / 180.0f);
        }
    return scene;
}

}  // namespace wf::test
