// The rule that picks a traversal launch's leaf order (wavefront/stages/leaf_order.h),
// and the tree SAH it reads, as DeviceScene hands it to the stages.
#include "wavefront/stages/leaf_order.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "app/device_scene.h"
#include "engine/backend/cpu_backend.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"

namespace wf {
namespace {

struct WarpBackend {  // what the rule asks of the CUDA backend
    static constexpr bool kRunsInWarps = true;
};

GeometryView tree_of_sah(float sah) {
    GeometryView g;
    g.tree_sah = sah;
    return g;
}

TEST(LeafOrder, OnlyScatteredRaysOfLongWalksInWarpsPostpone) {
    const GeometryView long_walks = tree_of_sah(kPostponeLeavesMinSah);
    const GeometryView short_walks = tree_of_sah(std::nextafter(kPostponeLeavesMinSah, 0.0f));
    EXPECT_EQ(leaf_order_for<WarpBackend>(RayCoherence::kScatteredRays, long_walks), LeafOrder::kPostponed);
    EXPECT_EQ(leaf_order_for<WarpBackend>(RayCoherence::kScatteredRays, short_walks), LeafOrder::kImmediate);
    EXPECT_EQ(leaf_order_for<WarpBackend>(RayCoherence::kCameraRays, long_walks), LeafOrder::kImmediate);
    EXPECT_EQ(leaf_order_for<CpuBackend>(RayCoherence::kScatteredRays, long_walks), LeafOrder::kImmediate);
    EXPECT_EQ(leaf_order_for<WarpBackend>(RayCoherence::kScatteredRays, GeometryView{}), LeafOrder::kImmediate);
}

// Group walks (group_walks_from) follow the same rule, for every scattered or shadow launch.
TEST(LeafOrder, GroupWalksOnlyWhereWalksAreLongInWarps) {
    const GeometryView long_walks = tree_of_sah(kPostponeLeavesMinSah);
    const GeometryView short_walks = tree_of_sah(std::nextafter(kPostponeLeavesMinSah, 0.0f));
    EXPECT_EQ(group_walks_from<WarpBackend>(long_walks), kGroupWalkFromShift);
    EXPECT_EQ(group_walks_from<WarpBackend>(short_walks), 6u);
    EXPECT_EQ(group_walks_from<WarpBackend>(GeometryView{}), 6u);
    EXPECT_EQ(group_walks_from<CpuBackend>(long_walks), 6u);
    EXPECT_GE(kGroupWalkFromShift, 1u);  // a group is more than one lane
    EXPECT_LE(kGroupWalkFromShift, 5u);  // and at most a warp
}

// The order each launch gets is the rule's, as a compile-time constant.
template <class Backend>
std::vector<LeafOrder> launched_orders(RayCoherence rays, const GeometryView& geometry) {
    std::vector<LeafOrder> launched;
    with_leaf_order<Backend>(rays, geometry, [&](auto order) { launched.push_back(decltype(order)::value); });
    return launched;
}

TEST(LeafOrder, StagesLaunchOnceInTheRulesOrder) {
    const GeometryView long_walks = tree_of_sah(kPostponeLeavesMinSah);
    using Orders = std::vector<LeafOrder>;
    EXPECT_EQ(launched_orders<WarpBackend>(RayCoherence::kScatteredRays, long_walks), Orders{LeafOrder::kPostponed});
    EXPECT_EQ(launched_orders<WarpBackend>(RayCoherence::kCameraRays, long_walks), Orders{LeafOrder::kImmediate});
    EXPECT_EQ(launched_orders<WarpBackend>(RayCoherence::kScatteredRays, tree_of_sah(1.0f)),
              Orders{LeafOrder::kImmediate});
    EXPECT_EQ(launched_orders<CpuBackend>(RayCoherence::kScatteredRays, long_walks), Orders{LeafOrder::kImmediate});
    // On the CPU the postponed order is not even compiled.
    with_leaf_order<CpuBackend>(RayCoherence::kScatteredRays, long_walks, [](auto order) {
        static_assert(decltype(order)::value == LeafOrder::kImmediate);
    });
}

TEST(LeafOrder, DeviceSceneHandsTheStagesItsTreesSah) {
    const HostScene scene = load_scene(test::source_dir() + "/scenes/cornell-box.json");
    CpuBackend backend;
    DeviceScene<CpuBackend> device_scene;
    BvhBuildStats report;
    double build_ms = 0.0;
    device_scene.upload(backend, scene, scene.camera.build(64, 64), LightSelectionMode::Power, BvhRequest{}, &report,
                        &build_ms);
    EXPECT_GT(report.sah, 1.0);  // a tree of 30-odd primitives: more than the root's visit
    EXPECT_EQ(device_scene.view().geometry.tree_sah, float(report.sah));
}

}  // namespace
}  // namespace wf
