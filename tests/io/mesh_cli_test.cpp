// `wavefront render` on mesh files and on the bundled mesh scene: a mesh file renders
// directly; a bad one exits with code 2 and one line naming it.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "io/scene_loader.h"
#include "tests/common/source_dir.h"
#include "tests/io/mesh_test_util.h"

namespace wf {
namespace {

struct CliRun {
    int exit_code = -1;
    std::string err;
};

CliRun run_wavefront(const std::string& args) {
    const std::string dir = test::temp_folder("wf_mesh_cli");
    const std::string err_file = dir + "/stderr.txt";
    std::string cmd = std::string("'") + WF_BINARY + "' " + args + " >/dev/null 2>'" + err_file + "'";
    int status = std::system(cmd.c_str());
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1000;  // 1000: a crash
    std::ifstream f(err_file);
    std::stringstream s;
    s << f.rdbuf();
    r.err = s.str();
    return r;
}

const std::string kTiny = " --width 24 --height 16 --spp 1 --backend cpu --quiet";

TEST(MeshCli, RendersAMeshFileDirectly) {
    for (const char* file : {"pyramid.obj", "pyramid_binary_le.ply", "triangle.gltf"}) {
        std::string out = test::temp_folder("wf_mesh_cli") + "/" + file + ".png";
        std::filesystem::remove(out);
        CliRun r = run_wavefront("render '" + test::source_dir() + "/tests/data/meshes/" + file + "' -o '" + out + "'" + kTiny);
        EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
        EXPECT_TRUE(std::filesystem::exists(out)) << out;
    }
}

TEST(MeshCli, BadMeshFileExitsWith2AndOneLineNamingIt) {
    std::string bad = test::write_file(test::temp_folder("wf_mesh_cli") + "/bad.ply",
                                       "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                       "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
                                       "0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n");
    CliRun r = run_wavefront("render '" + bad + "'" + kTiny);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("wavefront: " + bad + ": line 13: face 0: vertex index 7 out of range", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

TEST(MeshCli, BundledMeshSceneLoadsAndRenders) {
    const std::string scene = test::source_dir() + "/scenes/mesh-transforms.json";
    HostScene s = load_scene(scene);
    EXPECT_EQ(s.meshes.size(), 3u);
    EXPECT_EQ(s.triangles.size(), 2u + 3u * 80u + 12u);
    EXPECT_EQ(s.lights.size(), 80u + 1u);  // the emissive icosphere's triangles, the sky
    std::string out = test::temp_folder("wf_mesh_cli") + "/mesh-transforms.png";
    CliRun r = run_wavefront("render '" + scene + "' -o '" + out + "'" + kTiny);
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace wf
