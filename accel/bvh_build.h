// CPU reference BVH builder: binned SAH (Wald 2007) over triangles and spheres.
// It writes the flat layout of bvh_node.h; the engine uploads `nodes` and
// `prim_index` and points a GeometryView at them. Deterministic: the same
// input gives the same tree, byte for byte.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/bvh_node.h"
#include "engine/scene_types.h"

namespace wf {

struct Bvh {
    std::vector<BvhNode> nodes;         // node 0 is the root
    std::vector<uint32_t> prim_index;   // primitive ids (triangles, then spheres), leaf-ordered
};

// Limits every tree this builder makes respects.
inline constexpr uint32_t kBvhMaxLeafSize = 8;  // primitives per leaf, at most
inline constexpr uint32_t kBvhMaxDepth = 63;    // deepest leaf (root = 0); fits the traversal stack
// The SAH cost model of every builder: a node visit costs as much as one primitive test.
inline constexpr float kBvhTraversalCost = 1.0f;

// Builds a BVH over the primitive ids of GeometryView: triangles [0, T),
// then spheres [T, T + S). An empty scene gives a single root with an empty
// box and count 0, which every ray misses. Throws std::length_error when the
// primitive count does not fit 32-bit ids.
Bvh build_bvh_binned_sah(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres);

}  // namespace wf
