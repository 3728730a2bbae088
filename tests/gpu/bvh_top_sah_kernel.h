// The GPU builder's top pass (accel/bvh_top_sah.cuh) run alone, on a binary tree
// a test writes, for bvh_top_sah_cuda_test.cpp: the paths real scenes rarely reach
// (middle splits at the depth limit, the skips) need tops made to order.
#pragma once

#include <cstdint>
#include <vector>

namespace wf::test {

// The builder's node and meta layouts (hploc::BuildNode, hploc::BuildMeta), which
// live in a CUDA header.
struct TopTestNode {
    float lo[3];
    uint32_t left;  // a primitive's: its primitive id
    float hi[3];
    uint32_t right;
};
struct TopTestMeta {
    float cost;
    uint32_t count;  // primitives below; bit 31: the subtree is best as one leaf
    uint32_t height;
    uint32_t leaves;
};

// Nodes 0..n-1 are primitives, n..2n-2 interior nodes (any of them may be unused);
// parent[x] is x's parent's id with bit 31 set for a right child. Runs the pass
// over the tree below `root` on the device and reads nodes, meta and parent back.
void run_top_pass(uint32_t n, uint32_t root, std::vector<TopTestNode>& nodes, std::vector<TopTestMeta>& meta,
                  std::vector<uint32_t>& parent);

}  // namespace wf::test
