// Renders lit by equirectangular environment maps (CPU backend): a map file of one value
// renders as the constant environment of that radiance, with pt and with vcm (E = pi L under
// a diffuse square); a bright patch lights the square as the closed form says; the camera
// sees the texel the scene format's convention names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/image.h"
#include "io/scene_loader.h"
#include "tests/common/environment_map_checks.h"
#include "tests/common/temp_dir_test.h"

namespace wf {
namespace {

namespace fs = std::filesystem;

class EnvironmentMapRender : public test::TempDirTest {
protected:
    EnvironmentMapRender() : TempDirTest("wf_env_render_") {}
};

// The square of environment_lit_square_scene as a scene file, lit by `light`.
std::string square_scene_json(const std::string& light) {
    return R"({"camera": {"position": [0, 2, 0], "look_at": [0, 0, 0], "up": [0, 0, -1], "fov": 40},
               "film": {"width": 24, "height": 24},
               "materials": {"square": {"type": "diffuse", "albedo": 0.8}},
               "shapes": [{"type": "quad", "material": "square", "corner": [-1, 0, -1], "edge_u": [0, 0, 2],
                           "edge_v": [2, 0, 0]}],
               "lights": [)" +
           light + "]}";
}

TEST_F(EnvironmentMapRender, ConstantMapFileMatchesConstantEnvironment) {
    const float rho = 0.8f;
    write_image(path("sky.exr"), Image(16, 8, Vec3f(0.5f)));
    write_image(path("sky.hdr"), Image(16, 8, Vec3f(0.5f)));
    std::ofstream(path("scene.json")) << square_scene_json(R"({"type": "environment", "file": "sky.exr"})");
    for (const char* integrator : {"pt", "vcm"}) {
        // The scene format's "file" and the command line's --env (on a constant environment).
        HostScene from_file = load_scene(path("scene.json"));
        HostScene from_env = test::environment_lit_square_scene({}, 3.0f, rho, 24);
        set_environment_map(from_env, path("sky.hdr"));
        for (const HostScene* scene : {&from_file, &from_env}) {
            ASSERT_FALSE(scene->environment_map.empty());
            const float radiance = scene->environment_map.texels[0].x;  // 0.5, or the .hdr's rounding of it
            const double expected = rho * radiance;                       // rho / pi * (pi L)
            test::SampleMean m = test::environment_lit_square_mean(*scene, BackendKind::Cpu, integrator, 16);
            EXPECT_NEAR(m.mean, expected, 5.0 * m.standard_error + 1e-4) << integrator;
            test::SampleMean c = test::environment_lit_square_mean(
                test::environment_lit_square_scene({}, radiance, rho, 24), BackendKind::Cpu, integrator, 16);
            EXPECT_NEAR(c.mean, expected, 5.0 * c.standard_error + 1e-4) << integrator << " (constant)";
        }
    }
}

TEST(EnvironmentMapRenderCpu, BrightPatchLightsSquareAsTheClosedForm) {
    test::check_bright_patch_lights_square(BackendKind::Cpu, "pt", 16);
    test::check_bright_patch_lights_square(BackendKind::Cpu, "vcm", 16);
}

// A camera with a narrow view toward the centre of texel (5, 2) of a 16 x 8 map (each texel
// its own colour) sees exactly that texel, times the intensity; turned by 90 degrees about
// up (the image centre turns from +x toward -z), the same view sees texel (9, 2): u + 1/4.
TEST(EnvironmentMapRenderCpu, CameraSeesTheTexelTheConventionNames) {
    HostEnvironmentMap map = test::constant_environment_map(16, 8, Vec3f(0.0f));
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 16; ++x) map.texels[y * 16 + x] = Vec3f(float(x), float(y), 1.0f);
    for (float degrees : {0.0f, 90.0f}) {
        map.rotation_degrees = degrees;
        HostScene scene;
        scene.source_path = "<map seen directly>";
        const double theta = 3.14159265358979323846 * 2.5 / 8, phi = 2.0 * 3.14159265358979323846 * (5.5 / 16 - 0.5);
        scene.camera.position = Vec3f(0.0f);
        scene.camera.forward = test::environment_test_direction(EnvironmentFrame{}, theta, phi);
        scene.camera.up = Vec3f(0.0f, 1.0f, 0.0f);
        scene.camera.fov_y_degrees = 1.0f;
        scene.settings.width = scene.settings.height = 8;
        Light env;
        env.type = LightType::Environment;
        env.radiance = Vec3f(2.0f);
        scene.lights.push_back(env);
        scene.environment_map = map;
        RenderResult r = test::render_with(scene, BackendKind::Cpu, 2, 4);
        const float x = degrees == 0.0f ? 5.0f : 9.0f;
        for (const Vec3f& p : r.image.pixels) {
            ASSERT_EQ(p.x, 2.0f * x) << degrees << " degrees";
            ASSERT_EQ(p.y, 2.0f * 2.0f);
            ASSERT_EQ(p.z, 2.0f);
        }
    }
}

}  // namespace
}  // namespace wf
