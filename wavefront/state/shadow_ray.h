// Shadow rays, declared once: a visibility test and what it adds to the film
// if nothing blocks it (Cycles' shadow_state_template.h, pbrt-v4's
// ShadowRayWorkItem). Next-event estimation, vertex connections and light
// vertices connected to the camera all push them; any pixel may be the target.
#pragma once

#include <cstdint>

#include "engine/math.h"
#include "engine/soa.h"

// X(type, name, comment)
#define WF_SHADOW_RAY_FIELDS(X)                                                                    \
    X(wf::Vec3f, origin, "ray origin, already offset off its surface")                             \
    X(wf::Vec3f, dir, "unit direction")                                                            \
    X(float, t_max, "the segment to test: (0, t_max), stopping short of the target")              \
    X(wf::Vec3f, contribution, "radiance added to the film when unoccluded")                       \
    X(uint32_t, pixel, "film pixel the contribution goes to")

namespace wf {
WF_DECLARE_SOA(ShadowRay, WF_SHADOW_RAY_FIELDS)
}  // namespace wf
