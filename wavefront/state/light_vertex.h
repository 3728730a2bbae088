// Light vertices: every non-delta surface hit of a light sub-path, kept for the
// camera pass to connect to (bpt, vcm) and merge with (ppm, bpm, vcm). A flat
// buffer with a block of stride * light_paths entries per batch iteration; the
// vertices of an iteration fill its block densely from the front, in the order
// store_light_vertex claims them (an atomic counter per iteration,
// VcmContext::claim_light_vertex), so a bounce's stores are coalesced and the hash
// grid reads only the vertices there are. Where a light path's vertex of path length
// k lives is in the light-path vertex table (VcmContext::light_vertex_of): the camera
// path of pixel p finds its light path's vertices without a search.
// Unlike the path records, light vertices are an array of structures (WF_DECLARE_AOS):
// a camera vertex connects to the vertices of one light path, which lie anywhere in the
// block, and reads nearly every field of each: one 96-byte record is three 32-byte
// sectors (the buffers start 256-byte aligned), where the struct-of-arrays fields took a
// sector or two each. ncu, H100, SmallVCM scene 2, vcm: connect_vertices 160 -> 136 us
// per iteration, its DRAM reads 288 -> 194 MB; gather_merge_vertices 57 -> 47 us.
// The fields the merge copy reads come first (gather_merge_vertices then touches two
// sectors of three); connect_to_camera's set (position and its error, normal, dir_fix,
// throughput, material) no longer fits the first two with them, which costs lt 1.3%
// (bench/NOTES.md, fourteenth session).
// The glTF fields (prim, hit_u, hit_v: what rebuilds shading normal, UVs and textures,
// wavefront/stages/path_vertex.h) are read only by the CoverageBsdf instantiation of the
// stages (scenes with glTF or microfacet materials); the lean Bsdf one writes zeros there.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/math.h"
#include "engine/soa.h"

// X(type, name, comment)
#define WF_LIGHT_VERTEX_FIELDS(X)                                                                  \
    X(wf::Vec3f, position, "hit point, world space")                                               \
    X(uint32_t, path_length, "segments from the light to this vertex")                             \
    X(wf::Vec3f, dir_fix, "unit direction back toward the previous vertex (toward the light)")     \
    X(float, d_vcm, "MIS: dVCM at the vertex")                                                      \
    X(wf::Vec3f, throughput, "light sub-path throughput at the vertex (emission included)")        \
    X(float, d_vm, "MIS: dVM at the vertex")                                                        \
    X(float, continuation, "Russian-roulette continuation probability of the BSDF at the vertex")  \
    X(wf::Vec3f, normal, "unit geometric normal of the hit primitive (not flipped)")               \
    X(wf::Vec3f, position_error, "rounding-error bound of position (accel/surface.h)")             \
    X(uint32_t, material, "material id, to rebuild the BSDF")                                      \
    X(float, d_vc, "MIS: dVC at the vertex")                                                        \
    X(uint32_t, prim, "glTF scenes only: hit primitive id, to rebuild the shading point")         \
    X(float, hit_u, "glTF scenes only: hit barycentric u (triangles)")                            \
    X(float, hit_v, "glTF scenes only: hit barycentric v (triangles)")

namespace wf {
WF_DECLARE_AOS(LightVertex, WF_LIGHT_VERTEX_FIELDS)
static_assert(sizeof(LightVertexRecord) == 96, "three 32-byte sectors per light vertex");
// What merging copies of a vertex (gather_merge_vertices: the MergePoint and MergeVertex
// fields, the normal included) fills the record's first two sectors, so the copy, which
// reads records at random, touches two sectors of three.
static_assert(offsetof(LightVertexRecord, normal) + sizeof(Vec3f) <= 64, "merge fields in the first 64 bytes");
}  // namespace wf
