#include "app/stats_json.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace wf {

std::string render_stats_json(const RenderResult& r, const RenderSettings& s, const std::string& scene,
                              std::optional<double> image_write_seconds) {
    nlohmann::json j;
    j["scene"] = scene;
    j["backend"] = r.backend;
    j["device"] = r.device;
    j["integrator"] = s.integrator;
    j["width"] = s.width;
    j["height"] = s.height;
    j["spp"] = r.passes;
    j["max_depth"] = s.max_depth;
    j["seed"] = s.seed;
    j["render_seconds"] = r.render_seconds;  // iterations only: no BVH build, upload or image write
    if (image_write_seconds) j["image_write_seconds"] = *image_write_seconds;
    j["ms_per_pass"] = r.passes ? 1000.0 * r.render_seconds / r.passes : 0.0;
    j["samples"] = r.samples;
    j["msamples_per_second"] = r.render_seconds > 0 ? double(r.samples) / r.render_seconds * 1e-6 : 0.0;
    j["peak_memory_bytes"] = r.peak_memory_bytes;
    j["bvh_build_ms"] = r.stats.bvh_build_ms;
    j["bvh"] = {{"builder", r.stats.bvh.builder}, {"sah", r.stats.bvh.sah}, {"depth", r.stats.bvh.depth},
                {"nodes", r.stats.bvh.nodes}, {"note", r.stats.bvh.note}};
    j["upload_ms"] = r.stats.upload_ms;
    j["integrator_setup_ms"] = r.stats.integrator_setup_ms;
    j["scene_load_seconds"] = r.stats.scene_load_seconds;
    j["device_wait_seconds"] = r.stats.device_wait_seconds;
    j["nonfinite_samples"] = r.stats.nonfinite_samples;  // NaN/Inf contributions dropped from the film
    j["warnings"] = r.warnings;
    nlohmann::json stages = nlohmann::json::array();
    for (const StageStat& st : r.stats.stages)
        stages.push_back({{"name", st.name}, {"launches", st.launches}, {"ms", st.milliseconds}});
    j["stages"] = stages;
    nlohmann::json bounces = nlohmann::json::array();
    for (size_t b = 0; b < r.stats.bounces.size(); ++b) {
        const BounceQueueSizes& q = r.stats.bounces[b];
        bounces.push_back({{"bounce", b}, {"active", q.active}, {"surface", q.surface}, {"escaped", q.escaped},
                           {"shadow", q.shadow}});
    }
    j["queue_sizes_per_bounce"] = bounces;
    nlohmann::json light_bounces = nlohmann::json::array();
    for (size_t b = 0; b < r.stats.light_bounces.size(); ++b) {
        const BounceQueueSizes& q = r.stats.light_bounces[b];
        light_bounces.push_back({{"bounce", b}, {"active", q.active}, {"surface", q.surface}, {"shadow", q.shadow}});
    }
    j["light_queue_sizes_per_bounce"] = light_bounces;
    nlohmann::json counters = nlohmann::json::object();
    for (const RenderCounter& c : r.stats.counters)
        counters[c.name] = c.per_iteration && r.passes ? c.value / r.passes : c.value;
    j["counters"] = counters;  // per iteration where the count grows with iterations
    return j.dump(2) + "\n";
}

void print_stage_table(std::ostream& out, const RenderResult& r) {
    char line[160];
    std::snprintf(line, sizeof line, "%-26s %10s %12s %12s\n", "stage", "launches", "total ms", "ms/launch");
    out << line;
    for (const StageStat& st : r.stats.stages) {
        std::snprintf(line, sizeof line, "%-26s %10llu %12.3f %12.4f\n", st.name.c_str(),
                      (unsigned long long)st.launches, st.milliseconds,
                      st.launches ? st.milliseconds / double(st.launches) : 0.0);
        out << line;
    }
    for (const RenderCounter& c : r.stats.counters) {
        double v = c.per_iteration && r.passes ? c.value / r.passes : c.value;
        std::snprintf(line, sizeof line, "%-34s %16.6g%s\n", c.name.c_str(), v, c.per_iteration ? " per iteration" : "");
        out << line;
    }
    if (!r.stats.light_bounces.empty()) {
        std::snprintf(line, sizeof line, "%-8s %14s %14s %14s\n", "light", "active", "surface", "shadow");
        out << line;
        for (size_t b = 0; b < r.stats.light_bounces.size(); ++b) {
            const BounceQueueSizes& q = r.stats.light_bounces[b];
            std::snprintf(line, sizeof line, "%-8zu %14llu %14llu %14llu\n", b, (unsigned long long)q.active,
                          (unsigned long long)q.surface, (unsigned long long)q.shadow);
            out << line;
        }
    }
    std::snprintf(line, sizeof line, "%-8s %14s %14s %14s %14s\n", "bounce", "active", "surface", "escaped", "shadow");
    out << line;
    for (size_t b = 0; b < r.stats.bounces.size(); ++b) {
        const BounceQueueSizes& q = r.stats.bounces[b];
        std::snprintf(line, sizeof line, "%-8zu %14llu %14llu %14llu %14llu\n", b, (unsigned long long)q.active,
                      (unsigned long long)q.surface, (unsigned long long)q.escaped, (unsigned long long)q.shadow);
        out << line;
    }
}

}  // namespace wf
