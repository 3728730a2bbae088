// Meshes large enough that the loader's passes run in chunks on the thread pool
// (engine/backend/host_parallel.h): problems are reported at their first instance, and
// placed triangles keep the order a serial pass gives them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/backend/host_parallel.h"
#include "io/mesh.h"
#include "io/mesh_placement.h"
#include "tests/io/mesh_test_util.h"

namespace wf {
namespace {

// A strip of n triangles over n + 2 vertices along x (triangle t: t, t + 1, t + 2),
// every vertex with a normal of length 2.
IndexedMesh strip(uint32_t n) {
    IndexedMesh m;
    for (uint32_t v = 0; v < n + 2; ++v) {
        m.positions.push_back(Vec3f(float(v / 2), float(v % 2), 0.0f));
        m.normals.push_back(Vec3f(0.0f, 0.0f, 2.0f));
    }
    for (uint32_t t = 0; t < n; ++t)
        for (uint32_t k = 0; k < 3; ++k) m.indices.push_back(t + k);
    return m;
}

std::string check_error(IndexedMesh m) {
    try {
        mesh_io::check_mesh("m.ply", "", m);
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

const uint32_t kTriangles = uint32_t(3 * kHostGrain + 17);

}  // namespace

TEST(LargeMesh, CheckReportsTheFirstBadVertexAndIndexAcrossChunks) {
    const uint32_t early = uint32_t(kHostGrain + 3), late = uint32_t(2 * kHostGrain + 5);
    IndexedMesh m = strip(kTriangles);
    m.positions[late].x = std::numeric_limits<float>::quiet_NaN();
    m.positions[early].y = std::numeric_limits<float>::infinity();
    EXPECT_CONTAINS(check_error(m), "vertex " + std::to_string(early) + ": position");

    m = strip(kTriangles);
    m.normals[late] = Vec3f(0.0f);
    m.normals[early] = Vec3f(0.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f);
    EXPECT_CONTAINS(check_error(m), "vertex " + std::to_string(early) + ": normal");

    m = strip(kTriangles);
    m.indices[3 * late + 2] = uint32_t(m.positions.size());
    m.indices[3 * early + 1] = uint32_t(m.positions.size()) + 7;
    EXPECT_CONTAINS(check_error(m), "triangle " + std::to_string(early) + ": vertex index");

    m = strip(kTriangles);
    m.uvs.assign(m.positions.size(), Vec2f{0.5f, 0.5f});
    m.uvs[late].y = std::numeric_limits<float>::infinity();
    m.uvs[early].x = std::numeric_limits<float>::quiet_NaN();
    EXPECT_CONTAINS(check_error(m), "vertex " + std::to_string(early) + ": texture coordinate");

    m = strip(kTriangles);
    m.tangents.assign(m.positions.size(), Vec4f{3.0f, 0.0f, 0.0f, -2.0f});
    m.tangents[late].w = std::numeric_limits<float>::quiet_NaN();
    m.tangents[early].y = std::numeric_limits<float>::infinity();
    EXPECT_CONTAINS(check_error(m), "vertex " + std::to_string(early) + ": tangent");

    m = strip(kTriangles);
    m.colors.assign(m.positions.size(), Vec4f{1.0f, 1.0f, 1.0f, 1.0f});
    m.colors[late].x = -1.0f;
    m.colors[early].w = -0.5f;
    EXPECT_CONTAINS(check_error(m), "vertex " + std::to_string(early) + ": colour");

    // A good mesh: every normal and tangent to unit length (the tangent's sign to +-1), in
    // every chunk.
    m = strip(kTriangles);
    m.tangents.assign(m.positions.size(), Vec4f{3.0f, 0.0f, 0.0f, -2.0f});
    mesh_io::check_mesh("m.ply", "", m);
    for (size_t i = 0; i < m.normals.size(); ++i) {
        ASSERT_EQ(m.normals[i].z, 1.0f) << "vertex " << i;
        ASSERT_TRUE(m.tangents[i].x == 1.0f && m.tangents[i].w == -1.0f) << "vertex " << i;
    }
}

// Degenerate triangles in several chunks are dropped, from the scene and from the mesh's
// record, and the rest keep their order; an emitting mesh makes a light per triangle,
// in order, and notes its smallest triangle by its number as written.
TEST(LargeMesh, PlacedTrianglesKeepTheirOrderAndLoseTheDegenerateOnes) {
    const std::vector<uint32_t> degenerate = {5, uint32_t(kHostGrain + 1), uint32_t(3 * kHostGrain + 2)};
    for (const bool emits : {false, true}) {
        SCOPED_TRACE(emits ? "emitting" : "not emitting");
        IndexedMesh m = strip(kTriangles);
        for (uint32_t t : degenerate) m.indices[3 * t + 2] = m.indices[3 * t];  // a repeated vertex: zero area
        // One triangle made smaller than the rest (half its height), not degenerate.
        const uint32_t small = uint32_t(2 * kHostGrain + 40);
        scene_json::ShapeCommon sc;
        sc.material = 3;
        if (emits) sc.emission = Vec3f(1.0f);
        scene_json::GeometryBuilder g;
        const uint32_t extra = uint32_t(m.positions.size());
        m.positions.push_back(Vec3f(float(small / 2) + 0.5f, 0.5f, 0.0f));  // area 1/4, not 1/2
        m.normals.push_back(Vec3f(0.0f, 0.0f, 1.0f));
        m.indices[3 * small + 2] = extra;  // over (small, small + 1, extra)
        IndexedMesh input = m;
        scene_json::place_mesh(scene_json::MeshPlace{"m.ply", "", ""}, std::move(input), Affine3(), sc, g);

        std::vector<Triangle> expected;
        std::vector<uint32_t> expected_indices;
        for (uint32_t t = 0; t < kTriangles; ++t) {
            if (std::find(degenerate.begin(), degenerate.end(), t) != degenerate.end()) continue;
            const uint32_t* v = &m.indices[3 * t];
            expected.push_back({m.positions[v[0]], m.positions[v[1]], m.positions[v[2]]});
            expected_indices.insert(expected_indices.end(), v, v + 3);
        }
        ASSERT_EQ(g.triangles.size(), expected.size());
        auto same = [](Vec3f a, Vec3f b) { return a.x == b.x && a.y == b.y && a.z == b.z; };
        for (size_t i = 0; i < expected.size(); ++i) {
            const Triangle &got = g.triangles[i], &want = expected[i];
            ASSERT_TRUE(same(got.p0, want.p0) && same(got.p1, want.p1) && same(got.p2, want.p2)) << "triangle " << i;
        }
        EXPECT_EQ(g.dropped_degenerate_triangles, degenerate.size());
        ASSERT_EQ(g.meshes.size(), 1u);
        EXPECT_EQ(g.meshes[0].indices, expected_indices);
        ASSERT_EQ(g.triangle_prims.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            ASSERT_EQ(g.triangle_prims[i].material, 3u) << "primitive " << i;
            ASSERT_EQ(g.triangle_prims[i].light, emits ? int32_t(i) : -1) << "primitive " << i;
        }
        // A second mesh goes after the first: its triangles and record follow on.
        IndexedMesh second = strip(kTriangles);
        scene_json::place_mesh(scene_json::MeshPlace{"m2.ply", "", ""}, second, Affine3(), sc, g);
        ASSERT_EQ(g.triangles.size(), expected.size() + kTriangles);
        EXPECT_EQ(g.meshes[1].first_prim, uint32_t(expected.size()));
        for (uint32_t t = 0; t < kTriangles; ++t) {
            const uint32_t* v = &second.indices[3 * t];
            const Triangle& got = g.triangles[expected.size() + t];
            ASSERT_TRUE(same(got.p0, second.positions[v[0]]) && same(got.p1, second.positions[v[1]]) &&
                        same(got.p2, second.positions[v[2]]))
                << "second mesh, triangle " << t;
        }
        ASSERT_EQ(g.triangle_prims.size(), g.triangles.size());
        if (!emits) EXPECT_TRUE(g.lights.empty());
        EXPECT_EQ(g.triangle_prims.back().light, emits ? int32_t(g.triangles.size() - 1) : -1);
        if (emits) {
            EXPECT_EQ(g.lights.size(), g.triangles.size());
            EXPECT_EQ(g.lights[expected.size() - 1].prim, uint32_t(expected.size() - 1));
            ASSERT_EQ(g.smallest_emissive_triangles.size(), 1u);  // one shape (g.shape) for both
            EXPECT_EQ(g.smallest_emissive_triangles[0].triangle, small);  // its number as written
        }
    }
}

}  // namespace wf
