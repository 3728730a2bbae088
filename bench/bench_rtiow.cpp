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
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "app/stats_json.h"
#include "bench/bench_common.h"
#include "io/image.h"
#include "io/scene_loader.h"

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    uint32_t repeats = 10, spp = 0, wave_paths = 0;
    std::string json_path, image_path;
    wf::bench::Args args(argc, argv, "bench_rtiow",
                         "[--backend auto|cuda|cpu] [--repeats N] [--spp N] [--wave-paths N] [--image FILE] [--json FILE]");
    for (std::string a; args.next(a);) {
        if (a == "--backend") backend = args.backend();
        else if (a == "--repeats") repeats = args.count(1, 1000);
        else if (a == "--spp") spp = args.count(1, wf::kMaxSpp);
        else if (a == "--wave-paths") wave_paths = args.count(1, 1u << 30);
        else if (a == "--image") image_path = args.value();
        else if (a == "--json") json_path = args.value();
        else args.fail("unknown argument " + a);
    }
    const std::string scene_path = wf::bench::source_dir() + "/scenes/rtiow/final.json";
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
        const uint64_t rays = wf::bench::traced_rays(last);
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
            if (!wf::bench::write_json(args, json_path, j)) return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_rtiow: %s\n", e.what());
        return 1;
    }
    return 0;
}
