// Light sub-path state of the bidirectional family, declared once (one SoA array
// per line, one element per light-path slot of a wave).
#pragma once

#include <cstdint>

#include "engine/math.h"
#include "engine/soa.h"
#include "wavefront/state/path_hit.h"

// X(type, name, comment)
#define WF_LIGHT_PATH_FIELDS(X)                                                                    \
    X(wf::Vec3f, ray_origin, "origin of the ray to trace next (already offset off the surface)")   \
    X(wf::Vec3f, ray_dir, "unit direction of the ray to trace next (the way the particle flies)")  \
    X(wf::Vec3f, throughput, "emitted energy times f*cos/pdf products, over the emission pdf")      \
    X(uint32_t, path, "batch light-path index: b * light paths + p, for iteration b of the batch")                 \
    X(uint32_t, path_length, "segments traced so far; the emitted ray is segment 1")               \
    X(uint8_t, from_finite_light, "1 when emitted by an area or point light (not at infinity)")    \
    X(uint8_t, alive, "1 when the path continues after this bounce; compact selects these")       \
    X(float, d_vcm, "MIS: dVCM (wavefront/vcm_mis.h)")                                              \
    X(float, d_vc, "MIS: dVC")                                                                      \
    X(float, d_vm, "MIS: dVM")

namespace wf {
WF_DECLARE_SOA_WITH_SCRATCH(LightPath, WF_LIGHT_PATH_FIELDS, WF_PATH_HIT_FIELDS)
}  // namespace wf
