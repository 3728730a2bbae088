// Path-tracing benchmark: SmallVCM scene 1 at 512x512 (max path length 10) and
// the Cornell box at 1024x1024. Prints a table per case (per-stage ms, rays/s,
// queue sizes) and, with --json FILE, writes the same figures for tooling.
//
//   build/bin/bench_pt [--backend auto|cuda|cpu] [--passes N] [--warmup N] [--json FILE]
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "app/stats_json.h"
#include "bench/bench_common.h"
#include "io/scene_loader.h"

namespace {

struct BenchCase {
    const char* name;
    const char* scene;
    uint32_t width, height, max_depth;
};

}  // namespace

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    uint32_t passes = 64, warmup = 4;
    std::string json_path;
    wf::bench::Args args(argc, argv, "bench_pt", "[--backend auto|cuda|cpu] [--passes N] [--warmup N] [--json FILE]");
    for (std::string a; args.next(a);) {
        if (a == "--backend") backend = args.backend();
        else if (a == "--passes") passes = args.count(1, wf::kMaxSpp);
        else if (a == "--warmup") warmup = args.count(0, wf::kMaxSpp);
        else if (a == "--json") json_path = args.value();
        else args.fail("unknown argument " + a);
    }

    const BenchCase cases[] = {
        {"smallvcm-s1-512", "scenes/smallvcm/s1-area.json", 512, 512, 10},
        {"cornell-box-1024", "scenes/cornell-box.json", 1024, 1024, 10},
    };
    const std::string source_dir = wf::bench::source_dir();  // scenes come from the repository
    nlohmann::json report = nlohmann::json::array();
    try {
        for (const BenchCase& c : cases) {
            wf::HostScene scene = wf::load_scene(source_dir + "/" + c.scene);
            wf::RenderOptions o;
            o.settings = scene.settings;
            o.settings.width = c.width;
            o.settings.height = c.height;
            o.settings.max_depth = c.max_depth;
            o.settings.integrator = "pt";
            o.backend = backend;
            o.settings.spp = passes;
            const wf::bench::TimedRender t = wf::bench::timed_render(scene, o, warmup);
            std::printf("\n== %s: %ux%u, max path length %u, %u passes, %s on %s\n", c.name, c.width, c.height,
                        c.max_depth, passes, t.timed.backend.c_str(), t.timed.device.c_str());
            std::printf("ms/pass %.3f   Msamples/s %.1f   Mrays/s %.1f (camera+bounce+shadow rays)\n", t.ms_per_pass,
                        double(t.timed.samples) / t.timed.render_seconds * 1e-6, t.mrays_per_second);
            wf::print_stage_table(std::cout, t.staged);
            nlohmann::json j = wf::bench::timed_render_json(t, o.settings, c.scene);
            j["case"] = c.name;
            report.push_back(j);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_pt: %s\n", e.what());
        return 1;
    }
    if (!json_path.empty() && !wf::bench::write_json(args, json_path, report)) return 1;
    return 0;
}
