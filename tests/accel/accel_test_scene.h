// Shared helpers for the accel tests: a small owning scene, brute-force
// reference queries and random geometry from a fixed seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "accel/bvh_build.h"
#include "accel/geometry_view.h"
#include "accel/intersect.h"
#include "accel/traversal_bvh_build.h"
#include "accel/traverse.h"

namespace wf::test {

struct TestScene {
    std::vector<Triangle> triangles;
    std::vector<Sphere> spheres;
    std::vector<PrimInfo> prims;
    Bvh bvh;
    // The traversal layout of `bvh`, made by view(): tests may replace bvh (with
    // the GPU builder's tree, say) after build().
    mutable TraversalArrays traversal;

    void build() {
        prims.resize(triangles.size() + spheres.size());
        bvh = build_bvh_binned_sah(triangles, spheres);
    }
    GeometryView view() const {
        GeometryView g;
        g.triangles = triangles.data();
        g.num_triangles = uint32_t(triangles.size());
        g.spheres = spheres.data();
        g.num_spheres = uint32_t(spheres.size());
        g.prims = prims.data();
        traversal = make_traversal_arrays(bvh.nodes, bvh.prim_index, triangles, spheres);
        g.traversal_nodes = traversal.nodes.data();
        g.leaf_prims = traversal.prims.data();
        return g;
    }
};

// Every primitive against the ray; on equal t the lowest id wins.
inline Hit brute_force_closest(const GeometryView& g, const Ray& ray, float t_max) {
    Hit best;
    best.t = t_max;
    for (uint32_t prim = 0; prim < g.num_prims(); ++prim) {
        Hit h;
        if (intersect_prim(g, prim, ray, t_max, &h) && h.t < best.t) {
            best = h;
            best.prim = prim;
        }
    }
    return best;
}

inline bool brute_force_any(const GeometryView& g, const Ray& ray, float t_max) {
    for (uint32_t prim = 0; prim < g.num_prims(); ++prim) {
        Hit h;
        if (intersect_prim(g, prim, ray, t_max, &h)) return true;
    }
    return false;
}

struct Random {
    std::mt19937 engine;
    explicit Random(uint32_t seed) : engine(seed) {}
    float uniform(float lo = 0.0f, float hi = 1.0f) {
        return std::uniform_real_distribution<float>(lo, hi)(engine);
    }
    Vec3f point_in_box(float lo, float hi) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }
    Vec3f unit_vector() {
        for (;;) {
            Vec3f v = point_in_box(-1.0f, 1.0f);
            float l2 = length_squared(v);
            if (l2 > 1e-4f && l2 <= 1.0f) return v / std::sqrt(l2);
        }
    }
    // Unit vector with dot(v, n) > 0.
    Vec3f hemisphere(Vec3f n) {
        Vec3f v = unit_vector();
        return dot(v, n) < 0.0f ? -v : v;
    }
    Triangle triangle_near(Vec3f center, float size) {
        return {center + size * point_in_box(-1.0f, 1.0f), center + size * point_in_box(-1.0f, 1.0f),
                center + size * point_in_box(-1.0f, 1.0f)};
    }
};

// Random soup of triangles and spheres in [-extent, extent]^3 around `center`.
inline TestScene random_soup(uint32_t seed, uint32_t num_triangles, uint32_t num_spheres, Vec3f center = {},
                             float extent = 10.0f) {
    Random rng(seed);
    TestScene s;
    for (uint32_t i = 0; i < num_triangles; ++i) {
        // Drawn one statement at a time: the order of a call's arguments is up to
        // the compiler (g++ and clang differ), and the soup must not depend on it.
        // This order is the one g++ used when the tests were written.
        const float size = rng.uniform(0.05f, 2.0f);
        const Vec3f at = center + rng.point_in_box(-extent, extent);
        s.triangles.push_back(rng.triangle_near(at, size));
    }
    for (uint32_t i = 0; i < num_spheres; ++i)
        s.spheres.push_back({center + rng.point_in_box(-extent, extent), rng.uniform(0.05f, 1.0f)});
    s.build();
    return s;
}

}  // namespace wf::test
