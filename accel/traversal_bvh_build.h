// The collapse of a builder's flat binary tree (bvh_node.h) into the wide
// traversal layout (traversal_bvh.h) on the host, with the rule the GPU builder
// applies while it builds (make_wide_table): the CPU builder's tree, and the
// reference the GPU builder's own output is tested against. TraversalBvh holds
// the layout in a backend's memory, uploaded from the host or written there by
// the GPU builder (GpuBvhBuilder::write_traversal).
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

// The layout on the host.
struct TraversalArrays {
    std::vector<TraversalNode> nodes;
    std::vector<LeafPrim> prims;
};

// The collapse on the host: tables bottom-up (a flat tree lists parents before
// children in breadth-first order, so its reverse has children first), then the
// wide nodes breadth first from the root (node i of the result is the i-th wide
// node reached).
inline std::vector<TraversalNode> collapse_on_host(const std::vector<BvhNode>& nodes) {
    const BvhNode& root = nodes[0];
    if (root.count > 0 || root.first == 0) return {make_leaf_root(root, root.count)};  // a leaf, or empty
    std::vector<uint32_t> order{0};
    for (size_t i = 0; i < order.size(); ++i)
        if (nodes[order[i]].count == 0) {
            order.push_back(nodes[order[i]].first);
            order.push_back(nodes[order[i]].first + 1);
        }
    std::vector<WideTable> table(nodes.size(), WideTable{});
    std::vector<uint32_t> height(nodes.size(), 0);
    for (size_t i = order.size(); i-- > 0;) {
        const uint32_t x = order[i];
        const BvhNode& n = nodes[x];
        if (n.count > 0) continue;
        height[x] = 1 + std::max(height[n.first], height[n.first + 1]);
        table[x] = make_wide_table(table[n.first], table[n.first + 1], collapse_area(n.lo, n.hi), height[x]);
    }
    auto links = [&](uint32_t y, uint32_t b) {
        return WideLinks{nodes[y].first, nodes[y].first + 1, nodes[y].count > 0 ? 0u : table[y].choice[b - 1]};
    };
    std::vector<TraversalNode> out;
    std::vector<uint32_t> queue{0};
    for (size_t i = 0; i < queue.size(); ++i) {
        uint32_t kids[kTraversalWidth], refs[kTraversalWidth];
        BvhNode boxes[kTraversalWidth];
        const uint32_t count = wide_children(queue[i], links, kids);
        for (uint32_t k = 0; k < count; ++k) {
            const BvhNode& c = nodes[kids[k]];
            boxes[k] = c;
            if (c.count > 0) {
                refs[k] = make_leaf_ref(c.first, c.count);
            } else {
                refs[k] = uint32_t(queue.size());
                queue.push_back(kids[k]);
            }
        }
        out.push_back(make_traversal_node(boxes, count, refs));
    }
    return out;
}

// The layout in a backend's memory.
template <class Backend>
class TraversalBvh {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    void upload(const TraversalArrays& a) {
        nodes_.upload(a.nodes);
        prims_.upload(a.prims);
    }
    // Room for a layout written in place (GpuBvhBuilder::write_traversal); a
    // rebuild of the same sizes (benchmarks) reuses it, with no zero fill.
    void allocate(uint32_t num_nodes, uint32_t num_prims) {
        if (nodes_.size() != num_nodes) nodes_.resize(num_nodes);
        if (prims_.size() != num_prims) prims_.resize(num_prims);
    }

    const TraversalNode* nodes() const { return nodes_.data(); }
    const LeafPrim* prims() const { return prims_.data(); }
    TraversalNode* nodes() { return nodes_.data(); }
    LeafPrim* prims() { return prims_.data(); }

private:
    Buffer<TraversalNode> nodes_;
    Buffer<LeafPrim> prims_;
};

// The collapse and the leaf copy on the host, in one thread.
inline TraversalArrays make_traversal_arrays(const std::vector<BvhNode>& nodes, const std::vector<uint32_t>& prim_index,
                                             const std::vector<Triangle>& triangles,
                                             const std::vector<Sphere>& spheres) {
    check_traversal_prim_count(uint64_t(triangles.size()) + spheres.size());
    TraversalArrays a;
    a.nodes = collapse_on_host(nodes);
    a.prims.resize(prim_index.size());
    for (size_t i = 0; i < prim_index.size(); ++i)
        a.prims[i] = make_leaf_prim(triangles.data(), uint32_t(triangles.size()), spheres.data(), prim_index[i]);
    return a;
}

}  // namespace wf
