// Non-owning view of the scene geometry and its BVH, passed by value to
// kernels. The pointers address flat arrays in one memory space (device
// memory for CUDA, host memory for the CPU backend); the engine assembles it.
#pragma once

#include <cstdint>

#include "accel/traversal_bvh.h"
#include "engine/scene_types.h"

namespace wf {

// Primitive ids: [0, num_triangles) are triangles; sphere i has id
// num_triangles + i. `prims` and the BVH's `prim_index` use these ids.
struct GeometryView {
    const Triangle* triangles = nullptr;
    uint32_t num_triangles = 0;
    const Sphere* spheres = nullptr;
    uint32_t num_spheres = 0;
    const PrimInfo* prims = nullptr;     // num_triangles + num_spheres records
    // The BVH in its traversal layout (traversal_bvh.h): node 0 is the root;
    // leaf references index leaf_prims.
    const TraversalNode* traversal_nodes = nullptr;
    const LeafPrim* leaf_prims = nullptr;
    // The tree's SAH cost (bvh_quality.h: node visits and primitive tests a ray
    // through the root box expects), as its builder reported it; 0 where unknown.
    // Stages read it on the host to pick a traversal order (leaf_order_for).
    float tree_sah = 0.0f;

    WF_HD uint32_t num_prims() const { return num_triangles + num_spheres; }
    WF_HD bool is_sphere(uint32_t prim) const { return prim >= num_triangles; }
};

}  // namespace wf
