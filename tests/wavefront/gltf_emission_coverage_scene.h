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
    d.primitive()["material"] = d.material(
        {{"pbrMetallicRoughness", {{"baseColorFactor", {0.8, 0.8, 0.8, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 1}}}});
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

}  // namespace wf::test
