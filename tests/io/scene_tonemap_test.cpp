// The scene's tone map: render.tonemap and render.exposure in a JSON scene, and the
// default the loader picks for a mesh file rendered on its own (pbr-neutral for glTF).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "io/tonemap.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

HostScene parse(const std::string& json) { return parse_scene(json, "inline.json", "."); }

TEST(SceneTonemap, JsonSceneDefaultsToNoneAtExposureZero) {
    const HostScene scene = parse("{}");
    EXPECT_EQ(scene.settings.tonemap, "none");
    EXPECT_EQ(scene.settings.exposure, 0.0f);
}

TEST(SceneTonemap, RenderSettingsNameTheCurveAndTheExposure) {
    for (const ToneCurveInfo& info : kToneCurves) {
        const HostScene scene =
            parse(R"({"render": {"tonemap": ")" + std::string(info.name) + R"(", "exposure": -2.5}})");
        EXPECT_EQ(scene.settings.tonemap, info.name);
        EXPECT_EQ(scene.settings.exposure, -2.5f);
    }
    EXPECT_EQ(parse(R"({"render": {"exposure": 32}})").settings.exposure, 32.0f);
    EXPECT_EQ(parse(R"({"render": {"exposure": -32}})").settings.exposure, -32.0f);
}

TEST(SceneTonemap, BadValuesNameTheirPlace) {
    std::string e = test::parse_error(R"({"render": {"tonemap": "pbr_neutral"}})");
    EXPECT_NE(e.find("/render/tonemap: expected one of"), std::string::npos) << e;
    EXPECT_NE(e.find("(did you mean \"pbr-neutral\"?)"), std::string::npos) << e;
    e = test::parse_error(R"({"render": {"tonemap": 1}})");
    EXPECT_NE(e.find("/render/tonemap"), std::string::npos) << e;
    for (const char* bad : {"32.5", "-100", "1e999", "\"1\"", "null"}) {
        e = test::parse_error(std::string(R"({"render": {"exposure": )") + bad + "}}");
        EXPECT_NE(e.find("/render/exposure: expected"), std::string::npos) << bad << ": " << e;
    }
    e = test::parse_error(R"({"render": {"tonemp": "aces"}})");
    EXPECT_NE(e.find("(did you mean \"tonemap\"?)"), std::string::npos) << e;
}

TEST(SceneTonemap, MeshFileAloneGetsPbrNeutralForGltfOnly) {
    const std::string dir = testing::TempDir() + "/wf_scene_tonemap_" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    const std::vector<float> triangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    std::ofstream(dir + "/t.bin", std::ios::binary).write(reinterpret_cast<const char*>(triangle.data()), 36);
    const std::string gltf = R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}], "buffers": [{"byteLength": 36, "uri": "t.bin"}]})";
    std::ofstream(dir + "/t.gltf") << gltf;
    std::ofstream(dir + "/t.GLTF") << gltf;  // the extension in any case
    std::ofstream(dir + "/t.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    std::ofstream(dir + "/t.ply") << "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                     "property float z\nelement face 1\nproperty list uchar int vertex_indices\n"
                                     "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    EXPECT_EQ(load_scene(dir + "/t.gltf").settings.tonemap, "pbr-neutral");
    EXPECT_EQ(load_scene(dir + "/t.GLTF").settings.tonemap, "pbr-neutral");
    EXPECT_EQ(load_scene(dir + "/t.obj").settings.tonemap, "none");
    EXPECT_EQ(load_scene(dir + "/t.ply").settings.tonemap, "none");
    EXPECT_EQ(load_scene(dir + "/t.gltf").settings.exposure, 0.0f);

    // A JSON scene whose shapes come from a glTF file keeps its own default.
    std::ofstream(dir + "/s.json") << R"({"shapes": [{"type": "mesh", "file": "t.gltf"}]})";
    EXPECT_EQ(load_scene(dir + "/s.json").settings.tonemap, "none");
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace wf
