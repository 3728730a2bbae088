// The hash grid checks of tests/accel/hash_grid_test.cpp on the CUDA backend.
#include "tests/common/hash_grid_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {

#if defined(WF_HAVE_CUDA)
#define WF_HASH_GRID_CUDA_TEST(Name, check) \
    TEST(HashGridCuda, Name) { WF_REQUIRE_CUDA_DEVICE(); test::check(cuda_hash_grid_host()); }
WF_HASH_GRID_CUDA_TEST(QueryMatchesBruteForceRandomPoints, check_query_matches_brute_force_random_points)
WF_HASH_GRID_CUDA_TEST(EmptyGridFindsNothing, check_empty_grid_finds_nothing)
WF_HASH_GRID_CUDA_TEST(QueriesInEmptyCellsFindNothing, check_queries_in_empty_cells_find_nothing)
WF_HASH_GRID_CUDA_TEST(PointsOnCellBordersAndAtExactlyRadiusAreFound, check_points_on_cell_borders_and_at_exactly_radius)
WF_HASH_GRID_CUDA_TEST(ExactRadiusOffAxisIsIncluded, check_exact_radius_off_axis_is_included)
WF_HASH_GRID_CUDA_TEST(HugeClusterInOneCellMatchesBruteForce, check_huge_cluster_in_one_cell)
WF_HASH_GRID_CUDA_TEST(InvalidPointsAreSkipped, check_invalid_points_are_skipped)
WF_HASH_GRID_CUDA_TEST(PointsOutsideBoundsAreFound, check_points_outside_bounds_are_found)
WF_HASH_GRID_CUDA_TEST(BucketCollisionsReturnEachPointOnce, check_bucket_collisions_return_each_point_once)
WF_HASH_GRID_CUDA_TEST(NoIndexReturnedTwice, check_no_index_returned_twice)
WF_HASH_GRID_CUDA_TEST(LayoutGroupsEveryValidPointUnderItsBucket, check_layout_groups_every_valid_point_under_its_bucket)
WF_HASH_GRID_CUDA_TEST(RebuildForgetsPreviousPoints, check_rebuild_forgets_previous_points)
WF_HASH_GRID_CUDA_TEST(BuildFromBucketsIsBuildOverPoints, check_build_from_buckets_is_build_over_points)
#undef WF_HASH_GRID_CUDA_TEST
#else
TEST(HashGridCuda, Unavailable) { GTEST_SKIP() << "this build has no CUDA backend"; }
#endif

}  // namespace wf
