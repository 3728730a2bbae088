// An emissive glTF square of coverage kEmissionCoverage over a white floor, for the
// tests of coverage-scaled emission on both backends
// (tests/wavefront/gltf_emission_coverage_test.cpp says what they show).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/scene_loader.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/io/gltf_test_files.h"

namespace wf::test {

inline constexpr float kEmissionCoverage = 0.4f;
inline constexpr uint32_t kEmissionSize = 16;
inline constexpr uint32_t kEmissionMaxDepth = 4;

// A white diffuse floor (z = 0, 4 x 4) under an emissive square (1 x 1 at z = 1, facing
// down, black base colour), seen from z = 0.5 looking straight down.
inline HostScene emitter_over_floor(const char* alpha_mode) {
    GltfDoc d;  // mesh 0: the unit square, facing +z; accessors 0 (positions), 1 (uvs), 2 (indices)
    d.g["nodes"][0]["scale"] = {4, 4, 1};
    d.g["nodes"][0]["translation"] = {-2, -2, 0};
    // Lambert 0.8 (specularFactor 0: no specular layer), so the floor's radiance has a closed form.
    d.primitive()["material"] =
        d.material({{"pbrMetallicRoughness", {{"baseColorFactor", {0.8, 0.8, 0.8, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 1}}},
                    {"extensions", {{"KHR_materials_specular", {{"specularFactor", 0}}}}}});
    const int emissive = d.material({{"pbrMetallicRoughness",
                                      {{"baseColorFactor", {0, 0, 0, kEmissionCoverage}}, {"metallicFactor", 0}, {"roughnessFactor", 1}}},
                                     {"emissiveFactor", {1, 1, 1}},
                                     // no specular layer either: the square reflects nothing back
                                     {"extensions", {{"KHR_materials_specular", {{"specularFactor", 0}}}}},
                                     {"alphaMode", alpha_mode}});
    const int light_mesh = d.add_mesh(0, 2, {{"TEXCOORD_0", 1}}, emissive);
    // Half a turn about x: (x, y, z) -> (x, -y, -z), so the square faces down.
    d.g["nodes"].push_back({{"mesh", light_mesh}, {"rotation", {1, 0, 0, 0}}, {"translation", {-0.5, 0.5, 1}}});
    d.g["scenes"][0]["nodes"] = {0, 1};
    HostScene scene = load_scene(d.write(std::string("emission_coverage_") + alpha_mode + ".gltf", "wf_gltf_emission"));
    EXPECT_EQ(scene.lights.size(), 2u);  // the square's two triangles; no environment
    for (const Light& l : scene.lights) EXPECT_EQ(l.type, LightType::Area);
    scene.camera.position = Vec3f(0.0f, 0.0f, 0.5f);
    scene.camera.forward = Vec3f(0.0f, 0.0f, -1.0f);
    scene.camera.up = Vec3f(0.0f, 1.0f, 0.0f);
    scene.camera.fov_y_degrees = 90.0f;
    scene.camera.aperture_radius = 0.0f;
    return scene;
}

// The image mean under the fully covered square, from the closed form of the form factor
// from a point to a parallel rectangle with a corner above it (Howell's catalogue, C-11):
// F(X, Y) = (X / sqrt(1 + X^2) atan(Y / sqrt(1 + X^2)) + Y / sqrt(1 + Y^2) atan(X / sqrt(1 + Y^2))) / 2 pi,
// X and Y the rectangle's sides over its height. The camera sees exactly the floor under
// the square, [-0.5, 0.5]^2, uniformly over the image; a point there splits the square into
// four such rectangles, and the Lambert floor's radiance is rho Le F (the square reflects
// nothing, so that is all the light there is). The 256^2 midpoint rule is good to 1e-6.
inline double floor_radiance_under_opaque_square() {
    const double rho = 0.8, le = 1.0, height = 1.0, pi = 3.14159265358979323846;
    auto form_factor = [&](double a, double b) {
        const double x = a / height, y = b / height, sx = std::sqrt(1.0 + x * x), sy = std::sqrt(1.0 + y * y);
        return (x / sx * std::atan(y / sx) + y / sy * std::atan(x / sy)) / (2.0 * pi);
    };
    const int n = 256;
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const double px = -0.5 + (i + 0.5) / n, py = -0.5 + (j + 0.5) / n;
            for (double a : {0.5 - px, 0.5 + px})
                for (double b : {0.5 - py, 0.5 + py}) sum += form_factor(a, b);
        }
    return rho * le * sum / (double(n) * n);
}

// The floor under the fully covered square against its closed form: every estimator
// sees the emitter the same way, whether it reaches it by a light sample, by a BSDF
// sample that hits it (the square is black with no specular layer, so it scatters
// nothing: its BSDF must still count as a surface that emits) or by a light path.
inline void expect_floor_radiance_is_analytic(const EstimatorSpec& e) {
    const HostScene scene = emitter_over_floor("OPAQUE");
    AnalyticRun run;
    run.integrator = e.integrator;
    run.spp = e.spp;
    run.size = kEmissionSize;
    run.max_relative_error = 0.002;
    expect_replicate_mean("floor under an opaque emissive square", run,
                          replicate_image_means(scene, e, kEmissionSize, kEmissionMaxDepth),
                          floor_radiance_under_opaque_square());
}

// Renders both squares with estimator e and checks that the floor under the partly
// covered one is kEmissionCoverage times the other's.
inline void expect_floor_ratio_is_coverage(const EstimatorSpec& e) {
    const HostScene covered = emitter_over_floor("OPAQUE"), blended = emitter_over_floor("BLEND");
    const ReplicateMean full = replicate_mean(replicate_image_means(covered, e, kEmissionSize, kEmissionMaxDepth));
    const ReplicateMean part = replicate_mean(replicate_image_means(blended, e, kEmissionSize, kEmissionMaxDepth));
    const double ratio = part.mean / full.mean;
    const double se =
        ratio * std::sqrt(std::pow(part.standard_error / part.mean, 2) + std::pow(full.standard_error / full.mean, 2));
    std::printf("%s: floor %.5f (coverage 1), %.5f (coverage %.2f): ratio %.4f +- %.4f\n", e.integrator.c_str(),
                full.mean, part.mean, kEmissionCoverage, ratio, se);
    EXPECT_GT(full.mean, 0.01) << e.integrator;
    EXPECT_NEAR(ratio, kEmissionCoverage, kReplicateSigmas * se) << e.integrator;
    EXPECT_LT(se, 0.01) << e.integrator << ": too noisy to be a test";
}

// The check for pt, lt, bpt and vcm on one backend.
inline void expect_floor_ratio_is_coverage_for_every_estimator(BackendKind backend) {
    struct Run {
        const char* integrator;
        uint32_t spp;
    };
    for (const Run& run : {Run{"pt", 64}, Run{"lt", 32}, Run{"bpt", 32}, Run{"vcm", 32}})
        expect_floor_ratio_is_coverage(EstimatorSpec{run.integrator, backend, run.spp, 0, 0.0f});
}

// The closed-form check for pt, lt, bpt and vcm on one backend. lt's image mean here is
// a count: a pinhole over a parallel plane sees every unit of floor area with the same
// importance, so each light path that lands in view adds the same amount, and the 256
// light paths of a 16 x 16 film per iteration would leave it binomially noisy (~2%); it
// traces 64 times as many.
inline void expect_floor_radiance_is_analytic_for_every_estimator(BackendKind backend) {
    struct Run {
        const char* integrator;
        uint32_t light_paths;
    };
    for (const Run& run : {Run{"pt", 0}, Run{"lt", 64 * kEmissionSize * kEmissionSize}, Run{"bpt", 0}, Run{"vcm", 0}})
        expect_floor_radiance_is_analytic(EstimatorSpec{run.integrator, backend, 32, run.light_paths, 0.0f});
}

}  // namespace wf::test
