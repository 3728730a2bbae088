// Flat binary BVH, 32 bytes per node, addressed by index. The builder and the
// traversal agree on this one layout:
//   count == 0: interior node; children are `first` and `first + 1`.
//   count  > 0: leaf; primitive ids are prim_index[first .. first + count).
// Node 0 is the root. An empty scene has one leaf with count 0 ... encoded as a
// root with lo > hi (empty box), which every ray misses.
#pragma once

#include <cstdint>

#include "engine/math.h"

namespace wf {

// 16-byte aligned so that the GPU fetches a node with two 128-bit loads.
struct alignas(16) BvhNode {
    Vec3f lo;
    uint32_t first;
    Vec3f hi;
    uint32_t count;
};
static_assert(sizeof(BvhNode) == 32, "BvhNode must stay 32 bytes");

}  // namespace wf
