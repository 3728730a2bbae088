// `wavefront render --env MAP`: the map replaces the scene's environment; a bad map exits
// with code 2 and one line naming it; the map is an input no output may overwrite.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/image.h"
#include "tests/common/cli_run.h"

namespace wf {
namespace {

namespace fs = std::filesystem;

using test::CliRun;

CliRun run_wavefront(const fs::path& dir, const std::string& args) {
    return test::run_wavefront_cli(args, (dir / "stderr.txt").string());
}

size_t lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

TEST(EnvironmentMapCli, EnvFlagRendersAndBadMapsExitWithCode2) {
    const fs::path dir = fs::temp_directory_path() / ("wf_env_cli_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    Image sky(8, 4, Vec3f(0.25f, 0.5f, 1.0f));
    sky.at(3, 1) = Vec3f(40.0f);
    write_image((dir / "sky.exr").string(), sky);
    std::ofstream(dir / "scene.json")
        << R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 0.5}],
               "lights": [{"type": "environment", "radiance": [0.9, 0.8, 0.1]}]})";
    const std::string scene = "'" + (dir / "scene.json").string() + "'";
    const std::string common = " --backend cpu --spp 1 --width 16 --height 16 --quiet";
    const std::string out = (dir / "out.exr").string();

    const std::string env = " --env '" + (dir / "sky.exr").string() + "'";
    CliRun ok = run_wavefront(dir, "render " + scene + env + " -o '" + out + "'" + common);
    EXPECT_EQ(ok.exit_code, 0) << ok.stderr_text;
    ASSERT_TRUE(fs::exists(out));
    // Unlike the scene's yellow environment, the map's sky is brighter in blue than in green.
    const Image image = read_image(out);
    EXPECT_GT(image.at(8, 0).z, image.at(8, 0).y);

    for (const char* bad : {"missing.exr", "sky.png", "."}) {
        const std::string file = (dir / bad).string();
        CliRun r = run_wavefront(dir, "render " + scene + " --env '" + file + "' -o '" + out + "'" + common);
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.stderr_text;
        EXPECT_EQ(lines(r.stderr_text), 1u) << r.stderr_text;
        EXPECT_NE(r.stderr_text.find("--env: " + file), std::string::npos) << r.stderr_text;
    }
    // The map is an input: writing the image over it is refused before rendering.
    CliRun over = run_wavefront(dir, "render " + scene + env + " -o '" + (dir / "sky.exr").string() + "'" + common);
    EXPECT_EQ(over.exit_code, 2) << over.stderr_text;
    EXPECT_EQ(read_image((dir / "sky.exr").string()).at(3, 1).x, 40.0f);
    CliRun empty = run_wavefront(dir, "render " + scene + " --env ''" + common);
    EXPECT_EQ(empty.exit_code, 2) << empty.stderr_text;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace wf
