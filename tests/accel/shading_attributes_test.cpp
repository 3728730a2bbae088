// Shading attributes (accel/shading_attributes.h, accel/shading_arrays.h): the flags
// and indices gathered from meshes, and interpolation at barycentrics, against values
// worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "accel/shading_arrays.h"
#include "accel/shading_attributes.h"

namespace wf {
namespace {

// The unit right triangle in z = 0, counter-clockwise about +z, with UVs u = x, v = y.
IndexedMesh right_triangle() {
    IndexedMesh m;
    m.positions = {Vec3f(0, 0, 0), Vec3f(1, 0, 0), Vec3f(0, 1, 0)};
    m.indices = {0, 1, 2};
    return m;
}

ShadingAttributesView view_of(const ShadingArrays& a) {
    return ShadingAttributesView{a.triangle_vertices.empty() ? nullptr : a.triangle_vertices.data(),
                                 a.normals.empty() ? nullptr : a.normals.data(),
                                 a.uvs.empty() ? nullptr : a.uvs.data(),
                                 a.uvs1.empty() ? nullptr : a.uvs1.data(),
                                 a.tangents.empty() ? nullptr : a.tangents.data(),
                                 a.colors.empty() ? nullptr : a.colors.data()};
}

const Triangle kTri{Vec3f(0, 0, 0), Vec3f(1, 0, 0), Vec3f(0, 1, 0)};

TEST(ShadingArrays, NoAttributesNoArraysAndNoFlags) {
    std::vector<IndexedMesh> meshes = {right_triangle()};
    std::vector<PrimInfo> prims(1);
    ShadingArrays a = gather_shading_arrays(meshes, 1, prims);
    EXPECT_TRUE(a.triangle_vertices.empty());
    EXPECT_EQ(prims[0].flags, 0u);
    ShadingAttributes s = triangle_shading(view_of(a), kTri, 0, prims[0].flags, 0.25f, 0.5f, Vec3f(0, 0, 1));
    EXPECT_FLOAT_EQ(s.ns.z, 1.0f);
    EXPECT_FLOAT_EQ(s.uv[0].x, 0.25f);  // barycentrics stand in for UVs
    EXPECT_FLOAT_EQ(s.uv[0].y, 0.5f);
    EXPECT_FLOAT_EQ(s.tangent.x, 1.0f);  // along the first edge
}

TEST(ShadingArrays, MeshesAreConcatenatedWithTheirOwnFlags) {
    IndexedMesh plain = right_triangle();  // primitive 0: no attributes
    IndexedMesh smooth = right_triangle();  // primitive 1: normals and colours
    smooth.first_prim = 1;
    smooth.normals = {Vec3f(0, 0, 1), Vec3f(1, 0, 0), Vec3f(0, 1, 0)};
    smooth.colors = {Vec4f{1, 0, 0, 1}, Vec4f{0, 1, 0, 1}, Vec4f{0, 0, 1, 0}};
    IndexedMesh textured = right_triangle();  // primitive 2: UVs only
    textured.first_prim = 2;
    textured.uvs = {Vec2f{0, 0}, Vec2f{1, 0}, Vec2f{0, 1}};
    std::vector<IndexedMesh> meshes = {plain, smooth, textured};
    std::vector<PrimInfo> prims(3);
    ShadingArrays a = gather_shading_arrays(meshes, 3, prims);
    EXPECT_EQ(prims[0].flags, 0u);
    EXPECT_EQ(prims[1].flags, uint32_t(kPrimHasNormals | kPrimHasColors));
    EXPECT_EQ(prims[2].flags, uint32_t(kPrimHasUvs));
    ASSERT_EQ(a.triangle_vertices.size(), 9u);
    EXPECT_EQ(a.triangle_vertices[3], 0u);  // the smooth mesh's vertices come first
    EXPECT_EQ(a.triangle_vertices[6], 3u);  // then the textured mesh's
    EXPECT_EQ(a.normals.size(), 6u);
    EXPECT_TRUE(a.tangents.empty());

    // Interpolation at (u, v) = (0.25, 0.5): weights 0.25, 0.25, 0.5 on vertices 0, 1, 2.
    ShadingAttributes s = triangle_shading(view_of(a), kTri, 1, prims[1].flags, 0.25f, 0.5f, Vec3f(0, 0, 1));
    const float len = std::sqrt(0.25f * 0.25f + 0.5f * 0.5f + 0.25f * 0.25f);
    EXPECT_NEAR(s.ns.x, 0.25f / len, 1e-6f);
    EXPECT_NEAR(s.ns.y, 0.5f / len, 1e-6f);
    EXPECT_NEAR(s.ns.z, 0.25f / len, 1e-6f);
    EXPECT_NEAR(s.color.x, 0.25f, 1e-6f);
    EXPECT_NEAR(s.color.y, 0.25f, 1e-6f);
    EXPECT_NEAR(s.color.z, 0.5f, 1e-6f);
    EXPECT_NEAR(s.color.w, 0.5f, 1e-6f);
    EXPECT_NEAR(dot(s.tangent, s.ns), 0.0f, 1e-6f);  // the tangent is made perpendicular
}

TEST(ShadingAttributes, TangentAndBitangentSignFollowTheUvs) {
    IndexedMesh m = right_triangle();
    m.uvs = {Vec2f{0, 0}, Vec2f{0, 1}, Vec2f{1, 0}};  // u runs along +y, v along +x
    std::vector<IndexedMesh> meshes = {m};
    std::vector<PrimInfo> prims(1);
    ShadingArrays a = gather_shading_arrays(meshes, 1, prims);
    ShadingAttributes s = triangle_shading(view_of(a), kTri, 0, prims[0].flags, 0.2f, 0.3f, Vec3f(0, 0, 1));
    EXPECT_NEAR(s.tangent.y, 1.0f, 1e-6f);  // dp/du = +y
    // dp/dv = +x, and cross(n, dp/du) = cross(z, y) = -x: the bitangent sign is -1.
    EXPECT_EQ(s.bitangent_sign, -1.0f);
    EXPECT_NEAR(s.uv[0].x, 0.3f, 1e-6f);  // u = the weight of vertex 2
    EXPECT_NEAR(s.uv[0].y, 0.2f, 1e-6f);
}

TEST(ShadingAttributes, FileTangentsWinOverUvDerivedOnes) {
    IndexedMesh m = right_triangle();
    m.uvs = {Vec2f{0, 0}, Vec2f{1, 0}, Vec2f{0, 1}};
    m.normals = {Vec3f(0, 0, 1), Vec3f(0, 0, 1), Vec3f(0, 0, 1)};
    m.tangents = {Vec4f{0, 1, 0, -1}, Vec4f{0, 1, 0, -1}, Vec4f{0, 1, 0, -1}};
    std::vector<IndexedMesh> meshes = {m};
    std::vector<PrimInfo> prims(1);
    ShadingArrays a = gather_shading_arrays(meshes, 1, prims);
    ShadingAttributes s = triangle_shading(view_of(a), kTri, 0, prims[0].flags, 0.2f, 0.3f, Vec3f(0, 0, 1));
    EXPECT_NEAR(s.tangent.y, 1.0f, 1e-6f);
    EXPECT_EQ(s.bitangent_sign, -1.0f);
}

TEST(ShadingAttributes, OppositeVertexNormalsFallBackToTheGeometricNormal) {
    IndexedMesh m = right_triangle();
    m.normals = {Vec3f(1, 0, 0), Vec3f(-1, 0, 0), Vec3f(1, 0, 0)};
    std::vector<IndexedMesh> meshes = {m};
    std::vector<PrimInfo> prims(1);
    ShadingArrays a = gather_shading_arrays(meshes, 1, prims);
    // Weights 0.5, 0.5, 0 cancel exactly.
    ShadingAttributes s = triangle_shading(view_of(a), kTri, 0, prims[0].flags, 0.5f, 0.0f, Vec3f(0, 0, 1));
    EXPECT_FLOAT_EQ(s.ns.z, 1.0f);
}

}  // namespace
}  // namespace wf
