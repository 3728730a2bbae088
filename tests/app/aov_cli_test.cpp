// `wavefront render --aov LIST` and the scene's render.aov end to end: the EXR file holds
// the beauty and the layers (read back with OpenEXR itself, not our reader), the beauty
// is the same bit for bit as without AOVs, and every bad request exits with code 2 and a
// message naming the entry, the field or the output.
#include <gtest/gtest.h>

#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputFile.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "io/image.h"
#include "tests/common/cli_run.h"
#include "tests/common/temp_dir_test.h"

namespace wf {
namespace {

constexpr uint32_t kWidth = 12, kHeight = 8;

// Every channel of an EXR file, float, by name.
std::map<std::string, std::vector<float>> read_exr_channels(const std::string& path, Imf::PixelType* type_seen) {
    Imf::InputFile file(path.c_str());
    const Imath::Box2i w = file.header().dataWindow();
    const int width = w.max.x - w.min.x + 1, height = w.max.y - w.min.y + 1;
    std::map<std::string, std::vector<float>> out;
    Imf::FrameBuffer frame;
    for (auto c = file.header().channels().begin(); c != file.header().channels().end(); ++c) {
        *type_seen = c.channel().type;
        if (c.channel().type != Imf::FLOAT) ADD_FAILURE() << c.name() << " is not float";
        std::vector<float>& v = out[c.name()];
        v.resize(size_t(width) * height);
        frame.insert(c.name(), Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(v.data()), sizeof(float),
                                          sizeof(float) * size_t(width)));
    }
    file.setFrameBuffer(frame);
    file.readPixels(w.min.y, w.max.y);
    return out;
}

class AovCli : public test::TempDirTest {
protected:
    AovCli() : TempDirTest("wf_aov_cli_") {}

    test::CliRun run(const std::string& args, const std::string& prefix = "") const {
        return test::run_wavefront_cli(args, path("stderr.txt"), prefix);
    }
    // A diffuse sphere (albedo 0.25, 0.5, 0.75) filling the middle of the view at distance 3.
    std::string write_scene(const std::string& name, const std::string& render = "{}") const {
        std::ofstream(path(name)) << R"({"film": {"width": 12, "height": 8}, "render": )" << render << R"(,
            "camera": {"position": [0, 0, 3], "look_at": [0, 0, 0]},
            "materials": {"paint": {"type": "diffuse", "albedo": [0.25, 0.5, 0.75]}},
            "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "paint"}],
            "lights": [{"type": "environment", "radiance": 1}]})";
        return path(name);
    }
    static constexpr const char* kCommon = " --spp 4 --seed 3 --backend cpu -q";
};

TEST_F(AovCli, ExrHoldsTheBeautyAndTheLayersAsFloatChannels) {
    const std::string scene = write_scene("s.json");
    ASSERT_EQ(run("render '" + scene + "' -o '" + path("plain.exr") + "'" + kCommon).exit_code, 0);
    const test::CliRun r = run("render '" + scene + "' -o '" + path("aov.exr") + "' --aov albedo,normal,depth" + kCommon);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;

    Imf::PixelType type = Imf::HALF;
    const auto channels = read_exr_channels(path("aov.exr"), &type);
    std::vector<std::string> names;
    for (const auto& [name, values] : channels) names.push_back(name);
    EXPECT_EQ(names, (std::vector<std::string>{"B", "G", "R", "albedo.B", "albedo.G", "albedo.R", "depth.Z",
                                               "normal.X", "normal.Y", "normal.Z"}));
    // The beauty is the one rendered without --aov, bit for bit.
    const Image plain = read_image(path("plain.exr"));
    for (size_t i = 0; i < plain.pixels.size(); ++i) {
        ASSERT_EQ(channels.at("R")[i], plain.pixels[i].x) << i;
        ASSERT_EQ(channels.at("G")[i], plain.pixels[i].y) << i;
        ASSERT_EQ(channels.at("B")[i], plain.pixels[i].z) << i;
    }
    // The centre pixels see the sphere nearly head-on: its albedo, a normal near +z, depth
    // near 2 (half a pixel off the axis: 2.015 at the pixel centre).
    // A corner pixel sees only the environment: 0 everywhere.
    for (size_t i : {size_t(3 * kWidth + 5), size_t(4 * kWidth + 6)}) {
        EXPECT_FLOAT_EQ(channels.at("albedo.R")[i], 0.25f);
        EXPECT_FLOAT_EQ(channels.at("albedo.G")[i], 0.5f);
        EXPECT_FLOAT_EQ(channels.at("albedo.B")[i], 0.75f);
        EXPECT_GT(channels.at("normal.Z")[i], 0.9f);
        EXPECT_NEAR(channels.at("depth.Z")[i], 2.0f, 0.06f);
    }
    for (const auto& [name, values] : channels)
        if (name.find('.') != std::string::npos) EXPECT_EQ(values[0], 0.0f) << name;
}

TEST_F(AovCli, SceneRenderAovAndDefaultExrOutput) {
    // render.aov in the file; without -o the output is out/<scene>.exr (AOVs need EXR).
    const std::string scene = write_scene("listed.json", R"({"aov": ["depth", "albedo", "depth"]})");
    const test::CliRun r = run("render listed.json" + std::string(kCommon), "cd '" + dir_.string() + "' && ");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    Imf::PixelType type = Imf::HALF;
    const auto channels = read_exr_channels(path("out/listed.exr"), &type);
    EXPECT_EQ(channels.size(), 7u);  // R, G, B, albedo.RGB, depth.Z; no normal
    EXPECT_TRUE(channels.count("depth.Z"));
    EXPECT_FALSE(channels.count("normal.X"));
}

TEST_F(AovCli, BadRequestsExitWithCode2NamingTheProblem) {
    const std::string scene = write_scene("s.json");
    const std::string exr = " -o '" + path("o.exr") + "'" + kCommon;
    struct Case {
        std::string args, expected;
    };
    const std::vector<Case> cases = {
        {"'" + scene + "' --aov albedo,nromal" + exr, "unknown AOV 'nromal'"},
        {"'" + scene + "' --aov albedo,nromal" + exr, "did you mean"},
        {"'" + scene + "' --aov ''" + exr, "unknown AOV ''"},
        {"'" + scene + "' --aov albedo," + exr, "unknown AOV ''"},
        {"'" + scene + "' --aov" , "--aov: missing value"},
        {"'" + scene + "' --aov depth -o '" + path("o.png") + "'" + kCommon, "need an OpenEXR output"},
        {"'" + scene + "' --aov depth -o '" + path("o.hdr") + "'" + kCommon, "o.hdr"},
        {"'" + scene + "' --aov normal --integrator lt" + exr, "lt does not trace"},
        {"'" + write_scene("bad_name.json", R"({"aov": ["albedo", "bogus"]})") + "'" + exr, "/render/aov/1"},
        {"'" + write_scene("not_list.json", R"({"aov": "albedo"})") + "'" + exr, "/render/aov"},
        {"'" + write_scene("not_string.json", R"({"aov": [3]})") + "'" + exr, "/render/aov/0"},
        {"'" + write_scene("png.json", R"({"aov": ["normal"]})") + "' -o '" + path("o.png") + "'" + kCommon,
         "png.json: /render/aov: AOV layers need an OpenEXR output"},
    };
    for (const Case& c : cases) {
        const test::CliRun r = run("render " + c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.stderr_text;
        EXPECT_NE(r.stderr_text.find(c.expected), std::string::npos) << c.args << "\n" << r.stderr_text;
    }
    EXPECT_FALSE(std::filesystem::exists(path("o.png")));
}

}  // namespace
}  // namespace wf
