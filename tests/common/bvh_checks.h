// Structural checks of a flat BVH (bvh_node.h), shared by the tests of both
// builders: every node reached once, child boxes inside parents, leaf boxes
// around their primitives, every primitive in exactly one leaf.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "accel/bvh_build.h"
#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf::test {

inline bool box_contains(const BvhNode& outer, Vec3f lo, Vec3f hi) {
    return outer.lo.x <= lo.x && outer.lo.y <= lo.y && outer.lo.z <= lo.z && hi.x <= outer.hi.x &&
           hi.y <= outer.hi.y && hi.z <= outer.hi.z;
}

inline Aabb prim_box(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres, uint32_t prim) {
    Aabb b;
    if (prim < triangles.size()) {
        const Triangle& t = triangles[prim];
        b.extend(t.p0);
        b.extend(t.p1);
        b.extend(t.p2);
    } else {
        const Sphere& sp = spheres[prim - triangles.size()];
        b.extend(sp.center - Vec3f(sp.radius));
        b.extend(sp.center + Vec3f(sp.radius));
    }
    return b;
}

struct TreeFacts {
    uint32_t max_depth = 0, max_leaf_size = 0, nodes_reached = 0;
};

// Walks the tree from the root, checking every structural invariant on the way.
inline TreeFacts check_bvh_invariants(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                      const Bvh& bvh) {
    const uint32_t n = uint32_t(triangles.size() + spheres.size());
    TreeFacts facts;
    std::vector<int> references(n, 0);
    std::vector<int> node_seen(bvh.nodes.size(), 0);
    std::vector<std::pair<uint32_t, uint32_t>> stack{{0, 0}};  // node, depth
    while (!stack.empty()) {
        auto [i, depth] = stack.back();
        stack.pop_back();
        EXPECT_LT(i, bvh.nodes.size());
        if (i >= bvh.nodes.size()) continue;
        EXPECT_EQ(node_seen[i]++, 0) << "node " << i << " reached twice";
        ++facts.nodes_reached;
        facts.max_depth = std::max(facts.max_depth, depth);
        const BvhNode& node = bvh.nodes[i];
        if (node.count > 0) {
            facts.max_leaf_size = std::max(facts.max_leaf_size, node.count);
            EXPECT_LE(uint64_t(node.first) + node.count, bvh.prim_index.size());
            for (uint32_t k = node.first; k < node.first + node.count && k < bvh.prim_index.size(); ++k) {
                uint32_t prim = bvh.prim_index[k];
                EXPECT_LT(prim, n);
                if (prim >= n) continue;
                ++references[prim];
                Aabb b = prim_box(triangles, spheres, prim);
                EXPECT_TRUE(box_contains(node, b.lo, b.hi)) << "leaf " << i << " misses prim " << prim;
            }
        } else {
            EXPECT_LT(node.first + 1, bvh.nodes.size());
            for (uint32_t c : {node.first, node.first + 1}) {
                if (c >= bvh.nodes.size()) continue;
                EXPECT_TRUE(box_contains(node, bvh.nodes[c].lo, bvh.nodes[c].hi)) << "child " << c;
                stack.push_back({c, depth + 1});
            }
        }
    }
    for (uint32_t p = 0; p < n; ++p) EXPECT_EQ(references[p], 1) << "prim " << p;
    EXPECT_EQ(facts.nodes_reached, bvh.nodes.size()) << "unreachable nodes";
    return facts;
}

}  // namespace wf::test
