#include "accel/bvh_quality.h"

#include <random>
#include <vector>

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

TEST(BvhQuality, SahBySubtreeSizePutsEachTermInItsSizeClass) {
    // The hand-built tree above: the root (4 primitives, class 2) costs 5 / 5, the
    // leaf of 3 (class 1) 9 / 5, the leaf of 1 (class 0) 3 / 5.
    Bvh bvh;
    bvh.nodes = {box_node({0, 0, 0}, {2, 1, 1}, 1, 0), box_node({0, 0, 0}, {1, 1, 1}, 0, 3),
                 box_node({1, 0, 0}, {2, 1, 1}, 3, 1)};
    bvh.prim_index = {0, 1, 2, 3};
    const SahBySubtreeSize by_size = sah_by_subtree_size(bvh);
    EXPECT_DOUBLE_EQ(by_size[2], 1.0);
    EXPECT_DOUBLE_EQ(by_size[1], 9.0 / 5.0);
    EXPECT_DOUBLE_EQ(by_size[0], 3.0 / 5.0);
    for (size_t k = 3; k < by_size.size(); ++k) EXPECT_EQ(by_size[k], 0.0) << k;
}

TEST(BvhQuality, SahBySubtreeSizeAddsUpToTheSahOfABuiltTree) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-10.0f, 10.0f);
    std::vector<Triangle> triangles;
    for (int i = 0; i < 3000; ++i) {
        const Vec3f p(u(rng), u(rng), u(rng));
        triangles.push_back({p, p + Vec3f(0.3f, 0, 0), p + Vec3f(0, 0.3f, 0.1f)});
    }
    const Bvh bvh = build_bvh_binned_sah(triangles, {});
    const SahBySubtreeSize by_size = sah_by_subtree_size(bvh);
    double sum = 0.0;
    for (double c : by_size) sum += c;
    EXPECT_NEAR(sum, measure_bvh(bvh).sah, 1e-9 * sum);
    EXPECT_GE(by_size[11], 1.0);  // the root (its term is 1) holds 2048 to 4095 primitives
    for (size_t k = 12; k < by_size.size(); ++k) EXPECT_EQ(by_size[k], 0.0) << k;
    EXPECT_GT(by_size[3], 0.0);  // nodes of 8 to 15 primitives: leaves of 8 and parents of leaves
}

TEST(BvhQuality, SahBySubtreeSizeOfATreeWithoutAreaCountsTheTests) {
    Bvh bvh;
    bvh.nodes = {box_node({1, 1, 1}, {1, 1, 1}, 0, 5)};
    bvh.prim_index = {0, 1, 2, 3, 4};
    EXPECT_EQ(sah_by_subtree_size(bvh)[2], 5.0);
    EXPECT_EQ(sah_by_subtree_size(Bvh{})[0], 0.0);
}

}  // namespace
}  // namespace wf
