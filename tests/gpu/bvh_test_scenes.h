// Scenes of the GPU builders' tests (bvh_build_cuda_test, bvh_sah_cuda_test,
// bvh_choice_cuda_test, refill_cuda_test): the kinds of geometry the SAH targets
// are about, small enough for a test.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "accel/bvh_build_gpu.h"
#include "accel/bvh_quality.h"
#include "engine/scene.h"
#include "tests/accel/accel_test_scene.h"

namespace wf::test {

// A scene's CPU tree replaced by a GPU builder's, with the builder's figures.
struct GpuTree {
    TestScene scene;
    GpuBvhInfo info;
};
inline GpuTree gpu_tree(TestScene s, GpuBvhMethod method = GpuBvhMethod::kHploc) {
    GpuTree t;
    t.scene = std::move(s);
    t.scene.prims.resize(t.scene.triangles.size() + t.scene.spheres.size());
    t.scene.bvh = build_bvh_on_gpu(t.scene.triangles, t.scene.spheres, &t.info, method);
    return t;
}

// The builder's own figures (node count, depth, SAH) are the downloaded tree's.
inline void expect_consistent_info(const GpuTree& t) {
    BvhQuality q = measure_bvh(t.scene.bvh);
    EXPECT_EQ(t.info.num_nodes, t.scene.bvh.nodes.size());
    EXPECT_EQ(t.info.depth, q.depth);
    EXPECT_NEAR(t.info.sah, q.sah, 1e-3 * q.sah) << "the builder's own SAH bookkeeping";
}

// 100k random rays through scenes a and b (the same primitives, two trees): the
// same closest hit and the same any-hit answer; returns how many hit.
inline int expect_same_hits(const TestScene& a, const TestScene& b) {
    const GeometryView ga = a.view(), gb = b.view();
    Random rng(77);
    int hits = 0;
    for (int i = 0; i < 100000; ++i) {
        Ray ray{rng.point_in_box(-40.0f, 40.0f), rng.unit_vector()};
        Hit ha = intersect_closest(ga, ray, kInfinity), hb = intersect_closest(gb, ray, kInfinity);
        EXPECT_EQ(ha.t, hb.t) << "ray " << i;
        EXPECT_EQ(ha.prim, hb.prim) << "ray " << i;
        float t_max = rng.uniform(0.0f, 30.0f);
        EXPECT_EQ(intersect_any(ga, ray, t_max), intersect_any(gb, ray, t_max)) << "ray " << i;
        if (ha.t != hb.t || ha.prim != hb.prim) return hits;  // one ray's failure, not 100k
        hits += ha.found();
    }
    return hits;
}

// 1000 copies of one triangle (equal Morton codes and centroids everywhere), and
// the check that a ray down onto them hits at t = 1 through the tree `s` holds.
inline TestScene stacked_triangles() {
    TestScene s;
    for (int i = 0; i < 1000; ++i) s.triangles.push_back({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    return s;
}
inline void expect_stack_hit(const TestScene& s) {
    Hit h = intersect_closest(s.view(), Ray{{0.2f, 0.2f, 1.0f}, {0, 0, -1}}, kInfinity);
    ASSERT_TRUE(h.found());
    EXPECT_EQ(h.t, 1.0f);
}

// Points and segments among a scene's triangles: zero-area boxes and equal keys.
inline void add_degenerate_triangles(TestScene& s) {
    for (int i = 0; i < 500; ++i) {
        Vec3f p(float(i % 7), float(i % 5), float(i % 3));
        s.triangles.push_back({p, p, p});
        s.triangles.push_back({p, p + Vec3f(1, 0, 0), p + Vec3f(2, 0, 0)});
    }
}

// A random soup of `triangles` (random_soup's seed and extent) to render, diffuse,
// under a uniform environment, seen down -z from `distance` with a field of view of
// `fov_y` degrees.
inline HostScene soup_under_the_sky(uint32_t seed, uint32_t triangles, float extent, float distance, float fov_y) {
    const TestScene soup = random_soup(seed, triangles, 0, {}, extent);
    HostScene s;
    s.source_path = "random soup";
    s.triangles = soup.triangles;
    s.prims.assign(s.triangles.size(), PrimInfo{});
    Material diffuse;
    diffuse.kd = Vec3f(0.8f);
    s.materials = {diffuse};
    s.material_names = {"diffuse"};
    Light sky;
    sky.type = LightType::Environment;
    sky.radiance = Vec3f(1.0f);
    s.lights = {sky};
    s.camera.position = Vec3f(0.0f, 0.0f, distance);
    s.camera.forward = Vec3f(0.0f, 0.0f, -1.0f);
    s.camera.fov_y_degrees = fov_y;
    return s;
}

// A 2D grid of triangles bent into a hemisphere-like cap, with some clutter:
// the kind of surface mesh the SAH target is about.
inline TestScene mesh_like(uint32_t side) {
    TestScene s;
    auto vertex = [&](uint32_t i, uint32_t j) {
        float u = float(i) / side * 3.0f, v = float(j) / side * 6.28318f;
        return Vec3f(std::sin(u) * std::cos(v), std::cos(u), std::sin(u) * std::sin(v)) * 10.0f;
    };
    for (uint32_t i = 0; i < side; ++i)
        for (uint32_t j = 0; j < side; ++j) {
            s.triangles.push_back({vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)});
            s.triangles.push_back({vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)});
        }
    TestScene clutter = random_soup(3, 20000, 2000, {}, 8.0f);
    s.triangles.insert(s.triangles.end(), clutter.triangles.begin(), clutter.triangles.end());
    s.spheres = clutter.spheres;
    s.build();
    return s;
}

// Small spheres on a ground quad as large as the field: two primitives whose
// boxes span the scene, which an LBVH would bury deep in the tree.
inline TestScene sphere_field(uint32_t count) {
    TestScene s;
    Random rng(count);
    for (uint32_t i = 0; i < count; ++i) {
        float r = rng.uniform(0.1f, 0.4f);
        s.spheres.push_back({{rng.uniform(-100.0f, 100.0f), r, rng.uniform(-100.0f, 100.0f)}, r});
    }
    s.triangles.push_back({{-200, 0, -200}, {200, 0, -200}, {200, 0, 200}});
    s.triangles.push_back({{-200, 0, -200}, {200, 0, 200}, {-200, 0, 200}});
    s.build();
    return s;
}

// A rugged height field (bench_traversal's terrain, smaller): H-PLOC's top, merged
// only inside Morton-ordered LBVH nodes, cost its 1M-triangle version SAH 1.106x the
// CPU builder's before bvh_top_sah.cuh rebuilt the top.
inline TestScene terrain(uint32_t side) {
    TestScene s;
    auto vertex = [&](uint32_t i, uint32_t j) {
        const float x = -1.0f + 2.0f * float(i) / float(side), z = -1.0f + 2.0f * float(j) / float(side);
        const float y = 0.12f * (1.0f + std::sin(11.0f * x) * std::sin(13.0f * z)) +
                        0.05f * std::sin(29.0f * x + 2.0f * z) * std::sin(31.0f * z - x) +
                        0.012f * std::sin(97.0f * x) * std::sin(89.0f * z);
        return Vec3f(x, y, z);
    };
    for (uint32_t i = 0; i < side; ++i)
        for (uint32_t j = 0; j < side; ++j) {
            s.triangles.push_back({vertex(i, j), vertex(i, j + 1), vertex(i + 1, j + 1)});
            s.triangles.push_back({vertex(i, j), vertex(i + 1, j + 1), vertex(i + 1, j)});
        }
    s.build();
    return s;
}

}  // namespace wf::test
