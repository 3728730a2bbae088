// JSON scenes that include glTF files ("gltf" shapes) rendered on the CPU backend against
// the same files rendered on their own (load_scene of the .gltf: the direct path, which
// reads the same materials, textures and lights). With an equivalent camera and seed the
// images agree: equal to float rounding where the include is not moved, and within a
// small tolerance when the include and the camera are moved by one rigid transform (the
// hit points then differ by rounding, which can flip a rare sampling decision). Two
// differently coloured files included side by side each show their own texture.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "io/scene_loader.h"
#include "tests/io/gltf_include_files.h"
#include "tests/io/gltf_test_files.h"
#include "tests/wavefront/gltf_render_support.h"

namespace wf {
namespace {

using nlohmann::json;
using test::GltfDoc;

const char* kFolder = "wf_gltf_include_render";
constexpr uint32_t kSize = 32, kSpp = 8, kDepth = 4;
constexpr int kNearest = 9728;

// The square with the 2 x 2 test texture (four different texels, nearest filtering) and a
// spot light 2 in front of its centre: the only light of the file.
std::string write_lit_textured_square() {
    GltfDoc d;
    d.g["samplers"] = json::array({{{"magFilter", kNearest}}});
    const int tex = d.texture(d.image(test::texels_png()), 0);
    d.primitive()["material"] =
        d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}, {"metallicFactor", 0.0}}}});
    test::add_spot_light(d, {0.5, 0.5, 2.0}, 4.0);
    return d.write("lit_square.gltf", kFolder);
}

json camera_json(const CameraDesc& c) {
    return {{"position", {c.position.x, c.position.y, c.position.z}},
            {"forward", {c.forward.x, c.forward.y, c.forward.z}},
            {"up", {c.up.x, c.up.y, c.up.z}},
            {"fov", c.fov_y_degrees}};
}

HostScene load_json(const json& scene, const std::string& name) {
    return load_scene(test::write_file(test::temp_folder(kFolder) + "/" + name, scene.dump()));
}

Image render_scene(const HostScene& s) { return test::render_cpu(s, kSize, kSize, kSpp, kDepth).image; }

double mean_luminance(const Image& img) {
    double sum = 0.0;
    for (const Vec3f& p : img.pixels) sum += (p.x + p.y + p.z) / 3.0;
    return sum / double(img.pixel_count());
}

// Sum of |a - b| over the pixels and channels, relative to the sum of b.
double relative_l1(const Image& a, const Image& b) {
    double diff = 0.0, total = 0.0;
    for (size_t i = 0; i < a.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c) {
            diff += std::fabs(double(a.pixels[i][c]) - double(b.pixels[i][c]));
            total += std::fabs(double(b.pixels[i][c]));
        }
    return diff / total;
}

// The direct render of the file: its spot light, the camera of look_at_plane.
HostScene direct_scene(const std::string& path) {
    HostScene s = load_scene(path);
    test::look_at_plane(s, 0.5f, 0.5f, 0.6f, 3.0f);
    return s;
}

// A JSON material defined before the include moves the file's material ids by one: a
// scene that ignored the offset would shade the square with it (grey diffuse, no texture).
TEST(GltfIncludeRender, AnIncludedFileRendersAsTheFileOnItsOwn) {
    const std::string path = write_lit_textured_square();
    const HostScene direct = direct_scene(path);
    const json scene = {{"camera", camera_json(direct.camera)},
                        {"materials", {{"grey", {{"type", "diffuse"}, {"albedo", 0.5}}}}},
                        {"shapes", {{{"type", "gltf"}, {"file", "lit_square.gltf"}}}}};
    const HostScene included = load_json(scene, "included.json");
    ASSERT_EQ(included.lights.size(), 1u) << "the file's spot light, on by default";
    const Image a = render_scene(included), b = render_scene(direct);
    ASSERT_GT(mean_luminance(b), 0.01) << "the direct render is lit";
    // The texture shows: the pixels near the square's four quadrant centres differ.
    const Vec3f q0 = b.at(kSize / 2 - 4, kSize / 2 - 4), q3 = b.at(kSize / 2 + 4, kSize / 2 + 4);
    EXPECT_GT(std::fabs(q0.x - q3.x) + std::fabs(q0.z - q3.z), 0.05f * (q0.x + q3.x + q0.z + q3.z));
    for (size_t i = 0; i < a.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(a.pixels[i][c], b.pixels[i][c], 1e-5f * (1.0f + b.pixels[i][c])) << "pixel " << i << " channel " << c;
}

// Rotation by `degrees` about unit `axis` (Rodrigues), in double: the test's own.
Vec3f rotated(Vec3f v, Vec3f axis, double degrees) {
    const double a = degrees * test::kPiD / 180.0, c = std::cos(a), s = std::sin(a);
    const double k[3] = {axis.x, axis.y, axis.z}, x[3] = {v.x, v.y, v.z};
    const double dot = k[0] * x[0] + k[1] * x[1] + k[2] * x[2];
    const double cr[3] = {k[1] * x[2] - k[2] * x[1], k[2] * x[0] - k[0] * x[2], k[0] * x[1] - k[1] * x[0]};
    double r[3];
    for (int i = 0; i < 3; ++i) r[i] = x[i] * c + cr[i] * s + k[i] * dot * (1.0 - c);
    return Vec3f(float(r[0]), float(r[1]), float(r[2]));
}

// The include turned 40 degrees about (1, 2, 3) and moved, the camera moved with it: the
// spot light must move too (it is the only light), and so must the texture.
TEST(GltfIncludeRender, AnIncludeMovedWithItsCameraRendersAsTheFileOnItsOwn) {
    const std::string path = write_lit_textured_square();
    const HostScene direct = direct_scene(path);
    const Vec3f axis = normalize(Vec3f(1, 2, 3));
    const double angle = 40.0;
    const Vec3f shift(2.0f, -1.0f, 0.5f);
    CameraDesc moved = direct.camera;
    moved.position = rotated(direct.camera.position, axis, angle) + shift;
    moved.forward = rotated(direct.camera.forward, axis, angle);
    moved.up = rotated(direct.camera.up, axis, angle);
    const json scene = {{"camera", camera_json(moved)},
                        {"materials", {{"grey", {{"type", "diffuse"}, {"albedo", 0.5}}}}},
                        {"shapes",
                         {{{"type", "gltf"},
                           {"file", "lit_square.gltf"},
                           {"transform",
                            {{"rotate", {{"axis", {axis.x, axis.y, axis.z}}, {"angle", angle}}},
                             {"translate", {shift.x, shift.y, shift.z}}}}}}}};
    const Image a = render_scene(load_json(scene, "moved.json")), b = render_scene(direct);
    ASSERT_GT(mean_luminance(b), 0.01);
    const double l1 = relative_l1(a, b);
    EXPECT_LT(l1, 1e-4) << "the moved include differs from the file on its own";
    std::printf("relative L1 difference of the moved include: %.3g\n", l1);
}

// Two squares side by side, a red and a blue texture (each file's binding 0 and image 0),
// lit by a constant environment; each region is its file's colour, and equals the file
// rendered on its own with the camera moved by the include's translation.
TEST(GltfIncludeRender, TwoIncludesOfDifferentFilesEachShowTheirOwnTexture) {
    test::textured_square({220, 20, 20}).write("red.gltf", kFolder);
    test::textured_square({20, 20, 220}).write("blue.gltf", kFolder);
    const std::string folder = test::temp_folder(kFolder);
    // Camera at (0, 0, 3) showing [-1.5, 1.5]^2 of z = 0: 3/32 units a pixel.
    HostScene framing;
    test::look_at_plane(framing, 0.0f, 0.0f, 1.5f, 3.0f);
    struct Include {
        const char* file;
        Vec3f shift;      // exact in float, so the placed square is exact too
        uint32_t x0, x1;  // pixel columns well inside the square
    };
    const Include includes[2] = {{"red.gltf", Vec3f(-1.25f, -0.5f, 0.0f), 4, 12}, {"blue.gltf", Vec3f(0.25f, -0.5f, 0.0f), 20, 28}};
    const uint32_t y0 = 12, y1 = 20;
    json scene = {{"camera", camera_json(framing.camera)}, {"lights", {{{"type", "environment"}, {"radiance", 1}}}}};
    for (const Include& inc : includes)
        scene["shapes"].push_back(
            {{"type", "gltf"}, {"file", inc.file}, {"transform", {{"translate", {inc.shift.x, inc.shift.y, inc.shift.z}}}}});
    const Image both = render_scene(load_json(scene, "two.json"));
    for (int k = 0; k < 2; ++k) {
        const Include& inc = includes[k];
        HostScene alone = load_scene(folder + "/" + inc.file);
        alone.camera = framing.camera;
        alone.camera.position = framing.camera.position - inc.shift;
        const Image own = render_scene(alone);
        for (uint32_t y = y0; y <= y1; ++y)
            for (uint32_t x = inc.x0; x <= inc.x1; ++x) {
                const Vec3f p = both.at(x, y), q = own.at(x, y);
                const float main = k == 0 ? p.x : p.z, other = k == 0 ? p.z : p.x;
                ASSERT_GT(main, 4.0f * other) << inc.file << " at pixel (" << x << ", " << y << "): " << p.x << " " << p.y
                                              << " " << p.z;
                for (int c = 0; c < 3; ++c)
                    ASSERT_NEAR(p[c], q[c], 1e-4f * (1.0f + q[c])) << inc.file << " at pixel (" << x << ", " << y << ")";
            }
    }
}

}  // namespace
}  // namespace wf
