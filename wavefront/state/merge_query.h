// A camera vertex's merge query (ppm, bpm, vcm), written by shade_surface at the
// vertex's index in the bounce's vertex queue (VcmContext::merge_queries): the query
// point, and how long a light sub-path it may merge with. merge scans the hash grid from
// it, so the vertex's surface point and BSDF (a chain of dependent loads from the hit
// fields) are rebuilt only for a chunk of candidates that accepted one; built before the
// scan they cost a quarter of the stage's instructions (H100, SmallVCM scene 2:
// merge 266 -> 250 us per iteration, bench/NOTES.md).
#pragma once

#include <cstdint>

#include "engine/math.h"

namespace wf {

struct alignas(16) MergeQuery {
    Vec3f point;                // the vertex's hit point (surface_point(...).p)
    uint32_t max_light_length;  // max path length - camera path length (>= 1); 0: a delta BSDF, no merging
};
static_assert(sizeof(MergeQuery) == 16, "one merge query is one 16-byte load");

}  // namespace wf
