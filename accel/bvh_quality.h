// Quality figures of a built tree, for comparing builders (bench_bvh, --stats,
// tests): the SAH cost and the depth, computed from the flat node array alone.
#pragma once

#include <array>
#include <cstdint>

#include "accel/bvh_build.h"

namespace wf {

struct BvhQuality {
    double sah = 0.0;            // expected primitive tests + node visits per ray hitting the root box
    uint32_t depth = 0;          // deepest leaf, root = 0
    uint32_t leaves = 0;
    uint32_t interior = 0;
    uint32_t max_leaf_size = 0;
};

// SAH = (sum over interior nodes of C_trav * area + sum over leaves of count * area)
// / area(root), walking from node 0. An empty tree gives all zeros.
BvhQuality measure_bvh(const Bvh& bvh);

// The SAH of measure_bvh split by where in the tree it is spent: [k] sums the terms of
// the nodes whose subtree holds 2^k to 2^(k+1) - 1 primitives (a leaf's term is its
// own), over the root's area. The entries add up to the SAH, so two builders' trees
// of one scene compare size class by size class: near the root (large k) or near the
// leaves. An empty tree gives all zeros.
using SahBySubtreeSize = std::array<double, 32>;
SahBySubtreeSize sah_by_subtree_size(const Bvh& bvh);

}  // namespace wf
