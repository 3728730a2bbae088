// merge's candidate scan (scan_merge_candidates, wavefront/stages/merge.h) against brute
// force: clusters of light vertices dense enough that queries test hundreds of candidates
// (many chunks of 32), with path lengths that the length limit rejects in part.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "engine/backend/cpu_backend.h"
#include "tests/common/hash_grid_checks.h"
#include "wavefront/stages/merge.h"

namespace wf {
namespace {

TEST(MergeScan, ChunksFindExactlyTheVerticesWithinTheRadiusAndLength) {
    CpuBackend backend;
    // Two dense clusters and a sparse background in the unit box.
    std::vector<Vec3f> points = test::uniform_points(3000, Vec3f(0.40f), Vec3f(0.46f), 5);
    const std::vector<Vec3f> second = test::uniform_points(2000, Vec3f(0.70f), Vec3f(0.72f), 6);
    const std::vector<Vec3f> background = test::uniform_points(3000, Vec3f(0.0f), Vec3f(1.0f), 7);
    points.insert(points.end(), second.begin(), second.end());
    points.insert(points.end(), background.begin(), background.end());
    const uint32_t n = uint32_t(points.size());
    const float radius = 0.02f;
    HashGrid<CpuBackend> grid;
    grid.reserve(n);
    grid.build(backend, points.data(), nullptr, n, test::unit_box(), radius);
    const HashGridView view = grid.view();
    // The merge points in bucket order, as gather_merge_vertices lays them out.
    std::vector<MergePoint> merge_points(n);
    for (uint32_t s = 0; s < n; ++s) {
        const uint32_t i = view.sorted_indices[s];
        merge_points[s].position = points[i];
        merge_points[s].path_length = 1 + i % 7;
    }
    const uint32_t max_light_length = 5;
    std::vector<Vec3f> queries = test::uniform_points(300, Vec3f(0.38f), Vec3f(0.48f), 8);
    const std::vector<Vec3f> more = test::uniform_points(300, Vec3f(0.0f), Vec3f(1.0f), 9);
    queries.insert(queries.end(), more.begin(), more.end());
    uint32_t longest = 0, multi_chunk = 0;
    for (const Vec3f& q : queries) {
        const HashGridCandidates candidates = view.candidates(q);
        longest = std::max(longest, candidates.count);
        multi_chunk += candidates.count > 2 * kMergeChunk;
        std::vector<uint32_t> got, want;
        uint32_t last_chunk = 0, calls = 0;
        scan_merge_candidates(candidates, merge_points.data(), q, view.radius_sq, max_light_length,
                              [&](const HashGridCandidates& c, uint32_t chunk, uint32_t accepted) {
            EXPECT_EQ(chunk % kMergeChunk, 0u);
            EXPECT_TRUE(calls == 0 || chunk > last_chunk) << "chunks in order, each once";
            EXPECT_NE(accepted, 0u);
            last_chunk = chunk;
            ++calls;
            for (uint32_t k = 0; k < 32; ++k)
                if (accepted & (1u << k)) {
                    EXPECT_LT(chunk + k, c.count);
                    got.push_back(view.sorted_indices[c.position(chunk + k)]);
                }
        });
        for (uint32_t i = 0; i < n; ++i)
            if (length_squared(points[i] - q) <= view.radius_sq && 1 + i % 7 <= max_light_length) want.push_back(i);
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, want) << "query at " << q.x << ", " << q.y << ", " << q.z << " with " << candidates.count
                             << " candidates";
    }
    // The clusters give queries of many chunks (the scan's chunk loop is what this tests).
    EXPECT_GT(longest, 8 * kMergeChunk);
    EXPECT_GT(multi_chunk, 50u);
    std::printf("longest query: %u candidates; %u queries of more than two chunks\n", longest, multi_chunk);
}

}  // namespace
}  // namespace wf
