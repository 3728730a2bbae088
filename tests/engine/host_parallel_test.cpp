#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "engine/backend/host_parallel.h"
#include "engine/scene.h"

namespace wf {

// Matches in several chunks: the first one is found, every time (the pool's threads
// take the chunks in any order).
TEST(HostParallel, FindFirstGivesTheSmallestMatchingIndex) {
    const uint64_t n = 10 * kHostGrain + 7;
    const std::vector<uint64_t> matches = {3 * kHostGrain + 5, 7 * kHostGrain, 9 * kHostGrain + 1, n - 1};
    auto is_match = [&](uint64_t i) { return std::find(matches.begin(), matches.end(), i) != matches.end(); };
    for (int round = 0; round < 50; ++round) ASSERT_EQ(host_find_first(n, is_match), matches[0]) << "round " << round;
    // Matches at the end of one chunk and the start of the next, the later one found
    // last (its thread held up): it must not replace the first. (With two threads or
    // more; one thread takes the chunks in order and skips the later one.)
    const uint64_t end_of_3 = 4 * kHostGrain - 1, start_of_4 = 4 * kHostGrain;
    auto later_found_last = [&](uint64_t i) {
        if (i == start_of_4) std::this_thread::sleep_for(std::chrono::milliseconds(30));
        return i == end_of_3 || i == start_of_4;
    };
    for (int round = 0; round < 3; ++round) EXPECT_EQ(host_find_first(n, later_found_last), end_of_3);
    EXPECT_EQ(host_find_first(n, [](uint64_t i) { return i == 0; }), 0u);
    EXPECT_EQ(host_find_first(n, [&](uint64_t i) { return i == n - 1; }), n - 1);
    EXPECT_EQ(host_find_first(n, [](uint64_t) { return false; }), n);
    EXPECT_EQ(host_find_first(0, [](uint64_t) { return true; }), 0u);
    EXPECT_EQ(host_find_first(5, [](uint64_t i) { return i >= 2; }), 2u);  // one chunk, on the calling thread
}

// The chunks' results are folded in index order: concatenating each chunk's indices
// gives 0, 1, ..., n - 1.
TEST(HostParallel, ReduceFoldsTheChunksInIndexOrder) {
    const uint64_t n = 6 * kHostGrain + 11;
    using List = std::vector<uint32_t>;
    const List all = host_reduce(
        n, List{},
        [](uint64_t begin, uint64_t end, List part) {
            for (uint64_t i = begin; i < end; ++i) part.push_back(uint32_t(i));
            return part;
        },
        [](List acc, const List& part) {
            acc.insert(acc.end(), part.begin(), part.end());
            return acc;
        });
    List expected(n);
    std::iota(expected.begin(), expected.end(), 0u);
    EXPECT_EQ(all, expected);
}

TEST(HostParallel, ReserveTouchedKeepsTheElementsAndMapsOnlyWhatWillBeFilled) {
    std::vector<uint32_t> v(1000);
    std::iota(v.begin(), v.end(), 7u);
    const std::vector<uint32_t> before = v;
    const size_t n = 5 * kTouchGrain * kTouchPage / sizeof(uint32_t) + 3;  // pages in several chunks
    const long pages = long(n * sizeof(uint32_t) / kTouchPage);
    rusage start{}, touched{}, filled{};
    getrusage(RUSAGE_SELF, &start);
    reserve_touched(v, n, 4 * n);  // room for growth beyond n
    getrusage(RUSAGE_SELF, &touched);
    EXPECT_EQ(v, before);
    EXPECT_GE(v.capacity(), 4 * n);
    v.resize(n, 1u);
    getrusage(RUSAGE_SELF, &filled);
    // The pages up to n are mapped already, so filling them takes few page faults (one
    // per page without the touch, unless the system maps huge pages on its own); the room
    // beyond n is not mapped (as reserve leaves it).
    if (ThreadPool::global().size() > 1) {  // (one thread leaves the faults to the fill)
        EXPECT_LT(filled.ru_minflt - touched.ru_minflt, pages / 4) << pages << " pages";
        EXPECT_LT(touched.ru_minflt - start.ru_minflt, 2 * pages) << pages << " pages up to n";
    }
    const size_t capacity = v.capacity();
    reserve_touched(v, 10);  // room enough already: nothing moves
    EXPECT_EQ(v.capacity(), capacity);
}

// The scene's box over chunks equals the serial loop's, bit for bit: where the lowest
// coordinate is a zero of either sign, the serial loop keeps the last zero it meets
// (fminf's tie goes to its second operand), and so must the chunks' fold.
TEST(HostParallel, SceneBoundsEqualTheSerialLoopBitForBit) {
    HostScene scene;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> coordinate(0.0f, 100.0f);
    const size_t n = 5 * kHostGrain + 3;
    for (size_t i = 0; i < n; ++i) {
        Triangle t{Vec3f(coordinate(rng), coordinate(rng), coordinate(rng)), Vec3f(coordinate(rng), coordinate(rng), coordinate(rng)),
                   Vec3f(coordinate(rng), coordinate(rng), coordinate(rng))};
        // Zeros on x: -0 in the first chunks, +0 in the last; on y: the other way round.
        if (i % 1000 == 0) {
            const bool late = i >= 4 * kHostGrain;
            t.p1.x = late ? 0.0f : -0.0f;
            t.p2.y = late ? -0.0f : 0.0f;
        }
        scene.triangles.push_back(t);
    }
    Aabb serial;
    for (const Triangle& t : scene.triangles) {
        serial.extend(t.p0);
        serial.extend(t.p1);
        serial.extend(t.p2);
    }
    const Aabb box = scene.bounds();
    for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(std::bit_cast<uint32_t>(box.lo[a]), std::bit_cast<uint32_t>(serial.lo[a])) << "axis " << a;
        EXPECT_EQ(std::bit_cast<uint32_t>(box.hi[a]), std::bit_cast<uint32_t>(serial.hi[a])) << "axis " << a;
    }
    EXPECT_TRUE(std::signbit(serial.lo.y));  // the last zero met on y is -0
    EXPECT_FALSE(std::signbit(serial.lo.x));
}

}  // namespace wf
