// The orthographic camera (engine/camera.h; JSON "projection": "orthographic") rendered by
// pt on the CPU backend: two emitting squares of known size, one 10 times farther than
// the other, land on the pixels their world size predicts at 8 pixels a unit, each pixel
// exactly its square's radiance (a perspective camera would shrink the far one 10 times);
// the bidirectional estimators but lt render it too and agree with pt.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "engine/integrators.h"
#include "io/scene_loader.h"
#include "tests/common/bidirectional_checks.h"

namespace wf {
namespace {

using nlohmann::json;

// The view: 4 x 4 units about the origin, looking down -z, on a 32 x 32 film.
json ortho_scene() {
    auto square = [](json corner, json emission) {
        return json{{"type", "quad"}, {"material", "black"}, {"corner", corner}, {"edge_u", {1, 0, 0}},
                    {"edge_v", {0, 1, 0}}, {"emission", emission}};
    };
    return {{"camera", {{"position", {0, 0, 0}}, {"forward", {0, 0, -1}}, {"projection", "orthographic"}, {"height", 4}}},
            {"film", {{"width", 32}, {"height", 32}}},
            {"render", {{"spp", 4}, {"max_depth", 1}}},
            {"materials", {{"black", {{"type", "diffuse"}, {"albedo", 0}}}}},
            {"shapes", {square({0, 0, -5}, 2), square({-1.5, -1.5, -50}, {0.5, 1, 3})}}};
}

TEST(OrthographicCamera, SquaresOfKnownSizeLandOnKnownPixelsWithTheirExactRadiance) {
    const HostScene scene = parse_scene(ortho_scene().dump(), "ortho.json", ".");
    RenderOptions o;
    o.settings = scene.settings;
    o.backend = BackendKind::Cpu;
    const Image img = render(scene, o).image;
    ASSERT_EQ(img.width, 32u);
    // Raster of world (x, y): ((x + 2) * 8, (2 - y) * 8). Near square: x in [0, 1], y in [0, 1]:
    // columns 16..23, rows 8..15. Far square: x, y in [-1.5, -0.5]: columns 4..11, rows 20..27.
    size_t near = 0, far = 0;
    for (uint32_t y = 0; y < 32; ++y)
        for (uint32_t x = 0; x < 32; ++x) {
            Vec3f expected(0.0f);
            if (x >= 16 && x <= 23 && y >= 8 && y <= 15) expected = Vec3f(2.0f), ++near;
            if (x >= 4 && x <= 11 && y >= 20 && y <= 27) expected = Vec3f(0.5f, 1.0f, 3.0f), ++far;
            const Vec3f v = img.at(x, y);
            for (int c = 0; c < 3; ++c) ASSERT_NEAR(v[c], expected[c], 1e-6f) << "pixel (" << x << ", " << y << ")";
        }
    EXPECT_EQ(near, 64u);
    EXPECT_EQ(far, 64u);
}

TEST(OrthographicCamera, OnlyLightTracingRefusesIt) {
    const HostScene scene = parse_scene(ortho_scene().dump(), "ortho.json", ".");
    for (const IntegratorInfo& info : kIntegrators) {
        const std::string problem = integrator_scene_problem(info.kind, scene);
        if (info.kind != IntegratorKind::Lt) {
            EXPECT_EQ(problem, "") << info.name;
        } else {
            EXPECT_EQ(problem.rfind("/camera/projection: an orthographic camera", 0), 0u) << info.name << ": " << problem;
        }
    }
}

// The bidirectional estimators with an orthographic camera: no light vertex connects to
// it, so bpt and vcm drop light tracing (the camera sub-path starts with d_vcm = 0, and
// connect_to_camera does not run). SmallVCM's scene 1 with diffuse balls (every
// estimator samples every path there), seen through the box's open side by an
// orthographic view 2 units tall: bpt, vcm, bpm and ppm must converge to pt's image.
// Checked by breaking the code: with the pinhole's pdf left in the camera sub-path's
// start, bpt is 52% and vcm 49% dark (light tracing weighed in MIS but never run).
TEST(OrthographicCamera, BidirectionalEstimatorsAgreeWithPt) {  // ~10 s
    HostScene scene = test::without_specular_materials(test::load_smallvcm_scene("s1-area.json"));
    scene.camera.ortho_height = 2.0f;
    test::AgreementOptions opt;
    opt.size = 48;
    opt.mean_tolerance = 0.015;
    auto spec = [](const char* integrator, uint32_t spp, uint32_t light_paths = 0) {
        return test::EstimatorSpec{integrator, BackendKind::Cpu, spp, light_paths, 0.012f};
    };
    test::check_estimators_agree(scene, spec("pt", 256),
                                 {spec("bpt", 64), spec("vcm", 64), spec("bpm", 128, 9216), spec("ppm", 128, 9216)}, opt,
                                 {}, "orthographic s1");
}

}  // namespace
}  // namespace wf
