// glTF volume absorption (KHR_materials_volume attenuation, Beer-Lambert) on every
// integrator: two scenes written as glTF files, and the check that an estimator agrees
// with pt on them, shared by tests/wavefront/gltf_absorption_test.cpp (CPU) and
// tests/gpu/gltf_absorption_cuda_test.cpp (CUDA). That file says what the scenes show.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/scene_loader.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/io/gltf_test_files.h"
#include "tests/wavefront/gltf_bidirectional_scenes.h"

namespace wf::test {

// What remains of each channel after one unit of length inside the volume.
inline constexpr double kAbsorptionColour[3] = {0.35, 0.6, 0.85};
inline constexpr uint32_t kAbsorptionSize = 16;
inline constexpr uint32_t kAbsorptionMaxDepth = 6;

// Rough glass (ior 1.5, transmission 1, roughness 1: connections and merges find non-delta
// vertices on both sides of every face) that is a volume (thickness > 0), absorbing by
// kAbsorptionColour per unit length when `absorbs`, clear otherwise. Roughness 1, not
// less: at 0.5 the glossy reflections inside (total internal reflection beyond 42 degrees)
// gave pt fireflies that eight renders could not measure (pixels 5 standard errors off,
// clear glass as well).
inline json rough_glass_volume(bool absorbs) {
    json volume = {{"thicknessFactor", 1.0}};
    if (absorbs) {
        volume["attenuationColor"] = {kAbsorptionColour[0], kAbsorptionColour[1], kAbsorptionColour[2]};
        volume["attenuationDistance"] = 1.0;
    }
    return {{"pbrMetallicRoughness",
             {{"baseColorFactor", {1, 1, 1, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 1.0}}},
            {"extensions",
             {{"KHR_materials_transmission", {{"transmissionFactor", 1.0}}}, {"KHR_materials_volume", volume}}}};
}

// The faces of an axis-aligned cube of half size h at `centre`, each as four corners
// counter-clockwise about its normal, which points out of the cube (the volume lies
// behind every face): +x, -x, +y, -y, +z, -z.
using Quad = std::array<Vec3f, 4>;
inline std::vector<Quad> box_faces(Vec3f centre, float h) {
    std::vector<Quad> faces;
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {1.0f, -1.0f}) {
            Vec3f n(0.0f), u(0.0f), v(0.0f);
            n[axis] = sign;
            u[(axis + 1) % 3] = 1.0f;
            v[(axis + 2) % 3] = 1.0f;
            if (sign < 0.0f) std::swap(u, v);  // cross(u, v) is the normal
            faces.push_back({centre + h * (n - u - v), centre + h * (n + u - v), centre + h * (n + u + v),
                             centre + h * (n - u + v)});
        }
    return faces;
}

// One mesh of flat quads (two triangles each, no NORMAL: the shading normal is the geometric
// one, so camera and light paths see one BSDF). Quads that share corners share them exactly
// (watertight).
inline int add_quads_mesh(GltfDoc& d, const std::vector<Quad>& quads, int material) {
    std::vector<float> pos;
    std::vector<uint16_t> idx;
    for (const Quad& q : quads) {
        const uint16_t first = uint16_t(pos.size() / 3);
        for (const Vec3f& p : q) pos.insert(pos.end(), {p.x, p.y, p.z});
        for (int k : {0, 1, 2, 0, 2, 3}) idx.push_back(uint16_t(first + k));
    }
    return d.add_mesh(d.floats(pos, "VEC3"), d.indices(idx), json::object(), material);
}

inline HostScene load_absorption_scene(GltfDoc& d, const std::string& name) {
    d.g["extensionsUsed"] = {"KHR_materials_transmission", "KHR_materials_volume", "KHR_lights_punctual"};
    return load_scene(d.write(name + ".gltf", "wf_gltf_absorption"));
}

// A glass cube (half size 0.8) a little above a grey floor (y = -1, 6 x 6) in the sun (a
// directional light, irradiance 3, from above, front and left); nothing else, so what the
// camera (outside the cube, looking down at it) sees beyond the floor is black for every
// estimator. Light reaches the camera through the cube and through its shadow on every
// path length. Not an area light: with a glTF emissive ceiling over the floor, lt and
// bpt read 1-5% above pt whether the glass absorbed or not (measured before two fixes of
// the same session that moved pt and bpt on glTF emitters and at grazing views: a black
// emitter's BSDF counted as invalid, and reverse pdfs with the forward Russian roulette;
// not measured again since); not a sky: its light paths, spread over the scene's bounding
// disc, left lt too noisy.
inline const Vec3f kCubeCentre{0.0f, -0.15f, 0.0f};
inline constexpr float kCubeHalf = 0.8f;

inline HostScene cube_on_floor_scene(bool absorbs) {
    GltfDoc d(false);
    const int glass = d.material(rough_glass_volume(absorbs));
    const int floor = d.material(diffuse(0.8, 0.8, 0.8));
    d.g["meshes"] = json::array();
    add_quads_mesh(d, box_faces(kCubeCentre, kCubeHalf), glass);
    add_square_mesh(d, -1.0f, 3.0f, true, 3.0f, floor);
    d.g["extensions"]["KHR_lights_punctual"]["lights"] = {{{"type", "directional"}, {"intensity", 3.0}}};
    // The sun shines along the node's -z: turned to travel along (0.43, -0.78, -0.45).
    const Vec3f travel = normalize(Vec3f(0.5f, -0.9f, -0.52f));
    const Vec3f half_way = normalize(Vec3f(0.0f, 0.0f, -1.0f) + travel);  // a half turn about it: -z to travel
    d.g["nodes"] = {{{"mesh", 0}},
                    {{"mesh", 1}},
                    {{"rotation", {half_way.x, half_way.y, half_way.z, 0.0}},
                     {"extensions", {{"KHR_lights_punctual", {{"light", 0}}}}}}};
    d.g["scenes"][0]["nodes"] = {0, 1, 2};
    HostScene scene = load_absorption_scene(d, absorbs ? "cube_on_floor_absorbing" : "cube_on_floor_clear");
    EXPECT_EQ(scene.lights.size(), 1u) << "the sun, no environment";
    if (!scene.lights.empty()) EXPECT_NEAR(dot(scene.lights[0].direction, travel), 1.0f, 1e-5f);
    scene.camera.position = Vec3f(0.0f, 1.6f, 3.2f);
    scene.camera.forward = normalize(Vec3f(0.0f, -2.1f, -3.2f));
    scene.camera.up = Vec3f(0.0f, 1.0f, 0.0f);
    scene.camera.fov_y_degrees = 45.0f;
    scene.camera.aperture_radius = 0.0f;
    scene.settings.radius_factor = 0.01f;  // of the bounding sphere (radius 4.3): 0.043
    return scene;
}

// The camera and a point light inside a glass cube (half size 1 at the origin), nothing
// outside: every segment the camera sees runs inside the volume, shadow rays to the light
// and connections to the camera included.
inline HostScene camera_in_cube_scene(bool absorbs) {
    GltfDoc d(false);
    const int glass = d.material(rough_glass_volume(absorbs));
    d.g["meshes"] = json::array();
    add_quads_mesh(d, box_faces(Vec3f(0.0f), 1.0f), glass);
    d.g["extensions"]["KHR_lights_punctual"]["lights"] = {{{"type", "point"}, {"intensity", 3.0}}};
    d.g["nodes"] = {{{"mesh", 0}},
                    {{"translation", {-0.35, 0.45, -0.3}}, {"extensions", {{"KHR_lights_punctual", {{"light", 0}}}}}}};
    d.g["scenes"][0]["nodes"] = {0, 1};
    HostScene scene = load_absorption_scene(d, absorbs ? "camera_in_cube_absorbing" : "camera_in_cube_clear");
    EXPECT_EQ(scene.lights.size(), 1u) << "the point light, no environment";
    scene.camera.position = Vec3f(0.15f, -0.2f, 0.55f);
    scene.camera.forward = normalize(Vec3f(-0.2f, 0.1f, -1.0f));
    scene.camera.up = Vec3f(0.0f, 1.0f, 0.0f);
    scene.camera.fov_y_degrees = 70.0f;
    scene.camera.aperture_radius = 0.0f;
    scene.settings.radius_factor = 0.02f;  // of the bounding sphere (radius 1.73): 0.035
    return scene;
}

// ---- Replicates ---------------------------------------------------------------------------------

// kReplicates renders of one estimator (seeds first_seed, first_seed + 1, ...): the mean
// image, the variance of each of its pixel channels (sample variance over the renders / K)
// and each channel's image mean with its standard error over the renders (sound for
// estimators whose pixels are correlated, as bidirectional_checks.h says).
struct ReplicateImages {
    std::string integrator;
    std::vector<double> mean, variance;  // per pixel channel
    ReplicateMean channel[3];
};

inline ReplicateImages render_replicates(const HostScene& scene, const EstimatorSpec& e, uint32_t first_seed) {
    std::vector<Image> images;
    for (uint32_t k = 0; k < kReplicates; ++k) {
        RenderResult r = render_estimator(scene, e, kAbsorptionSize, kAbsorptionMaxDepth, first_seed + k);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << e.integrator << " seed " << first_seed + k;
        images.push_back(std::move(r.image));
    }
    ReplicateImages out;
    out.integrator = e.integrator;
    const size_t n = images[0].pixels.size() * 3;
    out.mean.assign(n, 0.0);
    out.variance.assign(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        for (const Image& im : images) out.mean[i] += im.pixels[i / 3][int(i % 3)];
        out.mean[i] /= double(kReplicates);
        for (const Image& im : images) out.variance[i] += std::pow(im.pixels[i / 3][int(i % 3)] - out.mean[i], 2);
        out.variance[i] /= double(kReplicates - 1) * kReplicates;
    }
    for (int c = 0; c < 3; ++c) {
        std::vector<double> means;
        for (const Image& im : images) means.push_back(double(channel_mean(im)[c]));
        out.channel[c] = replicate_mean(means);
    }
    return out;
}

// y estimates x's image: each channel's image mean within kReplicateSigmas standard errors
// of the difference, which must be below `max_relative_error` of x's mean (the test's
// power), and the pixels' squared differences summed within `allowance` times what their
// noise explains (the sum of both variances: bidirectional_checks.h's argument, with K
// renders a side in place of 2).
inline void expect_replicates_agree(const ReplicateImages& x, const ReplicateImages& y, double max_relative_error,
                                    double allowance, const std::string& label) {
    const std::string what = label + ": " + x.integrator + " vs " + y.integrator;
    double shift[3];
    for (int c = 0; c < 3; ++c) {
        const double difference = y.channel[c].mean - x.channel[c].mean;
        const double se = std::hypot(x.channel[c].standard_error, y.channel[c].standard_error);
        shift[c] = difference / se;
        EXPECT_LE(std::fabs(difference), kReplicateSigmas * se + 1e-6 * x.channel[c].mean)
            << what << " channel " << c << ": " << y.channel[c].mean << " vs " << x.channel[c].mean << " +- " << se;
        EXPECT_LT(se, max_relative_error * x.channel[c].mean) << what << " channel " << c << ": too noisy to be a test";
    }
    double squared = 0.0, noise = 0.0;
    for (size_t i = 0; i < x.mean.size(); ++i) {
        squared += std::pow(y.mean[i] - x.mean[i], 2);
        noise += x.variance[i] + y.variance[i];
    }
    double relative[3];
    for (int c = 0; c < 3; ++c) relative[c] = 100.0 * (y.channel[c].mean / x.channel[c].mean - 1.0);
    std::printf("%s: channel means %+.2f%% %+.2f%% %+.2f%% (%+.1f %+.1f %+.1f standard errors); pixels: squared "
                "difference %.3g, noise %.3g (ratio %.2f, allowed %.2f)\n",
                what.c_str(), relative[0], relative[1], relative[2], shift[0], shift[1], shift[2], squared, noise,
                squared / noise, allowance);
    EXPECT_LT(squared, allowance * noise) << what << ": squared difference " << squared << ", noise " << noise;
}

// One estimator's settings on these scenes.
struct AbsorptionRun {
    const char* integrator;
    uint32_t spp;
    uint32_t light_paths = 0;  // 0: one per pixel
};

// Iterations a render: bpt and vcm as many as pt, so that what connections inside the cube
// carry (about 5% of camera_in_cube_scene's red) is measured well beyond its noise; merging
// with 4096 light paths an iteration (a photon is shared by a pixel's neighbours), within
// each scene's radius (its settings.radius_factor: ppm's blur darkened the cube's corners
// by 3% at twice that radius).
inline constexpr uint32_t kAbsorptionPtSpp = 128;
inline const std::vector<AbsorptionRun> kAbsorptionRuns = {
    {"lt", 128}, {"bpt", 128}, {"vcm", 128}, {"bpm", 48, 4096}, {"ppm", 48, 4096}};

inline EstimatorSpec absorption_spec(const AbsorptionRun& run, BackendKind backend) {
    return EstimatorSpec{run.integrator, backend, run.spp, run.light_paths};
}

// Every run of kAbsorptionRuns agrees with pt on `scene`, all rendered on `backend`: channel
// means within 5 standard errors of the difference, those below 2.5% of pt's, and the
// pixels within 1.6 times their noise (pixels seen through glass have heavy tails, which 8
// renders measure short: ratios up to 1.42 seen).
inline void expect_estimators_agree_with_pt(const HostScene& scene, BackendKind backend, const std::string& label) {
    const ReplicateImages pt = render_replicates(scene, EstimatorSpec{"pt", backend, kAbsorptionPtSpp}, 1);
    uint32_t seed = 1 + kReplicates;
    for (const AbsorptionRun& run : kAbsorptionRuns) {
        expect_replicates_agree(pt, render_replicates(scene, absorption_spec(run, backend), seed), 0.025, 1.6, label);
        seed += kReplicates;
    }
}

// Pixels whose centre ray meets the cube of cube_on_floor_scene: 1, others 0.
inline PixelMask cube_pixels(const HostScene& scene) {
    const Camera cam = scene.camera.build(kAbsorptionSize, kAbsorptionSize);
    PixelMask mask(size_t(kAbsorptionSize) * kAbsorptionSize, 0);
    for (uint32_t y = 0; y < kAbsorptionSize; ++y)
        for (uint32_t x = 0; x < kAbsorptionSize; ++x) {
            const Ray r = cam.generate_ray(float(x) + 0.5f, float(y) + 0.5f, 0.5f, 0.5f);
            float enter = 0.0f, leave = 1e30f;  // slabs
            for (int a = 0; a < 3; ++a) {
                const float t0 = (kCubeCentre[a] - kCubeHalf - r.origin[a]) / r.dir[a];
                const float t1 = (kCubeCentre[a] + kCubeHalf - r.origin[a]) / r.dir[a];
                enter = std::max(enter, std::min(t0, t1));
                leave = std::min(leave, std::max(t0, t1));
            }
            mask[y * kAbsorptionSize + x] = enter < leave;
        }
    return mask;
}

// pt's red channel (which absorbs most) with absorption over the same without, on the
// masked pixels (all: empty): the share absorption leaves, from one render of each scene.
inline double red_share_left(const HostScene& absorbing, const HostScene& clear, BackendKind backend,
                             const PixelMask& mask = {}) {
    const EstimatorSpec pt{"pt", backend, kAbsorptionPtSpp};
    const Image a = render_estimator(absorbing, pt, kAbsorptionSize, kAbsorptionMaxDepth, 1).image;
    const Image c = render_estimator(clear, pt, kAbsorptionSize, kAbsorptionMaxDepth, 1).image;
    return double(masked_mean(a, mask).x) / double(masked_mean(c, mask).x);
}

}  // namespace wf::test
