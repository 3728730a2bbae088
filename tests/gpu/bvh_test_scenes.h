// Scenes of the GPU builder's tests (bvh_build_cuda_test, bvh_sah_cuda_test): the
// kinds of geometry the SAH targets are about, small enough for a test.
#pragma once

#include <cmath>
#include <cstdint>

#include "tests/accel/accel_test_scene.h"

namespace wf::test {

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
