// `wavefront render` end to end with --tonemap and --exposure: which curve a PNG gets by
// default (none for a JSON scene, pbr-neutral for a glTF file on its own), the scene's
// render.tonemap and render.exposure, the flags overriding them, and bad values (exit code 2).
// Each PNG is checked against an EXR of the same render (the CPU backend renders the same
// image every time): its 8-bit codes must be the EXR's pixels through the expected tone map.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/image.h"
#include "io/tonemap.h"
#include "tests/common/source_dir.h"

namespace wf {
namespace {

struct RunResult {
    int exit_code = -1;
    std::string stderr_text;
};

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

class TonemapCli : public testing::Test {
protected:
    void SetUp() override {
        dir_ = testing::TempDir() + "/wf_tonemap_" + std::to_string(getpid());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string path(const std::string& name) const { return dir_ + "/" + name; }

    RunResult run(const std::string& args) const {
        const std::string err = path("stderr.txt");
        const std::string cmd = "'" + std::string(WF_BINARY) + "' " + args + " >/dev/null 2>'" + err + "'";
        const int status = std::system(cmd.c_str());
        RunResult r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1000;
        r.stderr_text = read_file(err);
        return r;
    }

    // Renders `scene` twice with the same settings, to OUT.png and OUT.exr.
    void render_png_and_exr(const std::string& scene, const std::string& out, const std::string& flags = "") const {
        const std::string common = " --width 24 --height 16 --spp 2 --seed 5 --backend cpu -q " + flags;
        for (const char* ext : {".png", ".exr"}) {
            const RunResult r = run("render '" + scene + "' -o '" + path(out + ext) + "'" + common);
            ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
        }
    }

    // A unit square of two triangles as glTF (with its .bin) and as OBJ, facing +z.
    std::string write_gltf_square() const {
        const std::vector<float> strip = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
        std::ofstream(path("square.bin"), std::ios::binary).write(reinterpret_cast<const char*>(strip.data()), 48);
        std::ofstream(path("square.gltf")) << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
            "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 5}]}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}],
            "bufferViews": [{"buffer": 0, "byteLength": 48}], "buffers": [{"byteLength": 48, "uri": "square.bin"}]})";
        return path("square.gltf");
    }
    std::string write_obj_square() const {
        std::ofstream(path("square.obj")) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4\nf 1 4 3\n";
        return path("square.obj");
    }
    std::string write_scene(const std::string& name, const std::string& render) const {
        std::ofstream(path(name)) << R"({"film": {"width": 24, "height": 16}, "render": )" << render << R"(,
            "camera": {"position": [0, 1, 4], "look_at": [0, 0.5, 0]},
            "shapes": [{"type": "sphere", "center": [0, 0.5, 0], "radius": 0.7},
                       {"type": "sphere", "center": [1.2, 1.5, -1], "radius": 0.3, "emission": 20}],
            "lights": [{"type": "environment", "radiance": 3}]})";
        return path(name);
    }

    // The 8-bit codes of a PNG written by write_image (tonemap_srgb8 inverts read_image's
    // decoding for every code: tests/io/image_tonemap_test.cpp).
    std::vector<std::array<uint8_t, 3>> png_codes(const std::string& name) const {
        const Image png = read_image(path(name));
        std::vector<std::array<uint8_t, 3>> codes;
        for (const Vec3f p : png.pixels) codes.push_back({tonemap_srgb8(p.x), tonemap_srgb8(p.y), tonemap_srgb8(p.z)});
        return codes;
    }
    std::vector<std::array<uint8_t, 3>> expected_codes(const std::string& exr, ToneMap tone) const {
        std::vector<std::array<uint8_t, 3>> codes;
        for (const Vec3f p : read_image(path(exr)).pixels) codes.push_back(tonemap_pixel_srgb8(p, tone));
        return codes;
    }

    std::string dir_;
};

size_t count_differing(const std::vector<std::array<uint8_t, 3>>& a, const std::vector<std::array<uint8_t, 3>>& b) {
    size_t n = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) n += a[i] != b[i];
    return n + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

TEST_F(TonemapCli, GltfRenderedAloneGetsPbrNeutral) {
    const std::string gltf = write_gltf_square();
    render_png_and_exr(gltf, "g");
    const auto png = png_codes("g.png");
    EXPECT_EQ(count_differing(png, expected_codes("g.exr", ToneMap{ToneCurve::PbrNeutral})), 0u);
    // Not the clamp: the environment (radiance 1) is code 240, not 255.
    const auto clamped = expected_codes("g.exr", ToneMap{ToneCurve::None});
    EXPECT_GT(count_differing(png, clamped), png.size() / 4);
    EXPECT_EQ(png[0], (std::array<uint8_t, 3>{240, 240, 240}));
    EXPECT_EQ(clamped[0], (std::array<uint8_t, 3>{255, 255, 255}));

    // The flags override the default.
    render_png_and_exr(gltf, "g_none", "--tonemap none");
    EXPECT_EQ(count_differing(png_codes("g_none.png"), clamped), 0u);
    render_png_and_exr(gltf, "g_dark", "--exposure -1.5");
    EXPECT_EQ(count_differing(png_codes("g_dark.png"), expected_codes("g.exr", ToneMap{ToneCurve::PbrNeutral, -1.5f})),
              0u);
}

TEST_F(TonemapCli, ObjRenderedAloneKeepsTheClamp) {
    render_png_and_exr(write_obj_square(), "o");
    EXPECT_EQ(count_differing(png_codes("o.png"), expected_codes("o.exr", ToneMap{ToneCurve::None})), 0u);
}

TEST_F(TonemapCli, JsonSceneKeepsItsPngByteForByte) {
    const std::string scene = test::source_dir() + "/scenes/cornell-box.json";
    render_png_and_exr(scene, "c");
    // The PNG is the per-channel clamp every earlier version wrote, computed here on its own.
    const Image exr = read_image(path("c.exr"));
    const auto png = png_codes("c.png");
    ASSERT_EQ(png.size(), exr.pixel_count());
    size_t bright = 0;
    for (size_t i = 0; i < png.size(); ++i) {
        for (int c = 0; c < 3; ++c) {
            const float v = exr.pixels[i][c];
            ASSERT_EQ(png[i][c], uint8_t(std::fmin(std::fmax(srgb_encode(std::fmin(std::fmax(v, 0.0f), 1.0f)), 0.0f),
                                                   1.0f) * 255.0f + 0.5f))
                << "pixel " << i << " channel " << c << " value " << v;
            bright += v > 1.0f;
        }
    }
    EXPECT_GT(bright, 0u);  // the light is in view: the clamp is exercised
    // Naming the default changes nothing, down to the file's bytes.
    const RunResult r = run("render '" + scene + "' -o '" + path("c_none.png") +
                            "' --width 24 --height 16 --spp 2 --seed 5 --backend cpu -q --tonemap none --exposure 0");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_EQ(read_file(path("c.png")), read_file(path("c_none.png")));
}

TEST_F(TonemapCli, SceneSetsTheCurveAndTheFlagsOverrideIt) {
    const std::string scene = write_scene("aces.json", R"({"tonemap": "aces", "exposure": 1})");
    render_png_and_exr(scene, "a");
    EXPECT_EQ(count_differing(png_codes("a.png"), expected_codes("a.exr", ToneMap{ToneCurve::Aces, 1.0f})), 0u);
    EXPECT_GT(count_differing(png_codes("a.png"), expected_codes("a.exr", ToneMap{ToneCurve::None, 1.0f})), 0u);
    render_png_and_exr(scene, "a_agx", "--tonemap agx");  // the scene's exposure stays
    EXPECT_EQ(count_differing(png_codes("a_agx.png"), expected_codes("a.exr", ToneMap{ToneCurve::Agx, 1.0f})), 0u);
    render_png_and_exr(scene, "a_dim", "--exposure -2");  // the scene's curve stays
    EXPECT_EQ(count_differing(png_codes("a_dim.png"), expected_codes("a.exr", ToneMap{ToneCurve::Aces, -2.0f})), 0u);
}

TEST_F(TonemapCli, HdrAndExrIgnoreTheFlags) {
    const std::string scene = write_scene("plain.json", "{}");
    render_png_and_exr(scene, "p");
    for (const char* ext : {".exr", ".hdr"}) {
        const std::string common = " --width 24 --height 16 --spp 2 --seed 5 --backend cpu -q";
        ASSERT_EQ(run("render '" + scene + "' -o '" + path(std::string("p_plain") + ext) + "'" + common).exit_code, 0);
        ASSERT_EQ(run("render '" + scene + "' -o '" + path(std::string("p_agx") + ext) + "'" + common +
                      " --tonemap agx --exposure 3")
                      .exit_code,
                  0);
        EXPECT_EQ(read_file(path(std::string("p_plain") + ext)), read_file(path(std::string("p_agx") + ext))) << ext;
    }
}

TEST_F(TonemapCli, BadValuesExitWithCode2NamingTheFlag) {
    const std::string scene = write_scene("bad.json", "{}");
    const std::string out = " -o '" + path("bad.png") + "' --backend cpu";
    for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
             {"--tonemap", "filmic"}, {"--tonemap", "''"}, {"--exposure", "nan"}, {"--exposure", "inf"},
             {"--exposure", "-inf"}, {"--exposure", "40"}, {"--exposure", "-33"}, {"--exposure", "one"}}) {
        const RunResult r = run("render '" + scene + "'" + out + " " + flag + " " + value);
        EXPECT_EQ(r.exit_code, 2) << flag << " " << value << ": " << r.stderr_text;
        EXPECT_NE(r.stderr_text.find(flag + ": expected"), std::string::npos) << r.stderr_text;
        EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    }
    EXPECT_FALSE(std::filesystem::exists(path("bad.png")));
}

}  // namespace
}  // namespace wf
