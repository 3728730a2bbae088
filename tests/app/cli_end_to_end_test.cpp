// The `wavefront` binary end to end: bad input gives exit code 2 and one clear
// line on stderr, never a crash; a good render writes its image and says which
// backend ran.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "io/image.h"
#include "tests/app/mesh_scene_files.h"
#include "tests/common/source_dir.h"

namespace wf {
namespace {

struct RunResult {
    int exit_code = -1;
    std::string stdout_text, stderr_text;
};

std::string read_file(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// `environment`: "NAME=value " assignments for the shell to put before the command.
RunResult run_wavefront(const std::string& args, const std::string& environment = "") {
    // ctest runs tests in parallel processes: one pair of capture files per process.
    const std::string dir = testing::TempDir() + "/wf_cli_" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const std::string out = dir + "/stdout.txt", err = dir + "/stderr.txt";
    std::string cmd = environment + "'" + WF_BINARY + "' " + args + " >'" + out + "' 2>'" + err + "'";
    int status = std::system(cmd.c_str());
    RunResult r;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    else r.exit_code = 1000 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);  // a crash
    r.stdout_text = read_file(out);
    r.stderr_text = read_file(err);
    return r;
}

size_t line_count(const std::string& s) {
    size_t n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST(CliEndToEnd, EveryBadSceneFileExitsWithCode2AndOneLineNamingTheFile) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(test::source_dir()) / "tests/io/bad_scenes";
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        const std::string file = entry.path().string();
        RunResult r = run_wavefront("render '" + file + "' -o '" + testing::TempDir() + "/bad.png' --backend cpu");
        EXPECT_EQ(r.exit_code, 2) << file << "\n" << r.stderr_text;
        EXPECT_EQ(line_count(r.stderr_text), 1u) << file << "\n" << r.stderr_text;
        EXPECT_NE(r.stderr_text.find(entry.path().filename().string()), std::string::npos) << r.stderr_text;
    }
    EXPECT_GE(files, 12u);
}

TEST(CliEndToEnd, MissingSceneFileExitsWithCode2) {
    RunResult r = run_wavefront("render /nonexistent/scene.json --backend cpu");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("/nonexistent/scene.json"), std::string::npos) << r.stderr_text;
}

TEST(CliEndToEnd, BadArgumentsExitWithCode2) {
    const std::string scene = "'" + test::source_dir() + "/scenes/cornell-box.json'";
    for (const std::string args : {"render " + scene + " --spp zero", "render " + scene + " --width 0",
                                   "render " + scene + " -o out.jpg", "render " + scene + " --integrator vcmm",
                                   std::string("frobnicate"), std::string("render")}) {
        RunResult r = run_wavefront(args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.stderr_text;
        EXPECT_EQ(line_count(r.stderr_text), 1u) << args << "\n" << r.stderr_text;
    }
}

TEST(CliEndToEnd, SceneAnIntegratorCannotRenderExitsWithCode2) {
    // A thin-lens camera cannot be connected to by light paths: lt, bpt and vcm refuse it.
    const std::string scene = testing::TempDir() + "/wf_lens_scene_" + std::to_string(getpid()) + ".json";
    std::ofstream(scene) << R"({"render": {"integrator": "vcm"}, "camera": {"aperture_radius": 0.1}})";
    const std::string out = " -o '" + testing::TempDir() + "/v.png' --backend cpu --width 8 --height 8 --spp 1";
    RunResult r = run_wavefront("render '" + scene + "'" + out);
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("/camera/aperture_radius"), std::string::npos) << r.stderr_text;
    EXPECT_EQ(line_count(r.stderr_text), 1u) << r.stderr_text;
    // bpm does not connect to the camera: the same scene renders.
    r = run_wavefront("render '" + scene + "'" + out + " --integrator bpm");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;

    // ppm cannot render a material with both specular and non-specular lobes.
    const std::string mixed = testing::TempDir() + "/wf_mixed_scene_" + std::to_string(getpid()) + ".json";
    std::ofstream(mixed) << R"({"materials": {"glossy_mirror": {"type": "smallvcm", "kd": [0.5, 0.5, 0.5],
        "km": [0.5, 0.5, 0.5]}}, "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1,
        "material": "glossy_mirror"}]})";
    r = run_wavefront("render '" + mixed + "'" + out + " --integrator ppm");
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("glossy_mirror"), std::string::npos) << r.stderr_text;
    r = run_wavefront("render '" + mixed + "'" + out + " --integrator bpm");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
}

TEST(CliEndToEnd, RenderWritesTheImageAndNamesTheBackend) {
    const std::string dir = testing::TempDir() + "/wf_e2e_" + std::to_string(getpid());
    const std::string out = dir + "/new_folder/cornell.png";  // the folder is created
    std::filesystem::remove_all(dir);
    RunResult r = run_wavefront("render '" + test::source_dir() +
                                "/scenes/cornell-box.json' -o '" + out + "' --width 32 --height 24 --spp 2 --backend cpu");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_TRUE(std::filesystem::exists(out));
    EXPECT_NE(r.stdout_text.find("on CPU"), std::string::npos) << r.stdout_text;
    EXPECT_NE(r.stdout_text.find("32x24, 2 spp"), std::string::npos) << r.stdout_text;
}

TEST(CliEndToEnd, ThreadCountSetsTheCpuThreadsAndLeavesTheImageAsItWas) {
    // 64 x 48 pixels x 4 samples: 6 chunks of the pool's 2048 paths, shared by the threads.
    const std::string dir = testing::TempDir() + "/wf_threads_" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    auto render = [&](const std::string& threads) {
        const std::string out = dir + "/t" + threads + ".exr";
        RunResult r = run_wavefront("render '" + test::source_dir() + "/scenes/cornell-box.json' -o '" + out +
                                    "' --width 64 --height 48 --spp 4 --seed 7 --backend cpu --threads " + threads);
        EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
        EXPECT_NE(r.stdout_text.find("(" + threads + " CPU threads,"), std::string::npos) << r.stdout_text;
        return read_image(out);
    };
    const Image one = render("1"), three = render("3");
    ASSERT_EQ(one.pixel_count(), 64u * 48u);
    ASSERT_EQ(three.pixel_count(), one.pixel_count());
    size_t differing = 0;
    for (size_t i = 0; i < one.pixel_count(); ++i)
        differing += !(one.pixels[i].x == three.pixels[i].x && one.pixels[i].y == three.pixels[i].y &&
                       one.pixels[i].z == three.pixels[i].z);
    EXPECT_EQ(differing, 0u);  // pt is bit for bit the same on any thread count (README, Determinism)
    std::filesystem::remove_all(dir);
}

// --material-sort on sorts pt's hits by material: the same image as without (one thread,
// one seed); the other integrators do not sort, and asking them to is an error.
TEST(CliEndToEnd, MaterialSortLeavesPtsImageAsItWasAndOnlyPtSorts) {
    const std::string dir = testing::TempDir() + "/wf_msort_" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const std::string scene = "render '" + test::source_dir() + "/scenes/cornell-box.json' --width 48 --height 32 "
                              "--spp 2 --seed 3 --backend cpu --threads 1";
    auto render = [&](const std::string& mode) {
        const std::string out = dir + "/" + mode + ".exr", stats = dir + "/" + mode + ".json";
        RunResult r = run_wavefront(scene + " -o '" + out + "' --material-sort " + mode + " --stats '" + stats + "'");
        EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
        std::ifstream f(stats);
        const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        EXPECT_EQ(text.find("\"sort_by_material\"") != std::string::npos, mode == "on") << mode;  // the stage ran
        return read_image(out);
    };
    const Image on = render("on"), off = render("off");
    render("auto");  // the box has no clear coat: no sort
    ASSERT_EQ(on.pixel_count(), 48u * 32u);
    ASSERT_EQ(off.pixel_count(), on.pixel_count());
    for (size_t i = 0; i < on.pixel_count(); ++i)
        ASSERT_TRUE(on.pixels[i].x == off.pixels[i].x && on.pixels[i].y == off.pixels[i].y &&
                    on.pixels[i].z == off.pixels[i].z)
            << "pixel " << i;
    RunResult r = run_wavefront(scene + " -o '" + dir + "/v.png' --integrator vcm --material-sort on");
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("--material-sort on: only pt sorts"), std::string::npos) << r.stderr_text;
    std::filesystem::remove_all(dir);
}

TEST(CliEndToEnd, TimeBudgetRendersUntilTheClockRunsOut) {
    RunResult r = run_wavefront("render '" + test::source_dir() + "/scenes/cornell-box.json' -o '" +
                                testing::TempDir() + "/t.hdr' --width 16 --height 16 --time 0.3 --backend cpu");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    // Thousands of 16x16 passes fit in 0.3 s; the summary reports how many ran.
    size_t at = r.stdout_text.find("16x16, ");
    ASSERT_NE(at, std::string::npos) << r.stdout_text;
    EXPECT_GT(std::stoul(r.stdout_text.substr(at + 7)), 10u) << r.stdout_text;
}

TEST(CliEndToEnd, StatsFileHasStagesAndQueueSizes) {
    const std::string stats = testing::TempDir() + "/wf_stats_" + std::to_string(getpid()) + ".json";
    RunResult r = run_wavefront("render '" + test::source_dir() + "/scenes/cornell-box.json' -o '" +
                                testing::TempDir() + "/s.exr' --width 16 --height 16 --spp 1 --backend cpu --quiet "
                                "--stats '" + stats + "'");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    std::string text = read_file(stats);
    for (const char* key : {"\"stages\"", "\"intersect_closest\"", "\"shade_surface\"", "\"compact\"",
                            "\"queue_sizes_per_bounce\"", "\"msamples_per_second\""})
        EXPECT_NE(text.find(key), std::string::npos) << key;
}

// A scene file and a folder of its own for one test, removed afterwards.
class CliOutputs : public testing::Test {
protected:
    void SetUp() override {
        dir_ = testing::TempDir() + "/wf_cli_outputs_" + std::to_string(getpid()) + "_" +
               testing::UnitTest::GetInstance()->current_test_info()->name();
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        scene_ = dir_ + "/scene.json";
        std::filesystem::copy_file(test::source_dir() + "/scenes/cornell-box.json", scene_);
        scene_text_ = read_file(scene_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string render(const std::string& flags) const {
        return "render '" + scene_ + "' --backend cpu --width 16 --height 16 --spp 1 " + flags;
    }

    std::string dir_, scene_, scene_text_;
};

TEST_F(CliOutputs, StatsNamingTheSceneIsRefusedAndTheSceneIsIntact) {
    RunResult r = run_wavefront(render("-o '" + dir_ + "/a.png' --stats '" + scene_ + "'"));
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("is the input file"), std::string::npos) << r.stderr_text;
    EXPECT_EQ(line_count(r.stderr_text), 1u) << r.stderr_text;
    EXPECT_EQ(read_file(scene_), scene_text_);
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/a.png"));
}

TEST_F(CliOutputs, AnOutputNamingAMeshFileOfTheSceneIsRefusedAndTheFileIsIntact) {
    const test::MeshSceneFiles files = test::write_mesh_scene(dir_);
    const std::string flags = " --backend cpu --width 16 --height 16 --spp 1 -o '" + dir_ + "/a.png' ";
    for (const std::string& input : {files.obj, files.bin, files.texture}) {
        const std::string before = read_file(input);
        RunResult r = run_wavefront("render '" + files.scene + "'" + flags + "--stats '" + input + "'");
        EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
        EXPECT_NE(r.stderr_text.find("--stats '" + input + "' is the input file"), std::string::npos) << r.stderr_text;
        EXPECT_EQ(line_count(r.stderr_text), 1u) << r.stderr_text;
        EXPECT_EQ(read_file(input), before) << input;
        EXPECT_FALSE(std::filesystem::exists(dir_ + "/a.png"));
    }
    // The same render with outputs of its own runs: the refusals above were the outputs'.
    RunResult r = run_wavefront("render '" + files.scene + "'" + flags + "--stats '" + dir_ + "/s.json'");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
}

TEST_F(CliOutputs, OutputAndStatsOnOneFileAreRefused) {
    RunResult r = run_wavefront(render("-o '" + dir_ + "/a.exr' --stats '" + dir_ + "/a.exr'"));
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("is also the output of -o"), std::string::npos) << r.stderr_text;
}

TEST_F(CliOutputs, UnwritableOutputFailsBeforeRendering) {
    // A render of 60 s: an output checked only after it would make this test slow.
    const auto start = std::chrono::steady_clock::now();
    RunResult r = run_wavefront("render '" + scene_ + "' --backend cpu --time 60 -o /proc/wf_e2e.png");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("-o /proc/wf_e2e.png: cannot open for writing"), std::string::npos) << r.stderr_text;
    EXPECT_LT(seconds, 20.0);
    r = run_wavefront("render '" + scene_ + "' --backend cpu --time 60 -o '" + dir_ + "/a.png' --stats /proc/s.json");
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("--stats /proc/s.json"), std::string::npos) << r.stderr_text;
}

TEST_F(CliOutputs, AFailedRenderLeavesTheOldOutputsAsTheyWere) {
    std::ofstream(dir_ + "/a.png") << "old image";
    std::ofstream(dir_ + "/stats.json") << "old stats";
    // Out of memory after every check has passed: the render fails (exit 1).
    RunResult r = run_wavefront(render("-o '" + dir_ + "/a.png' --stats '" + dir_ + "/stats.json' --max-memory 1 "
                                       "--width 256 --height 256"));
    EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
    EXPECT_EQ(read_file(dir_ + "/a.png"), "old image");
    EXPECT_EQ(read_file(dir_ + "/stats.json"), "old stats");
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir_)) ++files;
    EXPECT_EQ(files, 3u);  // scene, image, stats: nothing left behind
}

TEST_F(CliOutputs, OutOfMemoryIsOneLineNamingTheAllocationNotACrash) {
    RunResult r = run_wavefront(render("-o '" + dir_ + "/a.png' --max-memory 1 --width 256 --height 256"));
    EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
    EXPECT_EQ(line_count(r.stderr_text), 1u) << r.stderr_text;
    for (const char* part : {"out of memory on the cpu backend: allocating ", " MiB (", " x ", "limit of 1.0 MiB"})
        EXPECT_NE(r.stderr_text.find(part), std::string::npos) << part << "\n" << r.stderr_text;
    // The environment variable sets the same limit; the flag wins over it.
    r = run_wavefront(render("-o '" + dir_ + "/a.png' --width 256 --height 256"), "WF_MAX_MEMORY_MIB=1 ");
    EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("limit of 1.0 MiB"), std::string::npos) << r.stderr_text;
    r = run_wavefront(render("-o '" + dir_ + "/a.png' --max-memory 4096"), "WF_MAX_MEMORY_MIB=1 ");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
}

TEST_F(CliOutputs, SummarySaysWhatItsTimesCoverAndStatsRecordTheWrite) {
    RunResult r = run_wavefront(render("-o '" + dir_ + "/a.exr' --stats '" + dir_ + "/s.json'"));
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    for (const char* part : {"load ", " s, setup ", " s, render ", " s, write ", " s, "})
        EXPECT_NE(r.stdout_text.find(part), std::string::npos) << part << "\n" << r.stdout_text;
    const std::string stats = read_file(dir_ + "/s.json");
    for (const char* key : {"\"image_write_seconds\"", "\"render_seconds\"", "\"nonfinite_samples\"", "\"warnings\"",
                            "\"scene_load_seconds\"", "\"device_wait_seconds\"", "\"integrator_setup_ms\"",
                            "\"upload_ms\"", "\"bvh_build_ms\""})
        EXPECT_NE(stats.find(key), std::string::npos) << key;
    // "setup" is everything between the load and the first pass: the device's start that
    // the load did not hide, the BVH, the uploads and the integrator's state.
    const nlohmann::json j = nlohmann::json::parse(stats);
    const double setup = j["device_wait_seconds"].get<double>() +
                         1e-3 * (j["bvh_build_ms"].get<double>() + j["upload_ms"].get<double>() +
                                 j["integrator_setup_ms"].get<double>());
    const size_t at = r.stdout_text.find(" s, setup ");
    ASSERT_NE(at, std::string::npos) << r.stdout_text;
    EXPECT_NEAR(std::stod(r.stdout_text.substr(at + 10)), setup, 0.0006) << r.stdout_text;
    EXPECT_GT(j["scene_load_seconds"].get<double>(), 0.0);
}

}  // namespace
}  // namespace wf
