// Counter-based random numbers. A value is a pure function of
// (seed, stream, path id, sample index, bounce, dimension), so an image does not
// depend on thread scheduling, compaction, sorting or the backend. The stream
// separates the sub-paths of one index: light sub-path i must not draw camera
// path i's numbers.
// Hash: pcg4d (Jarzynski & Olano, "Hash Functions for GPU Rendering", JCGT 2020).
#pragma once

#include <cstdint>

#include "engine/hd.h"

namespace wf {

struct Uint4 {
    uint32_t x, y, z, w;
};

WF_HD_INLINE Uint4 pcg4d(Uint4 v) {
    v.x = v.x * 1664525u + 1013904223u;
    v.y = v.y * 1664525u + 1013904223u;
    v.z = v.z * 1664525u + 1013904223u;
    v.w = v.w * 1664525u + 1013904223u;
    v.x += v.y * v.w; v.y += v.z * v.x; v.z += v.x * v.y; v.w += v.y * v.z;
    v.x ^= v.x >> 16; v.y ^= v.y >> 16; v.z ^= v.z >> 16; v.w ^= v.w >> 16;
    v.x += v.y * v.w; v.y += v.z * v.x; v.z += v.x * v.y; v.w += v.y * v.z;
    return v;
}

// Uniform float in [0, 1) from the top 24 bits (exactly representable, never 1).
WF_HD_INLINE float u32_to_unit_float(uint32_t u) { return float(u >> 8) * (1.0f / 16777216.0f); }

// Which sub-path a random stream belongs to.
enum RngStream : uint32_t {
    kRngStreamCamera = 0,  // camera sub-paths (pt's paths too)
    kRngStreamLight = 1,   // light sub-paths of the bidirectional family
};

// How (stream, bounce, dimension) share the third 32-bit word of the key:
// bits [0, 8) dimension, [8, 24) bounce, [24, 32) stream. The camera stream (0)
// gives exactly the keys of the engine before streams existed.
inline constexpr uint32_t kRngDimensionBits = 8;
inline constexpr uint32_t kRngBounceBits = 16;
inline constexpr uint32_t kRngStreamBits = 32 - kRngDimensionBits - kRngBounceBits;
inline constexpr uint32_t kRngMaxDimensions = 1u << kRngDimensionBits;
inline constexpr uint32_t kRngMaxBounces = 1u << kRngBounceBits;
static_assert(kRngStreamBits >= 1 && kRngDimensionBits + kRngBounceBits + kRngStreamBits == 32,
              "the RNG key word must hold stream, bounce and dimension");
static_assert(kRngStreamLight < (1u << kRngStreamBits), "stream ids must fit their bits");

// The random stream of one path vertex: fixed (seed, stream, path, sample, bounce);
// dimensions are addressed directly with at(). Dimension numbering is part of
// each stage's contract (see wavefront/rng_dims.h, which checks it fits).
struct PathRng {
    uint32_t seed, path, sample, bounce;
    uint32_t stream = kRngStreamCamera;

    WF_HD float at(uint32_t dimension) const {
        uint32_t word = (stream << (kRngDimensionBits + kRngBounceBits)) | (bounce << kRngDimensionBits) | dimension;
        Uint4 h = pcg4d({path, sample, word, seed});
        return u32_to_unit_float(h.x);
    }
};

}  // namespace wf
