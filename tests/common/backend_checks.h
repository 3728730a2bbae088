// Checks of a backend's collectives against the standard library, shared by
// the CPU test binary and the GPU one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "engine/backend/host_algorithms.h"

namespace wf::test {

inline void check_exclusive_scan(const HostAlgorithms& algo) {
    std::mt19937 rng(7);
    for (uint32_t n : {1u, 7u, 1000u, 123457u}) {
        std::vector<uint32_t> in(n);
        for (auto& v : in) v = rng() % 100;
        std::vector<uint32_t> expected(n);
        std::exclusive_scan(in.begin(), in.end(), expected.begin(), 0u);
        EXPECT_EQ(algo.exclusive_scan(in), expected) << "n=" << n;
    }
}

inline void check_sort_pairs(const HostAlgorithms& algo) {
    std::mt19937 rng(11);
    for (uint32_t n : {1u, 100u, 200003u}) {
        std::vector<uint32_t> keys(n), values(n);
        for (uint32_t i = 0; i < n; ++i) { keys[i] = rng() % 5000; values[i] = i; }
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
        std::vector<uint32_t> ek(n), ev(n);
        for (uint32_t i = 0; i < n; ++i) { ek[i] = keys[order[i]]; ev[i] = values[order[i]]; }
        auto [k, v] = algo.sort_pairs(keys, values);
        EXPECT_EQ(k, ek) << "n=" << n;
        EXPECT_EQ(v, ev) << "n=" << n << " (the sort must be stable)";
    }
}

inline void check_select_flagged(const HostAlgorithms& algo) {
    std::mt19937 rng(3);
    for (uint32_t n : {1u, 64u, 300001u}) {
        std::vector<uint8_t> flags(n);
        std::vector<uint32_t> expected;
        for (uint32_t i = 0; i < n; ++i) {
            flags[i] = (rng() % 3 == 0) ? 1 : 0;
            if (flags[i]) expected.push_back(i);
        }
        EXPECT_EQ(algo.select_flagged_indices(flags), expected) << "n=" << n;
    }
}

inline void check_reduce_sum(const HostAlgorithms& algo) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> in(1 << 20);
    double expected = 0.0;
    for (auto& v : in) { v = u(rng); expected += v; }
    // Float summation order differs between backends: allow rounding, not more.
    EXPECT_NEAR(algo.reduce_sum(in), expected, expected * 1e-4);
}

inline void check_parallel_for(const HostAlgorithms& algo) {
    std::vector<uint32_t> in(100003);
    std::iota(in.begin(), in.end(), 0u);
    auto [out, count] = algo.parallel_square(in);
    ASSERT_EQ(out.size(), in.size());
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], in[i] * in[i]) << "i=" << i;
    EXPECT_EQ(count, in.size());
}

// Every marked item takes exactly one of the slots [0, total). With `warp_order` (the
// GPU) a warp's items also take one block of slots, item j of every lane before item
// j + 1 of any, lanes in order: the order connect relies on to keep connect_vertices's
// reads coalesced.
inline void check_push_items(const HostAlgorithms& algo, bool warp_order) {
    std::vector<uint32_t> masks(10007);
    uint32_t state = 12345u, marked = 0;
    for (uint32_t& m : masks) {
        state = state * 1664525u + 1013904223u;
        m = (state >> 8) & 0xffu;
        if ((state >> 20) % 7 == 0) m = 0;  // some threads push nothing
        marked += uint32_t(__builtin_popcount(m));
    }
    const std::vector<uint32_t> slots = algo.push_items(masks);
    ASSERT_EQ(slots.size(), marked);
    std::vector<uint32_t> sorted = slots;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "an item was pushed twice";
    for (uint32_t code : sorted) {
        const uint32_t i = code / 32, j = code % 32;
        ASSERT_LT(i, masks.size());
        ASSERT_TRUE((masks[i] >> j) & 1u) << "item " << j << " of thread " << i << " was not marked";
    }
    if (!warp_order) return;
    // Slots of one warp are consecutive and ordered by (j, lane).
    for (size_t at = 1; at < slots.size(); ++at) {
        const uint32_t a = slots[at - 1], b = slots[at];
        if (a / 32 / 32 != b / 32 / 32) continue;  // another warp's block starts here
        const uint32_t ja = a % 32, jb = b % 32, la = a / 32 % 32, lb = b / 32 % 32;
        ASSERT_TRUE(ja < jb || (ja == jb && la < lb)) << "slot " << at << ": item " << jb << " of lane " << lb
                                                       << " after item " << ja << " of lane " << la;
    }
    std::vector<uint32_t> warps_seen;
    for (size_t at = 0; at < slots.size(); ++at)
        if (at == 0 || slots[at] / 1024 != slots[at - 1] / 1024) warps_seen.push_back(slots[at] / 1024);
    std::sort(warps_seen.begin(), warps_seen.end());
    EXPECT_EQ(std::adjacent_find(warps_seen.begin(), warps_seen.end()), warps_seen.end())
        << "a warp's items are split over several blocks of slots";
}

}  // namespace wf::test
