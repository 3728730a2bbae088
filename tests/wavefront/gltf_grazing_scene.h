// A dark rough glTF rectangle under a uniform sky, seen at grazing angles, for the tests of
// the reverse walk's Russian roulette on both backends
// (tests/wavefront/gltf_grazing_test.cpp says what they show).
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

inline constexpr uint32_t kGrazingSize = 16;
inline constexpr uint32_t kGrazingMaxDepth = 4;

// A 0.2 x 1 rectangle (z = 0, facing +z) of a dark rough dielectric (base colour 0.05,
// roughness 1): its albedo, and so its Russian-roulette continuation probability, runs from 0.09
// at normal incidence to ~0.5 at grazing (Fresnel). The file has no light, so the loader
// adds its uniform environment of radiance 1, whose light paths start on a disk as wide as
// the scene: small, so that light tracing is a technique of weight. The camera, 5 away,
// looks at the rectangle's centre from 10 degrees above it with a 1.6-degree field of view:
// every pixel sees the rectangle, 79 to 81 degrees from its normal. Nothing else is there,
// so every pixel is the rectangle's directional albedo at that angle, reached by paths of
// one bounce.
inline HostScene dark_rectangle_at_grazing() {
    GltfDoc d;  // mesh 0: the unit square, facing +z
    d.g["nodes"][0]["scale"] = {0.2, 1, 1};
    d.g["nodes"][0]["translation"] = {-0.1, -0.5, 0};
    d.primitive()["material"] = d.material(
        {{"pbrMetallicRoughness", {{"baseColorFactor", {0.05, 0.05, 0.05, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 1}}}});
    HostScene scene = load_scene(d.write("dark_rectangle.gltf", "wf_gltf_grazing"));
    EXPECT_EQ(scene.lights.size(), 1u);
    EXPECT_EQ(scene.lights.empty() ? LightType::Area : scene.lights[0].type, LightType::Environment);
    const float elevation = 10.0f * 3.14159265f / 180.0f;
    scene.camera.position = Vec3f(0.0f, -5.0f * std::cos(elevation), 5.0f * std::sin(elevation));
    scene.camera.forward = normalize(-scene.camera.position);
    scene.camera.up = Vec3f(0.0f, 0.0f, 1.0f);
    scene.camera.fov_y_degrees = 1.6f;
    scene.camera.aperture_radius = 0.0f;
    return scene;
}

// Image means of bpt and vcm against pt's over replicates: within kReplicateSigmas
// combined standard errors, and those small enough (< 0.4%) to see the +2% that the
// forward continuation probability in the reverse pdfs gave (+1.8%).
inline void expect_grazing_plane_agrees_with_pt(BackendKind backend) {
    const HostScene scene = dark_rectangle_at_grazing();
    const ReplicateMean pt =
        replicate_mean(replicate_image_means(scene, EstimatorSpec{"pt", backend, 256, 0, 0.0f}, kGrazingSize, kGrazingMaxDepth));
    std::printf("pt: %.6f +- %.6f\n", pt.mean, pt.standard_error);
    EXPECT_LT(pt.standard_error, 0.004 * pt.mean);
    for (const char* integrator : {"bpt", "vcm"}) {
        const ReplicateMean m = replicate_mean(
            replicate_image_means(scene, EstimatorSpec{integrator, backend, 128, 0, 0.0f}, kGrazingSize, kGrazingMaxDepth));
        const double se = std::sqrt(m.standard_error * m.standard_error + pt.standard_error * pt.standard_error);
        std::printf("%s: %.6f +- %.6f, %+.3f%% of pt (%+.1f standard errors)\n", integrator, m.mean, m.standard_error,
                    100.0 * (m.mean / pt.mean - 1.0), (m.mean - pt.mean) / se);
        EXPECT_NEAR(m.mean, pt.mean, kReplicateSigmas * se) << integrator;
        EXPECT_LT(m.standard_error, 0.004 * pt.mean) << integrator << ": too noisy to be a test";
    }
}

}  // namespace wf::test
