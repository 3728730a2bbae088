// The integrators the engine has, listed once. The scene loader, the command
// line and the integrator registry (wavefront/integrator_registry.h) all take
// their names from this table.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace wf {

enum class IntegratorKind : uint32_t { Pt, Lt, Bpt, Ppm, Bpm, Vcm };

struct IntegratorInfo {
    IntegratorKind kind;
    std::string_view name;
    std::string_view summary;
};

inline constexpr IntegratorInfo kIntegrators[] = {
    {IntegratorKind::Pt, "pt", "path tracing with next-event estimation and MIS"},
    {IntegratorKind::Lt, "lt", "light tracing: light sub-paths connected to the camera"},
    {IntegratorKind::Bpt, "bpt", "bidirectional path tracing"},
    {IntegratorKind::Ppm, "ppm", "progressive photon mapping (merging at the first non-specular camera vertex)"},
    {IntegratorKind::Bpm, "bpm", "bidirectional photon mapping (merging at every camera vertex, with MIS)"},
    {IntegratorKind::Vcm, "vcm", "vertex connection and merging"},
};

inline constexpr std::string_view kIntegratorNames[] = {"pt", "lt", "bpt", "ppm", "bpm", "vcm"};
static_assert(std::size(kIntegratorNames) == std::size(kIntegrators));

// The entry named `name`, or nullptr.
inline const IntegratorInfo* find_integrator(std::string_view name) {
    for (const IntegratorInfo& info : kIntegrators)
        if (info.name == name) return &info;
    return nullptr;
}

// "pt, lt, bpt, ppm, bpm, vcm", for messages.
inline std::string integrator_name_list() {
    std::string out;
    for (const IntegratorInfo& info : kIntegrators) {
        if (!out.empty()) out += ", ";
        out += info.name;
    }
    return out;
}

}  // namespace wf
