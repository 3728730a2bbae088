// Vertex connections waiting to be evaluated: a camera vertex and one light vertex
// of its light sub-path. `connect` finds them, `connect_vertices` evaluates them one
// thread each, so no thread idles while its neighbours connect (a warp looping over
// its vertices' light paths ran the connection body for ~1.5 of 8 lanes' worth).
#pragma once

#include <cstdint>

#include "engine/soa.h"

// X(type, name, comment)
#define WF_CONNECTION_FIELDS(X)                                                                    \
    X(uint32_t, camera_slot, "camera-path slot of the camera vertex")                              \
    X(uint32_t, light_entry, "light-vertex entry (VcmContext::light_vertex_of)")

namespace wf {
WF_DECLARE_SOA(Connection, WF_CONNECTION_FIELDS)
}  // namespace wf
