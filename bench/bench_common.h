// What the benchmarks share: checked command-line arguments (a bad one is a message
// and exit code 2), the repository folder scenes are read from, JSON output, the
// random sphere field of bench_bvh and bench_sphere_field, and the height field of
// bench_traversal and bench_bvh.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "app/stats_json.h"
#include "engine/scene_types.h"

namespace wf::bench {

// Walks argv: `for (std::string a; args.next(a);) if (a == "--x") x = args.count(...); ...`.
class Args {
public:
    Args(int argc, char** argv, std::string program, std::string usage)
        : argc_(argc), argv_(argv), program_(std::move(program)), usage_(std::move(usage)) {}

    bool next(std::string& flag) {
        if (++i_ >= argc_) return false;
        flag_ = flag = argv_[i_];
        return true;
    }
    // The current flag's value.
    std::string value() {
        if (i_ + 1 >= argc_) fail(flag_ + " needs a value");
        return argv_[++i_];
    }
    // The value as a whole number in [lo, hi].
    uint32_t count(uint32_t lo, uint32_t hi) { return uint32_t(number(value(), lo, hi)); }
    // A comma-separated list of whole numbers in [lo, hi]; "1e6", "64k" and "4M" are accepted.
    std::vector<uint64_t> counts(uint64_t lo, uint64_t hi) {
        std::vector<uint64_t> out;
        std::stringstream list(value());
        for (std::string item; std::getline(list, item, ',');) out.push_back(number(item, lo, hi, true));
        if (out.empty()) fail(flag_ + " needs at least one number");
        return out;
    }
    BackendKind backend() {
        const std::string b = value();
        if (b == "auto") return BackendKind::Auto;
        if (b == "cuda") return BackendKind::Cuda;
        if (b == "cpu") return BackendKind::Cpu;
        fail("--backend must be auto, cuda or cpu, got '" + b + "'");
    }
    [[noreturn]] void fail(const std::string& message) const {
        std::fprintf(stderr, "%s: %s\nusage: %s %s\n", program_.c_str(), message.c_str(), program_.c_str(),
                     usage_.c_str());
        std::exit(2);
    }
    const std::string& program() const { return program_; }

private:
    uint64_t number(const std::string& text, uint64_t lo, uint64_t hi, bool scaled = false) const {
        try {
            size_t used = 0;
            if (!scaled) {
                if (!text.empty() && text[0] != '-') {
                    unsigned long long v = std::stoull(text, &used);
                    if (used == text.size() && v >= lo && v <= hi) return v;
                }
            } else {
                double v = std::stod(text, &used);
                std::string suffix = text.substr(used);
                if (suffix == "k") v *= 1e3;
                else if (suffix == "M") v *= 1e6;
                else if (!suffix.empty()) v = -1.0;
                if (v == std::floor(v) && v >= double(lo) && v <= double(hi)) return uint64_t(v);
            }
        } catch (const std::exception&) {
        }
        fail(flag_ + " needs " + (scaled ? "whole numbers" : "a whole number") + " from " + std::to_string(lo) +
             " to " + std::to_string(hi) + ", got '" + text + "'");
    }

    int argc_;
    char** argv_;
    std::string program_, usage_, flag_;
    int i_ = 0;
};

// The repository folder: WF_SOURCE_DIR in the environment (a build carried to another
// machine), else the source folder this was built from.
inline std::string source_dir() {
    const char* env_dir = std::getenv("WF_SOURCE_DIR");
    return env_dir && *env_dir ? env_dir : WF_SOURCE_DIR;
}

// Camera-path rays a render traced: camera and bounce rays, and shadow rays.
inline uint64_t traced_rays(const RenderResult& r) {
    uint64_t rays = 0;
    for (const BounceQueueSizes& q : r.stats.bounces) rays += q.active + q.shadow;
    return rays;
}

// One benchmark case rendered for its figures: `warmup` passes first (module load,
// allocation, first touch: kept out of the figures), then `o.settings.spp` passes without
// per-launch events (the honest total) and again with per-stage times (events add a little).
struct TimedRender {
    RenderResult timed, staged;
    double ms_per_pass = 0.0, mrays_per_second = 0.0;  // of `timed`
};

inline TimedRender timed_render(const HostScene& scene, RenderOptions o, uint32_t warmup) {
    const uint32_t passes = o.settings.spp;
    if (warmup) {
        o.settings.spp = warmup;
        render(scene, o);
        o.settings.spp = passes;
    }
    TimedRender t;
    o.collect_stage_times = false;
    t.timed = render(scene, o);
    o.collect_stage_times = true;
    t.staged = render(scene, o);
    t.ms_per_pass = 1000.0 * t.timed.render_seconds / passes;
    t.mrays_per_second = double(traced_rays(t.timed)) / t.timed.render_seconds * 1e-6;
    return t;
}

// The case's JSON record: the staged render's statistics and the untimed figures.
inline nlohmann::json timed_render_json(const TimedRender& t, const RenderSettings& settings, const std::string& scene) {
    nlohmann::json j = nlohmann::json::parse(render_stats_json(t.staged, settings, scene));
    j["ms_per_pass_untimed_stages"] = t.ms_per_pass;
    j["mrays_per_second"] = t.mrays_per_second;
    return j;
}

// Writes `report` (indented); false, with a message, when the file cannot be written.
inline bool write_json(const Args& args, const std::string& path, const nlohmann::json& report) {
    std::ofstream out(path);
    out << report.dump(2) << "\n";
    if (out) return true;
    std::fprintf(stderr, "%s: cannot write %s\n", args.program().c_str(), path.c_str());
    return false;
}

// `count` random spheres of radius 0.1 to 0.4 over a square of half-size sqrt(count)
// (one sphere per 4 square units), resting on a ground quad twice that size (two
// triangles). Seeded by the count: the same field every run.
inline void sphere_field(uint32_t count, std::vector<Triangle>& triangles, std::vector<Sphere>& spheres) {
    std::mt19937 rng(count);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const float half = std::sqrt(float(count));
    spheres.reserve(spheres.size() + count);
    for (uint32_t i = 0; i < count; ++i) {
        float r = 0.1f + 0.3f * u(rng);
        float z = (u(rng) * 2 - 1) * half;  // z before x: the order bench_bvh's fields were drawn in
        float x = (u(rng) * 2 - 1) * half;
        spheres.push_back({Vec3f(x, r, z), r});
    }
    const float g = 2.0f * half;
    triangles.push_back({{-g, 0, -g}, {g, 0, -g}, {g, 0, g}});
    triangles.push_back({{-g, 0, -g}, {g, 0, g}, {-g, 0, g}});
}

// A height field over [-1, 1]^2 (y up) of about `triangles` triangles, both of each
// quad's facing +y: bumps of three sizes with slopes above 1 (bench_traversal's
// terrain, where about 40% of the diffuse rays hit another bump).
inline std::vector<Triangle> bump_field(uint64_t triangles) {
    const uint32_t side = std::max(1u, uint32_t(std::lround(std::sqrt(double(triangles) / 2.0))));
    std::vector<Vec3f> v(size_t(side + 1) * (side + 1));
    for (uint32_t i = 0; i <= side; ++i)
        for (uint32_t j = 0; j <= side; ++j) {
            float x = -1.0f + 2.0f * float(i) / float(side), z = -1.0f + 2.0f * float(j) / float(side);
            float y = 0.12f * (1.0f + std::sin(11.0f * x) * std::sin(13.0f * z)) +
                      0.05f * std::sin(29.0f * x + 2.0f * z) * std::sin(31.0f * z - x) +
                      0.012f * std::sin(97.0f * x) * std::sin(89.0f * z);
            v[size_t(i) * (side + 1) + j] = Vec3f(x, y, z);
        }
    std::vector<Triangle> out;
    out.reserve(2 * size_t(side) * side);
    for (uint32_t i = 0; i < side; ++i)
        for (uint32_t j = 0; j < side; ++j) {
            const size_t a = size_t(i) * (side + 1) + j, b = a + side + 1;
            out.push_back({v[a], v[a + 1], v[b + 1]});
            out.push_back({v[a], v[b + 1], v[b]});
        }
    return out;
}

}  // namespace wf::bench
