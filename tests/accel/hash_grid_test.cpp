#include "tests/common/hash_grid_checks.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "engine/backend/cpu_backend.h"

namespace wf {

TEST(HashGrid, QueryMatchesBruteForceRandomPoints) { test::check_query_matches_brute_force_random_points(cpu_hash_grid_host()); }
TEST(HashGrid, EmptyGridFindsNothing) { test::check_empty_grid_finds_nothing(cpu_hash_grid_host()); }
TEST(HashGrid, QueriesInEmptyCellsFindNothing) { test::check_queries_in_empty_cells_find_nothing(cpu_hash_grid_host()); }
TEST(HashGrid, PointsOnCellBordersAndAtExactlyRadiusAreFound) { test::check_points_on_cell_borders_and_at_exactly_radius(cpu_hash_grid_host()); }
TEST(HashGrid, ExactRadiusOffAxisIsIncluded) { test::check_exact_radius_off_axis_is_included(cpu_hash_grid_host()); }
TEST(HashGrid, HugeClusterInOneCellMatchesBruteForce) { test::check_huge_cluster_in_one_cell(cpu_hash_grid_host()); }
TEST(HashGrid, InvalidPointsAreSkipped) { test::check_invalid_points_are_skipped(cpu_hash_grid_host()); }
TEST(HashGrid, PointsOutsideBoundsAreFound) { test::check_points_outside_bounds_are_found(cpu_hash_grid_host()); }
TEST(HashGrid, BucketCollisionsReturnEachPointOnce) { test::check_bucket_collisions_return_each_point_once(cpu_hash_grid_host()); }
TEST(HashGrid, NoIndexReturnedTwice) { test::check_no_index_returned_twice(cpu_hash_grid_host()); }
TEST(HashGrid, LayoutGroupsEveryValidPointUnderItsBucket) { test::check_layout_groups_every_valid_point_under_its_bucket(cpu_hash_grid_host()); }
TEST(HashGrid, RebuildForgetsPreviousPoints) { test::check_rebuild_forgets_previous_points(cpu_hash_grid_host()); }
TEST(HashGrid, BuildFromBucketsIsBuildOverPoints) { test::check_build_from_buckets_is_build_over_points(cpu_hash_grid_host()); }

// Host-side contract of HashGrid (the same code for every backend).
TEST(HashGrid, ReserveRoundsBucketsUpToAPowerOfTwo) {
    HashGrid<CpuBackend> grid;
    for (auto [points, buckets] : {std::pair{0u, 1u}, {1u, 1u}, {2u, 2u}, {3u, 4u}, {1000u, 1024u}, {1024u, 1024u}}) {
        grid.reserve(points);
        EXPECT_EQ(grid.num_buckets(), buckets) << points << " points";
        EXPECT_EQ(grid.view().num_buckets, buckets);
    }
    grid.reserve(10, 100);
    EXPECT_EQ(grid.num_buckets(), 128u);
    EXPECT_EQ(grid.max_points(), 10u);
}

TEST(HashGrid, BuildRejectsMorePointsThanReserved) {
    CpuBackend backend;
    std::vector<Vec3f> points(11, Vec3f(0.5f));
    HashGrid<CpuBackend> grid;
    EXPECT_THROW(grid.build(backend, points.data(), nullptr, 1, test::unit_box(), 0.1f), std::invalid_argument)
        << "build before reserve";
    grid.reserve(10);
    EXPECT_THROW(grid.build(backend, points.data(), nullptr, 11, test::unit_box(), 0.1f), std::invalid_argument);
    const uint32_t* starts = grid.view().cell_starts;
    EXPECT_NO_THROW(grid.build(backend, points.data(), nullptr, 10, test::unit_box(), 0.1f));
    EXPECT_EQ(grid.view().cell_starts, starts) << "build must not reallocate";
}

TEST(HashGrid, BuildRejectsNonPositiveOrNonFiniteRadius) {
    CpuBackend backend;
    std::vector<Vec3f> points(4, Vec3f(0.5f));
    HashGrid<CpuBackend> grid;
    grid.reserve(4);
    for (float r : {0.0f, -1.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                    std::numeric_limits<float>::denorm_min()})
        EXPECT_THROW(grid.build(backend, points.data(), nullptr, 4, test::unit_box(), r), std::invalid_argument)
            << "radius " << r;
}

TEST(HashGrid, BuildFromBucketsNeedsItsOwnPrepare) {
    CpuBackend backend;
    std::vector<uint32_t> buckets(4, 0u), count{4};
    std::vector<Vec3f> points(4, Vec3f(0.5f));
    HashGrid<CpuBackend> grid;
    EXPECT_THROW(grid.prepare(test::unit_box(), 0.1f), std::invalid_argument) << "prepare before reserve";
    grid.reserve(4);
    EXPECT_THROW(grid.build_from_buckets(backend, buckets.data(), 4, count.data()), std::invalid_argument)
        << "buckets of no layout";
    EXPECT_THROW(grid.prepare(test::unit_box(), 0.0f), std::invalid_argument) << "radius 0";
    grid.prepare(test::unit_box(), 0.1f);
    EXPECT_NO_THROW(grid.build_from_buckets(backend, buckets.data(), 4, count.data()));
    EXPECT_THROW(grid.build_from_buckets(backend, buckets.data(), 4, count.data()), std::invalid_argument)
        << "a second build from the same prepare";
    grid.prepare(test::unit_box(), 0.1f);
    grid.build(backend, points.data(), nullptr, 4, test::unit_box(), 0.1f);  // consumes the layout too
    EXPECT_THROW(grid.build_from_buckets(backend, buckets.data(), 4, count.data()), std::invalid_argument);
    // A build refused for its size leaves the layout as it was.
    grid.prepare(test::unit_box(), 0.1f);
    EXPECT_THROW(grid.build(backend, points.data(), nullptr, 5, test::unit_box(), 0.2f), std::invalid_argument);
    EXPECT_EQ(grid.view().inv_cell_size, 0.5f / 0.1f);
    EXPECT_NO_THROW(grid.build_from_buckets(backend, buckets.data(), 4, count.data()));
    // Buckets computed before a reserve() that changed the bucket count fit no layout.
    grid.prepare(test::unit_box(), 0.1f);
    grid.reserve(4, 1u << 10);
    EXPECT_THROW(grid.build_from_buckets(backend, buckets.data(), 4, count.data()), std::invalid_argument);
}

TEST(HashGrid, ReservedUnbuiltAndUnreservedGridsAreEmpty) {
    std::vector<Vec3f> points(1, Vec3f(0.5f));
    HashGrid<CpuBackend> grid;
    uint32_t found = 0;
    grid.view().query(Vec3f(0.5f), points.data(), [&](uint32_t) { ++found; });
    grid.reserve(100);
    grid.view().query(Vec3f(0.5f), points.data(), [&](uint32_t) { ++found; });
    EXPECT_EQ(found, 0u);
    EXPECT_EQ(*grid.cells_used_counter(), 0u);
}

TEST(HashGrid, BuildRunsAsNamedStages) {
    CpuBackend backend;
    const std::vector<Vec3f> points = test::uniform_points(1000, Vec3f(0.0f), Vec3f(1.0f), 1);
    HashGrid<CpuBackend> grid;
    grid.reserve(1000);
    grid.build(backend, points.data(), nullptr, 1000, test::unit_box(), 0.05f);
    std::vector<std::string> names;
    for (const StageStat& s : backend.stages().rows()) names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{"build_hash_grid_clear", "build_hash_grid_count",
                                                "build_hash_grid_scan", "build_hash_grid_cells_used",
                                                "build_hash_grid_scatter"}));
}

// The cells-used pass is a statistic only: a build without it lays the points out the
// same, runs one launch less, and its counter reads 0.
TEST(HashGrid, BuildWithoutTheCellsUsedPassLaysOutTheSame) {
    const std::vector<Vec3f> points = test::uniform_points(5000, Vec3f(0.0f), Vec3f(1.0f), 3);
    const std::vector<uint32_t> count{5000};
    std::vector<uint32_t> starts[2], sorted[2], used(2);
    std::vector<std::string> names[2];
    for (int counted = 0; counted < 2; ++counted) {
        CpuBackend backend;
        HashGrid<CpuBackend> grid;
        grid.reserve(5000);
        const HashGridView layout = grid.prepare(test::unit_box(), 0.02f);
        std::vector<uint32_t> buckets(points.size());
        for (size_t i = 0; i < points.size(); ++i) buckets[i] = layout.bucket_of(points[i]);
        grid.build_from_buckets(backend, buckets.data(), 5000, count.data(), counted == 1);
        const HashGridView v = grid.view();
        starts[counted].assign(v.cell_starts, v.cell_starts + v.num_buckets + 1);
        sorted[counted].assign(v.sorted_indices, v.sorted_indices + 5000);
        used[counted] = *grid.cells_used_counter();
        for (const StageStat& s : backend.stages().rows()) names[counted].push_back(s.name);
    }
    EXPECT_EQ(starts[0], starts[1]);
    EXPECT_TRUE(test::same_buckets(starts[0].data(), sorted[0].data(), starts[1].data(), sorted[1].data(),
                                   uint32_t(starts[0].size() - 1)));
    EXPECT_GT(used[1], 1000u);
    EXPECT_EQ(used[0], 0u);
    const std::vector<std::string> four = {"build_hash_grid_clear", "build_hash_grid_count", "build_hash_grid_scan",
                                           "build_hash_grid_scatter"};
    EXPECT_EQ(names[0], four);
    EXPECT_EQ(names[1].size(), 5u);
    EXPECT_EQ(names[1][3], "build_hash_grid_cells_used");
}

// for_each_bucket and candidates (the form merge uses, with the points gathered in
// bucket order): the ranges are disjoint, the points within r among them are exactly
// the brute-force set, also when every cell shares one bucket, and candidate t's
// position walks the ranges in order, one sorted position after another.
TEST(HashGrid, ForEachBucketRangesAreDisjointAndCoverEveryMatch) {
    CpuBackend backend;
    HashGridInput in;
    in.points = test::uniform_points(20000, Vec3f(0.0f), Vec3f(1.0f), 91);
    in.bounds = test::unit_box();
    in.radius = 0.03f;
    const std::vector<Vec3f> queries = test::uniform_points(500, Vec3f(-0.05f), Vec3f(1.05f), 92);
    for (uint32_t buckets : {1u, 4u, 20000u}) {
        HashGrid<CpuBackend> grid;
        grid.reserve(20000, buckets);
        grid.build(backend, in.points.data(), nullptr, 20000, in.bounds, in.radius);
        const HashGridView view = grid.view();
        for (const Vec3f& q : queries) {
            std::vector<std::pair<uint32_t, uint32_t>> ranges;
            std::vector<uint32_t> found;
            view.for_each_bucket(q, [&](uint32_t begin, uint32_t end) {
                ranges.emplace_back(begin, end);
                for (uint32_t s = begin; s < end; ++s) {
                    const uint32_t i = view.sorted_indices[s];
                    if (length_squared(in.points[i] - q) <= view.radius_sq) found.push_back(i);
                }
            });
            std::vector<uint32_t> walked, flat;
            for (const auto& [begin, end] : ranges)
                for (uint32_t s = begin; s < end; ++s) walked.push_back(s);
            const HashGridCandidates c = view.candidates(q);
            for (uint32_t t = 0; t < c.count; ++t) flat.push_back(c.position(t));
            ASSERT_EQ(flat, walked) << buckets << " buckets";
            std::sort(ranges.begin(), ranges.end());
            for (size_t k = 1; k < ranges.size(); ++k)
                ASSERT_LE(ranges[k - 1].second, ranges[k].first) << "overlapping bucket ranges, " << buckets << " buckets";
            ASSERT_TRUE(test::same_as_brute_force(in, q, found, test::Distances::Exact)) << buckets << " buckets";
        }
    }
}

// A cell of the 2x2x2 block lying entirely beyond r of the query adds no candidate. Cells
// of edge 0.1 (r = 0.05) from the origin, one point at the centre of each cell of the block
// around q = (0.53, 0.53, 0.53): q's cell is (5, 5, 5), the block reaches down to (4, 4, 4),
// and q is 0.3 cells from each boundary, so the corner cell (4, 4, 4) is sqrt(0.27) > 0.5
// cells away and the edge cells sqrt(0.18) < 0.5. At q = (0.52, 0.52, 0.52) the corner is
// within reach, and a point in its nearest corner within r.
TEST(HashGrid, CandidatesLeaveOutCellsBeyondTheRadius) {
    CpuBackend backend;
    std::vector<Vec3f> points;
    for (int j = 0; j < 8; ++j)
        points.push_back(Vec3f(j & 1 ? 0.45f : 0.55f, j & 2 ? 0.45f : 0.55f, j & 4 ? 0.45f : 0.55f));
    points.push_back(Vec3f(0.4999f));  // in the corner cell, 0.0521 from the first query, 0.0348 from the second
    HashGrid<CpuBackend> grid;
    grid.reserve(uint32_t(points.size()), 1u << 16);  // buckets enough that the 8 cells do not collide
    grid.build(backend, points.data(), nullptr, uint32_t(points.size()), test::unit_box(), 0.05f);
    const HashGridView view = grid.view();
    const std::vector<Vec3f> queries = {Vec3f(0.53f), Vec3f(0.52f)};
    EXPECT_EQ(view.candidates(queries[0]).count, 7u) << "the corner cell (2 points) is beyond r";
    EXPECT_EQ(view.candidates(queries[1]).count, 9u) << "every cell within reach";
    for (const Vec3f& q : queries) {
        std::vector<uint32_t> found;
        view.query(q, points.data(), [&](uint32_t i) { found.push_back(i); });
        HashGridInput in;
        in.points = points;
        in.radius = 0.05f;
        EXPECT_TRUE(test::same_as_brute_force(in, q, found, test::Distances::Exact)) << "q.x " << q.x;
    }
    // The slack: a point 0.99999953 r from the query, in a corner cell whose distance from
    // the query, in cell units rounded to float, comes out just above 1/2 (a reach of
    // exactly 1/2 leaves the cell out and misses the point).
    const Vec3f q(0x1.977406p+0f, 0x1.6990cep-1f, 0x1.b39008p-1f);
    const std::vector<Vec3f> near = {Vec3f(0x1.99999ap+0f, 0x1.6990ccp-1f, 0x1.ccccccp-1f)};
    ASSERT_LE(length_squared(near[0] - q), 0.05f * 0.05f);
    HashGrid<CpuBackend> slack;
    slack.reserve(1, 1u << 16);
    slack.build(backend, near.data(), nullptr, 1, test::unit_box(), 0.05f);
    uint32_t found = 0;
    slack.view().query(q, near.data(), [&](uint32_t) { ++found; });
    EXPECT_EQ(found, 1u) << "a point within r left out with its cell";
}

// Neighbouring cells share cache lines: the 64 cells of a 4x4x4 brick take 64
// consecutive buckets (merge reads a query's 2x2x2 block from one or two places),
// and bricks sharing a slot do not put a plane's cells on the same buckets.
TEST(HashGrid, BricksOfCellsTakeConsecutiveBuckets) {
    const uint32_t nb = 1u << 20;
    for (int32_t bx : {-3, 0, 5}) {
        const int32_t x0 = bx * 4, y0 = 8, z0 = -4;
        uint32_t lo = 0xffffffffu, hi = 0;
        std::vector<uint32_t> seen;
        for (int32_t dz = 0; dz < 4; ++dz)
            for (int32_t dy = 0; dy < 4; ++dy)
                for (int32_t dx = 0; dx < 4; ++dx) {
                    const uint32_t b = hash_grid_bucket(x0 + dx, y0 + dy, z0 + dz, nb);
                    lo = std::min(lo, b);
                    hi = std::max(hi, b);
                    seen.push_back(b);
                }
        EXPECT_EQ(hi - lo, 63u) << "brick " << bx;
        EXPECT_EQ(lo % 64, 0u) << "brick " << bx;
        std::sort(seen.begin(), seen.end());
        EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end()) << "two cells of brick " << bx << " share a bucket";
    }
    // A floor (cells y = 0) over 256 x 256 cells in 2^12 buckets (64 slots): with the
    // scramble its cells spread over the slots' buckets about as a per-cell hash would
    // spread them (65536 cells, 4096 buckets: 16 per bucket); without it, all of them
    // would fall on the 16 buckets per slot a brick's floor takes, 64 per bucket.
    const uint32_t small = 1u << 12;
    std::vector<uint32_t> load(small, 0);
    for (int32_t z = 0; z < 256; ++z)
        for (int32_t x = 0; x < 256; ++x) ++load[hash_grid_bucket(x, 0, z, small)];
    const uint32_t used = uint32_t(std::count_if(load.begin(), load.end(), [](uint32_t c) { return c > 0; }));
    EXPECT_GT(used, small * 9 / 10) << "a floor's cells crowd onto few buckets";
    EXPECT_LT(*std::max_element(load.begin(), load.end()), 64u);
}

}  // namespace wf
