// The conversion of a builder's flat tree (bvh_node.h) into the traversal
// layout (traversal_bvh.h): one thread per traversal node and one per leaf
// primitive, on the backend that holds the tree (the GPU builder's tree never
// leaves the device), and a plain host version for tests and tools.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "accel/bvh_node.h"
#include "accel/traversal_bvh.h"
#include "engine/hd.h"
#include "engine/scene_types.h"

namespace wf {

// The scene sizes the layout's references can address (kMaxTraversalPrims).
inline void check_traversal_prim_count(uint64_t num_prims) {
    if (num_prims > kMaxTraversalPrims)
        throw std::length_error("the scene has " + std::to_string(num_prims) +
                                " primitives; the BVH's traversal layout addresses at most " +
                                std::to_string(kMaxTraversalPrims));
}

template <class Backend>
class TraversalBvh {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    // nodes, prim_index and the primitives live in the backend's memory.
    void build(Backend& backend, const BvhNode* nodes, uint32_t num_nodes, const uint32_t* prim_index,
               const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres, uint32_t num_spheres) {
        const uint64_t num_prims = uint64_t(num_triangles) + num_spheres;
        check_traversal_prim_count(num_prims);
        const uint32_t count = traversal_node_count(num_nodes);
        // Rebuilds of the same scene (benchmarks) reuse the buffers: no allocation,
        // no zero fill, as every element is written below.
        if (nodes_.size() != count) nodes_.resize(count);
        if (prims_.size() != std::max<uint64_t>(num_prims, 1)) prims_.resize(std::max<uint64_t>(num_prims, 1));
        TraversalNode* out_nodes = nodes_.data();
        LeafPrim* out_prims = prims_.data();
        backend.parallel_for("bvh_traversal_nodes", count,
                             WF_LAMBDA(uint32_t i) { out_nodes[i] = make_traversal_node(nodes, i); });
        backend.parallel_for("bvh_leaf_prims", uint32_t(num_prims), WF_LAMBDA(uint32_t i) {
            out_prims[i] = make_leaf_prim(triangles, num_triangles, spheres, prim_index[i]);
        });
    }

    const TraversalNode* nodes() const { return nodes_.data(); }
    const LeafPrim* prims() const { return prims_.data(); }

private:
    Buffer<TraversalNode> nodes_;
    Buffer<LeafPrim> prims_;
};

// The same conversion on the host, in one thread.
struct TraversalArrays {
    std::vector<TraversalNode> nodes;
    std::vector<LeafPrim> prims;
};

inline TraversalArrays make_traversal_arrays(const std::vector<BvhNode>& nodes, const std::vector<uint32_t>& prim_index,
                                             const std::vector<Triangle>& triangles,
                                             const std::vector<Sphere>& spheres) {
    check_traversal_prim_count(uint64_t(triangles.size()) + spheres.size());
    TraversalArrays a;
    a.nodes.resize(traversal_node_count(uint32_t(nodes.size())));
    for (uint32_t i = 0; i < a.nodes.size(); ++i) a.nodes[i] = make_traversal_node(nodes.data(), i);
    a.prims.resize(prim_index.size());
    for (size_t i = 0; i < prim_index.size(); ++i)
        a.prims[i] = make_leaf_prim(triangles.data(), uint32_t(triangles.size()), spheres.data(), prim_index[i]);
    return a;
}

}  // namespace wf
