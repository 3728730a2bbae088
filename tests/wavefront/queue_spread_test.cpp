// How a traversal stage spreads a small launch over more lanes (wavefront/queues.h:
// lanes_shift_per_item, for_all_queued_spread), and that every item still runs once.
#include "wavefront/queues.h"

#include <vector>

#include <gtest/gtest.h>

#include "engine/backend/cpu_backend.h"

namespace wf {
namespace {

TEST(QueueSpread, SmallLaunchesTakeMoreLanesUpToAWarp) {
    const uint32_t room = 135168;  // an H100's 132 SMs x 8 blocks of 128 threads
    EXPECT_EQ(lanes_shift_per_item(20, room), 5u);       // one ray per warp
    EXPECT_EQ(lanes_shift_per_item(4224, room), 5u);     // exactly the resident warps
    EXPECT_EQ(lanes_shift_per_item(4225, room), 4u);
    EXPECT_EQ(lanes_shift_per_item(16702, room), 3u);    // bumps-1M's bounce 7: 4 rays per warp
    EXPECT_EQ(lanes_shift_per_item(67584, room), 1u);
    EXPECT_EQ(lanes_shift_per_item(67585, room), 0u);
    EXPECT_EQ(lanes_shift_per_item(3354684, room), 0u);  // a full launch: packed
    EXPECT_EQ(lanes_shift_per_item(20, 0), 0u);          // no room: never spread
    // Launched over fewer threads than the room (min of the two): one item per thread left.
    EXPECT_EQ(lanes_shift_per_item(20, 640), 5u);
    EXPECT_EQ(lanes_shift_per_item(21, 640), 4u);
}

TEST(QueueSpread, EveryQueuedItemRunsOnceOnTheCpu) {
    // The CPU backend runs no warps: spread_room is 0 there, and the loop is for_all_queued's.
    CpuBackend backend;
    EXPECT_EQ(spread_room<8>(backend), 0u);
    std::vector<uint32_t> items{5, 3, 9, 0, 7}, size{4}, seen(10, 0);
    SlotQueue<int> queue{items.data(), size.data(), uint32_t(items.size())};
    for_all_queued_spread<8, 8>(backend, "spread_test", queue, [&](uint32_t slot) { ++seen[slot]; });
    EXPECT_EQ(seen, (std::vector<uint32_t>{1, 0, 0, 1, 0, 1, 0, 0, 0, 1}));
}

}  // namespace
}  // namespace wf
