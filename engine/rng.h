// Counter-based random numbers. A value is a pure function of
// (seed, pixel or path id, sample index, bounce, dimension), so an image does not
// depend on thread scheduling, compaction, sorting or the backend.
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

// The random stream of one path vertex: fixed (seed, path, sample, bounce);
// dimensions are drawn in order with next(), or addressed directly with at().
// Dimension numbering is part of each stage's contract (see wavefront/rng_dims.h).
struct PathRng {
    uint32_t seed, path, sample, bounce;

    WF_HD float at(uint32_t dimension) const {
        Uint4 h = pcg4d({path, sample, (bounce << 8) ^ dimension, seed});
        return u32_to_unit_float(h.x);
    }
};

}  // namespace wf
