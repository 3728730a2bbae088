// Removes what this test process left in the temporary folder when it ends. Tests
// name their temporary files and folders wf_<what>_<pid>... (ctest runs each test
// in a process of its own, so the pid keeps parallel tests apart), and many write
// them per process without removing them: a full run used to leave thousands.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace {

class RemoveThisProcessTempFiles : public ::testing::Environment {
public:
    void TearDown() override {
        namespace fs = std::filesystem;
        const std::string pid = std::to_string(::getpid());
        std::error_code ec;
        for (const fs::path& root : {fs::path(::testing::TempDir()), fs::temp_directory_path(ec)}) {
            for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
                const std::string name = it->path().filename().string();
                if (name.rfind("wf_", 0) != 0) continue;
                // "_<pid>" followed by the end of the name, "_" or "." (not another pid it begins).
                for (size_t at = name.find("_" + pid); at != std::string::npos; at = name.find("_" + pid, at + 1)) {
                    const size_t after = at + 1 + pid.size();
                    if (after == name.size() || name[after] == '_' || name[after] == '.') {
                        std::error_code ignored;
                        fs::remove_all(it->path(), ignored);
                        break;
                    }
                }
            }
        }
    }
};

const ::testing::Environment* const kRemoveTempFiles =
    ::testing::AddGlobalTestEnvironment(new RemoveThisProcessTempFiles);

}  // namespace
