// glTF benchmark: pt renders glTF models as `wavefront render model.glb` would (the file's
// camera or a framing one, its lights or the neutral environment, its materials and
// textures) at 1024x1024, with and without sorting the surface queue by material
// (wavefront/stages/sort_by_material.h). Prints a table per model and mode (per-stage ms,
// rays/s) and, with --json FILE, writes the same figures.
//
//   build/bin/bench_gltf [--backend auto|cuda|cpu] [--passes N] [--warmup N] [--size N]
//                        [--sort off|on|both] [--env MAP.exr] [--json FILE] MODEL...
// Without MODEL: the repository's test models TextureSettingsTest, OrientationTest and
// EmissiveStrengthTest.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "app/stats_json.h"
#include "bench/bench_common.h"
#include "io/scene_loader.h"

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    uint32_t passes = 32, warmup = 2, size = 1024;
    std::string json_path, sort = "both", env_path;
    std::vector<std::string> models;
    wf::bench::Args args(argc, argv, "bench_gltf",
                         "[--backend auto|cuda|cpu] [--passes N] [--warmup N] [--size N] [--sort off|on|both] "
                         "[--env MAP] [--json FILE] MODEL...");
    for (std::string a; args.next(a);) {
        if (a == "--backend") backend = args.backend();
        else if (a == "--passes") passes = args.count(1, wf::kMaxSpp);
        else if (a == "--warmup") warmup = args.count(0, wf::kMaxSpp);
        else if (a == "--size") size = args.count(1, wf::kMaxFilmSide);
        else if (a == "--sort") sort = args.value();
        else if (a == "--env") env_path = args.value();
        else if (a == "--json") json_path = args.value();
        else if (!a.empty() && a[0] == '-') args.fail("unknown argument " + a);
        else models.push_back(a);
    }
    if (sort != "off" && sort != "on" && sort != "both") args.fail("--sort must be off, on or both, got '" + sort + "'");
    if (models.empty()) {
        const std::string dir = wf::bench::source_dir() + "/tests/data/gltf/";
        for (const char* m : {"TextureSettingsTest", "OrientationTest", "EmissiveStrengthTest"})
            models.push_back(dir + m + "/" + m + ".glb");
    }
    std::vector<wf::MaterialSortMode> modes;
    if (sort != "on") modes.push_back(wf::MaterialSortMode::Off);
    if (sort != "off") modes.push_back(wf::MaterialSortMode::On);

    nlohmann::json report = nlohmann::json::array();
    try {
        for (const std::string& model : models) {
            wf::HostScene scene = wf::load_scene(model);
            if (!env_path.empty()) wf::set_environment_map(scene, env_path);
            const bool auto_sorts =
                wf::resolve_material_sort(wf::MaterialSortMode::Auto, scene) == wf::MaterialSortMode::On;
            std::printf("\n%s: --material-sort auto %s\n", model.c_str(), auto_sorts ? "sorts" : "does not sort");
            for (wf::MaterialSortMode mode : modes) {
                const char* mode_name = mode == wf::MaterialSortMode::On ? "sorted" : "unsorted";
                wf::RenderOptions o;
                o.settings = scene.settings;
                o.settings.width = o.settings.height = size;
                o.settings.integrator = "pt";
                o.backend = backend;
                o.material_sort = mode;
                o.settings.spp = passes;
                const wf::bench::TimedRender t = wf::bench::timed_render(scene, o, warmup);
                std::printf("\n== %s (%s): %zu triangles, %zu materials, %zu lights, %ux%u, max path length %u, "
                            "%u passes, %s on %s\n",
                            model.c_str(), mode_name, scene.triangles.size(), scene.materials.size(),
                            scene.lights.size(), size, size, o.settings.max_depth, passes, t.timed.backend.c_str(),
                            t.timed.device.c_str());
                std::printf("ms/pass %.3f   Mrays/s %.1f (camera+bounce+shadow rays)\n", t.ms_per_pass,
                            t.mrays_per_second);
                wf::print_stage_table(std::cout, t.staged);
                nlohmann::json j = wf::bench::timed_render_json(t, o.settings, model);
                j["model"] = model;
                j["material_sort"] = mode_name;
                j["materials"] = scene.materials.size();
                report.push_back(j);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gltf: %s\n", e.what());
        return 1;
    }
    if (!json_path.empty() && !wf::bench::write_json(args, json_path, report)) return 1;
    return 0;
}
