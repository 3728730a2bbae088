#include "accel/bvh_quality.h"

#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

namespace wf {
namespace {

double half_area(const BvhNode& n) {
    if (!(n.lo.x <= n.hi.x)) return 0.0;
    double dx = double(n.hi.x) - n.lo.x, dy = double(n.hi.y) - n.lo.y, dz = double(n.hi.z) - n.lo.z;
    return dx * dy + dy * dz + dz * dx;
}

// A node's term of the SAH sum, before the division by the root's area.
double sah_term(const BvhNode& n) {
    return (n.count > 0 ? double(n.count) : double(kBvhTraversalCost)) * half_area(n);
}

}  // namespace

BvhQuality measure_bvh(const Bvh& bvh) {
    BvhQuality q;
    if (bvh.nodes.empty() || bvh.prim_index.empty()) return q;
    const double root_area = half_area(bvh.nodes[0]);
    double cost = 0.0;
    std::vector<std::pair<uint32_t, uint32_t>> stack{{0u, 0u}};  // node, depth
    while (!stack.empty()) {
        auto [i, depth] = stack.back();
        stack.pop_back();
        const BvhNode& n = bvh.nodes[i];
        q.depth = std::max(q.depth, depth);
        cost += sah_term(n);
        if (n.count > 0) {
            ++q.leaves;
            q.max_leaf_size = std::max(q.max_leaf_size, n.count);
        } else {
            ++q.interior;
            stack.push_back({n.first, depth + 1});
            stack.push_back({n.first + 1, depth + 1});
        }
    }
    // A tree of coincident points has no area anywhere: count the tests instead.
    q.sah = root_area > 0.0 ? cost / root_area : double(bvh.prim_index.size());
    return q;
}

SahBySubtreeSize sah_by_subtree_size(const Bvh& bvh) {
    SahBySubtreeSize by_size{};
    if (bvh.nodes.empty() || bvh.prim_index.empty()) return by_size;
    const double root_area = half_area(bvh.nodes[0]);
    if (!(root_area > 0.0)) {  // no area anywhere: measure_bvh counts the tests, all the root's
        const uint32_t all = uint32_t(bvh.prim_index.size());
        by_size[31u - uint32_t(std::countl_zero(all))] = double(all);
        return by_size;
    }
    // Primitives below each node: the reachable nodes listed breadth first (each
    // after its parent), then summed from the back.
    std::vector<uint32_t> order{0u}, prims(bvh.nodes.size(), 0u);
    for (size_t k = 0; k < order.size(); ++k) {
        const BvhNode& n = bvh.nodes[order[k]];
        if (n.count == 0) {
            order.push_back(n.first);
            order.push_back(n.first + 1);
        }
    }
    for (size_t k = order.size(); k-- > 0;) {
        const BvhNode& n = bvh.nodes[order[k]];
        prims[order[k]] = n.count > 0 ? n.count : prims[n.first] + prims[n.first + 1];
    }
    for (uint32_t i : order) {
        const uint32_t size_class = 31u - uint32_t(std::countl_zero(std::max(prims[i], 1u)));
        by_size[size_class] += sah_term(bvh.nodes[i]) / root_area;
    }
    return by_size;
}

}  // namespace wf
