// Implementation of HashGridHost for any backend; included by one .cpp (CPU) and
// one .cu (CUDA), each supplying a build timer (host clock / CUDA events).
#pragma once

#include <algorithm>
#include <utility>

#include "accel/hash_grid.h"
#include "accel/hash_grid_host.h"

namespace wf::hash_grid_host_detail {

// Timer: Timer(Backend&); begin(); end() around each timed build; finish() returns
// the milliseconds of every begin/end pair (and may synchronise).
template <class B, class Timer>
struct Impl {
    template <class T>
    using Buf = typename B::template Buffer<T>;

    struct Uploaded {
        Buf<Vec3f> points;
        Buf<uint8_t> valid;
        uint32_t n = 0;
        explicit Uploaded(const HashGridInput& in) : n(uint32_t(in.points.size())) {
            points.upload(in.points);
            if (!in.valid.empty()) valid.upload(in.valid);
        }
        const uint8_t* valid_or_null() const { return valid.size() ? valid.data() : nullptr; }
    };

    static uint32_t read_counter(B& be, const uint32_t* counter) {
        typename B::CounterMirror mirror;
        mirror.resize(1);
        be.copy_counter_to_host(mirror.data(), counter);
        be.synchronize();
        return mirror.data()[0];
    }

    static std::vector<uint32_t> copy_out(B& be, const uint32_t* src, uint32_t n) {
        if (n == 0) return {};
        Buf<uint32_t> out(n);
        uint32_t* dst = out.data();
        be.parallel_for("test_hash_grid_copy", n, WF_LAMBDA(uint32_t k) { dst[k] = src[k]; });
        be.synchronize();
        return out.to_vector();
    }

    static HashGridLayout build_layout(const HashGridInput& in, uint32_t min_buckets) {
        B be;
        Uploaded up(in);
        HashGrid<B> grid;
        grid.reserve(up.n, min_buckets ? min_buckets : up.n);
        grid.build(be, up.points.data(), up.valid_or_null(), up.n, in.bounds, in.radius);
        return layout_of(be, grid);
    }

    static HashGridLayout build_layout_from_buckets(const HashGridInput& in, uint32_t count) {
        B be;
        Uploaded up(in);
        HashGrid<B> grid;
        grid.reserve(up.n);
        const HashGridView prepared = grid.prepare(in.bounds, in.radius);
        Buf<uint32_t> bucket_buf(std::max(up.n, 1u));
        uint32_t* buckets = bucket_buf.data();
        const Vec3f* points = up.points.data();
        be.parallel_for("test_hash_grid_buckets", up.n, WF_LAMBDA(uint32_t i) {
            buckets[i] = prepared.bucket_of(points[i]);
        });
        Buf<uint32_t> count_buf;
        count_buf.upload(std::vector<uint32_t>{count});
        grid.build_from_buckets(be, buckets, up.n, count_buf.data());
        return layout_of(be, grid);
    }

    static HashGridLayout layout_of(B& be, const HashGrid<B>& grid) {
        const HashGridView v = grid.view();
        HashGridLayout out;
        out.num_buckets = v.num_buckets;
        out.cells_used = read_counter(be, grid.cells_used_counter());
        out.cell_starts = copy_out(be, v.cell_starts, v.num_buckets + 1);
        out.sorted_indices = copy_out(be, v.sorted_indices, out.cell_starts.back());
        return out;
    }

    // Two passes over the queries: count each one's results, scan, then write them.
    static std::vector<std::vector<uint32_t>> run_queries(B& be, const HashGridView& view, const Vec3f* points,
                                                          const std::vector<Vec3f>& host_queries) {
        const uint32_t nq = uint32_t(host_queries.size());
        std::vector<std::vector<uint32_t>> results(nq);
        if (nq == 0) return results;
        Buf<Vec3f> query_buf;
        query_buf.upload(host_queries);
        Buf<uint32_t> offset_buf(nq + 1);
        const Vec3f* queries = query_buf.data();
        uint32_t* offsets = offset_buf.data();
        be.parallel_for("test_hash_grid_query_count", nq, WF_LAMBDA(uint32_t k) {
            uint32_t count = 0;
            view.query(queries[k], points, [&](uint32_t) { ++count; });
            offsets[k] = count;
        });
        be.exclusive_scan("test_hash_grid_query_scan", offsets, offsets, nq + 1);
        be.synchronize();
        const std::vector<uint32_t> starts = offset_buf.to_vector();
        Buf<uint32_t> found_buf(std::max(starts[nq], 1u));
        uint32_t* found = found_buf.data();
        be.parallel_for("test_hash_grid_query_write", nq, WF_LAMBDA(uint32_t k) {
            uint32_t w = offsets[k];
            view.query(queries[k], points, [&](uint32_t i) { found[w++] = i; });
        });
        be.synchronize();
        const std::vector<uint32_t> all = found_buf.to_vector();
        for (uint32_t k = 0; k < nq; ++k) results[k].assign(all.begin() + starts[k], all.begin() + starts[k + 1]);
        return results;
    }

    static std::vector<std::vector<uint32_t>> query_all(const HashGridInput& in, const std::vector<Vec3f>& queries,
                                                        uint32_t min_buckets) {
        B be;
        Uploaded up(in);
        HashGrid<B> grid;
        grid.reserve(up.n, min_buckets ? min_buckets : up.n);
        grid.build(be, up.points.data(), up.valid_or_null(), up.n, in.bounds, in.radius);
        return run_queries(be, grid.view(), up.points.data(), queries);
    }

    static std::vector<std::vector<uint32_t>> query_after_rebuild(const HashGridInput& first,
                                                                  const HashGridInput& second,
                                                                  const std::vector<Vec3f>& queries) {
        B be;
        Uploaded a(first), b(second);
        HashGrid<B> grid;
        grid.reserve(std::max(a.n, b.n));
        grid.build(be, a.points.data(), a.valid_or_null(), a.n, first.bounds, first.radius);
        grid.build(be, b.points.data(), b.valid_or_null(), b.n, second.bounds, second.radius);
        return run_queries(be, grid.view(), b.points.data(), queries);
    }

    static HashGridBuildTiming time_build(const std::vector<Vec3f>& host_points, const Aabb& bounds, float radius,
                                          uint32_t warmup, uint32_t reps) {
        B be;
        Buf<Vec3f> points;
        points.upload(host_points);
        const uint32_t n = uint32_t(host_points.size());
        HashGrid<B> grid;
        grid.reserve(n);
        for (uint32_t r = 0; r < warmup; ++r) grid.build(be, points.data(), nullptr, n, bounds, radius);

        HashGridBuildTiming t;
        t.device = be.device_name();
        t.num_points = n;
        t.num_buckets = grid.num_buckets();
        t.reps = reps;
        Timer timer(be);
        for (uint32_t r = 0; r < reps; ++r) {
            timer.begin();
            grid.build(be, points.data(), nullptr, n, bounds, radius);
            timer.end();
        }
        std::vector<double> ms = timer.finish();
        be.synchronize();
        t.cells_used = read_counter(be, grid.cells_used_counter());
        if (!ms.empty()) {
            std::sort(ms.begin(), ms.end());
            t.median_ms = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
            t.min_ms = ms.front();
            t.max_ms = ms.back();
        }

        B profiled;  // a fresh stage table; per-launch timing adds a little to each stage
        profiled.set_profiling(true);
        for (uint32_t r = 0; r < reps; ++r) grid.build(profiled, points.data(), nullptr, n, bounds, radius);
        profiled.flush_profile();
        t.stages = profiled.stages().rows();
        return t;
    }
};

template <class B, class Timer>
HashGridHost make(const char* name) {
    using I = Impl<B, Timer>;
    return {name, &I::build_layout, &I::build_layout_from_buckets, &I::query_all, &I::query_after_rebuild,
            &I::time_build};
}

}  // namespace wf::hash_grid_host_detail
