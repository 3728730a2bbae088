// glTF alpha BLEND in closed form, on every integrator (CPU backend): a single-sided plane
// of coverage a in the neutral environment of radiance 1 that a glTF file without lights
// gets. The plane sees no surface, its own included, and behind it lies the environment, so
// a pixel that sees it from direction theta converges to
//     a A(theta) + (1 - a),
// A the directional albedo of its BSDF (measured here by sampling materials/gltf_bsdf.h),
// for pt (which decides "through or not" first) and for the mixture a f + (1 - a) delta_pass
// of the bidirectional family (wavefront/stages/vcm_vertex.h) alike. lt sees only a A: the
// environment behind the plane lies behind a delta vertex next to the camera.
// Light paths reach the plane's back too: there f is black (single-sided), so they pass
// through with probability 1 - a and end otherwise (passes_through_at_hit).
// Checked by breaking the code (standard errors from the expected mean): a left out of
// the BSDF value connections and merges evaluate: lt 0.517 for 0.207, the others +79 to
// +87; light vertices rebuilt without their coverage: lt +190, vcm +14; a left out of
// the evaluated pdfs only: bpt -29, vcm -20, of the sampled ones only: bpt +31, vcm +23;
// light vertices stored only where the path does not pass through: lt a^2 A = 0.083,
// vcm -29, bpm and ppm -58; pt's way (decide, then opaque): vcm -18, bpm and ppm -47.
// (bpm's merges outweigh its other technique so much here that it shows only the breaks
// of merging; tests/wavefront/gltf_bidirectional_test.cpp sees the rest.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/scene_loader.h"
#include "materials/gltf_bsdf.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/io/gltf_test_files.h"

namespace wf {
namespace {

using nlohmann::json;

constexpr float kCoverage = 0.4f;
constexpr float kGrey = 0.5f;  // base colour: an albedo far from 1, or a A + (1 - a) would not depend on a
constexpr uint32_t kSize = 8;

// The plane z = 0, 4 x 4 about the origin, facing +z; seen from 2 away along +z with a
// view 1 wide (every pixel on the plane, at up to 20 degrees from its normal).
HostScene blend_plane_scene() {
    test::GltfDoc d;
    d.g["nodes"][0]["scale"] = {4, 4, 1};
    d.g["nodes"][0]["translation"] = {-2, -2, 0};
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness",
                                             {{"baseColorFactor", {kGrey, kGrey, kGrey, kCoverage}},
                                              {"metallicFactor", 0},
                                              {"roughnessFactor", 0.5}}},
                                            {"alphaMode", "BLEND"}});
    HostScene scene = load_scene(d.write("blend_plane.gltf", "wf_gltf_blend"));
    EXPECT_EQ(scene.lights.size(), 1u);
    EXPECT_EQ(scene.lights.at(0).type, LightType::Environment);
    scene.camera.position = Vec3f(0.0f, 0.0f, 2.0f);
    scene.camera.forward = Vec3f(0.0f, 0.0f, -1.0f);
    scene.camera.up = Vec3f(0.0f, 1.0f, 0.0f);
    scene.camera.fov_y_degrees = float(2.0 * std::atan(0.25) * 180.0 / double(kPi));
    scene.camera.aperture_radius = 0.0f;
    return scene;
}

// The image mean of A: each pixel's centre direction, A there by sampling the BSDF a
// camera path builds (its grey base colour makes every channel the same), with its
// standard error.
void expected_albedo(const HostScene& scene, double* mean, double* standard_error) {
    const Camera cam = scene.camera.build(kSize, kSize);
    GltfBsdfParams p;
    p.base_color = Vec3f(kGrey);
    p.metallic = 0.0f;
    p.roughness = 0.5f;
    std::mt19937_64 engine(23);
    auto rng = [&] { return float(engine() >> 40) * (1.0f / 16777216.0f); };
    const int per_pixel = 40000;
    double sum = 0, var = 0;
    for (uint32_t y = 0; y < kSize; ++y)
        for (uint32_t x = 0; x < kSize; ++x) {
            const Ray r = cam.generate_ray(float(x) + 0.5f, float(y) + 0.5f, 0.5f, 0.5f);
            const GltfBsdf b = GltfBsdf::make(p, r.dir, Vec3f(0, 0, 1), Vec3f(0, 0, 1), true, false);
            double s = 0, s2 = 0;
            for (int i = 0; i < per_pixel; ++i) {
                const BsdfSample smp = b.sample(rng(), rng(), rng());
                const double w = is_black(smp.factor) ? 0.0 : double(smp.factor.y) * smp.cos_out / smp.pdf_w;
                s += w, s2 += w * w;
            }
            const double m = s / per_pixel;
            sum += m;
            var += std::max(0.0, s2 / per_pixel - m * m) / per_pixel;
        }
    const double n = double(kSize) * kSize;
    *mean = sum / n;
    *standard_error = std::sqrt(var) / n;
}

struct FurnaceRun {
    const char* integrator;
    uint32_t spp, light_paths;
};

TEST(GltfBlendFurnace, PlaneOfCoverageAShowsAOfItsAlbedoAndTheRestOfTheEnvironment) {  // ~10 s
    const HostScene scene = blend_plane_scene();
    double albedo = 0, albedo_se = 0;
    expected_albedo(scene, &albedo, &albedo_se);
    std::printf("directional albedo over the image %.5f +- %.5f, coverage %.2f\n", albedo, albedo_se, kCoverage);
    for (const FurnaceRun& run : {FurnaceRun{"pt", 256, 0}, FurnaceRun{"lt", 128, 16384}, FurnaceRun{"bpt", 64, 0},
                                  FurnaceRun{"vcm", 64, 1024}, FurnaceRun{"bpm", 128, 4096}, FurnaceRun{"ppm", 128, 4096}}) {
        const bool lt = std::string(run.integrator) == "lt";
        const double expected = kCoverage * albedo + (lt ? 0.0 : 1.0 - kCoverage);
        const double expected_se = kCoverage * albedo_se;
        const test::EstimatorSpec e{run.integrator, BackendKind::Cpu, run.spp, run.light_paths, 0.05f};
        const test::ReplicateMean m = test::replicate_mean(test::replicate_image_means(scene, e, kSize, 6));
        const double se = std::sqrt(m.standard_error * m.standard_error + expected_se * expected_se);
        std::printf("%s: %.5f +- %.5f, expected %.5f (%+.2f standard errors)\n", run.integrator, m.mean, m.standard_error,
                    expected, (m.mean - expected) / se);
        EXPECT_NEAR(m.mean, expected, test::kReplicateSigmas * se + 1e-5 * expected) << run.integrator;
        EXPECT_LT(m.standard_error, 0.004 * expected) << run.integrator << ": too noisy to be a test";
    }
}

}  // namespace
}  // namespace wf
