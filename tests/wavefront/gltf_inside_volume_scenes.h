// A glTF volume whose base reflects inside it: the clear rough-glass cube of
// gltf_absorption_scenes.h with transmissionFactor 0.5 (half its base Lambert), lit by a
// point light inside, seen by a camera inside it and by one outside. Shared by
// tests/wavefront/gltf_inside_volume_test.cpp (CPU) and
// tests/gpu/gltf_inside_volume_cuda_test.cpp (CUDA); the CPU file says what they show.
//
// The reference: an estimator of the image's path lengths 2 and 3 written here from
// GltfBsdf::evaluate() alone (no sample(), no pdf, nothing of the integrators): the camera
// ray meets the cube (slabs), x2 is drawn uniformly on the cube's surface, and the point
// light is joined directly, in a convex cube with nothing else where every pair of its
// points sees each other. evaluate() is reciprocal and agrees with sample() by
// tests/materials/gltf_bsdf_test.cpp and gltf_bsdf_inside_test.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "materials/gltf_bsdf.h"
#include "tests/wavefront/gltf_absorption_scenes.h"

namespace wf::test {

inline constexpr float kInsideVolumeTransmission = 0.5f;
inline constexpr uint32_t kInsideVolumeSize = 16;

// The clear cube (half size 1 at the origin) of camera_in_cube_scene with transmission 0.5:
// the camera inside, or outside at (0.5, 0.3, 3) looking at the cube's centre.
inline HostScene half_lambert_cube_scene(bool camera_inside) {
    HostScene scene = camera_in_cube_scene(false);
    int volumes = 0;
    for (Material& m : scene.materials)
        if (m.type == MaterialType::GltfPbr && m.pbr.thin_walled == 0) {
            m.pbr.transmission = kInsideVolumeTransmission;
            ++volumes;
        }
    EXPECT_EQ(volumes, 1) << "the cube's glass";
    if (!camera_inside) {
        scene.camera.position = Vec3f(0.5f, 0.3f, 3.0f);
        scene.camera.forward = normalize(Vec3f(0.0f) - scene.camera.position);
    }
    return scene;
}

// Where a ray from o along d leaves or enters the cube [-1, 1]^3 (the first crossing ahead):
// the point, its face's outward normal, and the face's index. False if it misses.
inline bool unit_cube_crossing(Vec3f o, Vec3f d, Vec3f* p, Vec3f* n, int* face) {
    float enter = -1e30f, leave = 1e30f;
    for (int a = 0; a < 3; ++a) {
        const float t0 = (-1.0f - o[a]) / d[a], t1 = (1.0f - o[a]) / d[a];
        enter = std::max(enter, std::min(t0, t1));
        leave = std::min(leave, std::max(t0, t1));
    }
    if (!(enter < leave) || !(leave > 0.0f)) return false;
    *p = o + (enter > 0.0f ? enter : leave) * d;
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (std::fabs((*p)[a]) > std::fabs((*p)[axis])) axis = a;
    *n = Vec3f(0.0f);
    (*n)[axis] = (*p)[axis] > 0.0f ? 1.0f : -1.0f;
    *face = 2 * axis + ((*p)[axis] > 0.0f ? 0 : 1);
    return true;
}

// The green channel's image mean over path lengths 2 and 3 (a render with max depth 3),
// with its standard error: samples_per_pixel camera rays a pixel, each with one x2.
inline ReplicateMean half_lambert_cube_reference(const HostScene& scene, uint32_t samples_per_pixel, uint64_t seed) {
    const Material* glass = nullptr;
    for (const Material& m : scene.materials)
        if (m.type == MaterialType::GltfPbr && m.pbr.thin_walled == 0) glass = &m;
    EXPECT_TRUE(glass != nullptr && scene.lights.size() == 1 && scene.lights[0].type == LightType::Point);
    if (glass == nullptr || scene.lights.empty()) return {};
    GltfBsdfParams g;
    g.base_color = glass->pbr.base_color;
    g.metallic = glass->pbr.metallic;
    g.roughness = glass->pbr.roughness;
    g.ior = glass->ior;
    g.transmission = glass->pbr.transmission;
    g.thin_walled = false;
    const bool double_sided = glass->two_sided != 0;
    const Vec3f light = scene.lights[0].position;
    const double intensity = scene.lights[0].radiance.y;
    const Camera camera = scene.camera.build(kInsideVolumeSize, kInsideVolumeSize);
    std::mt19937_64 engine(seed);
    auto u = [&]() { return float(engine() >> 40) * (1.0f / 16777216.0f); };
    double sum = 0.0, sum2 = 0.0;
    const double n = double(kInsideVolumeSize) * kInsideVolumeSize * samples_per_pixel;
    for (uint32_t y = 0; y < kInsideVolumeSize; ++y)
        for (uint32_t x = 0; x < kInsideVolumeSize; ++x)
            for (uint32_t k = 0; k < samples_per_pixel; ++k) {
                const Ray ray = camera.generate_ray(float(x) + u(), float(y) + u(), 0.5f, 0.5f);
                Vec3f x1, n1;
                int face1;
                if (!unit_cube_crossing(ray.origin, ray.dir, &x1, &n1, &face1)) continue;
                const GltfBsdf at_x1 = GltfBsdf::make(g, ray.dir, n1, n1, true, double_sided);
                double v = 0.0;
                // Length 2: x1 joined to the light.
                const Vec3f to_light1 = light - x1;
                const float d1 = length(to_light1);
                const BsdfEval e = at_x1.evaluate(to_light1 / d1);
                v += double(e.factor.y) * e.cos_out * intensity / (double(d1) * d1);
                // Length 3: x2 uniform on the surface (6 faces of area 4), then the light.
                const int face2 = std::min(5, int(u() * 6.0f));
                const int axis = face2 / 2;
                Vec3f x2, n2(0.0f);
                x2[axis] = n2[axis] = face2 % 2 == 0 ? 1.0f : -1.0f;
                x2[(axis + 1) % 3] = 2.0f * u() - 1.0f;
                x2[(axis + 2) % 3] = 2.0f * u() - 1.0f;
                if (face2 != face1) {
                    const Vec3f to_x2 = x2 - x1;
                    const float d12 = length(to_x2);
                    const Vec3f w12 = to_x2 / d12;
                    const BsdfEval e1 = at_x1.evaluate(w12);
                    const GltfBsdf at_x2 = GltfBsdf::make(g, w12, n2, n2, true, double_sided);
                    const Vec3f to_light2 = light - x2;
                    const float d2 = length(to_light2);
                    const BsdfEval e2 = at_x2.evaluate(to_light2 / d2);
                    const double geometry = double(e1.cos_out) * std::fabs(dot(w12, n2)) / (double(d12) * d12);
                    v += double(e1.factor.y) * geometry * e2.factor.y * e2.cos_out * intensity / (double(d2) * d2) * 24.0;
                }
                sum += v;
                sum2 += v * v;
            }
    ReplicateMean r;
    r.mean = sum / n;
    r.standard_error = std::sqrt(std::max(0.0, sum2 / n - r.mean * r.mean) / n);
    r.count = uint32_t(n);
    return r;
}

// One estimator's green image mean at max depth 3 over kReplicates renders (seeds first_seed...).
inline ReplicateMean short_paths_mean(const HostScene& scene, const EstimatorSpec& e, uint32_t first_seed) {
    std::vector<double> means;
    for (uint32_t k = 0; k < kReplicates; ++k) {
        const RenderResult r = render_estimator(scene, e, kInsideVolumeSize, 3, first_seed + k);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << e.integrator << " seed " << first_seed + k;
        means.push_back(double(channel_mean(r.image)[1]));
    }
    return replicate_mean(means);
}

// Every estimator (pt and kAbsorptionRuns) at max depth 3 on `scene` within 5 standard
// errors (render and reference together) of the reference, those below 2.5% of it.
inline void expect_short_paths_match_reference(const HostScene& scene, BackendKind backend, const std::string& label) {
    const ReplicateMean ref = half_lambert_cube_reference(scene, 4000, 12345);
    std::printf("%s: reference for path lengths 2-3 %.5f +- %.5f\n", label.c_str(), ref.mean, ref.standard_error);
    std::vector<AbsorptionRun> runs = kAbsorptionRuns;
    runs.insert(runs.begin(), AbsorptionRun{"pt", kAbsorptionPtSpp});
    uint32_t seed = 1;
    for (const AbsorptionRun& run : runs) {
        const ReplicateMean m = short_paths_mean(scene, absorption_spec(run, backend), seed);
        seed += kReplicates;
        const double se = std::hypot(m.standard_error, ref.standard_error);
        std::printf("%s, max length 3: %s %.5f +- %.5f (%+.2f%%, %+.1f standard errors)\n", label.c_str(), run.integrator,
                    m.mean, m.standard_error, 100.0 * (m.mean / ref.mean - 1.0), (m.mean - ref.mean) / se);
        EXPECT_LE(std::fabs(m.mean - ref.mean), kReplicateSigmas * se) << label << ": " << run.integrator;
        EXPECT_LT(se, 0.025 * ref.mean) << label << ": " << run.integrator << " too noisy to be a test";
    }
}

}  // namespace wf::test
