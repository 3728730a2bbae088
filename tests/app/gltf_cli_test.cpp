// `wavefront render` of glTF files: a file that loads renders (exit 0) and its warnings,
// what the file asks for that is not rendered, reach stderr naming the file; a bad one
// exits 2 with one line naming the file and the place.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/image.h"
#include "tests/common/source_dir.h"
#include "tests/io/gltf_test_files.h"

namespace wf {
namespace {

using nlohmann::json;

struct RunResult {
    int exit_code = -1;
    std::string stdout_text, stderr_text;
};

std::string read_text(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

RunResult run_wavefront(const std::string& args) {
    const std::string dir = test::temp_folder("wf_gltf_cli");
    const std::string out = dir + "/stdout.txt", err = dir + "/stderr.txt";
    const std::string cmd = std::string("'") + WF_BINARY + "' " + args + " >'" + out + "' 2>'" + err + "'";
    const int status = std::system(cmd.c_str());
    RunResult r;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    else r.exit_code = 1000 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r.stdout_text = read_text(out);
    r.stderr_text = read_text(err);
    return r;
}

size_t lines(const std::string& s) {
    size_t n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string write_bytes(const std::string& name, const std::string& bytes) {
    return test::write_file(test::temp_folder("wf_gltf_cli") + "/" + name, bytes);
}

const std::string kSmall = " --width 16 --height 16 --spp 1 --backend cpu --quiet";

// A .glb with an unknown (not required) extension and a spot light with a range: two
// warnings (the spot light itself is rendered).
TEST(GltfCli, GlbRendersAndPrintsTheFilesWarnings) {
    test::GltfDoc d;
    d.g["extensionsUsed"] = {"EXT_made_up_extension", "KHR_lights_punctual"};
    d.g["extensions"]["KHR_lights_punctual"]["lights"] = json::array({{{"type", "spot"}, {"intensity", 1.0}, {"range", 5.0}, {"spot", {{"outerConeAngle", 0.5}}}}});
    d.g["nodes"].push_back({{"translation", {0, 0, 2}}, {"extensions", {{"KHR_lights_punctual", {{"light", 0}}}}}});
    d.g["scenes"][0]["nodes"] = {0, 1};
    const std::string model = write_bytes("warned.glb", d.glb());
    const std::string image = test::temp_folder("wf_gltf_cli") + "/warned.png";
    std::filesystem::remove(image);
    RunResult r = run_wavefront("render '" + model + "' -o '" + image + "'" + kSmall);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_TRUE(contains(r.stderr_text, model + ": ")) << r.stderr_text;
    EXPECT_TRUE(contains(r.stderr_text, "EXT_made_up_extension")) << r.stderr_text;
    EXPECT_TRUE(contains(r.stderr_text, "range")) << r.stderr_text;
    EXPECT_FALSE(contains(r.stderr_text, "spot")) << r.stderr_text;
    EXPECT_EQ(lines(r.stderr_text), 2u) << r.stderr_text;
    const Image out = read_image(image);
    EXPECT_EQ(out.width, 16u);
    EXPECT_EQ(out.height, 16u);
}

TEST(GltfCli, SampleModelsRenderWithoutWarnings) {
    for (const char* model : {"TextureCoordinateTest/TextureCoordinateTest.glb", "EmissiveStrengthTest/EmissiveStrengthTest.glb",
                              "TextureTransformTest/TextureTransformTest.gltf"}) {
        const std::string image = test::temp_folder("wf_gltf_cli") + "/sample.exr";
        RunResult r = run_wavefront("render '" + test::source_dir() + "/tests/data/gltf/" + model + "' -o '" + image + "'" +
                                    kSmall);
        EXPECT_EQ(r.exit_code, 0) << model << "\n" << r.stderr_text;
        EXPECT_EQ(r.stderr_text, "") << model;
    }
}

// Cameras.gltf has a perspective and an orthographic camera: --camera 0 and 1 render
// (pt; the orthographic one is refused by lt with exit 2), --camera 2 names a camera the
// file does not have (exit 2).
TEST(GltfCli, FileCamerasAndTheCameraOption) {
    const std::string model = test::source_dir() + "/tests/data/gltf/Cameras/Cameras.gltf";
    const std::string image = test::temp_folder("wf_gltf_cli") + "/cameras.png";
    for (const char* camera : {" --camera 0", " --camera 1"}) {
        RunResult ok = run_wavefront("render '" + model + "' -o '" + image + "'" + camera + kSmall);
        EXPECT_EQ(ok.exit_code, 0) << camera << "\n" << ok.stderr_text;
        EXPECT_EQ(ok.stderr_text, "") << camera;
    }
    RunResult lt = run_wavefront("render '" + model + "' -o '" + image + "' --camera 1 --integrator lt" + kSmall);
    EXPECT_EQ(lt.exit_code, 2) << lt.stderr_text;
    EXPECT_EQ(lines(lt.stderr_text), 1u) << lt.stderr_text;
    EXPECT_TRUE(contains(lt.stderr_text, "Cameras.gltf: /camera/projection: an orthographic camera")) << lt.stderr_text;
    RunResult bad = run_wavefront("render '" + model + "' -o '" + image + "' --camera 2" + kSmall);
    EXPECT_EQ(bad.exit_code, 2) << bad.stderr_text;
    EXPECT_TRUE(contains(bad.stderr_text, "Cameras.gltf")) << bad.stderr_text;
    EXPECT_TRUE(contains(bad.stderr_text, "--camera 2")) << bad.stderr_text;
}

TEST(GltfCli, BadGltfExitsWith2AndOneLineNamingTheFileAndThePlace) {
    struct Bad {
        std::string name, place;
        std::string bytes;
    };
    std::vector<Bad> cases;
    {
        test::GltfDoc d;
        d.primitive()["material"] = 3;
        cases.push_back({"material_index.gltf", ": /meshes/0/primitives/0/material: material 3 does not exist", d.document().dump()});
    }
    {
        test::GltfDoc d;
        d.g["extensionsUsed"] = {"EXT_made_up_extension"};
        d.g["extensionsRequired"] = {"EXT_made_up_extension"};
        cases.push_back({"required.glb", ": /extensionsRequired/0: requires the extension EXT_made_up_extension", d.glb()});
    }
    {
        test::GltfDoc d;
        const int tex = d.texture(d.image("not an image"));
        d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
        cases.push_back({"corrupt_image.gltf", ": /images/0: cannot decode the image", d.document().dump()});
    }
    {
        test::GltfDoc d;
        d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"metallicFactor", 2}}}});
        cases.push_back({"metallic.glb", ": /materials/0/pbrMetallicRoughness/metallicFactor: 2 is not in [0, 1]", d.glb()});
    }
    {
        test::GltfDoc d;
        d.g["images"] = json::array({{{"uri", "absent.png"}}});
        const int tex = d.texture(0);
        d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
        cases.push_back({"missing_image.gltf", ": /images/0/uri \"absent.png\": no image data", d.document().dump()});
    }
    {
        const std::string glb = test::GltfDoc().glb();
        cases.push_back({"truncated.glb", "truncated GLB: the header says", glb.substr(0, glb.size() / 2)});
    }
    {
        test::GltfDoc d;
        json doc = d.document();
        doc["buffers"][0] = {{"byteLength", d.bin.size()}, {"uri", "absent.bin"}};
        cases.push_back({"missing_buffer.gltf", ": /buffers/0/uri \"absent.bin\": no such file", doc.dump()});
    }
    for (const Bad& b : cases) {
        const std::string model = write_bytes(b.name, b.bytes);
        RunResult r = run_wavefront("render '" + model + "' -o '" + test::temp_folder("wf_gltf_cli") + "/bad.png'" + kSmall);
        EXPECT_EQ(r.exit_code, 2) << b.name << "\n" << r.stderr_text;
        EXPECT_EQ(lines(r.stderr_text), 1u) << b.name << "\n" << r.stderr_text;
        EXPECT_TRUE(contains(r.stderr_text, model)) << b.name << "\n" << r.stderr_text;
        EXPECT_TRUE(contains(r.stderr_text, b.place)) << b.name << "\n" << r.stderr_text;
    }
}

}  // namespace
}  // namespace wf
