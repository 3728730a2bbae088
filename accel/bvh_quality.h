// Quality figures of a built tree, for comparing builders (bench_bvh, --stats,
// tests): the SAH cost and the depth, computed from the flat node array alone.
#pragma once

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

}  // namespace wf
