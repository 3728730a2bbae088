// The files a render writes never destroy anything: no output may be an input or
// another output, checking an output leaves nothing behind, and a write replaces the
// old file whole or leaves it as it was (app/cli_args.h, io/image.h).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "app/cli_args.h"
#include "io/image.h"
#include "io/scene_loader.h"
#include "tests/app/mesh_scene_files.h"

namespace wf {
namespace {

namespace fs = std::filesystem;

class OutputFiles : public testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::path(testing::TempDir()) /
               ("wf_outputs_" + std::to_string(getpid()) + "_" +
                testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    void write(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
    std::string read(const std::string& name) const {
        std::ifstream f(path(name));
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }
    std::set<std::string> entries() const {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
        return names;
    }
    // The message check_render_outputs throws, or "no error".
    static std::string outputs_error(const std::vector<std::string>& inputs, const std::vector<RenderOutput>& outputs) {
        try {
            check_render_outputs(inputs, outputs);
        } catch (const UsageError& e) {
            return e.what();
        }
        return "no error";
    }

    fs::path dir_;
};

TEST_F(OutputFiles, AnOutputThatIsTheSceneIsRefusedHoweverItIsNamed) {
    write("scene.json", "{}");
    fs::create_symlink(path("scene.json"), path("link.json"));
    fs::create_hard_link(path("scene.json"), path("hard.json"));
    const std::string dotted = (dir_ / "." / "scene.json").string();
    for (const std::string& output : {path("scene.json"), dotted, path("link.json"), path("hard.json")}) {
        const std::string message = outputs_error({path("scene.json")}, {{"--stats", output}});
        EXPECT_NE(message.find("--stats '" + output + "' is the input file"), std::string::npos) << message;
    }
    EXPECT_EQ(read("scene.json"), "{}");
    EXPECT_EQ(outputs_error({path("scene.json")}, {{"--stats", path("stats.json")}}), "no error");
}

TEST_F(OutputFiles, TheSceneListsEveryFileItReadOnce) {
    const test::MeshSceneFiles files = test::write_mesh_scene(dir_.string());
    const HostScene scene = load_scene(files.scene);
    // The scene, its mesh files (model.obj serves two shapes) and what the glTF pulled in.
    const std::vector<std::string> expected = {files.scene, files.obj, files.gltf, files.bin, files.texture};
    ASSERT_EQ(scene.input_files.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
        EXPECT_TRUE(fs::equivalent(scene.input_files[i], expected[i])) << scene.input_files[i] << " vs " << expected[i];
    // A mesh file rendered on its own lists itself and its buffers.
    const HostScene mesh = load_scene(files.gltf);
    ASSERT_EQ(mesh.input_files.size(), 3u);
    EXPECT_TRUE(fs::equivalent(mesh.input_files[0], files.gltf));
    EXPECT_TRUE(fs::equivalent(mesh.input_files[1], files.bin));
}

TEST_F(OutputFiles, AnOutputThatIsAFileTheSceneReadIsRefused) {
    const test::MeshSceneFiles files = test::write_mesh_scene(dir_.string());
    const HostScene scene = load_scene(files.scene);
    for (const std::string& input : {files.obj, files.bin, files.texture}) {
        const std::string message = outputs_error(scene.input_files, {{"-o", path("a.png")}, {"--stats", input}});
        EXPECT_NE(message.find("--stats '" + input + "' is the input file"), std::string::npos) << message;
    }
    const std::string message = outputs_error(scene.input_files, {{"-o", files.texture}});
    EXPECT_NE(message.find("-o '" + files.texture + "' is the input file"), std::string::npos) << message;
    EXPECT_EQ(outputs_error(scene.input_files, {{"-o", path("a.png")}, {"--stats", path("s.json")}}), "no error");
}

TEST_F(OutputFiles, TwoOutputsOnOneFileAreRefused) {
    // Neither exists yet: compared by path.
    const std::string message =
        outputs_error({}, {{"-o", path("a.exr")}, {"--stats", (dir_ / "sub" / ".." / "a.exr").string()}});
    EXPECT_NE(message.find("is also the output of -o"), std::string::npos) << message;
    EXPECT_EQ(outputs_error({}, {{"-o", path("a.exr")}, {"--stats", path("a.json")}}), "no error");
}

TEST_F(OutputFiles, CheckingCreatesAndChangesNothingButTheFolder) {
    write("old.json", "precious");
    const std::set<std::string> before = entries();
    EXPECT_EQ(outputs_error({}, {{"-o", path("new/image.png")}, {"--stats", path("old.json")}}), "no error");
    std::set<std::string> expected = before;
    expected.insert("new");  // the output folder is created, empty
    EXPECT_EQ(entries(), expected);
    EXPECT_TRUE(fs::is_empty(path("new")));
    EXPECT_EQ(read("old.json"), "precious");  // not truncated
}

TEST_F(OutputFiles, AnOutputThatCannotBeWrittenIsRefusedNamingItsFlag) {
    fs::create_directories(path("folder.png"));
    std::string message = outputs_error({}, {{"-o", path("folder.png")}});
    EXPECT_NE(message.find("-o " + path("folder.png") + ": is a folder"), std::string::npos) << message;
    // /proc takes no new files, even for root.
    message = outputs_error({}, {{"--stats", "/proc/wf_stats.json"}});
    EXPECT_NE(message.find("--stats /proc/wf_stats.json: cannot open for writing"), std::string::npos) << message;
    write("file", "x");
    message = outputs_error({}, {{"-o", path("file/a.png")}});  // a folder that is a file
    EXPECT_NE(message.find("cannot create folder"), std::string::npos) << message;
}

TEST_F(OutputFiles, ReplacingWritesEverythingAndKeepsThePermissions) {
    write("stats.json", "old");
    fs::permissions(path("stats.json"), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    write_file_replacing(path("stats.json"), "new content");
    EXPECT_EQ(read("stats.json"), "new content");
    EXPECT_EQ(fs::status(path("stats.json")).permissions(),
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(entries(), std::set<std::string>{"stats.json"});  // no temporary file left
}

TEST_F(OutputFiles, AFailedWriteLeavesTheOldFileWhole) {
    // A file-size limit makes the write fail part way (EFBIG), as a full disk would.
    const std::string old(100, 'o');
    write("image.hdr", old);
    struct sigaction ignore {}, previous {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ignore, &previous);
    rlimit saved{};
    getrlimit(RLIMIT_FSIZE, &saved);
    rlimit small = saved;
    small.rlim_cur = 4096;
    setrlimit(RLIMIT_FSIZE, &small);
    std::string message = "no error";
    try {
        write_file_replacing(path("image.hdr"), std::string(1 << 16, 'n'));
    } catch (const ImageError& e) {
        message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    sigaction(SIGXFSZ, &previous, nullptr);
    EXPECT_NE(message.find(path("image.hdr") + ": write failed"), std::string::npos) << message;
    EXPECT_EQ(read("image.hdr"), old);
    EXPECT_EQ(entries(), std::set<std::string>{"image.hdr"});  // the temporary file is gone
}

TEST_F(OutputFiles, ASymbolicLinkHasItsFileReplaced) {
    write("real.json", "old");
    fs::create_symlink(path("real.json"), path("link.json"));
    write_file_replacing(path("link.json"), "new");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path("link.json"))));
    EXPECT_EQ(read("real.json"), "new");
}

TEST_F(OutputFiles, APipeIsWrittenIntoNotReplaced) {
    // /dev/stdout and named pipes are not files to rename over.
    ASSERT_EQ(mkfifo(path("pipe").c_str(), 0600), 0);
    const int reader = open(path("pipe").c_str(), O_RDONLY | O_NONBLOCK);  // lets the writer open at once
    ASSERT_GE(reader, 0);
    write_file_replacing(path("pipe"), "through the pipe");
    char buffer[64] = {};
    const ssize_t n = ::read(reader, buffer, sizeof buffer - 1);
    close(reader);
    EXPECT_EQ(std::string(buffer, n > 0 ? size_t(n) : 0), "through the pipe");
    EXPECT_TRUE(fs::is_fifo(path("pipe")));
    EXPECT_EQ(entries(), std::set<std::string>{"pipe"});
}

TEST_F(OutputFiles, WriteImageReplacesTheOldImageWhole) {
    write_image(path("a.png"), Image(4, 4, Vec3f(1.0f)));
    write_image(path("a.png"), Image(2, 2, Vec3f(0.0f)));
    const Image back = read_image(path("a.png"));
    EXPECT_EQ(back.width, 2u);
    EXPECT_EQ(back.at(1, 1).x, 0.0f);
    EXPECT_EQ(entries(), std::set<std::string>{"a.png"});
}

}  // namespace
}  // namespace wf
