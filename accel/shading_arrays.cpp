#include "accel/shading_arrays.h"

#include <stdexcept>

namespace wf {

ShadingArrays gather_shading_arrays(const std::vector<IndexedMesh>& meshes, uint32_t num_triangles,
                                    std::vector<PrimInfo>& prims) {
    ShadingArrays out;
    bool any_normals = false, any_uvs = false, any_uvs1 = false, any_tangents = false, any_colors = false;
    size_t vertices = 0;
    for (const IndexedMesh& m : meshes) {
        if (!has_shading_attributes(m)) continue;
        any_normals |= !m.normals.empty();
        any_uvs |= !m.uvs.empty();
        any_uvs1 |= !m.uvs1.empty();
        any_tangents |= !m.tangents.empty();
        any_colors |= !m.colors.empty();
        vertices += m.positions.size();
    }
    if (vertices == 0) return out;
    if (vertices > 0xffffffffull) throw std::length_error("more than 2^32 - 1 mesh vertices with shading attributes");

    out.triangle_vertices.assign(size_t(num_triangles) * 3, 0u);
    if (any_normals) out.normals.resize(vertices);
    if (any_uvs) out.uvs.resize(vertices);
    if (any_uvs1) out.uvs1.resize(vertices);
    if (any_tangents) out.tangents.resize(vertices);
    if (any_colors) out.colors.resize(vertices);
    uint32_t base = 0;
    for (const IndexedMesh& m : meshes) {
        const uint32_t flags = (m.normals.empty() ? 0u : kPrimHasNormals) | (m.uvs.empty() ? 0u : kPrimHasUvs) |
                               (m.uvs1.empty() ? 0u : kPrimHasUvs1) | (m.tangents.empty() ? 0u : kPrimHasTangents) |
                               (m.colors.empty() ? 0u : kPrimHasColors);
        if (flags == 0) continue;
        const size_t n = m.positions.size();
        auto copy = [&](auto& dst, const auto& src) {
            for (size_t i = 0; i < src.size(); ++i) dst[base + i] = src[i];
        };
        copy(out.normals, m.normals);
        copy(out.uvs, m.uvs);
        copy(out.uvs1, m.uvs1);
        copy(out.tangents, m.tangents);
        copy(out.colors, m.colors);
        for (size_t t = 0; t < m.num_triangles(); ++t) {
            const size_t prim = size_t(m.first_prim) + t;
            if (prim >= num_triangles) throw std::logic_error("a mesh triangle beyond the scene's triangles");
            for (int k = 0; k < 3; ++k) out.triangle_vertices[3 * prim + k] = base + m.indices[3 * t + k];
            prims[prim].flags |= flags;
        }
        base += uint32_t(n);
    }
    return out;
}

}  // namespace wf
