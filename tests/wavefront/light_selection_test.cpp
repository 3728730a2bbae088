// Light selection (materials/light_selection.h) on the CPU: the distribution against
// powers worked out by hand, the pick frequencies against the probabilities, the
// fallbacks (uniform mode, all lights black), the settings that choose it, and the
// lit-ground scene, whose closed-form image every integrator must reach with the power
// distribution (a pick probability used anywhere without the sampling's would miss it).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "engine/backend/cpu_backend.h"
#include "io/scene_loader.h"
#include "materials/environment_map_build.h"
#include "materials/light_selection_build.h"
#include "tests/common/light_selection_checks.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The lit-ground scene's lights and the emitter view the distribution's build needs.
struct LightsOnHost {
    HostScene scene;
    EmitterContext emitters;
    explicit LightsOnHost(float scene_radius) : scene(test::lit_ground_scene(test::LitGround{}, 8)) {
        emitters.triangles = scene.triangles.data();
        emitters.num_triangles = uint32_t(scene.triangles.size());
        emitters.prims = scene.prims.data();
        emitters.scene_sphere = SceneSphere{{0, 0, 0}, scene_radius};
    }
};

std::vector<float> probabilities(const LightSelectionView& v) {
    std::vector<float> p;
    for (uint32_t i = 0; i < v.num_lights; ++i) p.push_back(v.prob(i));
    return p;
}

TEST(LightSelection, ProbabilitiesAreTheLightsShareOfThePower) {
    CpuBackend backend;
    LightsOnHost h(4.0f);
    LightSelection<CpuBackend> sel;
    sel.build(backend, h.scene.lights.data(), uint32_t(h.scene.lights.size()), h.emitters, LightSelectionMode::Power);
    // By hand (test::LitGround): bright square triangles area 0.02, L 300: pi 0.02 300 = 6 pi;
    // dim ones area 0.5, L 3: 1.5 pi; point 4 pi 2 = 8 pi; sun pi R^2 E = 16 pi;
    // environment pi R^2 4 pi L = 16 pi 4 pi 0.2 = 12.8 pi^2.
    const std::vector<double> power = {6 * kPi, 6 * kPi, 1.5 * kPi, 1.5 * kPi, 8 * kPi, 16 * kPi, 12.8 * kPi * kPi};
    double total = 0;
    for (double p : power) total += p;
    std::vector<float> prob = probabilities(sel.view());
    ASSERT_EQ(prob.size(), power.size());
    double sum = 0;
    for (size_t i = 0; i < power.size(); ++i) {
        EXPECT_NEAR(prob[i], power[i] / total, 2e-7) << "light " << i;
        sum += prob[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);
}

TEST(LightSelection, UniformModeAndBlackLightsGiveEveryLightTheSameChance) {
    CpuBackend backend;
    LightsOnHost h(4.0f);
    const uint32_t n = uint32_t(h.scene.lights.size());
    LightSelection<CpuBackend> sel;
    sel.build(backend, h.scene.lights.data(), n, h.emitters, LightSelectionMode::Uniform);
    for (float p : probabilities(sel.view())) EXPECT_NEAR(p, 1.0 / n, 1e-7);
    for (Light& l : h.scene.lights) l.radiance = Vec3f(0.0f);
    sel.build(backend, h.scene.lights.data(), n, h.emitters, LightSelectionMode::Power);
    for (float p : probabilities(sel.view())) EXPECT_NEAR(p, 1.0 / n, 1e-7);
}

TEST(LightSelection, PickFrequenciesAreTheProbabilitiesAndABlackLightIsNeverPicked) {
    CpuBackend backend;
    LightsOnHost h(4.0f);
    h.scene.lights[2].radiance = Vec3f(0.0f);  // one dim triangle goes black
    const uint32_t n = uint32_t(h.scene.lights.size());
    LightSelection<CpuBackend> sel;
    sel.build(backend, h.scene.lights.data(), n, h.emitters, LightSelectionMode::Power);
    const LightSelectionView v = sel.view();
    EXPECT_EQ(v.prob(2), 0.0f);
    // Every u the random streams can produce (multiples of 2^-24), counted exactly: light
    // i is picked for a share of them equal to its probability, to the grid's resolution.
    const uint32_t grid = 1u << 24;
    std::vector<uint64_t> count(n, 0);
    for (uint32_t k = 0; k < grid; ++k) ++count[v.pick(float(k) * 0x1p-24f)];
    for (uint32_t i = 0; i < n; ++i)
        EXPECT_NEAR(double(count[i]) / grid, v.prob(i), 1.5 / grid) << "light " << i;
    EXPECT_EQ(count[2], 0u);
}

TEST(LightSelection, AnEnvironmentImagesPowerIsItsLuminanceIntegral) {
    CpuBackend backend;
    HostEnvironmentMap map;
    map.file = "<constant>";
    map.width = 64;
    map.height = 32;
    map.texels.assign(size_t(map.width) * map.height, Vec3f(0.5f));
    EnvironmentMap<CpuBackend> env;
    env.build(backend, map);
    // A constant image of 0.5 integrates to 4 pi 0.5 over the sphere, up to the rows'
    // midpoint rule (relative error ~ (pi / 32)^2 / 24 = 4e-4).
    EXPECT_NEAR(environment_map_luminance_integral(env.view()), 2.0 * kPi, 2.0 * kPi * 1e-3);
    Light light;
    light.type = LightType::Environment;
    light.radiance = Vec3f(1.0f, 2.0f, 3.0f);  // scales by its mean, 2
    EmitterContext ctx;
    ctx.scene_sphere = SceneSphere{{0, 0, 0}, 2.0f};
    ctx.environment_map = env.view();
    EXPECT_NEAR(light_power(light, ctx), kPi * 4.0 * 2.0 * environment_map_luminance_integral(env.view()), 1e-9);
}

TEST(LightSelection, SceneAndCommandLineChooseIt) {
    EXPECT_EQ(parse_scene("{}", "inline.json", ".").settings.light_selection, "power");
    EXPECT_EQ(parse_scene(R"({"render": {"light_selection": "uniform"}})", "inline.json", ".").settings.light_selection,
              "uniform");
    std::string e = test::parse_error(R"({"render": {"light_selection": "power-ish"}})");
    EXPECT_NE(e.find("/render/light_selection: expected one of"), std::string::npos) << e;
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--light-selection", "uniform"}).light_selection, "uniform");
    try {
        parse_cli_args({"render", "s.json", "--light-selection", "unifrom"});
        ADD_FAILURE() << "a bad --light-selection was accepted";
    } catch (const UsageError& err) {
        EXPECT_NE(std::string(err.what()).find("--light-selection: expected power or uniform, got 'unifrom'"),
                  std::string::npos)
            << err.what();
        EXPECT_NE(std::string(err.what()).find("did you mean \"uniform\"?"), std::string::npos) << err.what();
    }
}

using test::AnalyticRun;

// Each ~1-4 s on 2 cores. The relative standard errors asked for are about a fifth of
// the bias a uniform pick probability in one MIS weight causes on this scene.
TEST(LightSelectionLitGround, PathTracingReachesTheClosedForm) {
    test::check_lit_ground(BackendKind::Cpu, AnalyticRun{"pt", 64, 32, 0, 0.0f, 0.003});
}
TEST(LightSelectionLitGround, PathTracingWithUniformPicksReachesTheClosedForm) {
    test::check_lit_ground(BackendKind::Cpu, AnalyticRun{"pt", 16, 32, 0, 0.0f, 0.003}, "uniform");
}
TEST(LightSelectionLitGround, LightTracingReachesTheClosedForm) {
    test::check_lit_ground(BackendKind::Cpu, AnalyticRun{"lt", 128, 32, 0, 0.0f, 0.012});
}
TEST(LightSelectionLitGround, BidirectionalPathTracingReachesTheClosedForm) {
    test::check_lit_ground(BackendKind::Cpu, AnalyticRun{"bpt", 48, 32, 0, 0.0f, 0.003});
}
TEST(LightSelectionLitGround, VertexConnectionAndMergingReachesTheClosedForm) {
    test::check_lit_ground(BackendKind::Cpu, AnalyticRun{"vcm", 48, 32, 0, 0.01f, 0.003});
}
TEST(LightSelectionLitGround, BidirectionalPhotonMappingReachesTheClosedForm) {
    test::check_lit_ground(BackendKind::Cpu, AnalyticRun{"bpm", 64, 32, 4096, 0.01f, 0.006});
}

}  // namespace
}  // namespace wf
