// VCM hash grid build benchmark: 1M and 4M uniformly random points in the unit box,
// radius 0.003 * 0.866 (SmallVCM's radius factor times the box's bounding-sphere
// radius). Warmup builds, then the median of --reps timed builds (CUDA events, or the
// host clock on the CPU), then the same builds timed stage by stage. Prints a table
// and, with --json FILE, writes the same figures.
//
//   build/bin/bench_hash_grid [--backend auto|cuda|cpu] [--reps N] [--warmup N] [--json FILE]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "accel/hash_grid_host.h"
#include "app/render.h"

namespace {

[[noreturn]] void usage_error(const std::string& message) {
    std::fprintf(stderr, "bench_hash_grid: %s\nusage: bench_hash_grid [--backend auto|cuda|cpu] [--reps N] "
                         "[--warmup N] [--json FILE]\n", message.c_str());
    std::exit(2);
}

uint32_t parse_count(const std::string& flag, const std::string& value) {
    try {
        size_t used = 0;
        unsigned long v = std::stoul(value, &used);
        if (used == value.size() && v > 0 && v <= 100000) return uint32_t(v);
    } catch (const std::exception&) {
    }
    usage_error(flag + " needs a whole number from 1 to 100000, got '" + value + "'");
}

}  // namespace

int main(int argc, char** argv) {
    std::string backend = "auto", json_path;
    uint32_t reps = 50, warmup = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) usage_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--backend") {
            backend = next();
            if (backend != "auto" && backend != "cuda" && backend != "cpu")
                usage_error("--backend must be auto, cuda or cpu, got '" + backend + "'");
        } else if (a == "--reps") reps = parse_count(a, next());
        else if (a == "--warmup") warmup = parse_count(a, next());
        else if (a == "--json") json_path = next();
        else usage_error("unknown argument " + a);
    }

    std::string why_not;
    const bool cuda = wf::cuda_backend_available(&why_not);
    if (backend == "cuda" && !cuda) {
        std::fprintf(stderr, "bench_hash_grid: --backend cuda: %s\n", why_not.c_str());
        return 1;
    }
    if (backend == "auto") backend = cuda ? "cuda" : "cpu";
    wf::HashGridHost host = wf::cpu_hash_grid_host();
#if defined(WF_HAVE_CUDA)
    if (backend == "cuda") host = wf::cuda_hash_grid_host();
#endif

    const float radius = 0.003f * 0.866f;
    wf::Aabb bounds;
    bounds.extend(wf::Vec3f(0.0f));
    bounds.extend(wf::Vec3f(1.0f));
    nlohmann::json report = nlohmann::json::array();
    std::vector<wf::HashGridBuildTiming> timings;
    try {
        for (uint32_t n : {1u << 20, 1u << 22}) {
            std::mt19937 rng(1234 + n);
            std::uniform_real_distribution<float> u(0.0f, 1.0f);
            std::vector<wf::Vec3f> points(n);
            for (wf::Vec3f& p : points) p = wf::Vec3f(u(rng), u(rng), u(rng));
            timings.push_back(host.time_build(points, bounds, radius, warmup, reps));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_hash_grid: %s\n", e.what());
        return 1;
    }

    std::printf("hash grid build on %s (%s): unit box, radius %.6g (cell %.6g), %u warmup + %u timed builds\n",
                backend.c_str(), timings.front().device.c_str(), double(radius), 2.0 * radius, warmup, reps);
    std::printf("%10s %10s %10s %11s %11s %11s %12s\n", "points", "buckets", "cells used", "median ms", "min ms",
                "max ms", "Mpoints/s");
    for (const wf::HashGridBuildTiming& t : timings)
        std::printf("%10u %10u %10u %11.4f %11.4f %11.4f %12.1f\n", t.num_points, t.num_buckets, t.cells_used,
                    t.median_ms, t.min_ms, t.max_ms, t.median_ms > 0 ? t.num_points / t.median_ms * 1e-3 : 0.0);
    std::printf("\nper stage, mean ms per build (each launch timed on its own):\n%10s", "points");
    for (const wf::StageStat& s : timings.front().stages) std::printf(" %24s", s.name.c_str());
    std::printf("\n");
    for (const wf::HashGridBuildTiming& t : timings) {
        std::printf("%10u", t.num_points);
        for (const wf::StageStat& s : t.stages) std::printf(" %24.4f", s.milliseconds / double(t.reps));
        std::printf("\n");

        nlohmann::json j;
        j["backend"] = backend;
        j["device"] = t.device;
        j["points"] = t.num_points;
        j["buckets"] = t.num_buckets;
        j["cells_used"] = t.cells_used;
        j["radius"] = radius;
        j["warmup"] = warmup;
        j["reps"] = t.reps;
        j["build_ms_median"] = t.median_ms;
        j["build_ms_min"] = t.min_ms;
        j["build_ms_max"] = t.max_ms;
        j["mpoints_per_second"] = t.median_ms > 0 ? t.num_points / t.median_ms * 1e-3 : 0.0;
        nlohmann::json stages = nlohmann::json::object();
        for (const wf::StageStat& s : t.stages) stages[s.name] = {{"launches", s.launches}, {"ms_per_build", s.milliseconds / double(t.reps)}};
        j["stages"] = stages;
        report.push_back(j);
    }
    if (!json_path.empty()) {
        std::ofstream out(json_path);
        out << report.dump(2) << "\n";
        if (!out) {
            std::fprintf(stderr, "bench_hash_grid: cannot write %s\n", json_path.c_str());
            return 1;
        }
    }
    return 0;
}
