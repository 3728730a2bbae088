// The collapse of a builder's flat binary tree (bvh_node.h) into the 8-wide
// traversal layout (traversal_bvh.h), on the backend that holds the tree: the
// GPU builder's tree never leaves the device (a work queue walked by one
// kernel, traversal_bvh_cuda.cu); the CPU backend and tests collapse on the
// host, breadth first. Both make the same nodes from the same tree; only the
// numbering of interior nodes differs (the device's follows its work queue).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "accel/bvh_node.h"
#include "accel/traversal_bvh.h"
#include "engine/hd.h"
#include "engine/scene_types.h"

namespace wf {

class CudaBackend;

// The scene sizes the layout's references can address (kMaxTraversalPrims).
inline void check_traversal_prim_count(uint64_t num_prims) {
    if (num_prims > kMaxTraversalPrims)
        throw std::length_error("the scene has " + std::to_string(num_prims) +
                                " primitives; the BVH's traversal layout addresses at most " +
                                std::to_string(kMaxTraversalPrims));
}

// Traversal nodes a flat tree of `flat_nodes` nodes can collapse into, at most:
// one per interior node (a tree of 2-wide nodes), and at least one.
inline uint32_t traversal_node_capacity(uint32_t flat_nodes) { return flat_nodes > 1 ? (flat_nodes - 1) / 2 : 1u; }

// The collapse on the host, breadth first (node i of the result is the i-th
// task of the queue).
inline std::vector<TraversalNode> collapse_on_host(const BvhNode* nodes) {
    std::vector<TraversalNode> out;
    if (flat_root_is_leaf(nodes)) {
        out.push_back(make_leaf_root(nodes));
        return out;
    }
    std::vector<CollapseTask> queue{CollapseTask{0, 0, 0, 0}};
    for (size_t i = 0; i < queue.size(); ++i) {
        const CollapseTask t = queue[i];
        const CollapsedChildren c = collect_children(nodes, t.flat, t.depth, t.pushes);
        CollapseTask kids[kTraversalWidth];
        out.push_back(make_collapsed_node(nodes, t, c, uint32_t(queue.size()), kids));
        queue.insert(queue.end(), kids, kids + count_interior(nodes, c));
    }
    return out;
}

#if defined(WF_HAVE_CUDA)
// The collapse on the device (traversal_bvh_cuda.cu): writes nodes [0, count)
// of `out` (capacity traversal_node_capacity(num_nodes)) and the count to
// *count, all on the device, nothing read back. `tasks` (capacity entries) and
// `counters` (4) are scratch kept between builds; `generation` must differ
// from every earlier build's on the same scratch (and from 0, the zero fill).
void collapse_on_device(CudaBackend& backend, const BvhNode* nodes, uint32_t num_nodes, TraversalNode* out,
                        CollapseTask* tasks, uint32_t* counters, uint32_t generation);
#endif

template <class Backend>
class TraversalBvh {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    // nodes, prim_index and the primitives live in the backend's memory; the
    // flat tree is at most kBvhMaxDepth deep (callers check it).
    void build(Backend& backend, const BvhNode* nodes, uint32_t num_nodes, const uint32_t* prim_index,
               const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres, uint32_t num_spheres) {
        const uint64_t num_prims = uint64_t(num_triangles) + num_spheres;
        check_traversal_prim_count(num_prims);
        // Rebuilds of the same scene (benchmarks) reuse the buffers: no allocation,
        // no zero fill.
        if (prims_.size() != std::max<uint64_t>(num_prims, 1)) prims_.resize(std::max<uint64_t>(num_prims, 1));
        collapse(backend, nodes, num_nodes);
        LeafPrim* out_prims = prims_.data();
        backend.parallel_for("bvh_leaf_prims", uint32_t(num_prims), WF_LAMBDA(uint32_t i) {
            out_prims[i] = make_leaf_prim(triangles, num_triangles, spheres, prim_index[i]);
        });
    }

    const TraversalNode* nodes() const { return nodes_.data(); }
    const LeafPrim* prims() const { return prims_.data(); }
    // Where the device collapse leaves its node count: counters()[1] (tests).
    const uint32_t* counters() const { return counters_.data(); }

private:
    void collapse(Backend& backend, const BvhNode* nodes, uint32_t num_nodes) {
#if defined(WF_HAVE_CUDA)
        if constexpr (std::string_view(Backend::kName) == "cuda") {
            const uint32_t capacity = traversal_node_capacity(num_nodes);
            if (nodes_.size() != capacity) nodes_.resize(capacity);
            if (tasks_.size() != capacity) tasks_.resize(capacity);  // zero-filled: no generation 0
            if (counters_.size() != 4) counters_.resize(4);
            collapse_on_device(backend, nodes, num_nodes, nodes_.data(), tasks_.data(), counters_.data(),
                               ++generation_);
            return;
        }
#endif
        (void)backend;
        (void)num_nodes;
        nodes_.upload(collapse_on_host(nodes));
    }

    Buffer<TraversalNode> nodes_;
    Buffer<LeafPrim> prims_;
    Buffer<CollapseTask> tasks_;
    Buffer<uint32_t> counters_;
    uint32_t generation_ = 0;
};

// The collapse and the leaf copy on the host, in one thread.
struct TraversalArrays {
    std::vector<TraversalNode> nodes;
    std::vector<LeafPrim> prims;
};

inline TraversalArrays make_traversal_arrays(const std::vector<BvhNode>& nodes, const std::vector<uint32_t>& prim_index,
                                             const std::vector<Triangle>& triangles,
                                             const std::vector<Sphere>& spheres) {
    check_traversal_prim_count(uint64_t(triangles.size()) + spheres.size());
    TraversalArrays a;
    a.nodes = collapse_on_host(nodes.data());
    a.prims.resize(prim_index.size());
    for (size_t i = 0; i < prim_index.size(); ++i)
        a.prims[i] = make_leaf_prim(triangles.data(), uint32_t(triangles.size()), spheres.data(), prim_index[i]);
    return a;
}

}  // namespace wf
