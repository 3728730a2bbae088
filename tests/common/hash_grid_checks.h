// Checks of the VCM hash grid (accel/hash_grid.h) against a brute-force radius
// search, shared by the CPU test binary and the GPU one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "accel/hash_grid.h"
#include "accel/hash_grid_host.h"

namespace wf::test {

inline Aabb unit_box() {
    Aabb b;
    b.extend(Vec3f(0.0f));
    b.extend(Vec3f(1.0f));
    return b;
}

inline std::vector<Vec3f> uniform_points(uint32_t n, Vec3f lo, Vec3f hi, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<Vec3f> p(n);
    for (Vec3f& v : p) v = lo + Vec3f(u(rng), u(rng), u(rng)) * (hi - lo);
    return p;
}

inline bool is_valid_point(const HashGridInput& in, uint32_t i) { return in.valid.empty() || in.valid[i] != 0; }

// The indices a radius search must return, sorted: the same distance expression as
// HashGridView::query, dist^2 <= r^2 included.
inline std::vector<uint32_t> brute_force(const HashGridInput& in, Vec3f q) {
    const float r2 = in.radius * in.radius;
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < in.points.size(); ++i)
        if (is_valid_point(in, i) && length_squared(in.points[i] - q) <= r2) out.push_back(i);
    return out;
}

// How a reported set may differ from the brute-force one.
enum class Distances {
    Exact,       // every coordinate and distance is exact in float: the sets must be equal
    FloatRounded // the GPU may contract the distance into FMAs: a point whose dist^2 is
                 // within 1e-5 of r^2 (relative) may be reported or not
};

// The grid's answer for one query against brute force: no index twice, no index that
// is invalid or out of range, none missing, none extra.
inline ::testing::AssertionResult same_as_brute_force(const HashGridInput& in, Vec3f q,
                                                      std::vector<uint32_t> got, Distances mode) {
    std::sort(got.begin(), got.end());
    const auto dup = std::adjacent_find(got.begin(), got.end());
    auto where = [&] {
        std::ostringstream s;
        s << " (query " << q.x << ", " << q.y << ", " << q.z << "; radius " << in.radius << "; "
          << in.points.size() << " points)";
        return s.str();
    };
    if (dup != got.end()) return ::testing::AssertionFailure() << "index " << *dup << " returned twice" << where();
    const float r2 = in.radius * in.radius;
    const float band = mode == Distances::Exact ? 0.0f : 1e-5f * r2;
    for (uint32_t i : got) {
        if (i >= in.points.size()) return ::testing::AssertionFailure() << "index " << i << " out of range" << where();
        if (!is_valid_point(in, i))
            return ::testing::AssertionFailure() << "invalid point " << i << " returned" << where();
        const float d2 = length_squared(in.points[i] - q);
        if (!(d2 <= r2 + band))
            return ::testing::AssertionFailure()
                   << "point " << i << " returned at dist^2 " << d2 << " > r^2 " << r2 << where();
    }
    const std::vector<uint32_t> expected = brute_force(in, q);
    for (uint32_t i : expected) {
        if (std::binary_search(got.begin(), got.end(), i)) continue;
        const float d2 = length_squared(in.points[i] - q);
        if (d2 >= r2 - band && band > 0.0f) continue;
        return ::testing::AssertionFailure() << "point " << i << " (" << in.points[i].x << ", " << in.points[i].y
                                             << ", " << in.points[i].z << ") at dist^2 " << d2 << " <= r^2 " << r2
                                             << " not returned; " << got.size() << " of " << expected.size()
                                             << " found" << where();
    }
    return ::testing::AssertionSuccess();
}

inline void expect_matches_brute_force(const HashGridHost& host, const HashGridInput& in,
                                       const std::vector<Vec3f>& queries, Distances mode, uint32_t min_buckets = 0) {
    const std::vector<std::vector<uint32_t>> got = host.query_all(in, queries, min_buckets);
    ASSERT_EQ(got.size(), queries.size());
    uint32_t failures = 0;
    for (size_t k = 0; k < queries.size() && failures < 5; ++k) {
        ::testing::AssertionResult r = same_as_brute_force(in, queries[k], got[k], mode);
        if (!r) ++failures;
        EXPECT_TRUE(r) << "query " << k << " (" << host.backend << ")";
    }
}

// ---- the checks -------------------------------------------------------------------

inline void check_query_matches_brute_force_random_points(const HashGridHost& host) {
    for (float radius : {0.01f, 0.03f, 0.2f}) {
        HashGridInput in;
        in.points = uniform_points(20000, Vec3f(0.0f), Vec3f(1.0f), 17);
        in.bounds = unit_box();
        in.radius = radius;
        std::vector<Vec3f> queries = uniform_points(1500, Vec3f(-0.1f), Vec3f(1.1f), 23);
        for (uint32_t i = 0; i < 500; ++i) queries.push_back(in.points[i * 37]);  // queries on points
        SCOPED_TRACE(::testing::Message() << "radius " << radius);
        expect_matches_brute_force(host, in, queries, Distances::FloatRounded);
    }
}

inline void check_empty_grid_finds_nothing(const HashGridHost& host) {
    HashGridInput in;  // no points
    in.bounds = unit_box();
    in.radius = 0.1f;
    const std::vector<Vec3f> queries = uniform_points(200, Vec3f(-1.0f), Vec3f(2.0f), 5);
    const std::vector<std::vector<uint32_t>> got = host.query_all(in, queries, 0);
    ASSERT_EQ(got.size(), queries.size());
    for (const std::vector<uint32_t>& g : got) EXPECT_TRUE(g.empty()) << g.size() << " points found in an empty grid";
    const HashGridLayout layout = host.build_layout(in, 0);
    EXPECT_EQ(layout.cells_used, 0u);
}

inline void check_queries_in_empty_cells_find_nothing(const HashGridHost& host) {
    // Points only in the lower half (z < 0.4); queries in cells of the upper half,
    // farther than r from every point. Buckets are shared by many cells, so the
    // visited buckets are not empty: the distance test must reject all of them.
    HashGridInput in;
    in.points = uniform_points(5000, Vec3f(0.0f), Vec3f(1.0f, 1.0f, 0.4f), 3);
    in.bounds = unit_box();
    in.radius = 0.05f;
    const std::vector<Vec3f> queries = uniform_points(500, Vec3f(0.0f, 0.0f, 0.5f), Vec3f(1.0f), 4);
    const std::vector<std::vector<uint32_t>> got = host.query_all(in, queries, 64);
    ASSERT_EQ(got.size(), queries.size());
    for (size_t k = 0; k < got.size(); ++k) EXPECT_TRUE(got[k].empty()) << "query " << k;
    expect_matches_brute_force(host, in, queries, Distances::Exact, 64);
}

// Points on a lattice of step r from the origin: every other one at an exact
// multiple of 2r (on cell corners, edges and faces), the others at cell middles
// (fraction exactly 0.5, where the query switches neighbours). Queried on every
// lattice point, each axis neighbour is at exactly distance r (dist^2 == r^2 in
// float, to be included) across a cell border; r is a power of two so every cell
// coordinate and distance is exact.
inline void check_points_on_cell_borders_and_at_exactly_radius(const HashGridHost& host) {
    HashGridInput in;
    in.radius = 0.125f;  // cell 0.25
    in.bounds.extend(Vec3f(-1.0f));
    in.bounds.extend(Vec3f(1.0f));
    std::vector<Vec3f> queries;
    for (int x = -4; x <= 4; ++x)
        for (int y = -4; y <= 4; ++y)
            for (int z = -4; z <= 4; ++z) {
                // Lattice step r = half a cell: corners, face and cell middles.
                const Vec3f p(float(x) * 0.125f, float(y) * 0.125f, float(z) * 0.125f);
                in.points.push_back(p);
                queries.push_back(p);
                queries.push_back(p + Vec3f(0.0625f, 0.0f, 0.03125f));
            }
    // Axis neighbours at exactly r: dist^2 == r^2 in float, which must be included.
    ASSERT_EQ(length_squared(in.points[1] - in.points[0]), in.radius * in.radius);
    expect_matches_brute_force(host, in, queries, Distances::Exact);
    // Each lattice point has exactly 6 axis neighbours at distance r when interior.
    const std::vector<std::vector<uint32_t>> got = host.query_all(in, {Vec3f(0.0f)}, 0);
    EXPECT_EQ(got[0].size(), 7u) << "the point itself and its 6 neighbours at exactly r";
}

// dist^2 == r^2 off the axes, with r not a power of two: r = 5/64 and the offsets
// (3, 4, 0)/64 and permutations, all exact in float; queries at exact multiples of
// the (inexact) cell size 2r and at cell middles.
inline void check_exact_radius_off_axis_is_included(const HashGridHost& host) {
    HashGridInput in;
    in.radius = 5.0f / 64.0f;
    in.bounds.extend(Vec3f(-0.5f));
    in.bounds.extend(Vec3f(1.5f));
    const float r2 = in.radius * in.radius;
    const float a = 3.0f / 64.0f, b = 4.0f / 64.0f;
    const Vec3f offsets[] = {{a, b, 0}, {-a, b, 0}, {b, 0, -a}, {0, -a, -b}, {-b, -a, 0}, {0, b, a}, {a, 0, b}};
    std::vector<Vec3f> queries;
    for (int k = 0; k < 8; ++k)
        for (float half : {0.0f, 0.5f}) {
            const float s = (float(k) + half) * (2.0f * in.radius);
            const Vec3f q = in.bounds.lo + Vec3f(s, s * 0.5f, 0.25f);
            queries.push_back(q);
            for (const Vec3f& o : offsets) {
                ASSERT_EQ(length_squared((q + o) - q), r2);
                in.points.push_back(q + o);
            }
        }
    expect_matches_brute_force(host, in, queries, Distances::Exact);
}

inline void check_huge_cluster_in_one_cell(const HashGridHost& host) {
    // 100k points in one cell of edge 2r = 0.1 (origin 0: the cell [0.3, 0.4)^3),
    // plus a sparse background; queries in, at the corners of and beside the cluster.
    HashGridInput in;
    in.radius = 0.05f;
    in.bounds = unit_box();
    in.points = uniform_points(100000, Vec3f(0.31f), Vec3f(0.39f), 9);
    const std::vector<Vec3f> background = uniform_points(2000, Vec3f(0.0f), Vec3f(1.0f), 10);
    in.points.insert(in.points.end(), background.begin(), background.end());
    std::vector<Vec3f> queries = uniform_points(8, Vec3f(0.3f), Vec3f(0.4f), 11);
    for (float x : {0.28f, 0.35f, 0.42f})
        for (float y : {0.28f, 0.42f}) queries.push_back(Vec3f(x, y, 0.35f));
    queries.push_back(Vec3f(0.35f, 0.35f, 0.45f));
    expect_matches_brute_force(host, in, queries, Distances::FloatRounded);
    const HashGridLayout layout = host.build_layout(in, 0);
    uint32_t largest = 0;
    for (uint32_t b = 0; b < layout.num_buckets; ++b)
        largest = std::max(largest, layout.cell_starts[b + 1] - layout.cell_starts[b]);
    EXPECT_GE(largest, 100000u) << "the cluster shares one bucket";
}

inline void check_invalid_points_are_skipped(const HashGridHost& host) {
    HashGridInput in;
    in.points = uniform_points(20000, Vec3f(0.0f), Vec3f(1.0f), 31);
    in.valid.resize(in.points.size());
    std::mt19937 rng(32);
    for (uint8_t& v : in.valid) v = (rng() % 3 == 0) ? 0 : uint8_t(1 + rng() % 255);  // any non-zero is valid
    in.bounds = unit_box();
    in.radius = 0.04f;
    std::vector<Vec3f> queries = uniform_points(1000, Vec3f(0.0f), Vec3f(1.0f), 33);
    for (uint32_t i = 0; i < 300; ++i) queries.push_back(in.points[i]);  // on valid and invalid points alike
    expect_matches_brute_force(host, in, queries, Distances::FloatRounded);
    // All invalid: nothing found, nothing stored.
    std::fill(in.valid.begin(), in.valid.end(), uint8_t(0));
    const std::vector<std::vector<uint32_t>> got = host.query_all(in, queries, 0);
    for (size_t k = 0; k < got.size(); ++k) EXPECT_TRUE(got[k].empty()) << "query " << k;
    const HashGridLayout layout = host.build_layout(in, 0);
    EXPECT_EQ(layout.cell_starts.back(), 0u);
    EXPECT_EQ(layout.cells_used, 0u);
}

inline void check_points_outside_bounds_are_found(const HashGridHost& host) {
    // The bounds are a promise for speed only: points a little (and far) outside,
    // on every side, are still found, and non-finite points never are.
    HashGridInput in;
    in.bounds = unit_box();
    in.radius = 0.02f;
    in.points = uniform_points(20000, Vec3f(-0.05f), Vec3f(1.05f), 41);
    const std::vector<Vec3f> far = {{-3.0f, 0.5f, 0.5f},  {-3.01f, 0.5f, 0.5f}, {250.0f, -70.0f, 9.0f},
                                    {1e20f, 1e20f, -1e20f}, {1e20f, 1e20f, -1e20f}, {-1e30f, 0.0f, 0.0f}};
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    in.points.insert(in.points.end(), far.begin(), far.end());
    in.points.push_back(Vec3f(nan, 0.5f, 0.5f));
    in.points.push_back(Vec3f(inf, 0.5f, 0.5f));
    std::vector<Vec3f> queries = uniform_points(1500, Vec3f(-0.07f), Vec3f(1.07f), 42);
    for (const Vec3f& p : far) queries.push_back(p);
    queries.push_back(Vec3f(-2.995f, 0.5f, 0.5f));
    queries.push_back(Vec3f(nan, 0.5f, 0.5f));
    queries.push_back(Vec3f(inf, 0.5f, 0.5f));
    expect_matches_brute_force(host, in, queries, Distances::FloatRounded);
    const std::vector<std::vector<uint32_t>> got = host.query_all(in, {far[0], far[3]}, 0);
    EXPECT_EQ(got[0].size(), 2u) << "the two points near (-3, 0.5, 0.5)";
    EXPECT_EQ(got[1].size(), 2u) << "the two points at 1e20";
}

// A grid with one bucket (every cell collides) and with two: all 8 cells of a
// query share the bucket(s), which must each be visited once.
inline void check_bucket_collisions_return_each_point_once(const HashGridHost& host) {
    HashGridInput in;
    in.points = uniform_points(3000, Vec3f(0.0f), Vec3f(1.0f), 51);
    in.bounds = unit_box();
    in.radius = 0.1f;
    const std::vector<Vec3f> queries = uniform_points(400, Vec3f(0.0f), Vec3f(1.0f), 52);
    for (uint32_t buckets : {1u, 2u, 8u}) {
        SCOPED_TRACE(::testing::Message() << buckets << " buckets");
        const HashGridLayout layout = host.build_layout(in, buckets);
        EXPECT_EQ(layout.num_buckets, buckets);
        expect_matches_brute_force(host, in, queries, Distances::FloatRounded, buckets);
    }
    // One point, one bucket: a query must report it once, not once per cell.
    HashGridInput one;
    one.points = {Vec3f(0.5f)};
    one.bounds = unit_box();
    one.radius = 0.1f;
    const std::vector<std::vector<uint32_t>> got = host.query_all(one, {Vec3f(0.52f)}, 1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0], std::vector<uint32_t>{0u});
}

inline void check_no_index_returned_twice(const HashGridHost& host) {
    // Dense points and a radius of many cells' worth of points, on a small table
    // so that buckets are shared: every reported list must be free of repeats.
    HashGridInput in;
    in.points = uniform_points(50000, Vec3f(0.0f), Vec3f(1.0f), 61);
    in.bounds = unit_box();
    in.radius = 0.05f;
    const std::vector<Vec3f> queries = uniform_points(300, Vec3f(0.0f), Vec3f(1.0f), 62);
    for (uint32_t buckets : {16u, 0u}) {
        const std::vector<std::vector<uint32_t>> got = host.query_all(in, queries, buckets);
        for (size_t k = 0; k < got.size(); ++k) {
            std::vector<uint32_t> s = got[k];
            std::sort(s.begin(), s.end());
            EXPECT_TRUE(std::adjacent_find(s.begin(), s.end()) == s.end())
                << "query " << k << " repeats an index (" << buckets << " buckets)";
        }
    }
}

// The build's arrays: starts ascend from 0 to the number of valid points; every
// valid point appears once, in the bucket of its cell; cells_used counts the
// non-empty buckets.
inline void check_layout_groups_every_valid_point_under_its_bucket(const HashGridHost& host) {
    HashGridInput in;
    in.points = uniform_points(30000, Vec3f(-0.1f), Vec3f(1.1f), 71);
    in.valid.resize(in.points.size());
    for (size_t i = 0; i < in.valid.size(); ++i) in.valid[i] = i % 5 != 0;
    in.bounds = unit_box();
    in.radius = 0.015f;
    for (uint32_t min_buckets : {0u, 1000u, 1u << 17}) {
        SCOPED_TRACE(::testing::Message() << "min_buckets " << min_buckets);
        const HashGridLayout layout = host.build_layout(in, min_buckets);
        const uint32_t nb = layout.num_buckets;
        ASSERT_GE(nb, std::max<uint32_t>(min_buckets ? min_buckets : uint32_t(in.points.size()), 1u));
        ASSERT_EQ(nb & (nb - 1), 0u) << "a power of two";
        ASSERT_EQ(layout.cell_starts.size(), size_t(nb) + 1);
        EXPECT_EQ(layout.cell_starts[0], 0u);
        const uint32_t num_valid = uint32_t(std::count(in.valid.begin(), in.valid.end(), uint8_t(1)));
        EXPECT_EQ(layout.cell_starts[nb], num_valid);
        ASSERT_EQ(layout.sorted_indices.size(), size_t(layout.cell_starts[nb]));
        std::vector<uint32_t> seen(in.points.size(), 0);
        uint32_t used = 0, misplaced = 0;
        const float inv_cell_size = 0.5f / in.radius;
        for (uint32_t b = 0; b < nb; ++b) {
            ASSERT_LE(layout.cell_starts[b], layout.cell_starts[b + 1]) << "bucket " << b;
            used += layout.cell_starts[b + 1] > layout.cell_starts[b];
            for (uint32_t s = layout.cell_starts[b]; s < layout.cell_starts[b + 1]; ++s) {
                const uint32_t i = layout.sorted_indices[s];
                ASSERT_LT(i, in.points.size());
                ++seen[i];
                misplaced += hash_grid_bucket_of(in.points[i], in.bounds.lo, inv_cell_size, nb) != b;
            }
        }
        EXPECT_EQ(misplaced, 0u) << "points stored under another bucket than their cell's";
        for (size_t i = 0; i < seen.size(); ++i)
            ASSERT_EQ(seen[i], in.valid[i] ? 1u : 0u) << "point " << i << (in.valid[i] ? " (valid)" : " (invalid)");
        EXPECT_EQ(layout.cells_used, used);
    }
}

// Two builds over the same points with num_buckets buckets put the same points in every
// bucket (in any order within it): equal starts (num_buckets + 1 of them) and, bucket by
// bucket, equal sets of sorted indices.
inline ::testing::AssertionResult same_buckets(const uint32_t* starts_a, const uint32_t* sorted_a,
                                               const uint32_t* starts_b, const uint32_t* sorted_b,
                                               uint32_t num_buckets) {
    for (uint32_t k = 0; k <= num_buckets; ++k)
        if (starts_a[k] != starts_b[k])
            return ::testing::AssertionFailure() << "start of bucket " << k << ": " << starts_a[k] << " vs " << starts_b[k];
    for (uint32_t b = 0; b < num_buckets; ++b) {
        std::vector<uint32_t> pa(sorted_a + starts_a[b], sorted_a + starts_a[b + 1]);
        std::vector<uint32_t> pb(sorted_b + starts_b[b], sorted_b + starts_b[b + 1]);
        std::sort(pa.begin(), pa.end());
        std::sort(pb.begin(), pb.end());
        if (pa != pb) return ::testing::AssertionFailure() << "points of bucket " << b << " differ";
    }
    return ::testing::AssertionSuccess();
}

// A grid built from buckets computed in advance (what the light pass does) is the grid
// built over the points: the same starts and the same points in every bucket. Only the
// first `count` points count (the count in backend memory).
inline void check_build_from_buckets_is_build_over_points(const HashGridHost& host) {
    HashGridInput all;
    all.points = uniform_points(20000, Vec3f(-0.1f), Vec3f(1.1f), 91);
    all.bounds = unit_box();
    all.radius = 0.02f;
    const uint32_t count = uint32_t(all.points.size()) - 13;
    HashGridInput counted = all;
    counted.points.resize(count);
    const HashGridLayout got = host.build_layout_from_buckets(all, count);
    const HashGridLayout want = host.build_layout(counted, uint32_t(all.points.size()));
    ASSERT_EQ(got.num_buckets, want.num_buckets);
    ASSERT_EQ(got.cell_starts, want.cell_starts);
    EXPECT_EQ(got.cells_used, want.cells_used);
    EXPECT_TRUE(same_buckets(got.cell_starts.data(), got.sorted_indices.data(), want.cell_starts.data(),
                             want.sorted_indices.data(), got.num_buckets));
}

inline void check_rebuild_forgets_previous_points(const HashGridHost& host) {
    // A second build on the same buffers (fewer points, another radius and origin)
    // must not see the counts or indices of the first.
    HashGridInput first, second;
    first.points = uniform_points(40000, Vec3f(0.0f), Vec3f(1.0f), 81);
    first.bounds = unit_box();
    first.radius = 0.03f;
    second.points = uniform_points(10000, Vec3f(0.2f), Vec3f(0.7f), 82);
    second.bounds.extend(Vec3f(0.2f));
    second.bounds.extend(Vec3f(0.7f));
    second.radius = 0.02f;
    const std::vector<Vec3f> queries = uniform_points(1000, Vec3f(0.0f), Vec3f(1.0f), 83);
    const std::vector<std::vector<uint32_t>> got = host.query_after_rebuild(first, second, queries);
    ASSERT_EQ(got.size(), queries.size());
    uint32_t failures = 0;
    for (size_t k = 0; k < queries.size() && failures < 5; ++k) {
        ::testing::AssertionResult r = same_as_brute_force(second, queries[k], got[k], Distances::FloatRounded);
        if (!r) ++failures;
        EXPECT_TRUE(r) << "query " << k;
    }
}

}  // namespace wf::test
