#include "io/mesh_placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace wf::scene_json {
namespace {

// One scale factor per axis, none zero.
Vec3f read_scale(const Reader& r, const Node& n) {
    Vec3f s;
    if (n->is_number()) s = Vec3f(r.real(n));
    else s = r.point(n);
    if (s.x == 0.0f || s.y == 0.0f || s.z == 0.0f) r.fail(n, "a non-zero scale on every axis");
    return s;
}

Affine3 read_matrix(const Reader& r, const Node& n) {
    if (!n->is_array() || n->size() != 4) r.fail(n, "4 rows of 4 numbers (row-major)");
    Affine3 a;
    for (size_t i = 0; i < 4; ++i) {
        Node row = r.element(n, i);
        if (!row->is_array() || row->size() != 4) r.fail(row, "a row of 4 numbers");
        float v[4];
        for (size_t j = 0; j < 4; ++j) v[j] = r.real(r.element(row, j), Interval{-kMaxCoordinate, kMaxCoordinate});
        if (i == 3) {
            if (v[0] != 0 || v[1] != 0 || v[2] != 0 || v[3] != 1) r.fail(row, "[0, 0, 0, 1] (an affine transform)");
        } else {
            for (size_t j = 0; j < 4; ++j) a.m[i][j] = v[j];
        }
    }
    return a;
}

Affine3 read_one_transform(const Reader& r, const Node& n) {
    r.expect_object(n, "transform");
    r.check_keys(n, {"matrix", "scale", "rotate", "translate"}, "a transform");
    if (auto m = r.member(n, "matrix")) {
        if (n->size() != 1)
            r.fail(m->pointer, "\"matrix\" alone, or \"scale\", \"rotate\" and \"translate\"", "\"matrix\" with others");
        return read_matrix(r, *m);
    }
    Affine3 a;
    if (auto s = r.member(n, "scale")) a = Affine3::scale(read_scale(r, *s));
    if (auto rot = r.member(n, "rotate")) {
        r.expect_object(*rot, "rotation {\"axis\": [x, y, z], \"angle\": degrees}");
        r.check_keys(*rot, {"axis", "angle"}, "a rotation");
        Vec3f axis = r.direction(r.required(*rot, "axis", "a rotation"));
        double degrees = r.real(r.required(*rot, "angle", "a rotation"));
        a = Affine3::rotate(axis, degrees * (3.14159265358979323846 / 180.0)) * a;
    }
    if (auto t = r.member(n, "translate")) a = Affine3::translate(r.point(*t)) * a;
    return a;
}

bool degenerate(Vec3f a, Vec3f b, Vec3f c) {
    Vec3f n = cross(b - a, c - a);
    return !(length_squared(n) > 0.0f) || !is_finite(normalize(n));
}

}  // namespace

Affine3 read_transform(const Reader& r, const Node& n) {
    Affine3 a;
    if (n->is_array()) {
        if (n->empty()) r.fail(n, "a transform object or a non-empty array of them");
        for (size_t i = 0; i < n->size(); ++i) a = read_one_transform(r, r.element(n, i)) * a;
    } else {
        a = read_one_transform(r, n);
    }
    double det = a.determinant();
    if (!(std::fabs(det) > 0.0) || !std::isfinite(det))
        r.fail(n, "an invertible transform (determinant non-zero and finite)");
    return a;
}

void MeshPlace::fail(const std::string& expected, const std::string& got) const {
    throw SceneError(one_line(source) + ": " + (pointer.empty() ? std::string() : one_line(pointer) + ": ") + "expected " +
                     expected + ", got " + got);
}

void place_mesh(const MeshPlace& at, IndexedMesh mesh, const Affine3& xf, const ShapeCommon& sc, GeometryBuilder& g) {
    transform_mesh(mesh, xf);
    MeshPlace transform_at = at;
    if (!at.transform_pointer.empty()) transform_at.pointer = at.transform_pointer;
    for (const Vec3f& p : mesh.positions) {
        if (!(max_component(abs(p)) <= kMaxCoordinate))
            transform_at.fail("vertex coordinates of magnitude <= 1e10 in world space",
                              "a vertex at " + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z));
    }
    for (const Vec3f& n : mesh.normals) {
        if (!is_finite(n)) transform_at.fail("normals that stay finite under the transform", "a non-finite normal");
    }
    if (sc.flip_normals) {
        for (size_t t = 0; t < mesh.indices.size(); t += 3) std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
        for (Vec3f& n : mesh.normals) n = -n;
        for (Vec4f& t : mesh.tangents) t.w = -t.w;  // the bitangent w (n x t) keeps its direction
    }

    // Zero-area triangles go from the index list too, so triangle t is primitive first_prim + t.
    // An emissive triangle is noted by its number as written, which the user can look up.
    size_t kept = 0;
    const size_t num_triangles = mesh.indices.size() / 3;
    const bool emits = !is_black(sc.emission);
    for (size_t t = 0; t < num_triangles; ++t) {
        const uint32_t* v = &mesh.indices[3 * t];
        const Triangle tri{mesh.positions[v[0]], mesh.positions[v[1]], mesh.positions[v[2]]};
        if (degenerate(tri.p0, tri.p1, tri.p2)) continue;
        if (emits) g.note_emissive_triangle(tri, at.pointer, g.shape_triangles + t);
        for (int k = 0; k < 3; ++k) mesh.indices[3 * kept + k] = v[k];
        ++kept;
    }
    g.shape_triangles += num_triangles;
    g.dropped_degenerate_triangles += uint32_t(std::min<size_t>(num_triangles - kept, std::numeric_limits<uint32_t>::max()));
    if (kept == 0) at.fail("at least one triangle of non-zero area", std::to_string(num_triangles) + " degenerate triangles");
    mesh.indices.resize(3 * kept);
    if (g.triangles.size() + g.spheres.size() + kept > size_t(std::numeric_limits<int32_t>::max()))
        at.fail("fewer than 2^31 primitives in the scene", std::to_string(g.triangles.size() + kept) + " triangles");

    mesh.first_prim = uint32_t(g.triangles.size());
    auto make_room = [kept](auto& v) {  // geometric growth: many small meshes must not copy quadratically
        if (v.capacity() < v.size() + kept) v.reserve(std::max(v.size() + kept, 2 * v.capacity()));
    };
    make_room(g.triangles);
    make_room(g.triangle_prims);
    for (size_t t = 0; t < kept; ++t) {
        const uint32_t* v = &mesh.indices[3 * t];
        g.add_world_triangle({mesh.positions[v[0]], mesh.positions[v[1]], mesh.positions[v[2]]}, sc);
    }
    g.meshes.push_back(std::move(mesh));
}

}  // namespace wf::scene_json
