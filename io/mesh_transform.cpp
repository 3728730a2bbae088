#include "io/mesh_transform.h"

#include <cmath>
#include <utility>

#include "engine/backend/host_parallel.h"

namespace wf {

Affine3 Affine3::translate(Vec3f t) {
    Affine3 a;
    for (int i = 0; i < 3; ++i) a.m[i][3] = t[i];
    return a;
}

Affine3 Affine3::scale(Vec3f s) {
    Affine3 a;
    for (int i = 0; i < 3; ++i) a.m[i][i] = s[i];
    return a;
}

Affine3 Affine3::rotate(Vec3f axis, double radians) {
    double x = axis.x, y = axis.y, z = axis.z;
    double len = std::sqrt(x * x + y * y + z * z);
    x /= len, y /= len, z /= len;
    double h = 0.5 * radians;
    double s = std::sin(h);
    return rotate_quaternion(x * s, y * s, z * s, std::cos(h));
}

Affine3 Affine3::rotate_quaternion(double x, double y, double z, double w) {
    Affine3 a;
    a.m[0][0] = 1 - 2 * (y * y + z * z), a.m[0][1] = 2 * (x * y - z * w), a.m[0][2] = 2 * (x * z + y * w);
    a.m[1][0] = 2 * (x * y + z * w), a.m[1][1] = 1 - 2 * (x * x + z * z), a.m[1][2] = 2 * (y * z - x * w);
    a.m[2][0] = 2 * (x * z - y * w), a.m[2][1] = 2 * (y * z + x * w), a.m[2][2] = 1 - 2 * (x * x + y * y);
    return a;
}

double Affine3::determinant() const {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

bool Affine3::is_identity() const {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (m[i][j] != (i == j ? 1.0 : 0.0)) return false;
    return true;
}

Vec3f Affine3::point(Vec3f p) const {
    Vec3f out;
    for (int i = 0; i < 3; ++i) out[i] = float(m[i][0] * p.x + m[i][1] * p.y + m[i][2] * p.z + m[i][3]);
    return out;
}

Vec3f Affine3::vector(Vec3f v) const {
    Vec3f out;
    for (int i = 0; i < 3; ++i) out[i] = float(m[i][0] * v.x + m[i][1] * v.y + m[i][2] * v.z);
    return out;
}

Vec3f Affine3::normal(Vec3f n) const {
    // Cofactors of L, by cyclic indices: cof(L) = det(L) L^-T.
    double c[3][3];
    for (int i = 0; i < 3; ++i) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            c[i][j] = m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1];
        }
    }
    double sign = determinant() < 0 ? -1.0 : 1.0;
    Vec3f out;
    for (int i = 0; i < 3; ++i) out[i] = float(sign * (c[i][0] * n.x + c[i][1] * n.y + c[i][2] * n.z));
    return out;
}

Vec3f Affine3::column_lengths() const {
    Vec3f out;
    for (int j = 0; j < 3; ++j)
        out[j] = float(std::sqrt(m[0][j] * m[0][j] + m[1][j] * m[1][j] + m[2][j] * m[2][j]));
    return out;
}

bool Affine3::is_similarity(double tolerance) const {
    // L^T L must be s^2 I.
    double g[3][3];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) g[a][b] = m[0][a] * m[0][b] + m[1][a] * m[1][b] + m[2][a] * m[2][b];
    double s2 = (g[0][0] + g[1][1] + g[2][2]) / 3.0;
    if (!(s2 > 0.0) || !std::isfinite(s2)) return false;
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            if (std::fabs(g[a][b] - (a == b ? s2 : 0.0)) > tolerance * s2) return false;
    return true;
}

Affine3 operator*(const Affine3& a, const Affine3& b) {
    Affine3 r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j) {
            double v = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
            r.m[i][j] = j == 3 ? v + a.m[i][3] : v;
        }
    }
    return r;
}

void transform_mesh(IndexedMesh& mesh, const Affine3& xf) {
    if (xf.is_identity()) return;
    // Element by element, so on the thread pool (a large model's millions of vertices).
    auto each = [](auto& array, auto&& f) {
        host_parallel_chunks(array.size(), [&](uint64_t begin, uint64_t end) {
            for (uint64_t i = begin; i < end; ++i) f(array[i]);
        });
    };
    each(mesh.positions, [&](Vec3f& p) { p = xf.point(p); });
    each(mesh.normals, [&](Vec3f& n) {
        Vec3f t = xf.normal(n);
        float len = length(t);
        n = len > 0.0f && std::isfinite(len) ? t / len : t;  // the caller checks what stays non-finite
    });
    // A tangent is an edge direction (transformed by L); its bitangent, w (n x t), must
    // follow L too, and a mirror turns n x t around: so w changes sign.
    const bool mirrors = xf.determinant() < 0;
    each(mesh.tangents, [&](Vec4f& t) {
        Vec3f v = xf.vector(Vec3f(t.x, t.y, t.z));
        float len = length(v);
        if (len > 0.0f && std::isfinite(len)) v = v / len;
        t = Vec4f{v.x, v.y, v.z, mirrors ? -t.w : t.w};
    });
    if (mirrors)
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
}

}  // namespace wf
