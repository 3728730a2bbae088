// How the traversal stages spread a small launch over more lanes (wavefront/queues.h:
// lanes_shift_per_item, for_all_items' SpreadBlocksPerSm), that every item still runs
// exactly once, and which rays spread (intersect_closest.h).
#include "wavefront/queues.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/backend/cpu_backend.h"
#include "tests/accel/accel_test_scene.h"
#include "wavefront/stages/intersect_closest.h"
#include "wavefront/stages/intersect_shadow.h"

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

// RoomCpuBackend with the work counter of refilling launches (for_all_items_refilling).
struct RefillCpuBackend : RoomCpuBackend {
    uint32_t counter[2] = {0, 0};
    uint32_t* work_counter() { return counter; }
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
                for (uint32_t room : {0u, 17u, 640u, 135168u, 1u << 22}) {
                    backend.room = room;
                    std::vector<uint32_t> size{count};
                    const uint32_t items = count < capacity ? count : capacity;
                    auto ordinary = std::make_unique<std::atomic<uint32_t>[]>(capacity);
                    auto grouped = std::make_unique<std::atomic<uint32_t>[]>(capacity);
                    auto lanes = std::make_unique<std::atomic<uint32_t>[]>(capacity);  // bits: lanes in the warp
                    std::atomic<uint32_t>* l = lanes.get();
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
                            l[i].fetch_or(1u << (t & 31u), std::memory_order_relaxed);
                            bad->fetch_add((t >> shift) == i && shift >= from ? 0u : 1u);
                        },
                        from);
                    const uint32_t launched = capacity < kQueueLaunchThreads ? capacity : kQueueLaunchThreads;
                    const uint32_t shift = lanes_shift_per_item(items, room < launched ? room : launched);
                    const bool groups = shift >= from;
                    uint32_t wrong = 0;
                    for (uint32_t i = 0; i < capacity; ++i) {
                        const bool item = i < items;
                        wrong += o[i].load() != (item && !groups ? 1u : 0u);
                        wrong += g[i].load() != (item && groups ? 1u << shift : 0u);
                        // Each lane of the item's group once: 1 << shift consecutive lanes from a
                        // multiple of 1 << shift, all in one warp.
                        const uint32_t size = 1u << shift;
                        const uint32_t group = (size == 32u ? ~0u : (1u << size) - 1u) << ((i << shift) & 31u);
                        wrong += l[i].load() != (item && groups ? group : 0u);
                    }
                    EXPECT_EQ(wrong + misplaced.load(), 0u)
                        << "from " << from << ", capacity " << capacity << ", count " << count << ", room " << room;
                }
}

// The fields of a path record that the closest-hit stage reads and writes.
struct StagePaths {
    Vec3f* ray_origin;
    Vec3f* ray_dir;
    uint8_t* alive;
    float* hit_t;
    uint32_t* hit_prim;
    float* hit_u;
    float* hit_v;
};

// Runs the closest-hit stage over `queued` (distinct slots of 640, random rays from
// seed) on the given backend and expects each queued slot in one queue once, with the
// hit a plain walk finds, and every other slot untouched. Returns {hits, misses}.
template <class B>
std::pair<uint32_t, uint32_t> expect_closest_stage_records_each_ray_once(B& backend, const GeometryView& g,
                                                                        const std::vector<uint32_t>& queued,
                                                                        uint32_t seed, bool refilled = false) {
    const uint32_t slots = 640, rays = uint32_t(queued.size());  // queues' capacity: 640
    test::Random rng(seed);
    std::vector<Vec3f> origin(slots), dir(slots);
    for (uint32_t i = 0; i < slots; ++i) origin[i] = rng.point_in_box(-12.0f, 12.0f), dir[i] = rng.unit_vector();
    std::vector<uint8_t> alive(slots, 1);
    std::vector<float> hit_t(slots, -1.0f), hit_u(slots, -1.0f), hit_v(slots, -1.0f);
    std::vector<uint32_t> hit_prim(slots, 0xDEADu);
    StagePaths paths{origin.data(), dir.data(), alive.data(), hit_t.data(), hit_prim.data(), hit_u.data(),
                     hit_v.data()};
    std::vector<uint32_t> active_items(slots), surface_items(slots), escaped_items(slots);
    std::copy(queued.begin(), queued.end(), active_items.begin());
    std::vector<uint32_t> sizes{rays, 0, 0};
    intersect_closest(backend, "closest_test", g, paths, SlotQueue<StagePaths>{active_items.data(), &sizes[0], slots},
                      SlotQueue<StagePaths>{surface_items.data(), &sizes[1], slots},
                      SlotQueue<StagePaths>{escaped_items.data(), &sizes[2], slots}, RayCoherence::kScatteredRays);
    EXPECT_EQ(sizes[1] + sizes[2], rays) << rays << " rays";
    std::vector<uint32_t> pushed(slots, 0), in_queue(slots, 0);
    for (uint32_t slot : queued) in_queue[slot] = 1;
    for (uint32_t i = 0; i < sizes[1] && i < slots; ++i) pushed[surface_items[i]] += 1;
    for (uint32_t i = 0; i < sizes[2] && i < slots; ++i) pushed[escaped_items[i]] += 10;
    uint32_t hits = 0, misses = 0;
    for (uint32_t s = 0; s < slots; ++s) {
        if (!in_queue[s]) {  // not queued: untouched
            EXPECT_EQ(pushed[s], 0u) << s;
            EXPECT_EQ(hit_prim[s], 0xDEADu) << s;
            continue;
        }
        const Hit ref = intersect_closest(g, Ray{origin[s], dir[s]}, kInfinity);
        EXPECT_EQ(pushed[s], ref.found() ? 1u : 10u) << rays << " rays, slot " << s;
        EXPECT_EQ(alive[s], ref.found() ? 1u : 0u) << rays << " rays, slot " << s;
        if (!ref.found()) {
            // A refilling launch writes a miss in place (read back by the ordinary
            // launch); the others leave its hit fields alone.
            EXPECT_EQ(hit_prim[s], refilled ? kNoHit : 0xDEADu) << rays << " rays, slot " << s;
            ++misses;
            continue;
        }
        ++hits;
        EXPECT_EQ(hit_t[s], ref.t) << rays << " rays, slot " << s;
        EXPECT_EQ(hit_prim[s], ref.prim) << rays << " rays, slot " << s;
        EXPECT_EQ(hit_u[s], ref.u) << rays << " rays, slot " << s;
        EXPECT_EQ(hit_v[s], ref.v) << rays << " rays, slot " << s;
    }
    return {hits, misses};
}

// The closest-hit stage over a tree whose walks are long enough for group walks
// (group_walks_from), on the warp-less backend above: a launch of a few rays spreads
// them into groups (where one lane per group records the hit), a larger one runs
// them one per thread; either way every slot goes to the surface or the escaped
// queue once, with the hit a plain walk finds.
TEST(QueueSpread, TheClosestHitStageRecordsEachRayOnceFromGroups) {
    const test::TestScene soup = test::random_soup(51, 3000, 200, {}, 10.0f);
    GeometryView g = soup.view();
    g.tree_sah = kPostponeLeavesMinSah;  // long walks, as the GPU would judge them
    RoomCpuBackend backend;
    backend.room = 640;
    ASSERT_EQ(group_walks_from<RoomCpuBackend>(g), kGroupWalkFromShift);
    for (uint32_t rays : {3u, 20u, 80u, 300u}) {  // 32, 32 and 8 lanes per ray; 2: the ordinary launch
        std::vector<uint32_t> queued(rays);
        for (uint32_t i = 0; i < rays; ++i) queued[i] = 640 - 1 - 2 * i;  // odd slots, backwards
        const auto [hits, misses] = expect_closest_stage_records_each_ray_once(backend, g, queued, 52 + rays);
        EXPECT_GT(hits, 0u) << rays << " rays";  // not vacuous
    }
}

// Runs the shadow stage over `rays` random shadow rays (from seed; queue capacity
// 640), each with a pixel of its own, on the given backend, and expects every
// unoccluded ray to add its contribution once and an occluded one nothing. Returns
// {occluded, clear}.
template <class B>
std::pair<uint32_t, uint32_t> expect_shadow_stage_adds_each_ray_once(B& backend, const GeometryView& g, uint32_t rays,
                                                                    uint32_t seed) {
    const uint32_t capacity = 640;
    test::Random rng(seed);
    std::vector<Vec3f> origin(capacity), dir(capacity), contribution(capacity);
    std::vector<float> t_max(capacity);
    std::vector<uint32_t> pixel(capacity);
    for (uint32_t i = 0; i < rays; ++i) {
        origin[i] = rng.point_in_box(-12.0f, 12.0f), dir[i] = rng.unit_vector();
        t_max[i] = rng.uniform(0.0f, 20.0f);
        contribution[i] = Vec3f(1.0f, 0.0f, 0.0f);
        pixel[i] = i;  // a pixel of its own
    }
    std::vector<double> sums(3 * capacity, 0.0);
    uint32_t nonfinite = 0;
    const FilmView film{sums.data(), &nonfinite, capacity, 1};
    std::vector<uint32_t> size{rays};
    intersect_shadow(backend, "shadow_test", g,
                     WorkQueue<ShadowRayView>{ShadowRayView{origin.data(), dir.data(), t_max.data(),
                                                            contribution.data(), pixel.data()},
                                              size.data(), capacity},
                     film);
    uint32_t occluded = 0, clear = 0;
    for (uint32_t i = 0; i < rays; ++i) {
        const bool blocked = intersect_any(g, Ray{origin[i], dir[i]}, t_max[i]);
        (blocked ? occluded : clear)++;
        EXPECT_EQ(sums[3 * i], blocked ? 0.0 : 1.0) << rays << " rays, ray " << i;
    }
    for (uint32_t i = rays; i < capacity; ++i) EXPECT_EQ(sums[3 * i], 0.0) << i;
    return {occluded, clear};
}

// The shadow stage likewise: every unoccluded ray adds its contribution to its
// pixel once, from a group or from the ordinary launch, and an occluded one nothing.
TEST(QueueSpread, TheShadowStageAddsEachRayOnceFromGroups) {
    const test::TestScene soup = test::random_soup(53, 3000, 200, {}, 10.0f);
    GeometryView g = soup.view();
    g.tree_sah = kPostponeLeavesMinSah;
    RoomCpuBackend backend;
    backend.room = 640;
    for (uint32_t rays : {3u, 20u, 80u, 300u}) {  // 32, 32 and 8 lanes per ray; 2: the ordinary launch
        const auto [occluded, clear] = expect_shadow_stage_adds_each_ray_once(backend, g, rays, 54 + rays);
        if (rays >= 20) {  // not vacuous
            EXPECT_GT(occluded, 0u) << rays << " rays";
            EXPECT_GT(clear, 0u) << rays << " rays";
        }
    }
}

// The shadow stage likewise: launches past the room run refilled (no pass after),
// each unoccluded ray adding to its pixel once, and leave the counter at zero.
TEST(QueueSpread, TheShadowStageRefillsLargeLaunchesAndAddsEachRayOnce) {
    const test::TestScene soup = test::random_soup(57, 3000, 200, {}, 10.0f);
    GeometryView g = soup.view();
    g.tree_sah = kPostponeLeavesMinSah;
    RefillCpuBackend backend;
    backend.room = 64;
    for (uint32_t rays : {300u, 256u, 301u}) {  // past 4 per thread of the room: refilled; else ordinary
        const auto [occluded, clear] = expect_shadow_stage_adds_each_ray_once(backend, g, rays, 58 + rays);
        EXPECT_EQ(backend.counter[0], 0u) << rays << " rays";
        EXPECT_EQ(backend.counter[1], 0u) << rays << " rays";
        EXPECT_GT(occluded, 0u) << rays << " rays";  // not vacuous
        EXPECT_GT(clear, 0u) << rays << " rays";
    }
}

// The refilling launch runs only where the host's bound on the count exceeds
// `from` items per thread of the room, and then only for counts above that; the
// ordinary launch, told what it returned, takes every other count's items.
TEST(QueueSpread, RefillingLaunchesTakeOnlyCountsAboveTheirShare) {
    RefillCpuBackend backend;
    backend.room = 64;
    for (uint32_t from : {1u, 4u})
        for (uint32_t bound : {10u, 64u, 65u, 256u, 257u, 640u})
            for (uint32_t count : {0u, 1u, 64u, 65u, 256u, 257u, 300u}) {
                if (count > bound) continue;
                const uint32_t above = 64 * from;
                std::vector<std::atomic<uint32_t>> runs(count);
                std::vector<uint32_t> size{count};
                std::atomic<uint32_t> refilled{0};
                const uint32_t returned = for_all_items_refilling<8>(
                    backend, "refill_test", size.data(), bound, from,
                    [&](uint32_t t, uint32_t room, uint32_t total, uint32_t* counter) {
                        EXPECT_EQ(room, 64u);
                        EXPECT_EQ(total, count);
                        EXPECT_EQ(counter, backend.counter);
                        EXPECT_LT(t, room);
                        refilled++;
                    });
                const bool launched = bound > above, runs_refilled = launched && count > above;
                EXPECT_EQ(returned, launched ? above : 0xFFFFFFFFu) << from << " " << bound;
                EXPECT_EQ(refilled.load(), runs_refilled ? 64u : 0u) << from << " " << bound << " " << count;
                // The ordinary launch leaves the refilled counts, and takes the others.
                for_all_items<8, 8>(backend, "ordinary_test", size.data(), bound, 1,
                                    [&](uint32_t i) { runs[i]++; }, 6u, returned);
                for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), runs_refilled ? 0u : 1u) << i;
            }
    CpuBackend no_warps;  // and no work counter
    EXPECT_EQ(for_all_items_refilling<8>(no_warps, "no_warps", nullptr, 1000, 1,
                                         [](uint32_t, uint32_t, uint32_t, uint32_t*) {}),
              0xFFFFFFFFu);
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

// A launch of more than four rays per thread of the room, over long walks, runs on
// resident threads that take new rays as theirs end (closest_hits_refilling), then
// the ordinary launch pushes the queues in item order. Every slot must still go to
// one queue once with a plain walk's hit,
// and the stage must leave the backend's work counter at zero for the next launch:
// the stage runs five times on one backend, and each run must see every ray. (Misses
// show which launch took them: only a refilling one writes kNoHit in place.)
TEST(QueueSpread, TheClosestHitStageRefillsLargeLaunchesAndRecordsEachRayOnce) {
    const test::TestScene soup = test::random_soup(55, 3000, 200, {}, 10.0f);
    GeometryView g = soup.view();
    g.tree_sah = kPostponeLeavesMinSah;
    RefillCpuBackend backend;
    backend.room = 64;
    ASSERT_GT(refill_below_lanes(), 0u);
    ASSERT_EQ(refill_from_rays_per_thread(), 4u);
    for (uint32_t rays : {300u, 257u, 256u, 65u, 301u}) {  // past 4 per thread of the room: refilled; else ordinary
        std::vector<uint32_t> queued(rays);
        for (uint32_t i = 0; i < rays; ++i) queued[i] = (7 * i + 3) % 640;  // distinct: 7 and 640 are coprime
        const auto [hits, misses] =
            expect_closest_stage_records_each_ray_once(backend, g, queued, 56 + rays, rays > 4 * 64);
        EXPECT_EQ(backend.counter[0], 0u) << rays << " rays";
        EXPECT_EQ(backend.counter[1], 0u) << rays << " rays";
        EXPECT_GT(hits, 0u) << rays << " rays";  // not vacuous
        EXPECT_GT(misses, 0u) << rays << " rays";
    }
}

}  // namespace
}  // namespace wf
