// Traversal benchmark: closest-hit and any-hit throughput per ray kind, on the rays the
// pt integrator makes itself: camera rays, diffuse bounce rays and NEE shadow rays.
//
// Stage times are not split per bounce, so each scene is rendered with the same seed
// and spp at max path length D = 1, 2, ..., K. At D, pt traces the closest-hit rays of
// bounces 0..D-1 (bounce 0: camera rays; a path of length L scatters only while L < D)
// and the shadow rays of bounces 0..D-2. So intersect_closest(D) - intersect_closest(D-1)
// is the time of bounce D-1's rays and intersect_shadow(D) - intersect_shadow(D-1) that
// of bounce D-2's shadow rays (intersect_shadow(1) is a launch over an empty queue, or
// two where the tree is deep enough for group walks; the differences cancel them).
// Ray counts come from the per-bounce queue sizes; the same seed gives the same paths,
// which is checked. Every launch is timed; --reps sweeps over D = K..1, and for each D
// the fastest is kept: interference (other processes, clocks) only ever adds time.
//
// Scenes: --mesh FILE, framed as `wavefront render FILE` frames it (default diffuse
// material, neutral environment); and for each --tris count a rugged height field of
// that many triangles (diffuse 0.8, environment of radiance 1), which fills the view.
//
//   build/bin/bench_traversal [--backend auto|cuda|cpu] [--mesh FILE] [--tris 1e6,1e7 (0: none)]
//       [--size S] [--spp N] [--max-depth K] [--reps N] [--warmup N] [--seed S] [--json FILE]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "bench/bench_common.h"
#include "io/scene_loader.h"

namespace {

using wf::BounceQueueSizes;

struct BenchScene {
    std::string name;
    wf::HostScene scene;
};

std::string short_count(uint64_t n) {
    char text[32];
    if (n >= 1000000) std::snprintf(text, sizeof text, "%gM", double(n) / 1e6);
    else if (n >= 1000) std::snprintf(text, sizeof text, "%gk", double(n) / 1e3);
    else std::snprintf(text, sizeof text, "%llu", (unsigned long long)n);
    return text;
}

// The height field of bench_common.h (wf::bench::bump_field): about 40% of the diffuse
// rays hit another bump. The camera looks down at 63 degrees and sees nothing but terrain.
wf::HostScene bump_field(uint64_t triangles) {
    wf::HostScene s;
    s.source_path = "bump field";
    s.triangles = wf::bench::bump_field(triangles);
    s.prims.assign(s.triangles.size(), wf::PrimInfo{});  // material 0, no light
    wf::Material diffuse;
    diffuse.kd = wf::Vec3f(0.8f);
    s.materials = {diffuse};
    s.material_names = {"diffuse"};
    wf::Light sky;
    sky.type = wf::LightType::Environment;
    sky.radiance = wf::Vec3f(1.0f);
    s.lights = {sky};
    s.camera.position = wf::Vec3f(0.0f, 1.5f, 0.7f);
    s.camera.forward = wf::Vec3f(0.0f, 0.1f, 0.0f) - s.camera.position;
    s.camera.fov_y_degrees = 40.0f;
    return s;
}

double stage_ms(const wf::RenderResult& r, const char* name) {
    for (const wf::StageStat& s : r.stats.stages)
        if (s.name == name) return s.milliseconds;
    return 0.0;
}

// Whether a render at max path length `depth` traced the same rays as the reference
// (a render at a larger depth) in every bounce they share.
bool same_paths(const std::vector<BounceQueueSizes>& q, const std::vector<BounceQueueSizes>& ref, uint32_t depth) {
    for (uint32_t b = 0; b < depth; ++b) {
        if (q[b].active != ref[b].active || q[b].surface != ref[b].surface || q[b].escaped != ref[b].escaped)
            return false;
        if (b + 1 < depth && q[b].shadow != ref[b].shadow) return false;
    }
    return true;
}

struct Kind {
    std::string name;
    uint64_t rays = 0, hits = 0;  // hits: closest-hit rays that found a surface
    double ms = 0.0;
    bool closest = true;
    double grays() const { return ms > 0.0 ? double(rays) / ms * 1e-6 : 0.0; }
};

// G rays/s ("3.402"), or "-" for a time that noise made zero or negative.
std::string rate_text(double ms, uint64_t rays) {
    char text[32];
    if (ms <= 0.0) return "-";
    std::snprintf(text, sizeof text, "%.4g", double(rays) / ms * 1e-6);
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    wf::BackendKind backend = wf::BackendKind::Auto;
    std::string mesh_path, json_path;
    std::vector<uint64_t> tris = {1000000, 10000000};
    uint32_t size = 1024, spp = 4, max_depth = 8, reps = 3, warmup = 1, seed = 1;
    wf::bench::Args args(argc, argv, "bench_traversal",
                         "[--backend auto|cuda|cpu] [--mesh FILE] [--tris 1e6,1e7 (0: none)] [--size S] [--spp N] "
                         "[--max-depth K] [--reps N] [--warmup N] [--seed S] [--json FILE]");
    for (std::string a; args.next(a);) {
        if (a == "--backend") backend = args.backend();
        else if (a == "--mesh") mesh_path = args.value();
        else if (a == "--tris") tris = args.counts(0, 100000000);
        else if (a == "--size") size = args.count(8, 8192);
        else if (a == "--spp") spp = args.count(1, 4096);
        else if (a == "--max-depth") max_depth = args.count(3, 64);
        else if (a == "--reps") reps = args.count(1, 100);
        else if (a == "--warmup") warmup = args.count(0, 4096);
        else if (a == "--seed") seed = args.count(0, 0xffffffffu);
        else if (a == "--json") json_path = args.value();
        else args.fail("unknown argument " + a);
    }

    std::vector<BenchScene> scenes;
    if (!mesh_path.empty()) {  // relative to the working folder, else to the repository
        std::string path = mesh_path;
        if (!std::filesystem::exists(path) && std::filesystem::path(path).is_relative() &&
            std::filesystem::exists(wf::bench::source_dir() + "/" + path))
            path = wf::bench::source_dir() + "/" + path;
        try {
            scenes.push_back({std::filesystem::path(path).stem().string(), wf::load_scene(path)});
        } catch (const wf::SceneError& e) {
            std::fprintf(stderr, "bench_traversal: --mesh: %s\n", e.what());
            return 2;
        }
    }

    nlohmann::json report = nlohmann::json::array();
    struct Summary {
        std::string scene;
        uint64_t triangles;
        std::vector<Kind> kinds;
    };
    std::vector<Summary> summary;
    std::set<std::string> warned;
    try {
        for (uint64_t t : tris)
            if (t) scenes.push_back({"bumps-" + short_count(t), bump_field(t)});
        for (BenchScene& bs : scenes) {
            const wf::HostScene& scene = bs.scene;
            const uint64_t triangles = scene.triangles.size();
            wf::RenderOptions o;
            o.settings = scene.settings;
            o.settings.width = o.settings.height = size;
            o.settings.integrator = "pt";
            o.settings.seed = seed;
            o.backend = backend;
            auto render = [&](uint32_t depth, uint32_t passes) {
                o.settings.max_depth = depth;
                o.settings.spp = passes;
                wf::RenderResult r = wf::render(scene, o);
                for (const std::string& w : r.warnings)
                    if (warned.insert(w).second) std::fprintf(stderr, "%s\n", w.c_str());
                return r;
            };
            if (warmup) render(max_depth, warmup);  // module load, allocation, first touch
            o.collect_stage_times = true;

            // Each rep renders every max path length d once, so that a slow spell of the
            // machine hits all d alike. closest[d], shadow[d]: the least stage ms at d.
            std::vector<std::vector<double>> closest_reps(max_depth + 1), shadow_reps(max_depth + 1);
            std::vector<BounceQueueSizes> q;  // per-bounce counts of the first render (the deepest)
            wf::RenderResult last;
            bool consistent = true;
            for (uint32_t rep = 0; rep < reps; ++rep)
                for (uint32_t d = max_depth; d >= 1; --d) {
                    last = render(d, spp);
                    closest_reps[d].push_back(stage_ms(last, "intersect_closest"));
                    shadow_reps[d].push_back(stage_ms(last, "intersect_shadow"));
                    if (q.empty()) q = last.stats.bounces;
                    consistent = consistent && same_paths(last.stats.bounces, q, d);
                }
            std::vector<double> closest(max_depth + 1, 0.0), shadow(max_depth + 1, 0.0);  // index 0: nothing traced
            nlohmann::json runs = nlohmann::json::array();
            for (uint32_t d = 1; d <= max_depth; ++d) {
                closest[d] = *std::min_element(closest_reps[d].begin(), closest_reps[d].end());
                shadow[d] = *std::min_element(shadow_reps[d].begin(), shadow_reps[d].end());
                runs.push_back({{"max_depth", d}, {"intersect_closest_ms", closest_reps[d]},
                                {"intersect_shadow_ms", shadow_reps[d]}});
            }
            if (!consistent)
                std::fprintf(stderr, "bench_traversal: warning: %s: the bounces' ray counts differ between max path "
                             "lengths or reps (same seed, so the paths should be the same): per-bounce times are "
                             "not comparable\n", bs.name.c_str());

            std::printf("\n== %s: %llu triangles, %ux%u, %u spp, seed %u, max path length 1..%u, %u reps, %s on %s\n"
                        "BVH: %s builder, %.1f ms, SAH %.2f, depth %u\n",
                        bs.name.c_str(), (unsigned long long)triangles, size, size, spp, seed, max_depth, reps,
                        last.backend.c_str(), last.device.c_str(), last.stats.bvh.builder.c_str(),
                        last.stats.bvh_build_ms, last.stats.bvh.sah, last.stats.bvh.depth);
            std::printf("%-7s %14s %7s %10s %9s %14s %10s %9s\n", "bounce", "closest rays", "hit %", "ms", "G rays/s",
                        "shadow rays", "ms", "G rays/s");
            nlohmann::json per_bounce = nlohmann::json::array();
            for (uint32_t b = 0; b < max_depth; ++b) {
                const double cms = closest[b + 1] - closest[b];
                const double sms = b + 2 <= max_depth ? shadow[b + 2] - shadow[b + 1] : 0.0;
                std::printf("%-7u %14llu %7.1f %10.3f %9s %14llu %10.3f %9s\n", b, (unsigned long long)q[b].active,
                            q[b].active ? 100.0 * double(q[b].surface) / double(q[b].active) : 0.0, cms,
                            rate_text(cms, q[b].active).c_str(), (unsigned long long)q[b].shadow, sms,
                            rate_text(sms, q[b].shadow).c_str());
                per_bounce.push_back({{"bounce", b}, {"active", q[b].active}, {"surface", q[b].surface},
                                      {"escaped", q[b].escaped}, {"shadow", q[b].shadow},
                                      {"intersect_closest_ms", cms}, {"intersect_shadow_ms", sms}});
            }

            auto kind = [&](const char* name, uint32_t from, uint32_t to, bool closest_hit, double ms) {
                Kind k{name, 0, 0, ms, closest_hit};  // the rays of bounces [from, to)
                for (uint32_t b = from; b < to; ++b) {
                    k.rays += closest_hit ? q[b].active : q[b].shadow;
                    k.hits += closest_hit ? q[b].surface : 0;
                }
                return k;
            };
            const std::vector<Kind> kinds = {
                kind("primary", 0, 1, true, closest[1]),
                kind("diffuse, bounce 1", 1, 2, true, closest[2] - closest[1]),
                kind("diffuse, bounces 2+", 2, max_depth, true, closest[max_depth] - closest[2]),
                kind("diffuse, all bounces", 1, max_depth, true, closest[max_depth] - closest[1]),
                kind("shadow (any hit)", 0, max_depth - 1, false, shadow[max_depth] - shadow[1]),
            };
            nlohmann::json kinds_json = nlohmann::json::array();
            for (const Kind& k : kinds) {
                nlohmann::json j = {{"kind", k.name}, {"rays", k.rays}, {"ms", k.ms}};
                j["grays_per_second"] = k.ms > 0.0 ? nlohmann::json(k.grays()) : nlohmann::json();  // null: noise
                if (k.closest) j["hits"] = k.hits;
                kinds_json.push_back(j);
            }
            summary.push_back({bs.name, triangles, kinds});
            report.push_back({{"scene", bs.name}, {"source", scene.source_path}, {"triangles", triangles},
                              {"width", size}, {"height", size}, {"spp", spp}, {"seed", seed},
                              {"max_depth", max_depth}, {"reps", reps}, {"backend", last.backend},
                              {"device", last.device}, {"bvh_builder", last.stats.bvh.builder},
                              {"bvh_build_ms", last.stats.bvh_build_ms}, {"bvh_sah", last.stats.bvh.sah},
                              {"bvh_depth", last.stats.bvh.depth}, {"counts_consistent", consistent},
                              {"runs", runs}, {"bounces", per_bounce}, {"kinds", kinds_json}});
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_traversal: %s\n", e.what());
        return 1;
    }

    std::printf("\n== summary: %ux%u, %u spp; ms: intersect stage time those rays added (fastest rep)\n", size, size, spp);
    int w = 14;  // the scene column fits the longest name
    for (const Summary& r : summary) w = std::max(w, int(r.scene.size()));
    std::printf("%-*s %10s  %-22s %12s %7s %10s %9s\n", w, "scene", "triangles", "ray kind", "rays", "hit %", "ms",
                "G rays/s");
    for (const Summary& r : summary)
        for (size_t i = 0; i < r.kinds.size(); ++i) {
            const Kind& k = r.kinds[i];
            char hit[16] = "-";
            if (k.closest && k.rays) std::snprintf(hit, sizeof hit, "%.1f", 100.0 * double(k.hits) / double(k.rays));
            std::printf("%-*s %10s  %-22s %12llu %7s %10.3f %9s\n", w, i ? "" : r.scene.c_str(),
                        i ? "" : std::to_string(r.triangles).c_str(), k.name.c_str(), (unsigned long long)k.rays, hit,
                        k.ms, rate_text(k.ms, k.rays).c_str());
        }

    // Issue 7: on a mesh of about 1M triangles, camera rays at >= 3 and diffuse rays at
    // >= 1.5 G rays/s; on 10M triangles at least a third of that.
    std::printf("\ntargets: ~1M triangles: primary >= 3.0, diffuse (all bounces) >= 1.5 G rays/s; ~10M: a third of "
                "that (1.0, 0.5)\n");
    // Tiers: from 0.5M triangles the 1M targets, from 3M the 10M ones, compared with the
    // procedural mesh of the 1M tier when there is one.
    const uint64_t tier_1m = 500000, tier_10m = 3000000;
    const Summary* one_million = nullptr;
    for (const Summary& r : summary)
        if (r.scene.rfind("bumps-", 0) == 0 && r.triangles >= tier_1m && r.triangles < tier_10m) one_million = &r;
    for (const Summary& r : summary) {
        const double primary = r.kinds[0].grays(), diffuse = r.kinds[3].grays();
        std::printf("  %-*s %10llu  ", w, r.scene.c_str(), (unsigned long long)r.triangles);
        if (r.triangles < tier_1m) {
            std::printf("no target (fewer than 0.5M triangles)\n");
            continue;
        }
        const double scale = r.triangles >= tier_10m ? 1.0 / 3.0 : 1.0;
        std::printf("primary %.4g %s, diffuse %.4g %s", primary, primary >= 3.0 * scale ? "met" : "NOT met", diffuse,
                    diffuse >= 1.5 * scale ? "met" : "NOT met");
        if (scale < 1.0 && one_million && one_million->kinds[0].grays() > 0.0 && one_million->kinds[3].grays() > 0.0)
            std::printf("; against %s: primary %.2fx, diffuse %.2fx (>= 0.33x wanted)", one_million->scene.c_str(),
                        primary / one_million->kinds[0].grays(), diffuse / one_million->kinds[3].grays());
        std::printf("\n");
    }
    if (!json_path.empty() && !wf::bench::write_json(args, json_path, report)) return 1;
    return 0;
}
