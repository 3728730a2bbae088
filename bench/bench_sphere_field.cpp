// Sphere-field benchmark: N random spheres (bench_bvh's field: radius 0.1 to 0.4, one
// per 4 square units, on a ground quad) under a sky, seen from above the middle of the
// field by a camera looking across it, at a fixed resolution and spp, path tracing (pt).
// Materials are mixed: diffuse in four colours, glossy, mirror and glass. For each N:
// the BVH build, the render time per spp, Mrays/s (camera, bounce and shadow rays) and
// both against the first N: the render time should grow far slower than N, as the
// camera sees about the same spheres and only the tree gets deeper.
//
//   build/bin/bench_sphere_field [--backend auto|cuda|cpu] [--counts 1k,8k,64k,512k,4M]
//       [--size S] [--spp N] [--max-depth D] [--reps N] [--warmup N] [--json FILE]
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "bench/bench_common.h"

namespace {

wf::HostScene sphere_field_scene(uint32_t count) {
    wf::HostScene s;
    s.source_path = "sphere field";
    wf::bench::sphere_field(count, s.triangles, s.spheres);
    auto diffuse = [](float r, float g, float b) {
        wf::Material m;
        m.kd = wf::Vec3f(r, g, b);
        return m;
    };
    wf::Material glossy = diffuse(0.2f, 0.3f, 0.5f), mirror, glass;
    glossy.ks = wf::Vec3f(0.5f);
    glossy.phong_exponent = 80.0f;
    mirror.km = wf::Vec3f(0.9f);
    glass.km = wf::Vec3f(1.0f);
    glass.ior = 1.5f;
    s.materials = {diffuse(0.5f, 0.5f, 0.5f), diffuse(0.8f, 0.3f, 0.2f), diffuse(0.3f, 0.7f, 0.3f),
                   diffuse(0.7f, 0.7f, 0.2f), diffuse(0.8f, 0.8f, 0.8f), glossy, mirror, glass};
    s.material_names = {"ground", "red", "green", "yellow", "white", "glossy", "mirror", "glass"};
    // The ground's two triangles take material 0; a sphere is diffuse (60%), glossy,
    // mirror (15% each) or glass (10%), drawn from its own seeded stream.
    s.prims.assign(s.triangles.size(), wf::PrimInfo{});
    std::mt19937 rng(count + 1);
    std::uniform_int_distribution<uint32_t> pick(0, 19);
    for (size_t i = 0; i < s.spheres.size(); ++i) {
        uint32_t p = pick(rng);
        s.prims.push_back({p < 12 ? 1 + p % 4 : p < 15 ? 5u : p < 18 ? 6u : 7u, -1, 0});
    }
    wf::Light sky;
    sky.type = wf::LightType::Environment;
    sky.radiance = wf::Vec3f(0.9f, 0.95f, 1.0f);
    s.lights = {sky};
    s.camera.position = wf::Vec3f(0.0f, 2.5f, 0.0f);  // the field's centre, above the spheres
    s.camera.forward = wf::Vec3f(0.0f, -2.5f, 12.0f);   // 12 degrees down: field, horizon and sky
    s.camera.fov_y_degrees = 40.0f;
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    std::vector<uint64_t> counts = {1000, 8000, 64000, 512000, 4000000};
    uint32_t size = 1024, spp = 16, max_depth = 8, reps = 3, warmup = 2;
    std::string json_path;
    wf::bench::Args args(argc, argv, "bench_sphere_field",
                         "[--backend auto|cuda|cpu] [--counts 1k,8k,64k,512k,4M] [--size S] [--spp N] "
                         "[--max-depth D] [--reps N] [--warmup N] [--json FILE]");
    for (std::string a; args.next(a);) {
        if (a == "--backend") backend = args.backend();
        else if (a == "--counts") counts = args.counts(1, 64000000);
        else if (a == "--size") size = args.count(8, 8192);
        else if (a == "--spp") spp = args.count(1, 4096);
        else if (a == "--max-depth") max_depth = args.count(1, wf::kMaxPathDepth);
        else if (a == "--reps") reps = args.count(1, 100);
        else if (a == "--warmup") warmup = args.count(0, 4096);
        else if (a == "--json") json_path = args.value();
        else args.fail("unknown argument " + a);
    }

    nlohmann::json report = nlohmann::json::array();
    double first_ms = 0.0;
    try {
        for (size_t c = 0; c < counts.size(); ++c) {
            const uint64_t n = counts[c];
            const wf::HostScene scene = sphere_field_scene(uint32_t(n));
            wf::RenderOptions o;
            o.settings.width = o.settings.height = size;
            o.settings.max_depth = max_depth;
            o.settings.integrator = "pt";
            o.backend = backend;
            if (warmup) {  // module load, allocation, first touch
                o.settings.spp = warmup;
                wf::render(scene, o);
            }
            o.settings.spp = spp;
            // The fastest of --reps renders (no per-launch events: the honest total), and
            // the fastest BVH build among them.
            wf::RenderResult best;
            double bvh_ms = 0.0;
            for (uint32_t rep = 0; rep < reps; ++rep) {
                wf::RenderResult r = wf::render(scene, o);
                bvh_ms = rep ? std::min(bvh_ms, r.stats.bvh_build_ms) : r.stats.bvh_build_ms;
                if (!rep || r.render_seconds < best.render_seconds) best = std::move(r);
            }
            if (c == 0) {
                for (const std::string& w : best.warnings) std::fprintf(stderr, "%s\n", w.c_str());
                std::printf("sphere field: %ux%u, %u spp, max path length %u, pt, fastest of %u renders, %s on %s\n"
                            "%10s %10s %10s %8s %10s %10s %9s %9s\n",
                            size, size, spp, max_depth, reps, best.backend.c_str(), best.device.c_str(), "N",
                            "prims", "BVH ms", "depth", "ms/spp", "Mrays/s", "N x", "time x");
            }
            const double ms_per_spp = 1000.0 * best.render_seconds / best.passes;
            const double mrays = double(wf::bench::traced_rays(best)) / best.render_seconds * 1e-6;
            if (c == 0) first_ms = ms_per_spp;
            std::printf("%10llu %10u %10.2f %8u %10.3f %10.1f %9.1f %9.2f\n", (unsigned long long)n, scene.num_prims(),
                        bvh_ms, best.stats.bvh.depth, ms_per_spp, mrays, double(n) / double(counts.front()),
                        ms_per_spp / first_ms);
            std::fflush(stdout);
            report.push_back({{"spheres", n}, {"prims", scene.num_prims()}, {"width", size}, {"height", size},
                              {"spp", spp}, {"max_depth", max_depth}, {"backend", best.backend},
                              {"device", best.device}, {"bvh_builder", best.stats.bvh.builder},
                              {"bvh_build_ms", bvh_ms}, {"bvh_sah", best.stats.bvh.sah},
                              {"bvh_depth", best.stats.bvh.depth}, {"render_ms_per_spp", ms_per_spp},
                              {"rays_per_spp", double(wf::bench::traced_rays(best)) / best.passes},
                              {"mrays_per_second", mrays}, {"time_vs_first", ms_per_spp / first_ms}});
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_sphere_field: %s\n", e.what());
        return 1;
    }
    if (!json_path.empty() && !wf::bench::write_json(args, json_path, report)) return 1;
    return 0;
}
