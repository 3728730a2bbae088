// Command-line parsing for `wavefront`. Kept apart from main() so tests can
// check that bad arguments give clear errors.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/render.h"

namespace wf {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CliArgs {
    std::string command;  // "render", "info", "help", "version"
    std::string scene_path;
    std::string output_path;  // empty: out/<scene name>.png
    std::optional<uint32_t> spp, width, height, max_depth, seed, light_paths;
    std::optional<std::string> integrator;
    std::optional<double> time_seconds;
    BackendKind backend = BackendKind::Auto;
    std::string stats_path;
    bool quiet = false;
};

// Throws UsageError with a one-line message naming the offending argument.
CliArgs parse_cli_args(const std::vector<std::string>& args);

const char* cli_usage();

}  // namespace wf
