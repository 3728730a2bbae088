#include "accel/bvh_quality.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace wf {
namespace {

double half_area(const BvhNode& n) {
    if (!(n.lo.x <= n.hi.x)) return 0.0;
    double dx = double(n.hi.x) - n.lo.x, dy = double(n.hi.y) - n.lo.y, dz = double(n.hi.z) - n.lo.z;
    return dx * dy + dy * dz + dz * dx;
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
        if (n.count > 0) {
            ++q.leaves;
            q.max_leaf_size = std::max(q.max_leaf_size, n.count);
            cost += double(n.count) * half_area(n);
        } else {
            ++q.interior;
            cost += double(kBvhTraversalCost) * half_area(n);
            stack.push_back({n.first, depth + 1});
            stack.push_back({n.first + 1, depth + 1});
        }
    }
    // A tree of coincident points has no area anywhere: count the tests instead.
    q.sah = root_area > 0.0 ? cost / root_area : double(bvh.prim_index.size());
    return q;
}

}  // namespace wf
