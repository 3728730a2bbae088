// Path state of the wavefront path tracer, declared once. Each line is one SoA
// array with one element per path slot; PathStateView (raw pointers, passed to
// kernels) and PathStateStorage<Backend> (owning buffers) are generated from it.
// Adding a field is a one-line change here.
#pragma once

#include <cstdint>

#include "engine/math.h"

// X(type, name, comment)
#define WF_PATH_STATE_FIELDS(X)                                                                     \
    X(wf::Vec3f, ray_origin, "origin of the ray to trace next (already offset off the surface)")   \
    X(wf::Vec3f, ray_dir, "unit direction of the ray to trace next")                               \
    X(wf::Vec3f, throughput, "path throughput: product of f*cos/pdf (and 1/RR) so far")            \
    X(wf::Vec3f, radiance, "radiance gathered by this path so far, in W/sr/m^2")                   \
    X(uint32_t, pixel, "pixel index y*width+x this path belongs to")                               \
    X(uint32_t, path_length, "segments traced so far; the camera ray is segment 1")                \
    X(float, last_pdf_w, "solid-angle pdf (times RR) of the last BSDF sample, for MIS on hits")    \
    X(uint8_t, last_specular, "1 when the last scattering was a delta lobe (or the camera)")       \
    X(uint8_t, alive, "1 when the path continues after this bounce; compact selects these")       \
    X(float, hit_t, "closest-hit distance along ray_dir")                                          \
    X(uint32_t, hit_prim, "closest-hit primitive id")                                              \
    X(float, hit_u, "closest-hit barycentric u (triangles)")                                       \
    X(float, hit_v, "closest-hit barycentric v (triangles)")                                       \
    X(wf::Vec3f, shadow_origin, "origin of this bounce's shadow ray")                              \
    X(wf::Vec3f, shadow_dir, "unit direction of this bounce's shadow ray")                         \
    X(float, shadow_t_max, "length of the shadow ray (stops short of the light)")                  \
    X(wf::Vec3f, shadow_contribution, "radiance added if the shadow ray is unoccluded")

namespace wf {

struct PathStateView {
#define WF_DECLARE_POINTER(type, name, comment) type* name;
    WF_PATH_STATE_FIELDS(WF_DECLARE_POINTER)
#undef WF_DECLARE_POINTER
};

template <class Backend>
struct PathStateStorage {
#define WF_DECLARE_BUFFER(type, name, comment) typename Backend::template Buffer<type> name;
    WF_PATH_STATE_FIELDS(WF_DECLARE_BUFFER)
#undef WF_DECLARE_BUFFER

    void allocate(uint32_t num_slots) {
#define WF_RESIZE_BUFFER(type, name, comment) name.resize(num_slots);
        WF_PATH_STATE_FIELDS(WF_RESIZE_BUFFER)
#undef WF_RESIZE_BUFFER
    }

    PathStateView view() {
        PathStateView v;
#define WF_VIEW_BUFFER(type, name, comment) v.name = name.data();
        WF_PATH_STATE_FIELDS(WF_VIEW_BUFFER)
#undef WF_VIEW_BUFFER
        return v;
    }
};

}  // namespace wf
