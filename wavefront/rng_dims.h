// Random-number dimensions used per path vertex (see engine/rng.h). The
// assignment is fixed, so a vertex's randomness never depends on what other
// stages did.
#pragma once

#include <cstdint>

namespace wf::rng_dim {
inline constexpr uint32_t kPixelX = 0, kPixelY = 1;  // camera: pixel jitter (bounce 0)
inline constexpr uint32_t kLensU = 2, kLensV = 3;    // camera: thin-lens aperture sample
inline constexpr uint32_t kLightPick = 4;            // NEE: which light
inline constexpr uint32_t kLightU = 5, kLightV = 6;  // NEE: point on the light
inline constexpr uint32_t kBsdfU = 7, kBsdfV = 8, kBsdfLobe = 9;  // BSDF sample
inline constexpr uint32_t kRoulette = 10;            // Russian roulette
}  // namespace wf::rng_dim
