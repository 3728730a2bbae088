// Affine3 and transform_mesh, checked against transforms worked out by hand.
#include <cmath>

#include <gtest/gtest.h>

#include "io/mesh_transform.h"
#include "tests/io/mesh_test_util.h"

namespace wf {
namespace {

using test::expect_near;

constexpr double kQuarterTurn = 1.5707963267948966;

TEST(Affine3, RotationIsRightHanded) {
    // 90 degrees about +z takes +x to +y and +y to -x.
    Affine3 r = Affine3::rotate(Vec3f(0, 0, 1), kQuarterTurn);
    expect_near(r.point(Vec3f(1, 0, 0)), Vec3f(0, 1, 0));
    expect_near(r.point(Vec3f(0, 1, 0)), Vec3f(-1, 0, 0));
    // 90 degrees about +x takes +y to +z; the axis need not be unit length.
    expect_near(Affine3::rotate(Vec3f(5, 0, 0), kQuarterTurn).point(Vec3f(0, 1, 0)), Vec3f(0, 0, 1));
    EXPECT_NEAR(r.determinant(), 1.0, 1e-12);
}

TEST(Affine3, CompositionAppliesTheRightOperandFirst) {
    Affine3 t = Affine3::translate(Vec3f(1, 2, 3));
    Affine3 s = Affine3::scale(Vec3f(2, 2, 2));
    expect_near((t * s).point(Vec3f(1, 1, 1)), Vec3f(3, 4, 5));  // scale, then move
    expect_near((s * t).point(Vec3f(1, 1, 1)), Vec3f(4, 6, 8));  // move, then scale
    expect_near((t * s).vector(Vec3f(1, 1, 1)), Vec3f(2, 2, 2));  // vectors ignore the translation
}

TEST(Affine3, NormalsFollowTheInverseTranspose) {
    // The plane x + y = 1 has normal (1, 1, 0). Stretched by 2 along x it becomes
    // x / 2 + y = 1, whose normal is (1/2, 1, 0), not the stretched (2, 1, 0).
    Affine3 s = Affine3::scale(Vec3f(2, 1, 1));
    Vec3f n = normalize(s.normal(Vec3f(1, 1, 0)));
    expect_near(n, normalize(Vec3f(0.5f, 1, 0)));
    // Under a mirror the normal of the plane x = 1, (1, 0, 0), becomes (-1, 0, 0).
    expect_near(normalize(Affine3::scale(Vec3f(-1, 1, 1)).normal(Vec3f(1, 0, 0))), Vec3f(-1, 0, 0));
    EXPECT_LT(Affine3::scale(Vec3f(-1, 1, 1)).determinant(), 0.0);
}

TEST(Affine3, SimilarityAcceptsRotationUniformScaleAndMirrorOnly) {
    Affine3 rotated = Affine3::rotate(Vec3f(1, 2, 3), 0.7) * Affine3::scale(Vec3f(3, 3, 3));
    EXPECT_TRUE(rotated.is_similarity(1e-6));
    EXPECT_TRUE((Affine3::scale(Vec3f(-2, 2, 2)) * rotated).is_similarity(1e-6));
    EXPECT_FALSE(Affine3::scale(Vec3f(1, 2, 1)).is_similarity(1e-6));
    Affine3 shear;
    shear.m[0][1] = 0.5;
    EXPECT_FALSE(shear.is_similarity(1e-6));
}

IndexedMesh unit_quad() {  // [0, 1]^2 in z = 0, facing +z, with normals and UVs
    IndexedMesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.normals.assign(4, Vec3f(0, 0, 1));
    m.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    m.indices = {0, 1, 2, 0, 2, 3};
    return m;
}

TEST(TransformMesh, QuarterTurnAboutXLandsTheQuadInTheXzPlane) {
    IndexedMesh m = unit_quad();
    transform_mesh(m, Affine3::rotate(Vec3f(1, 0, 0), kQuarterTurn));
    // (x, y, 0) -> (x, 0, y); the +z normal turns to -y.
    expect_near(m.positions[2], Vec3f(1, 0, 1));
    expect_near(m.positions[3], Vec3f(0, 0, 1));
    for (Vec3f n : m.normals) expect_near(n, Vec3f(0, -1, 0));
    for (const Triangle& t : test::triangles_of(m)) expect_near(test::geometric_normal(t), Vec3f(0, -1, 0));
    EXPECT_EQ(m.uvs[2].x, 1.0f);  // UVs are not geometry
}

TEST(TransformMesh, MirrorKeepsGeometricAndShadingNormalsTogether) {
    IndexedMesh m = unit_quad();
    transform_mesh(m, Affine3::scale(Vec3f(-1, 1, 1)));
    expect_near(m.positions[1], Vec3f(-1, 0, 0));
    // The mirrored quad still faces +z: the winding was reversed.
    for (const Triangle& t : test::triangles_of(m)) expect_near(test::geometric_normal(t), Vec3f(0, 0, 1));
    for (Vec3f n : m.normals) expect_near(n, Vec3f(0, 0, 1));
}

TEST(TransformMesh, NormalsAreUnitAfterANonUniformScale) {
    IndexedMesh m = unit_quad();
    m.normals.assign(4, normalize(Vec3f(1, 0, 1)));
    transform_mesh(m, Affine3::scale(Vec3f(4, 1, 1)));
    for (Vec3f n : m.normals) expect_near(n, normalize(Vec3f(0.25f, 0, 1)));
}

}  // namespace
}  // namespace wf
