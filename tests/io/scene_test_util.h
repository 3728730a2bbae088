// Shared helpers for the scene loader tests.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "io/scene_loader.h"

#include "tests/common/source_dir.h"

namespace wf::test {

inline std::string scene_path(const std::string& relative) { return source_dir() + "/" + relative; }

// Runs `fn`, which must throw SceneError; returns the message ("" and a test failure otherwise).
template <typename Fn>
std::string scene_error_of(Fn&& fn) {
    try {
        fn();
    } catch (const SceneError& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected SceneError, got another exception: " << e.what();
        return "";
    }
    ADD_FAILURE() << "expected SceneError, nothing was thrown";
    return "";
}

inline std::string parse_error(const std::string& json) {
    return scene_error_of([&] { parse_scene(json, "inline.json", "."); });
}

}  // namespace wf::test
