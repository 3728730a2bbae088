// The top of the GPU tree rebuilt by binned SAH (Wald 2007) over the subtrees that
// H-PLOC leaves below it. H-PLOC merges clusters only inside the Morton-ordered LBVH
// node that holds them, which costs the tree most where subtrees are large: on a
// terrain of 1M triangles, two thirds of its SAH excess over the CPU builder lie in
// subtrees of 256 primitives or more, and a top rebuilt on the host by SAH above
// 4096 primitives traced diffuse rays 5% faster (bench/NOTES.md, twenty-first
// session). On the host, 16 bins per axis matched a full sweep over those subtrees to
// the third decimal, where PLOC in Morton order lost 0.7-7%: so this pass bins.
//
// One block: the subtrees of at most top_cut(n) primitives whose parents hold more
// (the items), at most kTopMaxItems of them (else the pass leaves the tree as it
// is), are gathered by a breadth-first walk from the root, and their boxes kept in
// shared memory; the nodes above them are rebuilt top-down, level by level, one
// warp per task (a group of warps per task on levels of one or two tasks, one thread
// per task of two or three items), reusing the old top's node ids in the order the
// tasks are made (a tree over K items has K - 1 interior nodes either way; the root
// keeps its id); then their meta, tables and parent links are written bottom-up,
// level by level, by merged_cluster and write_merge, as H-PLOC writes its own merges.
// The block is latency-bound: on an H200, 130 us for ~390 items at 1M primitives
// (walk 23, top-down 87 over 12 levels, bottom-up 15), each level a few microseconds
// of dependent steps per task (bench/NOTES.md, twenty-second session).
// Included by bvh_build_gpu.cu, and by the top pass's test kernel (tests/gpu).
#pragma once

#include <cstdint>

#include "accel/bvh_ploc.cuh"

namespace wf::hploc {

inline constexpr uint32_t kTopBlock = 512;  // threads of the one block
inline constexpr uint32_t kTopWarps = kTopBlock / 32;
inline constexpr uint32_t kTopMaxItems = 1024;  // subtrees the top is built over, at most (11 bits)
inline constexpr uint32_t kTopBins = 16;        // per axis: one lane of a half-warp each
inline constexpr uint32_t kTopMinCut = 4096;    // primitives below an item, at least
inline constexpr uint32_t kTopSmall = 3;        // items of a task split by one thread, at most
inline constexpr uint32_t kTopGroups = 2;       // tasks of a level split by groups of warps, at most
static_assert(2 * kTopBins == 32 && kTopMaxItems <= 1024, "split_top_task's lanes and packing");

// Subtrees of at most this many primitives are the top's items: a few hundred for
// the meshes measured (n / 256 keeps 10M as coarse as 1M).
__host__ __device__ inline uint32_t top_cut(uint32_t n) { return n / 256u > kTopMinCut ? n / 256u : kTopMinCut; }

__device__ __forceinline__ uint32_t top_bin(float c, float lo, float scale) {
    const int b = int((c - lo) * scale);
    return uint32_t(b < 0 ? 0 : (b >= int(kTopBins) ? int(kTopBins) - 1 : b));
}

__device__ __forceinline__ uint32_t ceil_log2(uint32_t m) { return m <= 1u ? 0u : 32u - __clz(m - 1u); }

// The block's shared state (45 KB). Items are named by slot, their place in the walk;
// a task is a range of `order` (begin | end << 16) and its node's id is old_ids[its
// index in tasks], so ids follow the order tasks are made, which the tree alone sets.
struct TopShared {
    float box[kTopMaxItems][6];  // by slot: lo, hi
    uint32_t node[kTopMaxItems];  // by slot: the subtree's id
    uint16_t order[kTopMaxItems], scratch[kTopMaxItems];  // slots, partitioned task by task
    uint32_t old_ids[kTopMaxItems];  // the old top's ids, breadth first (the root's first)
    uint32_t tasks[kTopMaxItems];    // level after level
    // By a new task's begin: end | parent task << 11 | side << 21 (0: none), until the
    // level's tasks are listed.
    uint32_t made[kTopMaxItems];
    uint32_t level_start[kBvhMaxDepth + 3];
    uint32_t warp_sums[kTopWarps];
    uint32_t item_height;
};

__device__ __forceinline__ Vec3f top_lo(const TopShared& s, uint32_t slot) {
    return Vec3f(s.box[slot][0], s.box[slot][1], s.box[slot][2]);
}
__device__ __forceinline__ Vec3f top_hi(const TopShared& s, uint32_t slot) {
    return Vec3f(s.box[slot][3], s.box[slot][4], s.box[slot][5]);
}
__device__ __forceinline__ Vec3f top_centroid(const TopShared& s, uint32_t slot) {
    return Vec3f(0.5f * (s.box[slot][0] + s.box[slot][3]), 0.5f * (s.box[slot][1] + s.box[slot][4]),
                 0.5f * (s.box[slot][2] + s.box[slot][5]));
}

// A task's packing in s.tasks, and a made task's in s.made (end, the parent task,
// the side it hangs on; never 0, as end >= 2).
__device__ __forceinline__ uint32_t top_task(uint32_t begin, uint32_t end) { return begin | end << 16; }
__device__ __forceinline__ uint32_t task_begin(uint32_t task) { return task & 0xffffu; }
__device__ __forceinline__ uint32_t task_end(uint32_t task) { return task >> 16; }
__device__ __forceinline__ uint32_t top_made(uint32_t end, uint32_t parent, uint32_t side) {
    return end | parent << 11 | side << 21;
}
__device__ __forceinline__ uint32_t made_end(uint32_t made) { return made & 0x7ffu; }
__device__ __forceinline__ uint32_t made_parent(uint32_t made) { return (made >> 11) & 0x3ffu; }
__device__ __forceinline__ bool made_right(uint32_t made) { return (made >> 21) != 0; }

// Whether a task of m items at `level` must split in the middle: by SAH only if a
// child of m - 1 items could still be split in the middle within kBvhMaxDepth
// (height: the tallest item's), so that every task keeps level + ceil_log2(m) +
// height <= kBvhMaxDepth, as the root did.
__device__ __forceinline__ bool top_in_middle(uint32_t level, uint32_t m, uint32_t height) {
    return level + 1 + ceil_log2(m - 1) + height > kBvhMaxDepth;
}

// Exclusive prefix sum of v over the block's threads (every thread must call it), and
// the block's total. warp_sums: kTopWarps words of shared memory.
__device__ inline uint32_t top_block_scan(uint32_t v, uint32_t t, uint32_t* warp_sums, uint32_t* total) {
    const uint32_t lane = t % 32, warp = t / 32;
    uint32_t x = v;
    for (uint32_t d = 1; d < 32; d <<= 1) {
        const uint32_t y = __shfl_up_sync(kFullMask, x, d);
        if (lane >= d) x += y;
    }
    if (lane == 31) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        uint32_t w = lane < kTopWarps ? warp_sums[lane] : 0u;
        for (uint32_t d = 1; d < 32; d <<= 1) {
            const uint32_t y = __shfl_up_sync(kFullMask, w, d);
            if (lane >= d) w += y;
        }
        if (lane < kTopWarps) warp_sums[lane] = w;  // inclusive
    }
    __syncthreads();
    const uint32_t before = (warp > 0 ? warp_sums[warp - 1] : 0u) + x - v;
    *total = warp_sums[kTopWarps - 1];
    __syncthreads();  // warp_sums is the next call's
    return before;
}

// A bin's box and count, and the union of two.
struct TopBin {
    Vec3f lo, hi;
    uint32_t count;
    __device__ __forceinline__ void add(const TopBin& o) {
        lo = min(lo, o.lo);
        hi = max(hi, o.hi);
        count += o.count;
    }
    // Every value through f (a shuffle).
    template <class F>
    __device__ __forceinline__ TopBin each(F f) const {
        return {{f(lo.x), f(lo.y), f(lo.z)}, {f(hi.x), f(hi.y), f(hi.z)}, f(count)};
    }
    __device__ __forceinline__ TopBin shfl_up(uint32_t d) const {
        return each([d](auto v) { return __shfl_up_sync(kFullMask, v, d, kTopBins); });
    }
    __device__ __forceinline__ TopBin shfl_down(uint32_t d) const {
        return each([d](auto v) { return __shfl_down_sync(kFullMask, v, d, kTopBins); });
    }
};

// Whole warp, each half on its own (16 lanes, lane b = bin b): the cheapest plane
// of one axis as a key (cost bits << 32 | j, j = axis * (kTopBins - 1) + bin, the
// plane right of `bin`), or ~0 for none. Prefix and suffix unions by shuffles.
__device__ __forceinline__ uint64_t top_best_plane(TopBin bin, uint32_t axis, uint32_t b) {
    TopBin left = bin, right = bin;
    for (uint32_t d = 1; d < kTopBins; d <<= 1) {
        const TopBin l = left.shfl_up(d), r = right.shfl_down(d);
        if (b >= d) left.add(l);
        if (b + d < kTopBins) right.add(r);
    }
    right = right.shfl_down(1);  // bins b + 1 and up
    if (b + 1 >= kTopBins || left.count == 0 || right.count == 0) return ~0ull;
    const float cost = half_area(left.lo, left.hi) * float(left.count) + half_area(right.lo, right.hi) * float(right.count);
    return (uint64_t(__float_as_uint(cost)) << 32) | (axis * (kTopBins - 1) + b);
}

// Whole warp: the boxes and the centroids' box of items [begin, end).
__device__ __forceinline__ void top_bounds(const TopShared& s, uint32_t begin, uint32_t end, uint32_t lane, Vec3f* lo,
                                           Vec3f* hi, Vec3f* clo, Vec3f* chi) {
    *lo = *clo = Vec3f(kInfinity);
    *hi = *chi = Vec3f(-kInfinity);
    for (uint32_t i = begin + lane; i < end; i += 32) {
        const uint32_t slot = s.order[i];
        const Vec3f c = top_centroid(s, slot);
        *lo = min(*lo, top_lo(s, slot));
        *hi = max(*hi, top_hi(s, slot));
        *clo = min(*clo, c);
        *chi = max(*chi, c);
    }
    warp_union(lo, hi);
    warp_union(clo, chi);
}

__device__ __forceinline__ Vec3f top_scale(Vec3f clo, Vec3f chi) {
    const Vec3f extent = chi - clo;
    Vec3f scale;
    for (int axis = 0; axis < 3; ++axis) scale[axis] = extent[axis] > 0.0f ? float(kTopBins) / extent[axis] : 0.0f;
    return scale;
}

// Whole warp: items [begin, end) into the lanes' bins. Each lane owns one bin of x
// or y (by its half, bin_h) and one of z (bin_z; the halves hold the same), and
// reads every item: no atomics, and for the few hundred items of a top, fewer
// steps than binning by item.
__device__ __forceinline__ void top_bin_items(const TopShared& s, uint32_t begin, uint32_t end, Vec3f clo, Vec3f scale,
                                              uint32_t lane, TopBin* bin_h, TopBin* bin_z) {
    const uint32_t half = lane / kTopBins, b = lane % kTopBins;
    const float lo_h = half ? clo.y : clo.x, scale_h = half ? scale.y : scale.x;
    *bin_h = TopBin{Vec3f(kInfinity), Vec3f(-kInfinity), 0u};
    *bin_z = *bin_h;
#pragma unroll 4
    for (uint32_t i = begin; i < end; ++i) {  // every lane reads the same item: a broadcast
        const uint32_t slot = s.order[i];
        const TopBin item{top_lo(s, slot), top_hi(s, slot), 1u};
        const Vec3f c = top_centroid(s, slot);
        if (top_bin(half ? c.y : c.x, lo_h, scale_h) == b) bin_h->add(item);
        if (top_bin(c.z, clo.z, scale.z) == b) bin_z->add(item);
    }
}

// Whole warp: splits task k, whose box is lo..hi and whose items lie in the lanes'
// bins (binned SAH over the centroids; in the middle of its items when the
// centroids coincide, when a side would be empty, e.g. for NaN boxes, or when
// `in_middle`: see rebuild_top), writes its node's box and the children that are
// items, and notes the children that are tasks in s.made.
__device__ inline void finish_split(const PlocArgs a, TopShared& s, uint32_t k, Vec3f lo, Vec3f hi, Vec3f clo,
                                    Vec3f scale, const TopBin& bin_h, const TopBin& bin_z, bool in_middle,
                                    uint32_t lane) {
    const uint32_t begin = task_begin(s.tasks[k]), end = task_end(s.tasks[k]), m = end - begin;
    uint64_t best = ~0ull;
    if (!in_middle) {
        const uint32_t b = lane % kTopBins;
        const uint64_t plane_h = top_best_plane(bin_h, lane / kTopBins, b), plane_z = top_best_plane(bin_z, 2, b);
        // (an axis whose centroids coincide has every item in bin 0: no plane)
        best = ::min(plane_h, plane_z);
        for (int d = 16; d > 0; d >>= 1) best = ::min(best, __shfl_xor_sync(kFullMask, best, d));
    }

    // Partition into scratch, stable on both sides: the left side first, in two passes.
    bool binned = best != ~0ull;
    const uint32_t axis = binned ? uint32_t(best & 0xffffffffu) / (kTopBins - 1) : 0u;
    const uint32_t split = binned ? uint32_t(best & 0xffffffffu) % (kTopBins - 1) + 1 : 0u;
    auto goes_left = [&](uint32_t i) {
        if (!binned) return i - begin < m / 2;
        return top_bin(top_centroid(s, s.order[i])[axis], clo[axis], scale[axis]) < split;
    };
    uint32_t num_left = 0;
    for (uint32_t i0 = begin; i0 < end; i0 += 32)
        num_left += __popc(__ballot_sync(kFullMask, i0 + lane < end && goes_left(i0 + lane)));
    if (num_left == 0 || num_left == m) {  // (the same in every lane)
        binned = false;
        num_left = m / 2;
    }
    uint32_t left_at = begin, right_at = begin + num_left;
    const uint32_t below = (1u << lane) - 1u;
    for (uint32_t i0 = begin; i0 < end; i0 += 32) {
        const uint32_t i = i0 + lane;
        const bool valid = i < end, left = valid && goes_left(i);
        const uint32_t lefts = __ballot_sync(kFullMask, left), rights = __ballot_sync(kFullMask, valid && !left);
        if (left) s.scratch[left_at + __popc(lefts & below)] = s.order[i];
        else if (valid) s.scratch[right_at + __popc(rights & below)] = s.order[i];
        left_at += __popc(lefts);
        right_at += __popc(rights);
    }
    __syncwarp();
    for (uint32_t i = begin + lane; i < end; i += 32) s.order[i] = s.scratch[i];
    __syncwarp();

    // The children: an item itself, or a task, linked when the level's tasks are listed.
    uint32_t child[2] = {kInvalid, kInvalid};
    for (uint32_t side = 0; side < 2; ++side) {
        const uint32_t cb = side == 0 ? begin : begin + num_left, ce = side == 0 ? begin + num_left : end;
        if (ce - cb == 1) child[side] = s.node[s.order[cb]];
        else if (lane == 0) s.made[cb] = top_made(ce, k, side);
    }
    if (lane == 0) a.nodes[s.old_ids[k]] = BuildNode{lo, child[0], hi, child[1]};
}

// Whole warp: splits task k alone.
__device__ inline void split_top_task(const PlocArgs a, TopShared& s, uint32_t k, bool in_middle, uint32_t lane) {
    const uint32_t begin = task_begin(s.tasks[k]), end = task_end(s.tasks[k]);
    Vec3f lo, hi, clo, chi;
    top_bounds(s, begin, end, lane, &lo, &hi, &clo, &chi);
    const Vec3f scale = top_scale(clo, chi);
    TopBin bin_h, bin_z;
    if (!in_middle) top_bin_items(s, begin, end, clo, scale, lane, &bin_h, &bin_z);
    finish_split(a, s, k, lo, hi, clo, scale, bin_h, bin_z, in_middle, lane);
}

// Floats as unsigned integers in the same order, for shared-memory atomicMin/Max.
__device__ __forceinline__ uint32_t top_ordered(float f) {
    const uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float top_unordered(uint32_t u) {
    return __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}

// A task's bounds and bins gathered from a group of warps (ordered bits).
struct TopGroup {
    uint32_t lo[3], hi[3], clo[3], chi[3];
    uint32_t bin_lo[3][kTopBins][3], bin_hi[3][kTopBins][3], bin_count[3][kTopBins];
};

// Whole warp (lane `lane`): empty boxes (lo +inf, hi -inf) and no items.
__device__ __forceinline__ void top_group_clear(TopGroup& g, uint32_t lane) {
    auto fill = [lane](uint32_t* w, uint32_t count, uint32_t value) {
        for (uint32_t i = lane; i < count; i += 32) w[i] = value;
    };
    const uint32_t up = top_ordered(kInfinity), down = top_ordered(-kInfinity);
    fill(g.lo, 3, up), fill(g.clo, 3, up), fill(&g.bin_lo[0][0][0], 3 * kTopBins * 3, up);
    fill(g.hi, 3, down), fill(g.chi, 3, down), fill(&g.bin_hi[0][0][0], 3 * kTopBins * 3, down);
    fill(&g.bin_count[0][0], 3 * kTopBins, 0u);
}

__device__ __forceinline__ void top_group_add_box(uint32_t* lo, uint32_t* hi, Vec3f blo, Vec3f bhi) {
    for (int k = 0; k < 3; ++k) {
        atomicMin(&lo[k], top_ordered(blo[k]));
        atomicMax(&hi[k], top_ordered(bhi[k]));
    }
}
__device__ __forceinline__ void top_group_box(const uint32_t* lo, const uint32_t* hi, Vec3f* blo, Vec3f* bhi) {
    *blo = Vec3f(top_unordered(lo[0]), top_unordered(lo[1]), top_unordered(lo[2]));
    *bhi = Vec3f(top_unordered(hi[0]), top_unordered(hi[1]), top_unordered(hi[2]));
}

// Whole block, for a level of at most kTopGroups tasks, where one warp per task
// would bin all of a task's items alone (the root's few hundred: 20 us on an
// H200): the warps split into a group per task, each bins a share of its items,
// the shares meet in shared memory (atomics, one per bin value and warp), and the
// group's first warp splits the task. Tasks of kTopSmall items or fewer are left
// to split_small_task.
__device__ inline void split_level_grouped(const PlocArgs a, TopShared& s, TopGroup* groups, uint32_t level_begin,
                                           uint32_t level_end, uint32_t levels, uint32_t height, uint32_t t) {
    const uint32_t warp = t / 32, lane = t % 32;
    const uint32_t tasks = level_end - level_begin, per_task = kTopWarps / tasks;
    const uint32_t which = warp / per_task, rank = warp % per_task;
    const uint32_t k = level_begin + which;
    const bool works = which < tasks;
    const uint32_t begin = works ? task_begin(s.tasks[k]) : 0u, end = works ? task_end(s.tasks[k]) : 0u, m = end - begin;
    const bool big = works && m > kTopSmall;
    const bool in_middle = top_in_middle(levels, m, height);
    const uint32_t share = (m + per_task - 1) / per_task;
    const uint32_t share_begin = ::min(end, begin + rank * share), share_end = ::min(end, share_begin + share);
    TopGroup& g = groups[works ? which : 0];
    if (big && rank == 0) top_group_clear(g, lane);
    __syncthreads();
    Vec3f lo, hi, clo, chi;
    if (big) {
        top_bounds(s, share_begin, share_end, lane, &lo, &hi, &clo, &chi);
        if (lane == 0) {
            top_group_add_box(g.lo, g.hi, lo, hi);
            top_group_add_box(g.clo, g.chi, clo, chi);
        }
    }
    __syncthreads();
    Vec3f scale;
    if (big) {
        top_group_box(g.lo, g.hi, &lo, &hi);
        top_group_box(g.clo, g.chi, &clo, &chi);
        scale = top_scale(clo, chi);
        if (!in_middle) {
            TopBin bin_h, bin_z;
            top_bin_items(s, share_begin, share_end, clo, scale, lane, &bin_h, &bin_z);
            const uint32_t half = lane / kTopBins, b = lane % kTopBins;
            if (bin_h.count > 0) {
                top_group_add_box(g.bin_lo[half][b], g.bin_hi[half][b], bin_h.lo, bin_h.hi);
                atomicAdd(&g.bin_count[half][b], bin_h.count);
            }
            if (half == 0 && bin_z.count > 0) {
                top_group_add_box(g.bin_lo[2][b], g.bin_hi[2][b], bin_z.lo, bin_z.hi);
                atomicAdd(&g.bin_count[2][b], bin_z.count);
            }
        }
    }
    __syncthreads();
    if (big && rank == 0) {
        const uint32_t half = lane / kTopBins, b = lane % kTopBins;
        TopBin bin_h, bin_z;
        top_group_box(g.bin_lo[half][b], g.bin_hi[half][b], &bin_h.lo, &bin_h.hi);
        bin_h.count = g.bin_count[half][b];
        top_group_box(g.bin_lo[2][b], g.bin_hi[2][b], &bin_z.lo, &bin_z.hi);
        bin_z.count = g.bin_count[2][b];
        finish_split(a, s, k, lo, hi, clo, scale, bin_h, bin_z, in_middle, lane);
    }
}

// One thread: splits task k of two or three items, which would cost a warp as much
// as a large one, by trying every split (of three items, which one stands alone;
// the first, when `in_middle`, which the depth rule never sets for two or three
// items but is kept as the warps' rule), writes its node and notes a child of two
// items.
__device__ inline void split_small_task(const PlocArgs a, TopShared& s, uint32_t k, bool in_middle) {
    const uint32_t begin = task_begin(s.tasks[k]), m = task_end(s.tasks[k]) - begin;
    auto lo_of = [&](uint32_t i) { return top_lo(s, s.order[i]); };
    auto hi_of = [&](uint32_t i) { return top_hi(s, s.order[i]); };
    Vec3f lo = min(lo_of(begin), lo_of(begin + 1)), hi = max(hi_of(begin), hi_of(begin + 1));
    uint32_t child[2] = {s.node[s.order[begin]], s.node[s.order[begin + 1]]};
    if (m == 3) {
        lo = min(lo, lo_of(begin + 2));
        hi = max(hi, hi_of(begin + 2));
        uint32_t alone = 0;
        float best = kInfinity;
        for (uint32_t j = 0; j < (in_middle ? 1u : 3u); ++j) {
            const uint32_t p = begin + (j + 1) % 3, q = begin + (j + 2) % 3;
            const float cost = half_area(lo_of(begin + j), hi_of(begin + j)) +
                               2.0f * half_area(min(lo_of(p), lo_of(q)), max(hi_of(p), hi_of(q)));
            if (cost < best) best = cost, alone = j;
        }
        if (alone != 0) {  // the one alone first, the pair after it in their order
            const uint16_t first = s.order[begin + alone];
            for (uint32_t i = begin + alone; i > begin; --i) s.order[i] = s.order[i - 1];
            s.order[begin] = first;
        }
        child[0] = s.node[s.order[begin]];
        child[1] = kInvalid;
        s.made[begin + 1] = top_made(begin + 3, k, 1);
    }
    a.nodes[s.old_ids[k]] = BuildNode{lo, child[0], hi, child[1]};
}

// Whole block of kTopBlock threads (thread t); after H-PLOC has reached the root.
__device__ inline void rebuild_top(const PlocArgs a, uint32_t t) {
    __shared__ TopShared s;
    __shared__ TopGroup groups[kTopGroups];
    static_assert(sizeof(TopShared) + sizeof(groups) <= 48 * 1024,
                  "static shared memory: more items or groups need dynamic shared memory");
    const uint32_t cut = top_cut(a.n), root = *a.root;
    const uint32_t warp = t / 32, lane = t % 32;
    auto prims = [&](uint32_t x) { return __ldcg(&a.meta[x].count) & ~kLeafFlag; };
    if (t == 0) {
        s.old_ids[0] = root;
        s.item_height = 0;
    }
    __syncthreads();

    // The old top, breadth first (old_ids is the queue), and the items below it, each
    // level placed by a prefix sum: the order depends on the tree alone, not on which
    // thread runs first (the middle splits below cut by it). Every thread holds the
    // same counts.
    uint32_t num_old = 1, num_items = 0;
    for (uint32_t head = 0, tail = 1; head < tail && num_old <= kTopMaxItems && num_items <= kTopMaxItems;) {
        for (uint32_t base = head; base < tail; base += kTopBlock) {
            const uint32_t q = base + t;
            bool old_child[2] = {false, false};
            BuildNode x{};
            if (q < tail) {
                x = a.nodes[s.old_ids[q]];
                old_child[0] = prims(x.left) > cut;
                old_child[1] = prims(x.right) > cut;
            }
            const uint32_t olds = uint32_t(old_child[0]) + uint32_t(old_child[1]);
            const uint32_t packed = q < tail ? (olds << 16) | (2u - olds) : 0u;  // at most 1024 each
            uint32_t total;
            const uint32_t before = top_block_scan(packed, t, s.warp_sums, &total);
            uint32_t at_old = num_old + (before >> 16), at_item = num_items + (before & 0xffffu);
            if (q < tail)
                for (int side = 0; side < 2; ++side) {
                    const uint32_t c = side == 0 ? x.left : x.right;
                    if (old_child[side]) {
                        if (at_old < kTopMaxItems) s.old_ids[at_old] = c;
                        ++at_old;
                    } else {
                        if (at_item < kTopMaxItems) {
                            s.node[at_item] = c;
                            atomicMax(&s.item_height, __ldcg(&a.meta[c].height));
                        }
                        ++at_item;
                    }
                }
            num_old += total >> 16;
            num_items += total & 0xffffu;
        }
        __syncthreads();
        head = tail;
        tail = num_old;
    }
    // Too many items, or a top that even split in the middle throughout would make
    // the tree deeper than the traversal stack allows: H-PLOC's top stays (the
    // condition is the same in every thread).
    if (num_old > kTopMaxItems || num_items > kTopMaxItems) return;
    const uint32_t height = s.item_height;
    if (ceil_log2(num_items) + height > kBvhMaxDepth) return;

    // The items' boxes, read once.
    for (uint32_t slot = t; slot < num_items; slot += kTopBlock) {
        const BuildNode x = a.nodes[s.node[slot]];
        s.box[slot][0] = x.lo.x, s.box[slot][1] = x.lo.y, s.box[slot][2] = x.lo.z;
        s.box[slot][3] = x.hi.x, s.box[slot][4] = x.hi.y, s.box[slot][5] = x.hi.z;
        s.order[slot] = uint16_t(slot);
    }
    for (uint32_t i = t; i < kTopMaxItems; i += kTopBlock) s.made[i] = 0;
    if (t == 0) {
        s.tasks[0] = top_task(0, num_items);
        s.level_start[0] = 0;
        s.level_start[1] = 1;
    }
    __syncthreads();

    // Top-down, one level per pass; then the tasks the level made are listed in the
    // order of their items (a prefix sum), which names their nodes, and linked.
    uint32_t levels = 0, num_tasks = 1;
    // (No task reaches level kBvhMaxDepth, by top_in_middle; the first bound is a
    // safety net.)
    while (levels <= kBvhMaxDepth && s.level_start[levels] < s.level_start[levels + 1]) {
        const uint32_t level_begin = s.level_start[levels], level_end = s.level_start[levels + 1];
        auto in_middle = [&](uint32_t m) { return top_in_middle(levels, m, height); };
        if (level_end - level_begin <= kTopGroups)
            split_level_grouped(a, s, groups, level_begin, level_end, levels, height, t);
        else
            for (uint32_t k = level_begin + warp; k < level_end; k += kTopWarps) {
                const uint32_t m = task_end(s.tasks[k]) - task_begin(s.tasks[k]);
                if (m > kTopSmall) split_top_task(a, s, k, in_middle(m), lane);
            }
        for (uint32_t k = level_begin + t; k < level_end; k += kTopBlock) {
            const uint32_t m = task_end(s.tasks[k]) - task_begin(s.tasks[k]);
            if (m <= kTopSmall) split_small_task(a, s, k, in_middle(m));
        }
        __syncthreads();
        for (uint32_t base = 0; base < num_items; base += kTopBlock) {
            const uint32_t i = base + t, made = i < num_items ? s.made[i] : 0u;
            uint32_t total;
            const uint32_t q = num_tasks + top_block_scan(made != 0 ? 1u : 0u, t, s.warp_sums, &total);
            if (made != 0) {
                s.tasks[q] = top_task(i, made_end(made));
                BuildNode& parent = a.nodes[s.old_ids[made_parent(made)]];
                (made_right(made) ? parent.right : parent.left) = s.old_ids[q];
                s.made[i] = 0;
            }
            num_tasks += total;
        }
        ++levels;
        if (t == 0) s.level_start[levels + 1] = num_tasks;
        __syncthreads();
    }

    // Bottom-up: each new node's meta, table and parent links from its children's,
    // whose own were written in the pass before (global writes of this block are
    // visible to it after __syncthreads).
    auto cluster = [&](uint32_t x) {
        const BuildNode node = a.nodes[x];
        const BuildMeta m = a.meta[x];
        return Cluster{node.lo, node.hi, m.cost, m.count & ~kLeafFlag, m.height, x, m.leaves, 0u};
    };
    auto table_of = [&](const Cluster& c) { return c.height > 0 ? a.tables[c.id - a.n] : WideTable{}; };
    for (uint32_t level = levels; level-- > 0;) {
        for (uint32_t k = s.level_start[level] + t; k < s.level_start[level + 1]; k += kTopBlock) {
            const uint32_t id = s.old_ids[k];
            const BuildNode node = a.nodes[id];
            const Cluster left = cluster(node.left), right = cluster(node.right);
            bool leaf;
            Cluster merged = merged_cluster(left, right, &leaf);
            merged.id = id;
            const WideTable table = leaf ? WideTable{}
                                         : make_wide_table(table_of(left), table_of(right),
                                                           collapse_area(merged.lo, merged.hi), merged.height);
            write_merge(a, merged, leaf, node.left, node.right, table);
        }
        __syncthreads();
    }
    // The root's link as H-PLOC left it (no merge here names the root a child, so
    // this restates it, and the pass's output does not depend on H-PLOC's store).
    if (t == 0) a.parent[root] = kInvalid;
}

}  // namespace wf::hploc
