// The orthographic camera (engine/camera.h; JSON "projection": "orthographic") rendered by
// pt on the CPU backend: two emitting squares of known size, one 10 times farther than
// the other, land on the pixels their world size predicts at 8 pixels a unit, each pixel
// exactly its square's radiance (a perspective camera would shrink the far one 10 times);
// and every other integrator refuses the camera.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "engine/integrators.h"
#include "io/scene_loader.h"

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

TEST(OrthographicCamera, EveryIntegratorButPtRefusesIt) {
    const HostScene scene = parse_scene(ortho_scene().dump(), "ortho.json", ".");
    for (const IntegratorInfo& info : kIntegrators) {
        const std::string problem = integrator_scene_problem(info.kind, scene);
        if (info.kind == IntegratorKind::Pt) {
            EXPECT_EQ(problem, "");
        } else {
            EXPECT_EQ(problem.rfind("/camera/projection: an orthographic camera", 0), 0u) << info.name << ": " << problem;
        }
    }
}

}  // namespace
}  // namespace wf
