// `wavefront render` of JSON scenes that include glTF files ("gltf" shapes): one renders
// (exit 0) and --camera picks an included camera; a bad include exits 2 with one line
// naming the scene file and the JSON path.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/image.h"
#include "tests/common/cli_run.h"
#include "tests/io/gltf_include_files.h"
#include "tests/io/gltf_test_files.h"

namespace wf {
namespace {

using nlohmann::json;

const char* kFolder = "wf_gltf_include_cli";
const std::string kSmall = " --width 16 --height 16 --spp 1 --backend cpu --quiet";

size_t lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

std::string write_scene(const std::string& name, const json& scene) {
    return test::write_file(test::temp_folder(kFolder) + "/" + name, scene.dump());
}

test::CliRun render(const std::string& scene, const std::string& more = "") {
    const std::string dir = test::temp_folder(kFolder);
    return test::run_wavefront_cli("render '" + scene + "' -o '" + dir + "/out.png'" + kSmall + more, dir + "/stderr.txt");
}

TEST(GltfIncludeCli, ASceneIncludingAGltfRendersAndCameraPicksAnIncludedCamera) {
    test::camera_doc(1.0).write("camera.gltf", kFolder);
    test::textured_square({200, 10, 10}).write("red.gltf", kFolder);
    const std::string scene = write_scene(
        "include.json", {{"shapes",
                          {{{"type", "gltf"}, {"file", "red.gltf"}, {"transform", {{"translate", {0, 0, -2}}}}},
                           {{"type", "gltf"}, {"file", "camera.gltf"}}}},
                         {"lights", {{{"type", "environment"}}}}});
    const test::CliRun ok = render(scene);
    EXPECT_EQ(ok.exit_code, 0) << ok.stderr_text;
    EXPECT_EQ(ok.stderr_text, "");
    const test::CliRun camera = render(scene, " --camera 0");
    EXPECT_EQ(camera.exit_code, 0) << camera.stderr_text;
    const test::CliRun beyond = render(scene, " --camera 1");
    EXPECT_EQ(beyond.exit_code, 2) << beyond.stderr_text;
    EXPECT_NE(beyond.stderr_text.find("--camera 1"), std::string::npos) << beyond.stderr_text;
}

TEST(GltfIncludeCli, BadIncludesExitWith2AndOneLineNamingTheSceneAndThePlace) {
    test::textured_square({200, 10, 10}).write("plain.gltf", kFolder);
    auto plain_with = [](const char* key, json value) {
        json shape = {{"type", "gltf"}, {"file", "plain.gltf"}};
        shape[key] = std::move(value);
        return shape;
    };
    struct Bad {
        std::string name;
        json shape;
        std::string place;
    };
    std::vector<Bad> cases = {
        {"missing_file.json", {{"type", "gltf"}, {"file", "absent.glb"}}, ": /shapes/0/file: "},
        {"bad_transform.json", plain_with("transform", {{"rotate", {{"axis", {0, 0, 0}}, {"angle", 3}}}}),
         ": /shapes/0/transform/rotate/axis: expected "},
        {"camera_range.json", plain_with("camera", 2), ": /shapes/0/camera: expected no \"camera\""},
        {"unknown_material.json", plain_with("material", "clay"), ": /shapes/0/material: expected "},
    };
    for (const Bad& b : cases) {
        const std::string scene = write_scene(b.name, {{"shapes", {b.shape}}});
        const test::CliRun r = render(scene);
        EXPECT_EQ(r.exit_code, 2) << b.name << "\n" << r.stderr_text;
        EXPECT_EQ(lines(r.stderr_text), 1u) << b.name << "\n" << r.stderr_text;
        EXPECT_NE(r.stderr_text.find(scene + b.place), std::string::npos) << b.name << "\n" << r.stderr_text;
    }
}

}  // namespace
}  // namespace wf
