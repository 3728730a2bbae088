// Watertightness: rays aimed exactly at the shared vertices and edges of
// closed (or hole-free) meshes must hit something; a ray slipping through a
// crack between neighbouring triangles would escape.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "tests/accel/accel_test_scene.h"

namespace wf {
namespace {

using test::Random;
using test::TestScene;

struct IndexedMesh {
    std::vector<Vec3f> vertices;
    std::vector<uint32_t> indices;  // 3 per triangle

    void to_scene(TestScene* s) const {
        for (size_t i = 0; i < indices.size(); i += 3)
            s->triangles.push_back({vertices[indices[i]], vertices[indices[i + 1]], vertices[indices[i + 2]]});
    }
    std::vector<std::pair<uint32_t, uint32_t>> edges() const {
        std::vector<std::pair<uint32_t, uint32_t>> out;
        for (size_t i = 0; i < indices.size(); i += 3)
            for (int k = 0; k < 3; ++k) {
                uint32_t a = indices[i + k], b = indices[i + (k + 1) % 3];
                if (a < b) out.push_back({a, b});  // each interior edge once (closed mesh)
            }
        return out;
    }
};

// Subdivided icosahedron on the unit sphere, rotated and moved away from the
// origin. Vertices are transformed once, so neighbours share them bit for bit.
IndexedMesh icosphere(int subdivisions, float radius, Vec3f center) {
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    IndexedMesh m;
    m.vertices = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                  {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    m.indices = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
                 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
    for (Vec3f& v : m.vertices) v = normalize(v);
    for (int s = 0; s < subdivisions; ++s) {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> midpoint;
        auto mid = [&](uint32_t a, uint32_t b) {
            auto key = std::make_pair(std::min(a, b), std::max(a, b));
            auto it = midpoint.find(key);
            if (it != midpoint.end()) return it->second;
            m.vertices.push_back(normalize(m.vertices[a] + m.vertices[b]));
            return midpoint[key] = uint32_t(m.vertices.size() - 1);
        };
        std::vector<uint32_t> next;
        for (size_t i = 0; i < m.indices.size(); i += 3) {
            uint32_t a = m.indices[i], b = m.indices[i + 1], c = m.indices[i + 2];
            uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        m.indices = std::move(next);
    }
    Frame rot = Frame::from_z(normalize(Vec3f(0.3f, -0.7f, 0.64f)));
    for (Vec3f& v : m.vertices) v = center + radius * rot.to_world(v);
    return m;
}

TEST(Watertight, RaysThroughIcosphereVerticesAndEdgesNeverEscape) {
    const Vec3f center(3.7f, -1.2f, 40.0f);
    const float radius = 2.5f;
    IndexedMesh mesh = icosphere(4, radius, center);
    TestScene scene;
    mesh.to_scene(&scene);
    scene.build();
    GeometryView g = scene.view();
    Random rng(99);

    std::vector<Vec3f> targets = mesh.vertices;
    for (auto [a, b] : mesh.edges()) {
        Vec3f pa = mesh.vertices[a], pb = mesh.vertices[b];
        targets.push_back(pa + 0.5f * (pb - pa));
        targets.push_back(pa + rng.uniform() * (pb - pa));
    }
    int escaped = 0;
    for (const Vec3f& target : targets) {
        for (int k = 0; k < 2; ++k) {
            Vec3f origin = k == 0 ? center : center + 0.3f * radius * rng.point_in_box(-1.0f, 1.0f);
            Ray ray{origin, normalize(target - origin)};
            Hit h = intersect_closest(g, ray, kInfinity);
            escaped += !h.found();
            if (h.found()) {
                EXPECT_NEAR(h.t, length(target - origin), 1e-2f * radius);
            }
        }
    }
    EXPECT_EQ(escaped, 0) << "of " << 2 * targets.size() << " rays";
}

// Cube [lo, hi]^3 around a centre, each face an n x n grid. Coordinates come
// from one table per axis so the faces share their border vertices exactly.
TestScene tessellated_cube(int n, Vec3f center, float half, std::vector<Vec3f>* grid_points) {
    std::vector<float> coord[3];
    for (int a = 0; a < 3; ++a)
        for (int i = 0; i <= n; ++i) coord[a].push_back(center[a] + half * (-1.0f + 2.0f * float(i) / float(n)));
    auto vertex = [&](int axis, int side, int i, int j) {
        Vec3f v;
        v[axis] = coord[axis][side ? n : 0];
        v[(axis + 1) % 3] = coord[(axis + 1) % 3][i];
        v[(axis + 2) % 3] = coord[(axis + 2) % 3][j];
        return v;
    };
    TestScene s;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side)
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    Vec3f a = vertex(axis, side, i, j), b = vertex(axis, side, i + 1, j);
                    Vec3f c = vertex(axis, side, i + 1, j + 1), d = vertex(axis, side, i, j + 1);
                    if ((i + j) % 2) {  // alternate the diagonals
                        s.triangles.push_back({a, b, c});
                        s.triangles.push_back({a, c, d});
                    } else {
                        s.triangles.push_back({a, b, d});
                        s.triangles.push_back({b, c, d});
                    }
                    grid_points->push_back(a);
                    grid_points->push_back(a + 0.5f * (b - a));  // on a grid edge
                    grid_points->push_back(a + 0.5f * (c - a));  // on a diagonal or the face interior
                }
    s.build();
    return s;
}

TEST(Watertight, RaysThroughCubeGridVerticesEdgesAndCornersNeverEscape) {
    for (Vec3f center : {Vec3f(0.0f), Vec3f(100.0f, -50.0f, 25.0f)}) {
        std::vector<Vec3f> targets;
        TestScene scene = tessellated_cube(8, center, 3.0f, &targets);
        GeometryView g = scene.view();
        Random rng(5);
        int escaped = 0;
        for (const Vec3f& target : targets) {
            // From the exact centre the rays to face centres and edge midpoints
            // have zero direction components.
            for (Vec3f origin : {center, center + rng.point_in_box(-1.5f, 1.5f)}) {
                Ray ray{origin, normalize(target - origin)};
                escaped += !intersect_closest(g, ray, kInfinity).found();
                escaped += !intersect_any(g, ray, kInfinity);
            }
        }
        EXPECT_EQ(escaped, 0) << "centre " << center.x << " of " << 4 * targets.size() << " queries";
    }
}

TEST(Watertight, RaysOntoHeightfieldVerticesAndEdgesNeverEscape) {
    // An open but hole-free surface: a jittered heightfield hit from above.
    const int n = 48;
    Random rng(77);
    std::vector<Vec3f> grid((n + 1) * (n + 1));
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) grid[j * (n + 1) + i] = {float(i) * 0.37f, float(j) * 0.37f, rng.uniform(0.0f, 0.5f)};
    TestScene scene;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            Vec3f a = grid[j * (n + 1) + i], b = grid[j * (n + 1) + i + 1];
            Vec3f c = grid[(j + 1) * (n + 1) + i + 1], d = grid[(j + 1) * (n + 1) + i];
            scene.triangles.push_back({a, b, c});
            scene.triangles.push_back({a, c, d});
        }
    scene.build();
    GeometryView g = scene.view();
    int escaped = 0, rays = 0;
    for (int j = 1; j < n; ++j)
        for (int i = 1; i < n; ++i) {
            Vec3f a = grid[j * (n + 1) + i], b = grid[j * (n + 1) + i + 1], c = grid[(j + 1) * (n + 1) + i + 1];
            for (Vec3f target : {a, a + 0.5f * (b - a), a + 0.5f * (c - a), a + rng.uniform() * (c - a)}) {
                Vec3f origin = target + Vec3f(rng.uniform(-0.5f, 0.5f), rng.uniform(-0.5f, 0.5f), 5.0f);
                Ray ray{origin, normalize(target - origin)};
                escaped += !intersect_closest(g, ray, kInfinity).found();
                ++rays;
            }
        }
    EXPECT_EQ(escaped, 0) << "of " << rays << " rays";
}

}  // namespace
}  // namespace wf
