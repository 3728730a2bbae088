// The "Ray Tracing in One Weekend" materials and the gradient sky, end to end on the CPU
// (tests/gpu/rtiow_cuda_test.cpp runs the same checks on the GPU).
#include <gtest/gtest.h>

#include "tests/common/rtiow_checks.h"

namespace wf {
namespace {

TEST(RtiowRender, DiffuseLobesUnderGradientSky) { test::check_diffuse_under_gradient_sky(BackendKind::Cpu); }

TEST(RtiowRender, FuzzyMetalUnderGradientSky) {
    for (float fuzz : {0.05f, 0.4f, 1.0f}) test::check_metal_under_gradient_sky(BackendKind::Cpu, fuzz);
}

// A glass ball in a constant sky of 1 neither gains nor loses energy: every path that
// leaves the ball (all but those still bouncing inside at the depth limit) carries 1.
TEST(RtiowRender, DielectricBallInConstantSkyIsOne) {
    HostScene s = test::white_furnace_scene(0.0f, 16);
    s.materials[0] = rtiow_dielectric_material(1.5f);
    RenderResult r = test::render_with(s, BackendKind::Cpu, 16, 50);
    for (const Vec3f& p : r.image.pixels) {
        ASSERT_LE(p.x, 1.0f + 1e-5f);
        ASSERT_GE(p.x, 0.99f);
    }
}

TEST(RtiowRender, FinalSceneMatchesTheBooksCudaRenderer) { test::check_rtiow_final_scene(BackendKind::Cpu, 32); }

TEST(RtiowRender, OnlyPtRendersRtiowMaterials) {
    HostScene scene = load_scene(test::source_dir() + "/scenes/rtiow/final.json");
    for (IntegratorKind k : {IntegratorKind::Ppm, IntegratorKind::Bpm}) {
        std::string problem = integrator_scene_problem(k, scene);
        EXPECT_NE(problem.find("only pt renders"), std::string::npos) << problem;
    }
}

}  // namespace
}  // namespace wf
