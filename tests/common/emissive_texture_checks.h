// A glTF emitter with an emissive texture, checked in closed form on a backend:
// tests/wavefront/gltf_emissive_texture_test.cpp runs the checks on the CPU,
// tests/gpu/emissive_texture_cuda_test.cpp on CUDA.
//
// The scene (a glTF file written here): a 1 x 1 square at z = 1 facing down (-z), emitting
// emissiveFactor (1, 0.8, 1.2) x emissiveStrength 3 times a 2 x 2 texture (nearest,
// sRGB codes given below), read through TEXCOORD_1 with KHR_texture_transform's offset
// (0.5, 0) and wrapS REPEAT (TEXCOORD_0 is all zeros: a renderer reading set 0 sees one
// texel everywhere); and a floor z = 0, 6 x 6, whose glTF material is replaced after
// loading by a Lambertian of albedo 0.5 (so that its BSDF has a closed form). The
// emitter's point (x, y, 1) reads TEXCOORD_1 (x + 0.5, 0.5 - y), shifted to u' = x + 1, so
// texel column 1 where x < 0 and column 0 where x >= 0; row 0 (the image's top) where
// y > 0, row 1 where y < 0 (texel_at). Each quarter of the square emits one texel's
// radiance: factor x strength x the sRGB decoding of its code.
//
// Checks: (1) seen directly (path length 1), a pixel that sees one quarter is exactly
// that quarter's radiance; (2) the floor seen from below the emitter at path length 2 is
// albedo / pi times its irradiance, Lambert's formula summed over the four quarters
// (tests/common/polygon_irradiance.h): the image mean of each channel, over replicate
// renders, against the mean of the closed form over the pixels' footprints.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "engine/camera.h"
#include "io/scene_loader.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/common/polygon_irradiance.h"
#include "tests/io/gltf_test_files.h"

namespace wf::test {

struct EmissiveTextureScene {
    static constexpr float kFloorAlbedo = 0.5f;
    // sRGB codes of texel (column i, row j from the top), [i][j].
    static constexpr int kCodes[2][2][3] = {{{230, 40, 20}, {20, 50, 220}}, {{30, 200, 60}, {255, 255, 255}}};
    static Vec3f factor() { return Vec3f(1.0f, 0.8f, 1.2f) * 3.0f; }  // emissiveFactor x emissiveStrength

    // IEC 61966-2-1's decoding of an 8-bit code, in double (not the renderer's table).
    static double decode(int code) {
        const double c = code / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    }
    // The texel (column, row) the emitter's point (x, y, 1) reads (see the top of this file).
    static void texel_at(double x, double y, int* i, int* j) {
        *i = x < 0.0 ? 1 : 0;
        *j = y > 0.0 ? 0 : 1;
    }
    // Radiance of texel (i, j), channel c.
    static double radiance(int i, int j, int c) { return double(factor()[c]) * decode(kCodes[i][j][c]); }

    // Irradiance at floor point (x, y, 0), channel c: Lambert's formula per quarter.
    static double floor_irradiance(double x, double y, int c) {
        const Vec3f p(float(x), float(y), 0.0f), n(0, 0, 1);
        double e = 0;
        for (int qx = 0; qx < 2; ++qx)
            for (int qy = 0; qy < 2; ++qy) {
                const float x0 = qx ? 0.0f : -0.5f, y0 = qy ? 0.0f : -0.5f;
                const std::vector<Vec3f> quarter{{x0, y0, 1}, {x0 + 0.5f, y0, 1}, {x0 + 0.5f, y0 + 0.5f, 1}, {x0, y0 + 0.5f, 1}};
                int i, j;
                texel_at(x0 + 0.25, y0 + 0.25, &i, &j);
                e += polygon_irradiance(quarter, p, n, radiance(i, j, c));
            }
        return e;
    }

    // The scene, its camera on (cx, cy, cz) looking along +z (up) or -z (down), y up in
    // the image, with vertical field of view fov_deg.
    static HostScene make(const std::string& name, Vec3f camera, bool look_up, float fov_deg) {
        using nlohmann::json;
        GltfDoc d(false);
        std::vector<uint8_t> texels;
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 2; ++i) {
                for (int c = 0; c < 3; ++c) texels.push_back(uint8_t(kCodes[i][j][c]));
                texels.push_back(255);
            }
        d.g["samplers"] = json::array({{{"wrapS", 10497}, {"wrapT", 33071}, {"magFilter", 9728}, {"minFilter", 9728}}});
        const int tex = d.texture(d.image(png_rgba(2, 2, texels)), 0);
        const Vec3f f = factor() * (1.0f / 3.0f);
        const int emitter = d.material(
            {{"emissiveFactor", {f.x, f.y, f.z}},
             {"emissiveTexture",
              {{"index", tex}, {"texCoord", 1}, {"extensions", {{"KHR_texture_transform", {{"offset", {0.5, 0.0}}}}}}}},
             {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 3.0}}}}},
             {"pbrMetallicRoughness", {{"baseColorFactor", {0, 0, 0, 1}}, {"metallicFactor", 0}}}});
        const int floor = d.material({{"name", "floor"},
                                      {"pbrMetallicRoughness", {{"baseColorFactor", {0.5, 0.5, 0.5, 1}}, {"metallicFactor", 0}}}});
        // Emitter corners A (-,-), B (+,-), C (+,+), D (-,+) at z = 1, triangles A C B and
        // A D C: normal -z.
        const int pos = d.floats({-0.5f, -0.5f, 1, 0.5f, -0.5f, 1, 0.5f, 0.5f, 1, -0.5f, 0.5f, 1}, "VEC3");
        const int uv0 = d.floats({0, 0, 0, 0, 0, 0, 0, 0}, "VEC2");
        const int uv1 = d.floats({0, 1, 1, 1, 1, 0, 0, 0}, "VEC2");
        d.add_mesh(pos, d.indices({0, 2, 1, 0, 3, 2}), {{"TEXCOORD_0", uv0}, {"TEXCOORD_1", uv1}}, emitter);
        const int floor_pos = d.floats({-3, -3, 0, 3, -3, 0, 3, 3, 0, -3, 3, 0}, "VEC3");
        d.add_mesh(floor_pos, d.indices({0, 1, 2, 0, 2, 3}), json::object(), floor);
        d.g["nodes"] = {{{"mesh", 0}}, {{"mesh", 1}}};
        d.g["scenes"][0]["nodes"] = {0, 1};
        d.g["extensionsUsed"] = {"KHR_materials_emissive_strength", "KHR_texture_transform"};
        HostScene scene = load_scene(d.write(name + ".gltf", "wf_emissive_texture"));
        EXPECT_EQ(scene.lights.size(), 2u) << "the emitter's two triangles, no environment";
        for (size_t m = 0; m < scene.material_names.size(); ++m)
            if (scene.material_names[m] == "floor") {
                scene.materials[m] = Material{};
                scene.materials[m].kd = Vec3f(kFloorAlbedo);
            }
        scene.camera.position = camera;
        scene.camera.forward = Vec3f(0, 0, look_up ? 1.0f : -1.0f);
        scene.camera.up = Vec3f(0, 1, 0);
        scene.camera.fov_y_degrees = fov_deg;
        scene.camera.aperture_radius = 0.0f;
        return scene;
    }
};

// Where a camera ray meets the plane z = h, or false.
inline bool ray_at_height(const Ray& r, float h, double* x, double* y) {
    if (!(std::fabs(r.dir.z) > 0.0f)) return false;
    const double t = (double(h) - r.origin.z) / r.dir.z;
    if (!(t > 0)) return false;
    *x = r.origin.x + t * r.dir.x;
    *y = r.origin.y + t * r.dir.y;
    return true;
}

// (1) The emitter seen directly: each pixel whose corners and centre all see one quarter
// (away from its edges by a margin) is that quarter's radiance, to float rounding, with
// `integrator` (pt, bpt, vcm; lt does not show emitters) at path length 1.
inline void check_emissive_texture_seen_directly(BackendKind backend, const std::string& integrator) {
    const uint32_t size = 32;
    const HostScene scene = EmissiveTextureScene::make("seen_" + integrator, Vec3f(0.1f, -0.05f, 0.2f), true, 70.0f);
    const RenderResult r = render_estimator(scene, EstimatorSpec{integrator, backend, 4, 0, 0.0f}, size, 1, 1);
    const Camera cam = scene.camera.build(size, size);
    uint32_t checked[2][2] = {};
    for (uint32_t py = 0; py < size; ++py)
        for (uint32_t px = 0; px < size; ++px) {
            int texel[2] = {-1, -1};
            bool pure = true;
            for (int k = 0; k < 5 && pure; ++k) {
                const float rx = k == 4 ? float(px) + 0.5f : float(px + (k & 1)), ry = k == 4 ? float(py) + 0.5f : float(py + (k >> 1));
                double x, y;
                const bool hit = ray_at_height(cam.generate_ray(rx, ry, 0.5f, 0.5f), 1.0f, &x, &y);
                const double margin = 1e-3;
                if (!hit || std::fabs(x) > 0.5 - margin || std::fabs(y) > 0.5 - margin || std::fabs(x) < margin ||
                    std::fabs(y) < margin) {
                    pure = false;
                    break;
                }
                int i, j;
                EmissiveTextureScene::texel_at(x, y, &i, &j);
                if (k > 0 && (i != texel[0] || j != texel[1])) pure = false;
                texel[0] = i;
                texel[1] = j;
            }
            if (!pure) continue;
            const Vec3f v = r.image.at(px, py);
            for (int c = 0; c < 3; ++c) {
                const double le = EmissiveTextureScene::radiance(texel[0], texel[1], c);
                EXPECT_NEAR(v[c], le, 1e-4 * le + 1e-6) << integrator << " pixel (" << px << ", " << py << ") channel " << c
                                                        << ", texel (" << texel[0] << ", " << texel[1] << ")";
            }
            ++checked[texel[0]][texel[1]];
        }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) EXPECT_GT(checked[i][j], 20u) << integrator << ": texel (" << i << ", " << j << ")";
}

// (2) The floor at path length 2: per channel, the image mean over kReplicates renders
// against albedo / pi times the closed-form irradiance averaged over each pixel's
// footprint (8 x 8 points a pixel; the irradiance is smooth, so that average is exact to
// far below the renders' noise).
inline void check_emissive_texture_lights_the_floor(BackendKind backend, const AnalyticRun& run) {
    const HostScene scene = EmissiveTextureScene::make("floor_" + run.integrator, Vec3f(0.25f, 0.15f, 0.8f), false, 70.0f);
    const Camera cam = scene.camera.build(run.size, run.size);
    double expected[3] = {0, 0, 0};
    const int sub = 8;
    for (uint32_t py = 0; py < run.size; ++py)
        for (uint32_t px = 0; px < run.size; ++px)
            for (int s = 0; s < sub * sub; ++s) {
                double x, y;
                const Ray ray = cam.generate_ray(float(px) + (float(s % sub) + 0.5f) / sub, float(py) + (float(s / sub) + 0.5f) / sub,
                                                 0.5f, 0.5f);
                ASSERT_TRUE(ray_at_height(ray, 0.0f, &x, &y));
                ASSERT_LT(std::fmax(std::fabs(x), std::fabs(y)), 3.0) << "every camera ray meets the floor";
                for (int c = 0; c < 3; ++c)
                    expected[c] += EmissiveTextureScene::kFloorAlbedo / kPi * EmissiveTextureScene::floor_irradiance(x, y, c);
            }
    for (double& e : expected) e /= double(run.size) * run.size * sub * sub;
    const EstimatorSpec e{run.integrator, backend, run.spp, run.light_paths, run.radius_factor};
    std::vector<double> means[3];
    for (uint32_t seed = 1; seed <= kReplicates; ++seed) {
        const RenderResult r = render_estimator(scene, e, run.size, 2, seed);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << run.integrator << " seed " << seed;
        double sum[3] = {0, 0, 0};
        for (const Vec3f& v : r.image.pixels)
            for (int c = 0; c < 3; ++c) sum[c] += v[c];
        for (int c = 0; c < 3; ++c) means[c].push_back(sum[c] / double(r.image.pixels.size()));
    }
    const char* names[3] = {"emissive texture on the floor, red", "emissive texture on the floor, green",
                            "emissive texture on the floor, blue"};
    for (int c = 0; c < 3; ++c) expect_replicate_mean(names[c], run, means[c], expected[c]);
}

// The floor check's settings, one per integrator that reaches the floor at path length 2:
// pt (emitter hits and next-event samples under MIS), lt (emitted particles only), bpt and
// vcm (all three, with their MIS weights), bpm (merging). The spp make each channel
// mean's standard error 0.1-0.3% (each run's last number bounds it); bpm merges with
// r = 1% of the scene radius and 4 light paths per pixel (its bias, measured -0.3% in
// red, stays well inside five standard errors). ppm is left out: it merges at the first
// vertex as bpm does here.
inline const std::vector<AnalyticRun>& emissive_texture_floor_runs() {
    static const std::vector<AnalyticRun> runs = {
        AnalyticRun{"pt", 32, 32, 0, 0.0f, 0.003}, AnalyticRun{"lt", 128, 32, 0, 0.0f, 0.004},
        AnalyticRun{"bpt", 32, 32, 0, 0.0f, 0.003}, AnalyticRun{"vcm", 32, 32, 0, 0.0f, 0.003},
        AnalyticRun{"bpm", 64, 32, 4096, 0.01f, 0.004}};
    return runs;
}

}  // namespace wf::test
