// Random-number dimensions of each stream (see engine/rng.h). The assignment is
// fixed, so a vertex's randomness never depends on what other stages did. The
// bounce of a key is the path length of the vertex that draws (0: the start).
#pragma once

#include <cstdint>

#include "engine/rng.h"

namespace wf::rng_dim {
// Camera stream (kRngStreamCamera), bounce 0: the camera sample.
inline constexpr uint32_t kPixelX = 0, kPixelY = 1;  // pixel jitter
inline constexpr uint32_t kLensU = 2, kLensV = 3;    // thin-lens aperture sample
// Light stream (kRngStreamLight), bounce 0: the emission sample.
inline constexpr uint32_t kEmitLightPick = 0;              // which light emits
inline constexpr uint32_t kEmitDirU = 1, kEmitDirV = 2;    // emitted direction
inline constexpr uint32_t kEmitPosU = 3, kEmitPosV = 4;    // point on the light
// Both streams, at a vertex (bounce = its path length).
inline constexpr uint32_t kLightPick = 4;            // next-event estimation: which light
inline constexpr uint32_t kLightU = 5, kLightV = 6;  // next-event estimation: point on the light
inline constexpr uint32_t kBsdfU = 7, kBsdfV = 8, kBsdfLobe = 9;  // BSDF sample
inline constexpr uint32_t kRoulette = 10;            // Russian roulette
inline constexpr uint32_t kOpacity = 11;             // glTF alpha: whether the path passes through (pt: camera
                                                     // stream; the bidirectional family: both)

inline constexpr uint32_t kLastDimension = kOpacity;
static_assert(kLastDimension < kRngMaxDimensions, "a dimension must fit the RNG key's dimension bits");
}  // namespace wf::rng_dim
