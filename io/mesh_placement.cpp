#include "io/mesh_placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/backend/host_parallel.h"

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
    // The passes over vertices and triangles run on the thread pool (a 10M-triangle mesh
    // is hundreds of ms of them on one thread); a problem is reported at its first
    // instance, as a serial pass would find it.
    const std::vector<Vec3f>& positions = mesh.positions;
    if (size_t i = host_find_first(positions.size(),
                                   [&](uint64_t i) { return !(max_component(abs(positions[i])) <= kMaxCoordinate); });
        i < positions.size()) {
        const Vec3f p = positions[i];
        transform_at.fail("vertex coordinates of magnitude <= 1e10 in world space",
                          "a vertex at " + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z));
    }
    if (host_find_first(mesh.normals.size(), [&](uint64_t i) { return !is_finite(mesh.normals[i]); }) < mesh.normals.size())
        transform_at.fail("normals that stay finite under the transform", "a non-finite normal");
    if (sc.flip_normals) {
        for (size_t t = 0; t < mesh.indices.size(); t += 3) std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
        for (Vec3f& n : mesh.normals) n = -n;
        for (Vec4f& t : mesh.tangents) t.w = -t.w;  // the bitangent w (n x t) keeps its direction
    }

    // Zero-area triangles go from the index list too, so triangle t is primitive first_prim + t.
    // An emissive triangle is noted by its number as written, which the user can look up.
    const size_t num_triangles = mesh.indices.size() / 3;
    const bool emits = !is_black(sc.emission);
    std::vector<uint8_t> keep(num_triangles);
    const uint32_t* indices = mesh.indices.data();
    const size_t kept = host_reduce(
        num_triangles, size_t(0),
        [&](uint64_t begin, uint64_t end, size_t count) {
            for (uint64_t t = begin; t < end; ++t) {
                const uint32_t* v = indices + 3 * t;
                keep[t] = !degenerate(positions[v[0]], positions[v[1]], positions[v[2]]);
                count += keep[t];
            }
            return count;
        },
        [](size_t a, size_t b) { return a + b; });
    if (kept < num_triangles || emits) {
        size_t next = 0;
        for (size_t t = 0; t < num_triangles; ++t) {
            if (!keep[t]) continue;
            const uint32_t* v = &mesh.indices[3 * t];
            if (emits)
                g.note_emissive_triangle({positions[v[0]], positions[v[1]], positions[v[2]]}, at.pointer,
                                         g.shape_triangles + t);
            for (int k = 0; k < 3; ++k) mesh.indices[3 * next + k] = v[k];
            ++next;
        }
    }
    g.shape_triangles += num_triangles;
    g.dropped_degenerate_triangles += uint32_t(std::min<size_t>(num_triangles - kept, std::numeric_limits<uint32_t>::max()));
    if (kept == 0) at.fail("at least one triangle of non-zero area", std::to_string(num_triangles) + " degenerate triangles");
    mesh.indices.resize(3 * kept);
    if (g.triangles.size() + g.spheres.size() + kept > size_t(std::numeric_limits<int32_t>::max()))
        at.fail("fewer than 2^31 primitives in the scene", std::to_string(g.triangles.size() + kept) + " triangles");

    mesh.first_prim = uint32_t(g.triangles.size());
    g.add_mesh_triangles(mesh, sc);
    g.meshes.push_back(std::move(mesh));
}

}  // namespace wf::scene_json
