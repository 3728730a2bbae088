#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "engine/backend/thread_pool.h"

namespace wf {

// Many back-to-back jobs of different sizes: each index is visited exactly once
// per job (a worker that woke late must not run a chunk of the next job twice).
TEST(ThreadPool, EveryIndexOfEveryJobRunsExactlyOnce) {
    ThreadPool pool(4);
    std::vector<std::atomic<uint32_t>> visits(5000);
    for (uint32_t job = 0; job < 300; ++job) {
        uint64_t n = 1 + (job * 7919u) % 5000;
        for (auto& v : visits) v.store(0);
        pool.run_chunks(n, 1 + job % 64, [&](uint64_t b, uint64_t e) {
            for (uint64_t i = b; i < e; ++i) visits[i].fetch_add(1);
        });
        for (uint64_t i = 0; i < visits.size(); ++i)
            ASSERT_EQ(visits[i].load(), i < n ? 1u : 0u) << "job " << job << " index " << i;
    }
}

// A job's body that calls back into its own pool (a PNG written from a pool job) runs
// that inner job on its own thread: every index once, no wait for the outer job's lock.
TEST(ThreadPool, NestedCallRunsOnTheCallingThread) {
    ThreadPool pool(4);
    std::vector<std::atomic<uint32_t>> visits(64 * 100);
    pool.run_chunks(64, 1, [&](uint64_t b, uint64_t e) {
        for (uint64_t outer = b; outer < e; ++outer)
            pool.run_chunks(100, 7, [&](uint64_t ib, uint64_t ie) {
                for (uint64_t i = ib; i < ie; ++i) visits[outer * 100 + i].fetch_add(1);
            });
    });
    for (uint64_t i = 0; i < visits.size(); ++i) ASSERT_EQ(visits[i].load(), 1u) << "index " << i;
    // And the pool still runs ordinary jobs afterwards.
    std::atomic<uint64_t> sum{0};
    pool.run_chunks(1000, 10, [&](uint64_t b, uint64_t e) {
        for (uint64_t i = b; i < e; ++i) sum += i;
    });
    EXPECT_EQ(sum.load(), 499500u);
}

TEST(ThreadPool, ExceptionInAChunkReachesTheCaller) {
    ThreadPool pool(4);
    EXPECT_THROW(pool.run_chunks(100000, 10,
                                 [](uint64_t b, uint64_t) {
                                     if (b == 5000) throw std::runtime_error("chunk failed");
                                 }),
                 std::runtime_error);
    // The pool still works afterwards.
    std::atomic<uint64_t> sum{0};
    pool.run_chunks(1000, 7, [&](uint64_t b, uint64_t e) { sum += e - b; });
    EXPECT_EQ(sum.load(), 1000u);
}

}  // namespace wf
