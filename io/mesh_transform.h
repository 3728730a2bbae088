// Affine transforms of shapes and meshes (scene-file "transform", glTF node
// transforms). Composed in double so that a chain of them loses nothing visible.
#pragma once

#include "engine/math.h"
#include "engine/scene.h"

namespace wf {

// x -> L x + t, stored row-major as [L | t].
struct Affine3 {
    double m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};

    static Affine3 translate(Vec3f t);
    static Affine3 scale(Vec3f s);
    // Right-handed rotation by `radians` about `axis` (any non-zero length).
    static Affine3 rotate(Vec3f axis, double radians);
    // Rotation by a unit quaternion (x, y, z, w), as glTF writes it.
    static Affine3 rotate_quaternion(double x, double y, double z, double w);

    double determinant() const;  // of L; negative: the transform mirrors
    bool is_identity() const;

    Vec3f point(Vec3f p) const;
    Vec3f vector(Vec3f v) const;  // L v: an edge or offset
    // A normal's direction under the transform: the inverse transpose of L, written as
    // the cofactor matrix (no division) times the sign of the determinant; not normalised.
    Vec3f normal(Vec3f n) const;
    // Lengths of L's columns: how far the unit axes stretch.
    Vec3f column_lengths() const;
    // Whether L is a rotation (or a mirror) times one scale factor, to relative `tolerance`.
    bool is_similarity(double tolerance) const;
};

// `a` after `b`: (a * b)(x) = a(b(x)).
Affine3 operator*(const Affine3& a, const Affine3& b);

// Transforms a mesh in place: positions by `xf`, normals by its inverse transpose
// (renormalised), and, when `xf` mirrors, every triangle's winding reversed so that the
// geometric normal keeps facing the same side of the surface as before.
void transform_mesh(IndexedMesh& mesh, const Affine3& xf);

}  // namespace wf
