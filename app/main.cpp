// `wavefront`: command-line entry point.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "app/cli_args.h"
#include "app/render.h"
#include "engine/integrators.h"
#include "app/stats_json.h"
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

// Checks the extension and creates the output folder, so that a bad -o fails
// before the render rather than after it.
void prepare_output_path(const std::string& output) {
    try {
        wf::check_image_extension(output);
    } catch (const wf::ImageError& e) {
        throw wf::UsageError(e.what());  // a bad -o is a usage error (exit 2)
    }
    std::filesystem::path dir = std::filesystem::path(output).parent_path();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
    if (ec) throw wf::UsageError(output + ": cannot create folder '" + dir.string() + "': " + ec.message());
}

// Opens (and truncates) a file we will write after the render, so a bad path fails now.
void check_writable(const std::string& path) {
    std::ofstream f(path);
    if (!f) throw wf::UsageError(path + ": cannot open for writing");
}

int print_info() {
    std::printf("wavefront backends:\n  cpu: available (%u threads)\n", std::thread::hardware_concurrency());
    std::string why;
    if (wf::cuda_backend_available(&why)) {
        std::printf("  cuda: available\n");
        for (const std::string& d : wf::cuda_device_descriptions_or_empty()) std::printf("    %s\n", d.c_str());
    } else {
        std::printf("  cuda: unavailable (%s)\n", why.c_str());
    }
    return 0;
}

int run_render(const wf::CliArgs& args) {
    wf::HostScene scene = wf::load_scene(args.scene_path);
    wf::RenderOptions options;
    options.settings = scene.settings;
    if (args.spp) options.settings.spp = *args.spp;
    if (args.width) options.settings.width = *args.width;
    if (args.height) options.settings.height = *args.height;
    if (args.max_depth) options.settings.max_depth = *args.max_depth;
    if (args.seed) options.settings.seed = *args.seed;
    if (args.integrator) options.settings.integrator = *args.integrator;
    if (args.light_paths) options.settings.light_paths = *args.light_paths;
    const wf::IntegratorInfo* integrator = wf::find_integrator(options.settings.integrator);
    if (!integrator)  // the loader and the CLI check the name; this is the last line of defence
        throw wf::UsageError(args.scene_path + ": /render/integrator: unknown integrator '" +
                             options.settings.integrator + "'");
    if (std::string problem = wf::integrator_settings_problem(integrator->kind, options.settings); !problem.empty())
        throw wf::UsageError(problem);
    if (std::string problem = wf::integrator_scene_problem(integrator->kind, scene); !problem.empty())
        throw wf::UsageError(args.scene_path + ": " + problem + " (integrator " + options.settings.integrator + ")");
    options.backend = args.backend;
    if (args.time_seconds) {
        options.time_budget_seconds = *args.time_seconds;
        if (!args.spp) options.settings.spp = 0xffffffffu;  // the clock decides
    }
    options.collect_stage_times = !args.stats_path.empty();

    std::string output = args.output_path;
    if (output.empty()) output = "out/" + std::filesystem::path(args.scene_path).stem().string() + ".png";
    // Fail on an unusable output name before spending time rendering.
    prepare_output_path(output);
    if (!args.stats_path.empty()) check_writable(args.stats_path);
    const uint64_t pixels = uint64_t(options.settings.width) * options.settings.height;
    if (pixels > wf::kMaxFilmPixels)
        throw wf::UsageError("film of " + std::to_string(options.settings.width) + "x" +
                             std::to_string(options.settings.height) + " pixels: expected at most " +
                             std::to_string(wf::kMaxFilmPixels) + " pixels");

    const bool terminal = isatty(fileno(stderr)) && !args.quiet;
    auto start = std::chrono::steady_clock::now();
    uint64_t per_pass = uint64_t(options.settings.width) * options.settings.height;
    if (terminal) {
        options.progress = [&](uint32_t done, uint32_t total) {
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            draw_progress(done, total, s, per_pass, options.time_budget_seconds);
        };
    }
    wf::RenderResult result = wf::render(scene, options);
    if (terminal) std::fprintf(stderr, "\n");
    wf::write_image(output, result.image);

    if (!args.stats_path.empty()) {
        std::ofstream f(args.stats_path);
        f << wf::render_stats_json(result, options.settings, args.scene_path);
        f.close();
        if (!f) throw std::runtime_error(args.stats_path + ": cannot write the statistics file");
        if (!args.quiet) wf::print_stage_table(std::cout, result);
    }
    if (!args.quiet) {
        const wf::RenderSettings& s = options.settings;
        std::printf("%s: %ux%u, %u spp, %s on %s (%s, %.1f MiB), %.3f s, %.2f Msamples/s -> %s\n",
                    args.scene_path.c_str(), s.width, s.height, result.passes, s.integrator.c_str(),
                    result.backend == "cuda" ? "GPU" : "CPU", result.device.c_str(),
                    double(result.peak_memory_bytes) / (1024.0 * 1024.0), result.render_seconds,
                    result.render_seconds > 0 ? double(result.samples) / result.render_seconds * 1e-6 : 0.0,
                    output.c_str());
        if (result.stats.nonfinite_samples)
            std::printf("warning: %llu samples had NaN/Inf radiance and were dropped\n",
                        (unsigned long long)result.stats.nonfinite_samples);
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
    if (args.command == "help") { std::fputs(wf::cli_usage(), stdout); return 0; }
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
