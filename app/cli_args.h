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

// --spp and --max-depth are limited by kMaxSpp and kMaxPathDepth (engine/scene.h),
// the scene format's limits.

// The most --threads: far beyond any machine's cores, short of a typo's millions of threads.
inline constexpr uint32_t kMaxCpuThreads = 4096;

struct CliArgs {
    std::string command;  // "render", "info", "help", "version"
    std::string scene_path;
    std::string output_path;  // empty: out/<scene name>.png
    std::optional<uint32_t> spp, width, height, max_depth, seed, light_paths;
    std::optional<std::string> integrator;
    std::optional<double> time_seconds;
    std::optional<uint64_t> max_memory_mib;  // --max-memory, else WF_MAX_MEMORY_MIB (see main)
    std::optional<uint32_t> threads;         // --threads: CPU backend threads, 0 = all (RenderOptions::cpu_threads)
    std::optional<std::string> tonemap;      // --tonemap: a name of io/tonemap.h's kToneCurves (PNG only)
    std::optional<float> exposure;           // --exposure: stops, |EV| <= kMaxExposureStops (PNG only)
    std::optional<std::string> light_selection;  // --light-selection: a name of kLightSelectionNames (engine/scene.h)
    std::optional<AovSet> aovs;              // --aov: AOV layers (engine/aov.h; EXR output only)
    std::optional<MaterialSortMode> material_sort;  // --material-sort: pt's sort of hits by material
    BvhBuilderChoice bvh_builder = BvhBuilderChoice::kAuto;  // --bvh
    BackendKind backend = BackendKind::Auto;
    std::string stats_path;
    std::optional<uint32_t> camera;          // --camera: which of a glTF file's cameras (HostScene::file_cameras)
    std::string env_path;  // --env: an equirectangular map replacing the scene's environment (io/scene_loader.h)
    bool quiet = false;
};

// Throws UsageError with a one-line message naming the offending argument.
CliArgs parse_cli_args(const std::vector<std::string>& args);

// MiB for --max-memory from the text of the flag or of the environment variable `source`
// names; throws UsageError naming `source`.
uint64_t parse_max_memory_mib(const std::string& source, const std::string& text);

const std::string& cli_usage();

// The AOV set a comma-separated list of engine/aov.h names (--aov's value) names; throws
// UsageError naming `flag` and the bad entry. Repeated names count once.
AovSet parse_aov_list(const std::string& flag, const std::string& text);

// --material-sort's value: auto, on or off; throws UsageError naming `flag` otherwise.
MaterialSortMode parse_material_sort(const std::string& flag, const std::string& text);

// --bvh's value: auto, fast, sah or cpu; throws UsageError naming `flag` otherwise.
BvhBuilderChoice parse_bvh_builder(const std::string& flag, const std::string& text);

// Throws UsageError unless `output` can hold the AOVs of `aovs` (an .exr file, or no AOVs).
// `asked_by` names where they were asked for ("--aov", "scene.json: /render/aov").
void check_aov_output(AovSet aovs, const std::string& output, const std::string& asked_by);

// A file the render will write, and the flag that named it (for messages).
struct RenderOutput {
    std::string flag;  // "-o", "--stats"
    std::string path;
};

// Checks, before any work, that the outputs can be written without destroying
// anything: no output is one of `inputs` (the same file, however named: same device
// and inode) or another output, and each can be replaced (io/image.h's
// check_file_replaceable, after its folder is created). Throws UsageError naming the
// flag and the file. Creates the output folders, and nothing else that stays.
void check_render_outputs(const std::vector<std::string>& inputs, const std::vector<RenderOutput>& outputs);

}  // namespace wf
