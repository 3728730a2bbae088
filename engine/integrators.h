// The integrators the engine has, listed once. The scene loader, the command
// line and the integrator registry (wavefront/integrator_registry.h) all take
// their names from this table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/scene.h"

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

// The names alone, in table order (for the scene loader's "one of ..." checks).
inline constexpr auto kIntegratorNames = [] {
    std::array<std::string_view, std::size(kIntegrators)> names{};
    for (size_t i = 0; i < names.size(); ++i) names[i] = kIntegrators[i].name;
    return names;
}();

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

// The scene's name for material i (its index when it has none).
inline std::string material_name(const HostScene& scene, size_t i) {
    return i < scene.material_names.size() ? scene.material_names[i] : std::to_string(i);
}

// ppm and glTF materials: ppm merges at the first non-delta camera vertex and ends the
// path there, so every lobe of a material must be rough (merged) or every lobe smooth
// (passed through). A glTF material is accepted when its roughness is at least this
// everywhere (factor, no metallicRoughness texture: every GGX lobe then is rough, see
// kGgxSmoothAlpha in materials/microfacet.h; wavefront/integrators/vcm.h checks the two
// agree) and it is no volume of ior 1 with transmission (whose refraction is a delta
// lobe next to the rough reflection). Smooth glTF materials (mirrors, glass) need bpm or vcm.
inline constexpr float kPpmMinGltfRoughness = 0.05f;

inline bool gltf_material_ppm_safe(const Material& m) {
    if (m.pbr.metallic_roughness_texture >= 0 || !(m.pbr.roughness >= kPpmMinGltfRoughness)) return false;
    const bool transmits = m.pbr.transmission > 0.0f || m.pbr.transmission_texture >= 0;
    return !(transmits && m.pbr.thin_walled == 0 && !(m.ior > 1.0f));
}

// Why `kind` cannot render `scene` correctly, or "" when it can. Checked before a
// render, so a scene an integrator cannot handle is an error, never a wrong image.
inline std::string integrator_scene_problem(IntegratorKind kind, const HostScene& scene) {
    // An orthographic camera's directions are a delta distribution: no light vertex
    // connects to it. bpt and vcm drop that technique (wavefront/vcm_context.h,
    // delta_camera); lt has no other.
    if (kind == IntegratorKind::Lt && scene.camera.ortho_height > 0.0f)
        return "/camera/projection: an orthographic camera (the scene's, or a glTF file's) sees along one direction, "
               "which light tracing cannot connect light paths to; use pt, bpt, ppm, bpm or vcm";
    const bool to_camera = kind == IntegratorKind::Lt || kind == IntegratorKind::Bpt || kind == IntegratorKind::Vcm;
    if (to_camera && scene.camera.aperture_radius > 0.0f)
        return "/camera/aperture_radius: lt, bpt and vcm connect light paths to the camera, which needs a pinhole camera "
               "(aperture 0); use pt, ppm or bpm for depth of field";
    if (kind != IntegratorKind::Pt) {
        // The rtiow lobes are not reciprocal and are written for camera paths only
        // (materials/bsdf.h); light paths would need their adjoints.
        for (size_t i = 0; i < scene.materials.size(); ++i) {
            const Material& m = scene.materials[i];
            // The microfacet types serve light paths too (their refraction leaves the radiance
            // scaling out there: materials/microfacet.h), and each is all rough or all smooth
            // (one roughness, no texture), which is what ppm needs: so unlike glTF's (below),
            // ppm takes them at any roughness, a nearly smooth one (alpha just above
            // kGgxSmoothAlpha) included, merging there as on any rough surface.
            if (m.type == MaterialType::SmallVcm || is_microfacet_material(m.type)) continue;
            if (m.type == MaterialType::GltfPbr) {
                // alphaMode MASK and BLEND render here: a point of coverage a is the mixture
                // of the surface's BSDF (times a) and a delta pass-through
                // (wavefront/stages/vcm_vertex.h, materials/coverage_bsdf.h). So do absorbing
                // volumes: sub-paths, connections and shadow rays all apply Beer-Lambert. And
                // volumes of partial transmission, whose Lambert base reflects inside
                // (tests/wavefront/gltf_inside_volume_test.cpp).
                if (kind == IntegratorKind::Ppm && !gltf_material_ppm_safe(m))
                    return "/materials: material '" + material_name(scene, i) +
                           "' may be smooth (roughness below " + std::to_string(kPpmMinGltfRoughness).substr(0, 4) +
                           " or from a metallicRoughness texture) next to rough lobes, which ppm cannot render; "
                           "use bpm or vcm";
                continue;
            }
            return "/materials: material '" + material_name(scene, i) +
                   "' is a \"Ray Tracing in One Weekend\" material (rtiow_*), which only pt renders";
        }
    }
    if (kind == IntegratorKind::Ppm) {
        // ppm merges at the first non-specular camera vertex and continues only through
        // specular ones; a material with both kinds of lobe needs bpm (SmallVCM switches).
        for (size_t i = 0; i < scene.materials.size(); ++i) {
            const Material& m = scene.materials[i];
            if (m.type != MaterialType::SmallVcm) continue;
            bool non_specular = max_component(m.kd) > 0.0f || max_component(m.ks) > 0.0f;
            bool specular = max_component(m.km) > 0.0f || m.ior > 0.0f;
            if (non_specular && specular) {
                return "/materials: material '" + material_name(scene, i) +
                       "' mixes specular and non-specular lobes, which ppm cannot render; use bpm or vcm";
            }
        }
    }
    return "";
}

// lt traces no camera rays, so it has no first hits to write AOVs (engine/aov.h) from.
inline constexpr const char* kLtAovProblem =
    "AOVs (--aov, render.aov) need camera rays, which lt does not trace; use pt, bpt, ppm, bpm or vcm";

// Why `settings` are out of reach for `kind` (sizes the engine cannot index, AOVs it
// cannot write), or "".
inline std::string integrator_settings_problem(IntegratorKind kind, const RenderSettings& settings) {
    if (settings.aovs && kind == IntegratorKind::Lt) return kLtAovProblem;
    if (kind == IntegratorKind::Pt) return "";
    uint64_t light_paths = settings.light_paths ? settings.light_paths : uint64_t(settings.width) * settings.height;
    uint64_t entries = light_paths * (settings.max_depth > 1 ? settings.max_depth - 1 : 1);
    if (entries > 0xffffffffull)
        return "light paths x (max path length - 1) = " + std::to_string(entries) +
               " light-vertex entries: expected at most 4294967295; use fewer --light-paths or a smaller --max-depth";
    return "";
}

}  // namespace wf
