// How the traversal stages spread a small launch over more lanes (wavefront/queues.h:
// lanes_shift_per_item, for_all_items' SpreadBlocksPerSm), that every item still runs
// exactly once, and which rays spread (intersect_closest.h).
#include "wavefront/queues.h"

#include <atomic>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "engine/backend/cpu_backend.h"
#include "wavefront/stages/intersect_closest.h"

namespace wf {
namespace {

TEST(QueueSpread, SmallLaunchesTakeMoreLanesUpToAWarp) {
    const uint32_t room = 135168;  // an H100's 132 SMs x 8 blocks of 128 threads
    EXPECT_EQ(lanes_shift_per_item(20, room), 5u);       // one ray per warp
    EXPECT_EQ(lanes_shift_per_item(4224, room), 5u);     // one per resident warp, exactly
    EXPECT_EQ(lanes_shift_per_item(4225, room), 4u);
    EXPECT_EQ(lanes_shift_per_item(16702, room), 3u);    // bumps-1M's bounce 7: 4 rays per warp
    EXPECT_EQ(lanes_shift_per_item(67584, room), 1u);    // half the room at 2 lanes each
    EXPECT_EQ(lanes_shift_per_item(67585, room), 0u);
    EXPECT_EQ(lanes_shift_per_item(3354684, room), 0u);  // a full launch: packed
    EXPECT_EQ(lanes_shift_per_item(20, 0), 0u);          // no room: never spread
    EXPECT_EQ(lanes_shift_per_item(20, 640), 5u);        // 20 rays x 32 lanes fit 640 threads
    EXPECT_EQ(lanes_shift_per_item(21, 640), 4u);
}

// The thread index the backend below is running (each CPU worker runs one at a time).
thread_local uint32_t running_thread = 0;

// The CPU runs each thread index's loop as the GPU would (only not in warps). This
// backend says it runs in warps and holds `room` threads, so the spread index
// arithmetic runs here with any room; it records the blocks per SM a launch asked
// room for, and which thread index calls the stage's body.
struct RoomCpuBackend : CpuBackend {
    static constexpr bool kRunsInWarps = true;
    uint32_t room = 0;
    mutable uint32_t asked = 0;
    uint32_t resident_threads(uint32_t blocks_per_sm) const {
        asked = blocks_per_sm;
        return room;
    }
    template <class F>
    void parallel_for(const char* name, uint32_t n, F fn) {
        CpuBackend::parallel_for(name, n, [&](uint32_t t) {
            running_thread = t;
            fn(t);
        });
    }
    template <uint32_t Block, uint32_t MinBlocks, class F>
    void parallel_for_sized(const char* name, uint32_t n, F fn) {
        parallel_for(name, n, fn);
    }
};

TEST(QueueSpread, EveryItemRunsOnceForAnyCountCapacityAndRoom) {
    RoomCpuBackend backend;
    for (uint32_t capacity : {1u, 5u, 33u, 40u, 640u, (1u << 21) + 5u})
        for (uint32_t count : {0u, 1u, 20u, 21u, 31u, 32u, 33u, 4224u, 4225u})
            for (uint32_t room : {0u, 17u, 640u, 135168u, 1u << 22}) {
                backend.room = room;
                EXPECT_EQ(spread_room<8>(backend), room);
                std::vector<uint32_t> size{count};
                const uint32_t items = count < capacity ? count : capacity;
                auto runs = std::make_unique<std::atomic<uint32_t>[]>(capacity);
                std::atomic<uint32_t>* seen = runs.get();
                backend.asked = 0;
                for_all_items<0, 8>(backend, "spread_test", size.data(), capacity, 1,
                                    [=](uint32_t i) { seen[i].fetch_add(1, std::memory_order_relaxed); });
                EXPECT_EQ(backend.asked, 8u);
                uint32_t wrong = 0;
                for (uint32_t i = 0; i < capacity; ++i) wrong += seen[i].load() != (i < items ? 1u : 0u);
                EXPECT_EQ(wrong, 0u) << "capacity " << capacity << ", count " << count << ", room " << room;
            }
}

// With group walks from a spread of 1 << from lanes on, the ordinary launch leaves
// those items to the group launch, where every lane of an item's spread calls the
// body, with the item its thread index names; between the two, every item runs once.
TEST(QueueSpread, GroupLaunchesTakeTheItemsTheOrdinaryOneLeaves) {
    RoomCpuBackend backend;
    for (uint32_t from : {1u, 2u, 3u, 5u, 6u})
        for (uint32_t capacity : {1u, 5u, 33u, 640u, (1u << 21) + 5u})
            for (uint32_t count : {0u, 1u, 20u, 21u, 33u, 4224u, 4225u, 70000u})
                for (uint32_t room : {0u, 17u, 640u, 135168u}) {
                    backend.room = room;
                    std::vector<uint32_t> size{count};
                    const uint32_t items = count < capacity ? count : capacity;
                    auto ordinary = std::make_unique<std::atomic<uint32_t>[]>(capacity);
                    auto grouped = std::make_unique<std::atomic<uint32_t>[]>(capacity);
                    std::atomic<uint32_t>* o = ordinary.get();
                    std::atomic<uint32_t>* g = grouped.get();
                    std::atomic<uint32_t> misplaced{0};
                    std::atomic<uint32_t>* bad = &misplaced;
                    for_all_items<0, 8>(
                        backend, "ordinary_test", size.data(), capacity, 1,
                        [=](uint32_t i) { o[i].fetch_add(1, std::memory_order_relaxed); }, from);
                    for_all_items<0, 8, true>(
                        backend, "group_test", size.data(), capacity, 1,
                        [=](uint32_t i, uint32_t t, uint32_t shift) {
                            g[i].fetch_add(1, std::memory_order_relaxed);
                            bad->fetch_add((t >> shift) == i && shift >= from ? 0u : 1u);
                        },
                        from);
                    const uint32_t shift = lanes_shift_per_item(items, room < capacity ? room : capacity);
                    const bool groups = shift >= from;
                    uint32_t wrong = 0;
                    for (uint32_t i = 0; i < capacity; ++i) {
                        const bool item = i < items;
                        wrong += o[i].load() != (item && !groups ? 1u : 0u);
                        wrong += g[i].load() != (item && groups ? 1u << shift : 0u);
                    }
                    EXPECT_EQ(wrong + misplaced.load(), 0u)
                        << "from " << from << ", capacity " << capacity << ", count " << count << ", room " << room;
                }
}

TEST(QueueSpread, OnlySpreadingStagesAndWarpsHaveRoom) {
    RoomCpuBackend warps;
    warps.room = 640;
    EXPECT_EQ(spread_room<0>(warps), 0u);  // a stage that does not spread
    EXPECT_EQ(spread_room<6>(warps), 640u);
    EXPECT_EQ(spread_room<8>(CpuBackend{}), 0u);  // no warps
}

// Both queue kinds spread when asked to, with the room of the blocks they name:
// queues of 640 and room for as many threads, so that their few items take one
// thread in 32 each (and the other queue launches never spread).
TEST(QueueSpread, BothQueueKindsSpreadIntoTheRoomTheyName) {
    RoomCpuBackend backend;
    backend.room = 640;
    ASSERT_EQ(lanes_shift_per_item(4, 640), 5u);
    std::atomic<uint32_t> off_warp_start{0};  // body calls from a thread not first in its 32
    std::atomic<uint32_t>* off = &off_warp_start;

    std::vector<uint32_t> slots(640, 0u), size{4};
    slots[0] = 5, slots[1] = 3, slots[2] = 9, slots[3] = 7;
    std::vector<std::atomic<uint32_t>> seen(10);
    std::atomic<uint32_t>* s = seen.data();
    for_all_queued<8, 8>(backend, "spread_test", SlotQueue<int>{slots.data(), size.data(), 640}, [=](uint32_t slot) {
        s[slot].fetch_add(1);
        off->fetch_add(running_thread % 32 != 0 ? 1u : 0u);
    });
    EXPECT_EQ(backend.asked, 8u);
    for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(seen[i].load(), (i == 5 || i == 3 || i == 9 || i == 7) ? 1u : 0u);

    struct Items {};
    std::vector<uint32_t> work_size{3};
    std::vector<std::atomic<uint32_t>> work(640);
    std::atomic<uint32_t>* w = work.data();
    for_all_queued<0, 6>(backend, "spread_test", WorkQueue<Items>{Items{}, work_size.data(), 640}, [=](uint32_t i) {
        w[i].fetch_add(1);
        off->fetch_add(running_thread % 32 != 0 ? 1u : 0u);
    });
    EXPECT_EQ(backend.asked, 6u);
    for (uint32_t i = 0; i < 640; ++i) EXPECT_EQ(work[i].load(), i < 3 ? 1u : 0u) << i;
    EXPECT_EQ(off_warp_start.load(), 0u);

    // Without SpreadBlocksPerSm the same queue runs packed: its items on threads 0, 1, 2.
    backend.asked = 0;
    for_all_queued(backend, "packed_test", WorkQueue<Items>{Items{}, work_size.data(), 640},
                   [=](uint32_t) { off->fetch_add(running_thread % 32 != 0 ? 1u : 0u); });
    EXPECT_EQ(backend.asked, 0u);
    EXPECT_EQ(off_warp_start.load(), 2u);
}

TEST(QueueSpread, OnlyScatteredRaysSpread) {
    EXPECT_TRUE(spreads_small_launches(RayCoherence::kScatteredRays));
    EXPECT_FALSE(spreads_small_launches(RayCoherence::kCameraRays));
}

}  // namespace
}  // namespace wf
