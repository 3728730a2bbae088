// `wavefront`: command-line entry point.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>
#include <optional>
#include <thread>

#include "app/cli_args.h"
#include "app/render.h"
#include "app/stats_json.h"
#include "engine/backend/thread_pool.h"
#include "engine/integrators.h"
#include "io/image.h"
#include "io/scene_loader.h"

namespace {

constexpr int kExitRenderFailed = 1;
constexpr int kExitBadInput = 2;

// One line redrawn in place: bar, passes, Msamples/s, ETA.
void draw_progress(uint32_t done, uint32_t total, double seconds, uint64_t samples_per_pass, double time_budget) {
    const int width = 30;
    int filled = int(double(done) / total * width);
    double rate = seconds > 0 ? double(done) * samples_per_pass / seconds * 1e-6 : 0.0;
    double eta = done ? seconds / done * (total - done) : 0.0;
    if (time_budget > 0.0) {  // the clock decides when to stop
        filled = std::min(width, int(seconds / time_budget * width));
        eta = std::max(0.0, time_budget - seconds);
    }
    std::fprintf(stderr, "\r[%.*s%*s] %u spp  %.1f Msamples/s  ETA %.1f s ", filled,
                 "##############################", width - filled, "", done, rate, eta);
    std::fflush(stderr);
}

constexpr const char* kMaxMemoryVariable = "WF_MAX_MEMORY_MIB";

// A bad -o extension is a usage error (exit 2), found before the render.
void check_output_extension(const std::string& output) {
    try {
        wf::check_image_extension(output);
    } catch (const wf::ImageError& e) {
        throw wf::UsageError(e.what());
    }
}

// --max-memory, else the environment variable, else no limit (0).
uint64_t max_memory_bytes(const wf::CliArgs& args) {
    std::optional<uint64_t> mib = args.max_memory_mib;
    const char* env = std::getenv(kMaxMemoryVariable);
    if (!mib && env && *env) mib = wf::parse_max_memory_mib(kMaxMemoryVariable, env);
    return mib ? *mib << 20 : 0;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void warn(const std::string& line) { std::fprintf(stderr, "wavefront: %s\n", line.c_str()); }

int print_info() {
    std::printf("wavefront backends:\n  cpu: available (%u threads)\n", std::thread::hardware_concurrency());
    std::string why;
    if (wf::cuda_backend_available(&why)) std::printf("  cuda: available\n");
    else std::printf("  cuda: unavailable (%s)\n", why.c_str());
    if (const std::string code = wf::cuda_architectures_or_empty(); !code.empty())
        std::printf("    GPU code in this build: %s\n", code.c_str());
    for (const std::string& d : wf::cuda_device_descriptions_or_empty()) std::printf("    %s\n", d.c_str());
    return 0;
}

int run_render(const wf::CliArgs& args) {
    // --threads caps the process's thread pool as well, which encodes the image.
    if (args.threads) wf::ThreadPool::set_global_threads(*args.threads);
    // The GPU's driver and context start on a thread of their own while the scene
    // loads: each takes a few hundred ms for a large mesh, so neither waits for the
    // other. (A scene that fails to load waits for it before its error is reported.)
    std::future<wf::BackendChoice> device =
        std::async(args.backend == wf::BackendKind::Cpu ? std::launch::deferred : std::launch::async,
                   wf::choose_backend, args.backend);
    const auto load_start = std::chrono::steady_clock::now();
    wf::SceneLoadStats load_stats;
    wf::HostScene scene = wf::load_scene(args.scene_path, &load_stats);
    for (const std::string& w : load_stats.warnings) warn(w);
    if (args.camera) {
        if (*args.camera >= scene.file_cameras.size())
            throw wf::UsageError("--camera " + std::to_string(*args.camera) + ": " + args.scene_path + " has " +
                                 std::to_string(scene.file_cameras.size()) +
                                 " camera(s), numbered from 0");
        wf::use_file_camera(scene, *args.camera);
    }
    if (!args.env_path.empty()) wf::set_environment_map(scene, args.env_path);
    const double load_seconds = seconds_since(load_start);
    wf::RenderOptions options;
    options.settings = scene.settings;
    if (args.spp) options.settings.spp = *args.spp;
    if (args.width) options.settings.width = *args.width;
    if (args.height) options.settings.height = *args.height;
    if (args.max_depth) options.settings.max_depth = *args.max_depth;
    if (args.seed) options.settings.seed = *args.seed;
    if (args.integrator) options.settings.integrator = *args.integrator;
    if (args.light_paths) options.settings.light_paths = *args.light_paths;
    if (args.tonemap) options.settings.tonemap = *args.tonemap;
    if (args.exposure) options.settings.exposure = *args.exposure;
    if (args.light_selection) options.settings.light_selection = *args.light_selection;
    if (args.aovs) options.settings.aovs = *args.aovs;
    const wf::ToneCurveInfo* curve = wf::find_tone_curve(options.settings.tonemap);
    if (!curve)  // the loader and the CLI check the name; this is the last line of defence
        throw wf::UsageError(args.scene_path + ": /render/tonemap: unknown tone curve '" + options.settings.tonemap +
                             "'");
    const wf::ToneMap tone{curve->curve, options.settings.exposure};
    const wf::IntegratorInfo* integrator = wf::find_integrator(options.settings.integrator);
    if (!integrator)  // the loader and the CLI check the name; this is the last line of defence
        throw wf::UsageError(args.scene_path + ": /render/integrator: unknown integrator '" +
                             options.settings.integrator + "'");
    if (std::string problem = wf::integrator_settings_problem(integrator->kind, options.settings); !problem.empty())
        throw wf::UsageError(problem);
    if (std::string problem = wf::integrator_scene_problem(integrator->kind, scene); !problem.empty())
        throw wf::UsageError(args.scene_path + ": " + problem + " (integrator " + options.settings.integrator + ")");
    if (args.material_sort) {
        if (*args.material_sort == wf::MaterialSortMode::On && integrator->kind != wf::IntegratorKind::Pt)
            throw wf::UsageError("--material-sort on: only pt sorts its hits by material, not " +
                                 options.settings.integrator);
        options.material_sort = *args.material_sort;
    }
    if (args.time_seconds) {
        options.time_budget_seconds = *args.time_seconds;
        if (!args.spp) options.settings.spp = 0xffffffffu;  // the clock decides
    }
    options.bvh_builder = args.bvh_builder;
    options.collect_stage_times = !args.stats_path.empty();
    options.max_memory_bytes = max_memory_bytes(args);
    options.cpu_threads = args.threads.value_or(0);
    const uint64_t pixels = uint64_t(options.settings.width) * options.settings.height;
    if (pixels > wf::kMaxFilmPixels)
        throw wf::UsageError("film of " + std::to_string(options.settings.width) + "x" +
                             std::to_string(options.settings.height) + " pixels: expected at most " +
                             std::to_string(wf::kMaxFilmPixels) + " pixels");

    // Every output is checked before the render, so a bad one costs no rendering time
    // and none can overwrite an input: the scene file or a mesh file it read.
    std::string output = args.output_path;
    if (output.empty())  // AOV layers need OpenEXR
        output = "out/" + std::filesystem::path(args.scene_path).stem().string() +
                 (options.settings.aovs ? ".exr" : ".png");
    check_output_extension(output);
    wf::check_aov_output(options.settings.aovs, output, args.aovs ? "--aov" : args.scene_path + ": /render/aov");
    std::vector<wf::RenderOutput> outputs = {{args.output_path.empty() ? "output" : "-o", output}};
    if (!args.stats_path.empty()) outputs.push_back({"--stats", args.stats_path});
    wf::check_render_outputs(scene.input_files, outputs);

    const auto wait_start = std::chrono::steady_clock::now();
    const wf::BackendChoice backend = device.get();
    const double device_wait_seconds = seconds_since(wait_start);
    if (!backend.warning.empty()) warn(backend.warning);  // now, not after a long render
    options.backend = backend.kind;

    const bool terminal = isatty(fileno(stderr)) && !args.quiet;
    auto start = std::chrono::steady_clock::now();
    uint64_t per_pass = uint64_t(options.settings.width) * options.settings.height;
    if (terminal) {
        options.progress = [&](uint32_t done, uint32_t total) {
            draw_progress(done, total, seconds_since(start), per_pass, options.time_budget_seconds);
        };
    }
    wf::RenderResult result = wf::render(scene, options);
    result.stats.scene_load_seconds = load_seconds;
    result.stats.device_wait_seconds = device_wait_seconds;
    if (terminal) std::fprintf(stderr, "\n");
    for (const std::string& w : result.warnings) warn(w);  // on stderr, --quiet or not
    if (!backend.warning.empty()) result.warnings.insert(result.warnings.begin(), backend.warning);  // for --stats

    const auto write_start = std::chrono::steady_clock::now();
    wf::write_image(output, result.image, tone, result.aovs);
    const double image_write_seconds = seconds_since(write_start);
    if (!args.stats_path.empty()) {
        wf::write_file_replacing(args.stats_path,
                                 wf::render_stats_json(result, options.settings, args.scene_path, image_write_seconds));
        if (!args.quiet) wf::print_stage_table(std::cout, result);
    }
    const double write_seconds = seconds_since(write_start);
    if (!args.quiet) {
        const wf::RenderSettings& s = options.settings;
        std::printf("%s: %ux%u, %u spp, %s on %s (%s, %.1f MiB), load %.3f s, setup %.3f s, render %.3f s, "
                    "write %.3f s, %.2f Msamples/s -> %s\n",
                    args.scene_path.c_str(), s.width, s.height, result.passes, s.integrator.c_str(),
                    result.backend == "cuda" ? "GPU" : "CPU", result.device.c_str(),
                    double(result.peak_memory_bytes) / (1024.0 * 1024.0), load_seconds,
                    wf::setup_seconds(result.stats), result.render_seconds,
                    write_seconds,
                    result.render_seconds > 0 ? double(result.samples) / result.render_seconds * 1e-6 : 0.0,
                    output.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    wf::CliArgs args;
    try {
        args = wf::parse_cli_args(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const wf::UsageError& e) {
        std::fprintf(stderr, "wavefront: %s\n", e.what());
        return kExitBadInput;
    }
    if (args.command == "help") { std::fputs(wf::cli_usage().c_str(), stdout); return 0; }
    if (args.command == "version") { std::puts("wavefront 0.1.0"); return 0; }
    if (args.command == "info") return print_info();
    try {
        return run_render(args);
    } catch (const wf::SceneError& e) {
        std::fprintf(stderr, "wavefront: %s\n", e.what());
        return kExitBadInput;
    } catch (const wf::UsageError& e) {
        std::fprintf(stderr, "wavefront: %s\n", e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "wavefront: %s\n", e.what());
        return kExitRenderFailed;
    }
}
