// BVH build benchmark: the GPU builder (H-PLOC, accel/bvh_build_gpu.h) on
// procedural meshes of about 1M and 10M triangles (a bumpy sphere; bench_traversal's
// terrain) and a field of spheres, from primitives on the device to a traversable
// tree. Per mesh: the share of primitives paired before H-PLOC (bvh_pairs.cuh), the
// median and the minimum of --reps builds (CUDA events), the per-stage breakdown, the
// depth, the wide nodes a ray enters (the collapse's cost), and the SAH cost against
// the CPU binned-SAH builder's (the reference; skipped above --cpu-limit primitives,
// as one CPU build of 10M takes a minute), with both trees' SAH split by subtree size
// (accel/bvh_quality.h): where the GPU tree loses it. --method gpu-sah times the
// GPU builder's binned-SAH method instead (GpuBvhMethod::kSah).
//
//   build/bin/bench_bvh [--method gpu|gpu-sah] [--reps N] [--warmup N] [--cpu-limit N] [--json FILE]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "accel/bvh_build.h"
#include "accel/bvh_build_gpu.h"
#include "accel/bvh_quality.h"
#include "app/render.h"
#include "bench/bench_common.h"

namespace {

struct Mesh {
    std::string name;
    std::vector<wf::Triangle> triangles;
    std::vector<wf::Sphere> spheres;
};

// A displaced sphere tessellated into `side` x `side` quads: a closed surface
// with triangles of varying size, like a scanned model.
Mesh bumpy_sphere(const std::string& name, uint32_t side) {
    Mesh m;
    m.name = name;
    auto vertex = [&](uint32_t i, uint32_t j) {
        const float pi = 3.14159265f;
        float u = float(i) / float(side) * pi, v = float(j) / float(side) * 2.0f * pi;
        float r = 10.0f * (1.0f + 0.1f * std::sin(7.0f * u) * std::sin(5.0f * v) + 0.03f * std::sin(41.0f * v));
        return wf::Vec3f(std::sin(u) * std::cos(v), std::cos(u), std::sin(u) * std::sin(v)) * r;
    };
    m.triangles.reserve(2 * size_t(side) * side);
    for (uint32_t i = 0; i < side; ++i)
        for (uint32_t j = 0; j < side; ++j) {
            m.triangles.push_back({vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)});
            m.triangles.push_back({vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)});
        }
    return m;
}

// Random spheres of varied size on a ground quad, as in the sphere-field scenes.
Mesh sphere_field(const std::string& name, uint32_t count) {
    Mesh m;
    m.name = name;
    wf::bench::sphere_field(count, m.triangles, m.spheres);
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    std::string json_path;
    uint32_t reps = 20, warmup = 3, cpu_limit = 2000000;
    wf::GpuBvhMethod method = wf::GpuBvhMethod::kHploc;
    wf::bench::Args args(argc, argv, "bench_bvh",
                         "[--method gpu|gpu-sah] [--reps N] [--warmup N] [--cpu-limit N] [--json FILE]");
    for (std::string a; args.next(a);) {
        if (a == "--method") {
            const std::string v = args.value();
            if (v == "gpu-sah") method = wf::GpuBvhMethod::kSah;
            else if (v != "gpu") args.fail("--method must be gpu or gpu-sah, got " + v);
        } else if (a == "--reps") reps = std::max(1u, args.count(0, 10000));
        else if (a == "--warmup") warmup = args.count(0, 10000);
        else if (a == "--cpu-limit") cpu_limit = args.count(0, 4000000000u);
        else if (a == "--json") json_path = args.value();
        else args.fail("unknown argument " + a);
    }
#if !defined(WF_HAVE_CUDA)
    std::fprintf(stderr, "bench_bvh: this build has no CUDA backend\n");
    return 1;
#else
    std::string why_not;
    if (!wf::cuda_backend_available(&why_not)) {
        std::fprintf(stderr, "bench_bvh: %s\n", why_not.c_str());
        return 1;
    }
    std::vector<Mesh> meshes;
    meshes.push_back(bumpy_sphere("sphere-1M", 708));     // 1,002,528 triangles
    meshes.push_back(bumpy_sphere("sphere-10M", 2237));   // 10,008,338 triangles
    meshes.push_back(sphere_field("spheres-1M", 1000000));
    meshes.push_back({"bumps-1M", wf::bench::bump_field(1000000), {}});  // 999,698 triangles

    nlohmann::json report = nlohmann::json::array();
    std::printf("%-12s %10s %10s %7s %9s %9s %7s %7s %9s %9s %7s %10s\n", "mesh", "prims", "nodes", "paired",
                "median ms", "min ms", "depth", "visits", "SAH gpu", "SAH cpu", "ratio", "cpu ms");
    std::vector<wf::GpuBvhTiming> timings;
    struct SahSplit {
        std::string mesh;
        wf::SahBySubtreeSize gpu, cpu;
    };
    std::vector<SahSplit> splits;
    try {
        for (const Mesh& m : meshes) {
            wf::GpuBvhTiming t = wf::time_bvh_on_gpu(m.triangles, m.spheres, warmup, reps, method);
            const size_t prims = m.triangles.size() + m.spheres.size();
            double cpu_sah = 0.0, cpu_ms = 0.0;
            if (prims <= cpu_limit) {
                auto t0 = std::chrono::steady_clock::now();
                wf::Bvh cpu = wf::build_bvh_binned_sah(m.triangles, m.spheres);
                cpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                cpu_sah = wf::measure_bvh(cpu).sah;
                // The GPU builder is deterministic: this tree is the one just timed.
                splits.push_back({m.name, wf::sah_by_subtree_size(wf::build_bvh_on_gpu(m.triangles, m.spheres, nullptr, method)),
                                  wf::sah_by_subtree_size(cpu)});
            }
            // Primitives paired before H-PLOC (bvh_pairs.cuh), a share of all.
            const double paired = prims ? 2.0 * double(prims - t.info.clusters) / double(prims) : 0.0;
            std::printf("%-12s %10zu %10u %6.1f%% %9.3f %9.3f %7u %7.2f %9.2f ", m.name.c_str(), prims,
                        t.info.num_nodes, 100.0 * paired, t.median_ms, t.min_ms, t.info.depth, t.info.wide_node_visits,
                        t.info.sah);
            if (cpu_sah > 0) std::printf("%9.2f %7.3f %10.0f\n", cpu_sah, t.info.sah / cpu_sah, cpu_ms);
            else std::printf("%9s %7s %10s\n", "-", "-", "-");
            std::fflush(stdout);

            nlohmann::json j;
            j["mesh"] = m.name;
            j["method"] = wf::gpu_bvh_method_name(method);
            j["device"] = t.device;
            j["prims"] = prims;
            j["nodes"] = t.info.num_nodes;
            j["depth"] = t.info.depth;
            j["clusters"] = t.info.clusters;
            j["wide_node_visits"] = t.info.wide_node_visits;
            j["build_ms_median"] = t.median_ms;
            j["build_ms_min"] = t.min_ms;
            j["sah_gpu"] = t.info.sah;
            if (cpu_sah > 0) {
                j["sah_cpu"] = cpu_sah;
                j["sah_ratio"] = t.info.sah / cpu_sah;
                j["cpu_build_ms"] = cpu_ms;
                j["sah_by_subtree_size"] = {{"gpu", splits.back().gpu}, {"cpu", splits.back().cpu}};
            }
            nlohmann::json stages = nlohmann::json::object();
            for (const wf::StageStat& s : t.stages)
                stages[s.name] = {{"launches", s.launches}, {"ms_per_build", s.milliseconds / double(reps)}};
            j["stages"] = stages;
            report.push_back(j);
            timings.push_back(std::move(t));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_bvh: %s\n", e.what());
        return 1;
    }
    std::printf("\ndevice: %s; %u warmup + %u timed builds each\nper stage, mean ms per build (each launch timed "
                "on its own):\n%-22s", timings.front().device.c_str(), warmup, reps, "stage");
    for (const Mesh& m : meshes) std::printf(" %12s", m.name.c_str());
    std::printf("\n");
    for (size_t s = 0; s < timings.front().stages.size(); ++s) {
        std::printf("%-22s", timings.front().stages[s].name.c_str());
        for (const wf::GpuBvhTiming& t : timings)
            std::printf(" %12.4f", s < t.stages.size() ? t.stages[s].milliseconds / double(reps) : 0.0);
        std::printf("\n");
    }
    if (!splits.empty()) {
        // Size classes of four powers of two: [k] of sah_by_subtree_size for k in [4b, 4b + 4).
        std::printf("\nSAH by subtree size (primitives below a node), GPU tree / CPU tree:\n%-12s", "mesh");
        const char* bands[] = {"1-15", "16-255", "256-4095", "4096-65535", "65536-1048575", ">= 1048576"};
        for (const char* b : bands) std::printf(" %15s", b);
        std::printf("\n");
        for (const SahSplit& s : splits) {
            std::printf("%-12s", s.mesh.c_str());
            for (size_t b = 0; b < std::size(bands); ++b) {
                double g = 0.0, c = 0.0;
                for (size_t k = 4 * b; k < s.gpu.size() && (k < 4 * b + 4 || b + 1 == std::size(bands)); ++k) {
                    g += s.gpu[k];
                    c += s.cpu[k];
                }
                std::printf(" %7.2f/%-7.2f", g, c);
            }
            std::printf("\n");
        }
    }
    if (!json_path.empty() && !wf::bench::write_json(args, json_path, report)) return 1;
    return 0;
#endif
}
