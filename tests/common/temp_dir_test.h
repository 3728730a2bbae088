// A test fixture with a folder of its own, <tmp>/<prefix><pid>_<test name>, made empty
// before each test and removed after it, so tests that write files may run in parallel
// (ctest -j) and leave nothing behind.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace wf::test {

class TempDirTest : public ::testing::Test {
protected:
    explicit TempDirTest(std::string prefix) : prefix_(std::move(prefix)) {}

    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() / (prefix_ + std::to_string(::getpid()) + "_" + info->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    std::filesystem::path dir_;

private:
    std::string prefix_;
};

}  // namespace wf::test
