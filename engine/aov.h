// Arbitrary output variables (AOVs): layers written next to the beauty image for
// denoisers (OIDN takes albedo and normal) and for debugging. This is the one place
// that says what each contains (docs/aov.md repeats it for users).
//
// Every AOV describes the FIRST SURFACE THE CAMERA RAY HITS (path length 1) and is
// averaged over the pixel's samples exactly as the beauty is: each sample adds its
// values to double sums (engine/film.h), the resolve divides by the number of samples.
// A sample whose camera ray leaves the scene adds 0 to every AOV, so a pixel half on a
// surface and half on the background holds half the surface's values.
//   albedo  (EXR albedo.R/G/B)  the material's reflectance colour at the hit, in [0, 1]
//           (the BSDFs' albedo(): SmallVCM materials clamp(diffuse + glossy + mirror, 0, 1),
//           with refraction counting as 1; rtiow materials their albedo, glass 1; glTF
//           materials base colour x base colour texture x vertex colour, metals and
//           transmissive ones included). Not shaded: no lighting, no Fresnel, no cosine.
//   normal  (EXR normal.X/Y/Z)  the shading normal in world space, unit, turned to face
//           the camera side (the side the ray came from), as OIDN wants: the normal the
//           BSDF shades with (glTF: after interpolation and normal mapping; other materials:
//           the geometric normal). The average of a pixel's samples is not renormalised
//           (at silhouettes it is shorter than 1; OIDN accepts that).
//   depth   (EXR depth.Z)  the distance along the camera ray from its origin (the camera
//           position; with a thin lens, the point on the lens) to the hit, in scene units:
//           ray distance, not the z (forward) coordinate. Escaped rays: 0, the sentinel
//           kAovDepthMiss (a hit is always at a distance > 0; 0 averages with the other
//           AOVs' 0 for escaped rays and, unlike +inf, every EXR reader and denoiser takes it).
// Known limit: glTF stochastic alpha is not followed; the first surface counts whatever
// its opacity (a cut-out leaf's clear parts show the leaf's plane).
// Only pt and the camera pass of bpt, ppm, bpm and vcm trace camera rays; lt traces
// none and refuses AOVs (aov_integrator_problem).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace wf {

enum class Aov : uint32_t { Albedo = 0, Normal = 1, Depth = 2 };
inline constexpr uint32_t kNumAovs = 3;

// Depth written for a sample whose camera ray hits nothing (see above).
inline constexpr float kAovDepthMiss = 0.0f;

struct AovInfo {
    Aov aov;
    std::string_view name;       // as --aov and render.aov spell it; also the EXR layer name
    uint32_t components;         // floats per pixel
    std::string_view channels;   // EXR channel suffixes, one letter per component
};

inline constexpr AovInfo kAovs[kNumAovs] = {
    {Aov::Albedo, "albedo", 3, "RGB"},
    {Aov::Normal, "normal", 3, "XYZ"},
    {Aov::Depth, "depth", 1, "Z"},
};
inline constexpr std::string_view kAovNames[kNumAovs] = {"albedo", "normal", "depth"};

// A set of AOVs: bit (1 << Aov) for each. 0: none (the default; the film then has no AOV memory).
using AovSet = uint32_t;
inline constexpr AovSet aov_bit(Aov a) { return AovSet(1) << uint32_t(a); }
inline constexpr bool has_aov(AovSet set, Aov a) { return (set & aov_bit(a)) != 0; }

inline const AovInfo* find_aov(std::string_view name) {
    for (const AovInfo& info : kAovs)
        if (info.name == name) return &info;
    return nullptr;
}

// "albedo, normal, depth", for messages and --help.
inline std::string aov_name_list() {
    std::string s;
    for (const AovInfo& info : kAovs) {
        if (!s.empty()) s += ", ";
        s += info.name;
    }
    return s;
}

}  // namespace wf
