// Light vertices: every non-delta surface hit of a light sub-path, kept for the
// camera pass to connect to (bpt, vcm) and merge with (ppm, bpm, vcm). A flat
// buffer with a fixed entry per (iteration, light path, path length): the vertex of
// path p of batch iteration b at path length k (1-based) lives at
// b * stride * light_paths + (k - 1) * light_paths + p (VcmContext::light_vertex_entry),
// and `valid` says whether one was stored there. So the camera
// path of pixel p finds its light path's vertices without a search, the layout is
// the same whatever order the light pass ran in, and one bounce of the light pass
// writes one contiguous block.
// The glTF fields (prim, hit_u, hit_v: what rebuilds shading normal, UVs and textures,
// wavefront/stages/path_vertex.h) are written and read only by the SurfaceBsdf
// instantiation of the stages (scenes with glTF materials); the lean Bsdf one moves
// the same bytes as before they existed.
#pragma once

#include <cstdint>

#include "engine/math.h"
#include "engine/soa.h"

// X(type, name, comment)
#define WF_LIGHT_VERTEX_FIELDS(X)                                                                  \
    X(wf::Vec3f, position, "hit point, world space")                                               \
    X(wf::Vec3f, position_error, "rounding-error bound of position (accel/surface.h)")             \
    X(wf::Vec3f, normal, "unit geometric normal of the hit primitive (not flipped)")               \
    X(wf::Vec3f, dir_fix, "unit direction back toward the previous vertex (toward the light)")     \
    X(wf::Vec3f, throughput, "light sub-path throughput at the vertex (emission included)")        \
    X(uint32_t, material, "material id, to rebuild the BSDF")                                      \
    X(uint32_t, prim, "glTF scenes only: hit primitive id, to rebuild the shading point")         \
    X(float, hit_u, "glTF scenes only: hit barycentric u (triangles)")                            \
    X(float, hit_v, "glTF scenes only: hit barycentric v (triangles)")                            \
    X(uint32_t, path_length, "segments from the light to this vertex")                             \
    X(float, d_vcm, "MIS: dVCM at the vertex")                                                      \
    X(float, d_vc, "MIS: dVC at the vertex")                                                        \
    X(float, d_vm, "MIS: dVM at the vertex")                                                        \
    X(float, continuation, "Russian-roulette continuation probability of the BSDF at the vertex")   \
    X(uint8_t, valid, "1 when a vertex is stored in this entry (the hash grid skips the others)")

namespace wf {
WF_DECLARE_SOA(LightVertex, WF_LIGHT_VERTEX_FIELDS)
}  // namespace wf
