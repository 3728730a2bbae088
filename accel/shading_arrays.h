// The host side of accel/shading_attributes.h: the per-vertex arrays of every mesh with
// shading attributes, concatenated, and each triangle's three vertex indices, ready to
// upload. Built once per render from HostScene::meshes.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/scene.h"

namespace wf {

struct ShadingArrays {
    std::vector<uint32_t> triangle_vertices;  // 3 per triangle primitive (all of them), or empty: no attributes anywhere
    std::vector<Vec3f> normals;               // each array: one per concatenated vertex, or empty when no mesh has it
    std::vector<Vec2f> uvs, uvs1;
    std::vector<Vec4f> tangents, colors;
};

// Whether a mesh brings any shading attribute (normals, UVs, tangents, colours).
inline bool has_shading_attributes(const IndexedMesh& m) {
    return !m.normals.empty() || !m.uvs.empty() || !m.uvs1.empty() || !m.tangents.empty() || !m.colors.empty();
}

// Concatenates the meshes' attributes and sets the kPrimHas* flags of their triangles
// in `prims` (triangles first, as HostScene::prims). A mesh that lacks an attribute
// another mesh has gets zeros there, never read (its flag is clear).
ShadingArrays gather_shading_arrays(const std::vector<IndexedMesh>& meshes, uint32_t num_triangles,
                                    std::vector<PrimInfo>& prims);

}  // namespace wf
