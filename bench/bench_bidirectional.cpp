// Benchmark of the SmallVCM family on SmallVCM's four scenes at 512x512, max path
// length 10 (SmallVCM's settings): ms per iteration for every algorithm, then the
// per-stage table of each (scene, algorithm) pair. One iteration is one light pass
// and one camera pass (pt: one sample per pixel).
//
//   build/bin/bench_bidirectional [--backend auto|cuda|cpu] [--iterations N] [--warmup N]
//       [--size S] [--scenes 0,1,2,3] [--algorithms lt,bpt,ppm,bpm,vcm,pt] [--json FILE]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "app/stats_json.h"
#include "io/scene_loader.h"

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    uint32_t iterations = 50, warmup = 3, size = 512;
    std::vector<std::string> scenes = {"0", "1", "2", "3"};
    std::vector<std::string> algorithms = {"lt", "bpt", "ppm", "bpm", "vcm", "pt"};
    std::string json_path;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "bench_bidirectional: %s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--backend") {
            std::string b = next();
            backend = b == "cpu" ? wf::BackendKind::Cpu : b == "cuda" ? wf::BackendKind::Cuda : wf::BackendKind::Auto;
        } else if (a == "--iterations") iterations = uint32_t(std::stoul(next()));
        else if (a == "--warmup") warmup = uint32_t(std::stoul(next()));
        else if (a == "--size") size = uint32_t(std::stoul(next()));
        else if (a == "--scenes") scenes = split(next());
        else if (a == "--algorithms") algorithms = split(next());
        else if (a == "--json") json_path = next();
        else { std::fprintf(stderr, "bench_bidirectional: unknown argument %s\n", a.c_str()); return 2; }
    }
    const char* scene_files[] = {"s0-sun.json", "s1-area.json", "s2-point.json", "s3-background.json"};
    const char* env_dir = std::getenv("WF_SOURCE_DIR");
    const std::string source_dir = env_dir && *env_dir ? env_dir : WF_SOURCE_DIR;

    nlohmann::json report = nlohmann::json::array();
    std::vector<std::string> summary;
    std::string device;
    try {
        for (const std::string& s : scenes) {
            int id = std::stoi(s);
            if (id < 0 || id > 3) throw std::runtime_error("--scenes: expected ids 0..3");
            wf::HostScene scene = wf::load_scene(source_dir + "/scenes/smallvcm/" + scene_files[id]);
            for (const std::string& alg : algorithms) {
                wf::RenderOptions o;
                o.settings = scene.settings;
                o.settings.width = o.settings.height = size;
                o.settings.max_depth = 10;
                o.settings.integrator = alg;
                o.backend = backend;
                if (warmup) {
                    o.settings.spp = warmup;
                    wf::render(scene, o);
                }
                o.settings.spp = iterations;
                wf::RenderResult timed = wf::render(scene, o);  // no per-launch events: the honest total
                o.collect_stage_times = true;
                o.settings.spp = std::max(1u, iterations / 5);
                wf::RenderResult staged = wf::render(scene, o);
                device = timed.device;
                double ms = 1000.0 * timed.render_seconds / timed.passes;
                char line[160];
                std::snprintf(line, sizeof line, "s%d  %-4s %10.3f", id, alg.c_str(), ms);
                summary.push_back(line);
                std::printf("\n== s%d %s: %ux%u, max path length 10, %u iterations, %s on %s: %.3f ms/iteration\n", id,
                            alg.c_str(), size, size, timed.passes, timed.backend.c_str(), timed.device.c_str(), ms);
                wf::print_stage_table(std::cout, staged);
                nlohmann::json j = nlohmann::json::parse(wf::render_stats_json(staged, o.settings, scene_files[id]));
                j["scene_id"] = id;
                j["ms_per_iteration"] = ms;
                j["timed_iterations"] = timed.passes;
                report.push_back(j);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_bidirectional: %s\n", e.what());
        return 1;
    }
    std::printf("\n== summary (%s, %ux%u, max path length 10): ms per iteration\nscene alg  ms/iteration\n",
                device.c_str(), size, size);
    for (const std::string& l : summary) std::printf("%s\n", l.c_str());
    if (!json_path.empty()) std::ofstream(json_path) << report.dump(2) << "\n";
    return 0;
}
