// The VCM range-search hash grid (SmallVCM's hashgrid.hxx), built on the backend.
//
// Layout. Space is cut into cubic cells of edge 2r anchored at `origin` (the lo corner
// of the scene bounds); a point's cell is floor((p - origin) / 2r) as int32, clamped
// to +-2^30 so far-away or non-finite points cannot overflow. Cells are hashed into
// num_buckets buckets, a power of two so the modulo is a mask, by bricks: the 64 cells
// of a 4x4x4 brick take 64 consecutive buckets (a slot; Morton order, scrambled per
// brick) and the brick's coordinates are hashed to pick the slot. A query's 2x2x2 cells
// then lie in one or two slots (1.95 bricks on average against 8 scattered buckets with
// a per-cell hash), so their starts and their points are a few nearby cache lines, and
// queries at nearby points read the same lines. Measured on an H100 (ncu, vcm, us and
// DRAM reads per iteration): merge 395 -> 382 us and 272 -> 233 MB on SmallVCM scene 1,
// 527 -> 516 us and 263 -> 229 MB on scene 2. Merge waits less on memory than on its
// lanes: a query tests ~15 candidates (up to hundreds near a point light) and accepts ~2,
// so most of a warp idles while its busiest lane scans (bench/NOTES.md).
// The points of bucket b are sorted_indices[cell_starts[b], cell_starts[b+1]). There
// is no per-cell storage and no bounds test: a point outside the bounds still lands in
// some bucket, and a bucket shared by several cells only costs distance tests.
//
// Query. With cells of edge 2r, every point within r of q lies in the 2x2x2 block of
// cells made of q's cell and, per axis, its neighbour on the side nearer to q. Two of
// those 8 cells may hash to one bucket, so each distinct bucket is visited once; a cell
// of the block that lies entirely beyond r of q (across an edge or a corner) is left out.
// The result is exact up to the float rounding of the cell coordinates: a point at
// (almost exactly) distance r can be missed only when q sits within rounding of the
// middle of its cell, or when the coordinates are so large (> 2^23 cells from the
// origin) that floats no longer resolve a cell.
//
// Build: a counting sort, five backend launches (four without the cells-used statistic,
// which the caller may leave out) and no host round trip, over the points
// (build) or over their buckets computed in advance against the layout prepare() fixed
// (build_from_buckets: the light pass computes each light vertex's bucket as it stores
// it, so the build reads 4 bytes per vertex instead of a 96-byte record's sector).
//   build_hash_grid_clear       zero the bucket counters and the cells-used counters
//   build_hash_grid_count       counter[b] += 1 per valid point (atomic, result unused)
//   build_hash_grid_scan        exclusive scan of the counters, in place: bucket starts
//   build_hash_grid_cells_used  count the non-empty buckets (starts differ; optional)
//   build_hash_grid_scatter     each point takes the next slot of its bucket (atomic cursor)
// Why the offset by one: offsets_ has num_buckets + 2 entries and bucket b counts in
// offsets_[b + 1]. After the scan offsets_[b + 1] = start(b), which is b's cursor;
// after the scatter that cursor has advanced to start(b) + count(b) = start(b + 1), so
// offsets_[0 .. num_buckets] (offsets_[0] stays 0) is exactly cell_starts, with no
// copy of the starts for the cursors.
// Why cells-used is a pass of its own: one counter bumped by every point that finds
// its bucket empty serialises ~N/32 atomics on one address, and needs the count's
// atomic to return its value: on an H100 that cost about 100 us of a 4M-point build;
// this pass (one atomic per warp, spread over 64 counters summed by the scatter) 14 us.
// The order of the points inside a bucket depends on the order the atomics ran in
// (so on CUDA it can change from run to run); a sum over a query's points is
// therefore reproducible only up to float rounding.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// Cell coordinates are clamped to +-2^30: cell +- 1 still fits in int32.
inline constexpr float kHashGridMaxCell = 1073741824.0f;

WF_HD_INLINE int32_t hash_grid_cell_coordinate(float floored) {
    // fmaxf/fminf return the other operand for NaN, so NaN goes to -2^30 (no UB).
    return int32_t(fminf(fmaxf(floored, -kHashGridMaxCell), kHashGridMaxCell));
}

// Cells are hashed in bricks of 4x4x4 (see Layout above): kHashGridBrickBits bits of a
// bucket index are the cell's place in its brick.
inline constexpr uint32_t kHashGridBrickBits = 6;

// Spreads the 2 low bits of v to bits 0, 3 (the x, y or z bits of a 3D Morton index).
WF_HD_INLINE uint32_t hash_grid_morton2(uint32_t v) { return (v & 1u) | ((v & 2u) << 2); }

// The bucket of cell (x, y, z); num_buckets is a power of two. The brick's hash is
// SmallVCM's (x * 73856093) ^ (y * 19349663) ^ (z * 83492791) of the brick coordinates,
// whose low bits are poor (bit 0 is x^y^z), so a finaliser (MurmurHash3's fmix32) mixes
// it: its low bits pick the brick's slot of 64 buckets, its top 6 bits scramble the
// cell's Morton index inside the slot. The scramble keeps a 2x2x2 Morton group together
// (an XOR with a constant maps aligned groups to aligned groups) but makes two bricks
// sharing a slot collide cell for cell only by chance: without it every brick of a
// floor at one height would put its 16 floor cells on the same 16 buckets.
WF_HD_INLINE uint32_t hash_grid_bucket(int32_t x, int32_t y, int32_t z, uint32_t num_buckets) {
    // Arithmetic shifts: bricks of negative coordinates are floor(c / 4) too.
    uint32_t h = (uint32_t(x >> 2) * 73856093u) ^ (uint32_t(y >> 2) * 19349663u) ^ (uint32_t(z >> 2) * 83492791u);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    const uint32_t cell = hash_grid_morton2(uint32_t(x) & 3u) | (hash_grid_morton2(uint32_t(y) & 3u) << 1) |
                          (hash_grid_morton2(uint32_t(z) & 3u) << 2);
    return ((h << kHashGridBrickBits) | (cell ^ (h >> (32 - kHashGridBrickBits)))) & (num_buckets - 1u);
}

// The cells-used count goes through kHashGridUsedSlots counters, one 128-byte line
// apart, after the total: counters[0] = total, slot k at counters[(k + 1) * stride].
inline constexpr uint32_t kHashGridUsedSlots = 64;
// Threads of the count and scatter passes of a build whose point count is on the device.
inline constexpr uint32_t kHashGridLaunchThreads = 1u << 20;
inline constexpr uint32_t kHashGridUsedStride = 32;

// Adds `used` (0 or 1) for the bucket `index` to the slot of its group of 32 indices:
// on the GPU one atomic per warp (a warp's indices share a slot, and the first
// active lane adds the warp's count; lanes are threadIdx.x % 32, as parallel_for
// launches 1D blocks of a multiple of 32 threads), on the CPU one per used bucket.
WF_HD_INLINE void hash_grid_count_used(uint32_t* counters, uint32_t index, bool used) {
    uint32_t* slot = counters + (((index >> 5) & (kHashGridUsedSlots - 1)) + 1) * kHashGridUsedStride;
#if WF_DEVICE_CODE
    const unsigned active = __activemask();
    const unsigned voted = __ballot_sync(active, used);
    if (voted && (threadIdx.x & 31u) == unsigned(__ffs(active) - 1)) atomicAdd(slot, unsigned(__popc(voted)));
#else
    if (used) atomic_add(slot, 1u);
#endif
}

// The bucket of the cell containing p (the build's view of a point).
WF_HD_INLINE uint32_t hash_grid_bucket_of(Vec3f p, Vec3f origin, float inv_cell_size, uint32_t num_buckets) {
    const Vec3f u = (p - origin) * inv_cell_size;
    return hash_grid_bucket(hash_grid_cell_coordinate(floorf(u.x)), hash_grid_cell_coordinate(floorf(u.y)),
                            hash_grid_cell_coordinate(floorf(u.z)), num_buckets);
}

// The candidates of one query (HashGridView::candidates): the points of up to 8 buckets
// as one sequence t = 0 .. count - 1. Bucket range j holds t in [first[j], first[j + 1])
// (range 7 ends at count); its candidate t is sorted position t + delta[j]. Every index is a
// constant once position()'s loop is unrolled, so on the GPU the arrays stay in registers.
struct HashGridCandidates {
    uint32_t count = 0;
    uint32_t first[8] = {};
    uint32_t delta[8] = {};

    // The sorted position (into sorted_indices, or arrays gathered in bucket order) of
    // candidate t < count: that of the last range starting at or before t (an empty range
    // starts where the next one does, so the next one wins).
    WF_HD uint32_t position(uint32_t t) const {
        uint32_t s = t + delta[0];
#if WF_DEVICE_CODE
#pragma unroll
#endif
        for (int j = 1; j < 8; ++j)
            if (t >= first[j]) s = t + delta[j];
        return s;
    }
};

// Read-only view passed by value to kernels.
struct HashGridView {
    const uint32_t* cell_starts = nullptr;     // num_buckets + 1 entries: bucket b holds sorted_indices[cell_starts[b], cell_starts[b+1])
    const uint32_t* sorted_indices = nullptr;  // point indices grouped by bucket
    uint32_t num_buckets = 0;                  // a power of two; 0 before reserve()
    Vec3f origin;                              // cell coordinates are floor((p - origin) * inv_cell_size)
    float inv_cell_size = 0.0f;                // 1 / (2 r)
    float radius_sq = 0.0f;                    // r^2

    // The bucket a point at p is stored under (the build's, and store_light_vertex's in
    // advance of a build_from_buckets).
    WF_HD uint32_t bucket_of(Vec3f p) const { return hash_grid_bucket_of(p, origin, inv_cell_size, num_buckets); }

    // Calls fn(point_index) once for every valid point with |points[i] - q|^2 <= r^2
    // (SmallVCM accepts dist^2 <= r^2). points is the array the grid was built over.
    template <class F>
    WF_HD void query(Vec3f q, const Vec3f* points, F&& fn) const {
        for_each_bucket(q, [&](uint32_t begin, uint32_t end) {
            for (uint32_t s = begin; s < end; ++s) {
                const uint32_t i = sorted_indices[s];
                if (length_squared(points[i] - q) <= radius_sq) fn(i);
            }
        });
    }

    // The candidates of a query at q as one flat sequence (HashGridCandidates): the
    // points of the buckets for_each_bucket visits, in the same order. Every bucket's
    // start is loaded here, at once, so a caller that loads candidates in batches crosses
    // bucket boundaries without waiting on the next bucket's start.
    WF_HD HashGridCandidates candidates(Vec3f q) const {
        HashGridCandidates c;
        if (num_buckets == 0) return c;  // no candidate
        uint32_t buckets[8];
        const uint32_t reachable = block_buckets(q, buckets);
        uint32_t begin[8], end[8];
#if WF_DEVICE_CODE
#pragma unroll
#endif
        for (int j = 0; j < 8; ++j) {
            // Two cells of the block may share a bucket: its range counts once. A cell
            // entirely beyond r adds no range (nor a load of its start).
            bool skip = !(reachable & (1u << j));
            for (int k = 0; k < j; ++k) skip |= buckets[k] == buckets[j] && (reachable & (1u << k));
            begin[j] = skip ? 0u : cell_starts[buckets[j]];
            end[j] = skip ? 0u : cell_starts[buckets[j] + 1];
        }
#if WF_DEVICE_CODE
#pragma unroll
#endif
        for (int j = 0; j < 8; ++j) {
            c.first[j] = c.count;
            c.delta[j] = begin[j] - c.count;  // modulo 2^32, as position() adds it back
            c.count += end[j] - begin[j];
        }
        return c;
    }

    // The buckets a query at q must search: fn(begin, end) once for each distinct
    // non-empty bucket, with [begin, end) a range of sorted_indices (candidates() by
    // bucket). The caller does the distance test.
    template <class F>
    WF_HD void for_each_bucket(Vec3f q, F&& fn) const {
        const HashGridCandidates c = candidates(q);
        for (int j = 0; j < 8; ++j) {
            const uint32_t first = c.first[j], last = j + 1 < 8 ? c.first[j + 1] : c.count;
            if (first < last) fn(first + c.delta[j], last + c.delta[j]);
        }
    }

private:
    // The buckets of the 2x2x2 cells around q (see Query above), in a fixed order, and a
    // mask of the cells that may hold a point within r of q (bit j: cell j). q's own cell
    // and the three sharing a face with it always may; a cell sharing only an edge or a
    // corner with it lies entirely beyond r when the distances from q to the boundaries
    // it lies across (at most r each) add up, squared, to more than r^2: a corner cell in
    // 1 - pi/6 (48%) of queries, an edge cell in 1 - pi/4 (21%), 14% of the cells in all.
    // In cell units (r = 1/2), with a slack for the rounding of u and of the points'
    // cells (each about |u| 2^-23 cells): a point within r is never skipped.
    WF_HD uint32_t block_buckets(Vec3f q, uint32_t (&buckets)[8]) const {
        const Vec3f u = (q - origin) * inv_cell_size;
        const float fx = floorf(u.x), fy = floorf(u.y), fz = floorf(u.z);
        const int32_t cx = hash_grid_cell_coordinate(fx), cy = hash_grid_cell_coordinate(fy),
                      cz = hash_grid_cell_coordinate(fz);
        // The neighbour on the nearer side of each axis (NaN: +1, harmless), and the
        // distance from q to the boundary shared with it.
        const float ox = u.x - fx, oy = u.y - fy, oz = u.z - fz;
        const int32_t nx = cx + (ox < 0.5f ? -1 : 1), ny = cy + (oy < 0.5f ? -1 : 1), nz = cz + (oz < 0.5f ? -1 : 1);
        const float dx = fminf(ox, 1.0f - ox), dy = fminf(oy, 1.0f - oy), dz = fminf(oz, 1.0f - oz);
        // The slack: u and a point's cell coordinates are each off by up to about |u| 2^-23
        // per axis, sqrt(3) * 2 * 2^-23 |u| = 4.1e-7 |u| in all (5e-7 |u| here); a search
        // of ~10^8 pairs at distance r found a miss with 1.2e-7 |u| and none with 2e-7.
        const float reach = 0.5f + 1e-6f + 5e-7f * fmaxf(fabsf(u.x), fmaxf(fabsf(u.y), fabsf(u.z)));
        const float reach_sq = reach * reach;
        uint32_t reachable = 0;
#if WF_DEVICE_CODE
#pragma unroll
#endif
        for (int j = 0; j < 8; ++j) {
            buckets[j] = hash_grid_bucket(j & 1 ? nx : cx, j & 2 ? ny : cy, j & 4 ? nz : cz, num_buckets);
            const float d_sq = (j & 1 ? dx * dx : 0.0f) + (j & 2 ? dy * dy : 0.0f) + (j & 4 ? dz * dz : 0.0f);
            // Not `d_sq <= reach_sq`: a NaN distance (q not finite) keeps its cell.
            if (!(d_sq > reach_sq)) reachable |= 1u << j;
        }
        return reachable;
    }
};

// A point's bucket from its position (HashGrid::build) or as computed in advance
// (build_from_buckets). At namespace scope: nvcc's device lambdas may not be enclosed by a
// function instantiated with a private member type.
template <class Points>
struct HashGridPointBuckets {
    Points points;
    HashGridView layout;
    WF_HD uint32_t operator()(uint32_t i) const { return layout.bucket_of(points[i]); }
};
struct HashGridStoredBuckets {
    const uint32_t* buckets;
    WF_HD uint32_t operator()(uint32_t i) const { return buckets[i]; }
};

template <class Backend>
class HashGrid {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    // Allocates for up to max_points points (buckets: a power of two >= max_points, at least 1).
    void reserve(uint32_t max_points) { reserve(max_points, max_points); }
    // Same, with a power of two >= min_buckets buckets (at least 1): more buckets than
    // points means fewer cells per bucket; 1 bucket forces every cell to collide (tests).
    // The bytes reserve(max_points, min_buckets) allocates (for sizing checks).
    static uint64_t reserved_bytes(uint32_t max_points, uint32_t min_buckets) {
        return sizeof(uint32_t) * (uint64_t(buckets_for(min_buckets)) + 2 + max_points +
                                   (kHashGridUsedSlots + 1) * kHashGridUsedStride);
    }
    void reserve(uint32_t max_points, uint32_t min_buckets) {
        const uint32_t buckets = buckets_for(min_buckets);
        if (reserved_ && buckets == num_buckets_ && max_points == max_points_) return;
        offsets_.resize(size_t(buckets) + 2);  // zero-filled: a reserved, unbuilt grid is empty
        sorted_indices_.resize(max_points);
        used_counters_.resize((kHashGridUsedSlots + 1) * kHashGridUsedStride);
        num_buckets_ = buckets;
        max_points_ = max_points;
        reserved_ = true;
        prepared_ = false;  // buckets computed for another bucket count
    }

    // Builds over points[0..n); valid may be null (all valid), else only points with
    // valid[i] != 0 are inserted. bounds: a box known to contain the points (the scene
    // bounds); its lo is the grid origin (points outside it are still found, only
    // slower if many are far out; an empty box means origin 0). radius > 0. Every step
    // runs on the backend; nothing is read back. points/valid must stay unchanged
    // while the grid is used.
    template <class Points>
    void build(Backend& backend, Points points, const uint8_t* valid, uint32_t n, const Aabb& bounds, float radius) {
        build(backend, points, valid, n, nullptr, bounds, radius);
    }
    // The same over points[0..min(*count, n)), with the count in backend memory (written
    // by earlier launches; the host need not know it): the count and scatter passes stride
    // over at most kHashGridLaunchThreads threads. Points: a Vec3f pointer, or any view
    // indexed as one (a field of an array of structures, engine/soa.h).
    template <class Points>
    void build(Backend& backend, Points points, uint32_t n, const uint32_t* count, const Aabb& bounds, float radius) {
        build(backend, points, nullptr, n, count, bounds, radius);
    }

    // Fixes the layout of the next build (origin, cell size, radius) before the points
    // exist, and returns the view it will have, for computing buckets in advance with its
    // bucket_of(p). Its cells still hold the previous build's: do not query it before
    // build_from_buckets. bounds and radius as for build(). A reserve() that reallocates
    // undoes it.
    HashGridView prepare(const Aabb& bounds, float radius) {
        check_reserved("HashGrid::prepare");
        const float inv_cell_size = 0.5f / radius;
        if (!(radius > 0.0f) || !std::isfinite(radius) || !std::isfinite(inv_cell_size))
            throw std::invalid_argument("HashGrid: the radius must be positive and finite, got " +
                                        std::to_string(radius));
        origin_ = bounds.empty() || !is_finite(bounds.lo) ? Vec3f(0.0f) : bounds.lo;
        inv_cell_size_ = inv_cell_size;
        radius_sq_ = radius * radius;
        prepared_ = true;
        return view();
    }

    // Builds over points whose buckets were computed in advance, against the view
    // prepare() returned: bucket[i] for i < min(*count, n), count in backend memory as
    // above. The build then reads 4 bytes per point instead of the point (a 12-byte
    // position, which in an array of records costs a 32-byte sector).
    // count_cells_used = false leaves out the cells-used pass (a statistic only: the
    // counter then reads 0), one launch over the buckets.
    void build_from_buckets(Backend& backend, const uint32_t* buckets, uint32_t n, const uint32_t* count,
                            bool count_cells_used = true) {
        if (!prepared_)
            throw std::invalid_argument("HashGrid::build_from_buckets: call prepare() before, for the buckets' layout");
        check_size("HashGrid::build_from_buckets", n);
        build_sorted(backend, HashGridStoredBuckets{buckets}, nullptr, n, count, count_cells_used);
    }

    // Both point forms above (public only because nvcc's device lambdas may not be
    // enclosed by a private member function).
    template <class Points>
    void build(Backend& backend, Points points, const uint8_t* valid, uint32_t n, const uint32_t* count,
               const Aabb& bounds, float radius) {
        check_reserved("HashGrid::build");
        check_size("HashGrid::build", n);  // before prepare() changes the layout
        build_sorted(backend, HashGridPointBuckets<Points>{points, prepare(bounds, radius)}, valid, n, count);
    }

    // The counting sort of points [0, min(*count, n)) (all n without count; n checked
    // against the reservation) by bucket_of(i), skipping those with valid[i] == 0 (valid
    // may be null). Public for the same reason as build().
    template <class BucketOf>
    void build_sorted(Backend& backend, BucketOf bucket_of, const uint8_t* valid, uint32_t n, const uint32_t* count,
                      bool count_cells_used = true) {
        prepared_ = false;  // a later build_from_buckets needs buckets of a new prepare()
        const uint32_t num_buckets = num_buckets_;
        uint32_t* offsets = offsets_.data();
        uint32_t* sorted = sorted_indices_.data();
        uint32_t* counters = used_counters_.data();
        // Four entries per thread, a whole launch's width apart (coalesced).
        const uint32_t clear_threads = std::max((num_buckets + 2 + 3) / 4, kHashGridUsedSlots + 1);
        backend.parallel_for("build_hash_grid_clear", clear_threads, WF_LAMBDA(uint32_t k) {
            for (uint32_t j = k; j < num_buckets + 2; j += clear_threads) offsets[j] = 0;
            if (k <= kHashGridUsedSlots) counters[k * kHashGridUsedStride] = 0;
        });
        const uint32_t launched = count ? std::min(n, kHashGridLaunchThreads) : n;
        backend.parallel_for("build_hash_grid_count", launched, WF_LAMBDA(uint32_t t) {
            const uint32_t end = count ? std::min(*count, n) : n;
            for (uint32_t i = t; i < end; i += launched) {
                if (valid && !valid[i]) continue;
                atomic_add(&offsets[bucket_of(i) + 1], 1u);
            }
        });
        backend.exclusive_scan("build_hash_grid_scan", offsets + 1, offsets + 1, num_buckets + 1);
        if (count_cells_used) {
            backend.parallel_for("build_hash_grid_cells_used", num_buckets, WF_LAMBDA(uint32_t b) {
                hash_grid_count_used(counters, b, offsets[b + 2] > offsets[b + 1]);
            });
        }
        backend.parallel_for("build_hash_grid_scatter", launched, WF_LAMBDA(uint32_t t) {
            // The cells-used pass has finished: fold its slots into the total, slot k by
            // thread k mod launched (in parallel: one thread summing them all serialises
            // 64 loads, 10 us at 1M points).
            for (uint64_t k = t; k < kHashGridUsedSlots; k += launched)
                atomic_add(counters, counters[(k + 1) * kHashGridUsedStride]);
            const uint32_t end = count ? std::min(*count, n) : n;
            for (uint32_t i = t; i < end; i += launched) {
                if (valid && !valid[i]) continue;
                sorted[atomic_add(&offsets[bucket_of(i) + 1], 1u)] = i;
            }
        });
    }

    HashGridView view() const {
        HashGridView v;
        v.cell_starts = offsets_.data();
        v.sorted_indices = sorted_indices_.data();
        v.num_buckets = num_buckets_;
        v.origin = origin_;
        v.inv_cell_size = inv_cell_size_;
        v.radius_sq = radius_sq_;
        return v;
    }

    // Number of non-empty buckets of the last build, computed on the device (for
    // --stats; 0 after a build without the cells-used pass): a pointer to one uint32_t
    // in backend memory.
    const uint32_t* cells_used_counter() const { return used_counters_.data(); }

    uint32_t num_buckets() const { return num_buckets_; }
    uint32_t max_points() const { return max_points_; }

private:
    void check_reserved(const char* what) const {
        if (!reserved_) throw std::invalid_argument(std::string(what) + ": call reserve() first");
    }
    void check_size(const char* what, uint32_t n) const {
        if (n > max_points_)
            throw std::invalid_argument(std::string(what) + ": " + std::to_string(n) +
                                        " points, but reserve() allowed " + std::to_string(max_points_) +
                                        "; reserve for the largest count first");
    }

    static uint32_t buckets_for(uint32_t min_buckets) {
        uint32_t buckets = 1;
        while (buckets < min_buckets && buckets < (1u << 31)) buckets <<= 1;
        return buckets;
    }

    Buffer<uint32_t> offsets_;         // num_buckets + 2: cell_starts are its first num_buckets + 1 (see top)
    Buffer<uint32_t> sorted_indices_;  // max_points
    Buffer<uint32_t> used_counters_;      // the total, then kHashGridUsedSlots partial counts (see hash_grid_count_used)
    uint32_t num_buckets_ = 0, max_points_ = 0;
    bool reserved_ = false;
    bool prepared_ = false;  // prepare() ran since the last build
    Vec3f origin_;
    float inv_cell_size_ = 0.0f, radius_sq_ = 0.0f;
};

}  // namespace wf
