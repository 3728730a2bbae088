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

// for_each_bucket (the form merge uses, with the points gathered in bucket order):
// the ranges it reports are disjoint, and the points within r among them are exactly
// the brute-force set, also when every cell shares one bucket.
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
            std::sort(ranges.begin(), ranges.end());
            for (size_t k = 1; k < ranges.size(); ++k)
                ASSERT_LE(ranges[k - 1].second, ranges[k].first) << "overlapping bucket ranges, " << buckets << " buckets";
            ASSERT_TRUE(test::same_as_brute_force(in, q, found, test::Distances::Exact)) << buckets << " buckets";
        }
    }
}

}  // namespace wf
