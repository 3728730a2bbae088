#include "accel/bvh_quality.h"

#include <gtest/gtest.h>

namespace wf {
namespace {

BvhNode box_node(Vec3f lo, Vec3f hi, uint32_t first, uint32_t count) { return BvhNode{lo, first, hi, count}; }

TEST(BvhQuality, HandBuiltTreeHasTheSahWorkedOutByHand) {
    // Root [0,2]x[0,1]x[0,1] (half area 2+1+2 = 5) over two unit-cube leaves
    // (half area 3 each) of 3 and 1 primitives:
    // SAH = (1 * 5 + 3 * 3 + 1 * 3) / 5 = 17 / 5.
    Bvh bvh;
    bvh.nodes = {box_node({0, 0, 0}, {2, 1, 1}, 1, 0), box_node({0, 0, 0}, {1, 1, 1}, 0, 3),
                 box_node({1, 0, 0}, {2, 1, 1}, 3, 1)};
    bvh.prim_index = {0, 1, 2, 3};
    BvhQuality q = measure_bvh(bvh);
    EXPECT_DOUBLE_EQ(q.sah, 17.0 / 5.0);
    EXPECT_EQ(q.depth, 1u);
    EXPECT_EQ(q.leaves, 2u);
    EXPECT_EQ(q.interior, 1u);
    EXPECT_EQ(q.max_leaf_size, 3u);
}

TEST(BvhQuality, SingleLeafCostsItsPrimitiveCount) {
    Bvh bvh;
    bvh.nodes = {box_node({0, 0, 0}, {1, 2, 3}, 0, 5)};
    bvh.prim_index = {0, 1, 2, 3, 4};
    BvhQuality q = measure_bvh(bvh);
    EXPECT_DOUBLE_EQ(q.sah, 5.0);
    EXPECT_EQ(q.depth, 0u);
}

TEST(BvhQuality, EmptyTreeIsAllZero) {
    Bvh bvh = build_bvh_binned_sah({}, {});
    BvhQuality q = measure_bvh(bvh);
    EXPECT_EQ(q.sah, 0.0);
    EXPECT_EQ(q.leaves, 0u);
}

}  // namespace
}  // namespace wf
