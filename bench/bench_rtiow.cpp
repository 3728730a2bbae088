// "Ray Tracing in One Weekend" final scene (scenes/rtiow/final.json: 488 spheres, thin
// lens, sky only, 1200x800, 10 spp, max depth 50), rendered as that book's CUDA renderer
// renders it, timed like it: the render of the whole image, without context creation,
// scene building or writing. Prints the time of each repeat, the median, and the stage table
// of one more render with per-stage events. Target on an H100: at most 20 ms per image
// (the CUDA renderer takes 0.46 s there).
//
//   build/bin/bench_rtiow [--backend auto|cuda|cpu] [--repeats N] [--spp N] [--wave-paths N]
//                         [--image FILE] [--json FILE]
// --wave-paths: camera paths traced at once (RenderOptions::max_wave_paths; default: pt's choice).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "app/stats_json.h"
#include "io/image.h"
#include "io/scene_loader.h"

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    uint32_t repeats = 10, spp = 0, wave_paths = 0;
    std::string json_path, image_path;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "bench_rtiow: %s needs a value (or is unknown)\n", a.c_str());
            return 2;
        }
        std::string v = argv[++i];
        if (a == "--backend" && (v == "auto" || v == "cuda" || v == "cpu"))
            backend = v == "cpu" ? wf::BackendKind::Cpu : v == "cuda" ? wf::BackendKind::Cuda : wf::BackendKind::Auto;
        else if (a == "--repeats" && std::atoi(v.c_str()) > 0) repeats = uint32_t(std::atoi(v.c_str()));
        else if (a == "--spp" && std::atoi(v.c_str()) > 0) spp = uint32_t(std::atoi(v.c_str()));
        else if (a == "--wave-paths" && std::atoi(v.c_str()) > 0) wave_paths = uint32_t(std::atoi(v.c_str()));
        else if (a == "--image") image_path = v;
        else if (a == "--json") json_path = v;
        else {
            std::fprintf(stderr, "bench_rtiow: bad argument %s %s\n", a.c_str(), v.c_str());
            return 2;
        }
    }
    const char* env_dir = std::getenv("WF_SOURCE_DIR");
    const std::string scene_path = std::string(env_dir && *env_dir ? env_dir : WF_SOURCE_DIR) + "/scenes/rtiow/final.json";
    try {
        wf::HostScene scene = wf::load_scene(scene_path);
        wf::RenderOptions o;
        o.settings = scene.settings;
        if (spp) o.settings.spp = spp;
        o.backend = backend;
        if (wave_paths) o.max_wave_paths = wave_paths;
        wf::render(scene, o);  // warm-up: module load, first allocations
        std::vector<double> ms;
        wf::RenderResult last;
        for (uint32_t r = 0; r < repeats; ++r) {
            last = wf::render(scene, o);
            ms.push_back(1000.0 * last.render_seconds);
        }
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted[sorted.size() / 2];
        uint64_t rays = 0;
        for (const wf::BounceQueueSizes& q : last.stats.bounces) rays += q.active + q.shadow;
        std::printf("== rtiow-final: %ux%u, %u spp, max depth %u, waves of %s paths, %s on %s\n", o.settings.width,
                    o.settings.height, o.settings.spp, o.settings.max_depth,
                    wave_paths ? std::to_string(wave_paths).c_str() : "pt's default", last.backend.c_str(),
                    last.device.c_str());
        std::printf("ms per image:");
        for (double m : ms) std::printf(" %.2f", m);
        std::printf("\nmedian %.2f ms, min %.2f ms; BVH build %.2f ms, upload %.2f ms (not counted); %.1f Msamples/s, "
                    "%.1f Mrays/s (camera+bounce+shadow)\n",
                    median, sorted.front(), last.stats.bvh_build_ms, last.stats.upload_ms,
                    double(last.samples) / median * 1e-3, double(rays) / median * 1e-3);
        o.collect_stage_times = true;
        wf::RenderResult staged = wf::render(scene, o);
        wf::print_stage_table(std::cout, staged);
        if (!image_path.empty()) wf::write_image(image_path, last.image);
        if (!json_path.empty()) {
            nlohmann::json j = nlohmann::json::parse(wf::render_stats_json(staged, o.settings, scene_path));
            j["case"] = "rtiow-final";
            j["ms_per_image"] = ms;
            j["median_ms"] = median;
            j["mrays_per_second"] = double(rays) / median * 1e-3;
            std::ofstream(json_path) << j.dump(2) << "\n";
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_rtiow: %s\n", e.what());
        return 1;
    }
    return 0;
}
