// The GPU builder's binned-SAH method (bvh_sah_gpu.cu): bins of centroids, the
// best split they offer, and the arguments its passes share. Included by
// bvh_sah_small.cuh and bvh_sah_gpu.cu only.
#pragma once

#include <cstdint>

#include "accel/bvh_build_gpu_buffers.cuh"

namespace wf::sah {

using namespace ::wf::gpu_bvh;

inline constexpr uint64_t kNoSplit = ~0ull;

// The bin of coordinate x among kBins over [lo, lo + extent]: the same float
// arithmetic wherever it is asked (binning, partition), so both agree; the
// intrinsics keep the compiler from fusing the subtraction with the centroid's
// multiplication at one call site and not at another. NaN goes to 0.
__device__ __forceinline__ uint32_t bin_of(float x, float lo, float scale) {
    const float f = __fmul_rn(__fsub_rn(x, lo), scale);
    return f >= 0.0f ? uint32_t(fminf(f, float(kBins - 1))) : 0u;
}
__device__ __forceinline__ float bin_scale(float lo, float hi) {
    const float extent = hi - lo;
    return extent > 0.0f ? float(kBins) / extent : 0.0f;
}
__device__ __forceinline__ Vec3f centroid(const BvhNode& box) { return (box.lo + box.hi) * 0.5f; }

__device__ __forceinline__ void empty_bin(Bin& b) {
    for (int a = 0; a < 3; ++a) {
        b.lo[a] = ~0u;
        b.hi[a] = 0u;
    }
    b.count = 0;
}
__device__ __forceinline__ void merge_bin(Bin& to, const Bin& from) {
    if (from.count == 0) return;
    for (int a = 0; a < 3; ++a) {
        atomicMin(&to.lo[a], from.lo[a]);
        atomicMax(&to.hi[a], from.hi[a]);
    }
    atomicAdd(&to.count, from.count);
}
// Whole warp: each lane's box into its bins (3 x kBins: one per axis, `which`
// packing the three bins' indices 8 bits apart; kNoBin: none). On sm_80 and newer,
// lanes of the same three bins are reduced first, so that such a group takes one
// lane's atomics: neighbours in Morton order mostly share their bins, and their
// atomics would queue on the same addresses.
inline constexpr uint32_t kNoBin = 0xffffffffu;
__device__ __forceinline__ uint32_t pack_bins(const Vec3f& c, const Vec3f& lo, const Vec3f& scale) {
    return bin_of(c.x, lo.x, scale.x) | bin_of(c.y, lo.y, scale.y) << 8 | bin_of(c.z, lo.z, scale.z) << 16;
}
__device__ __forceinline__ void add_to_bins(Bin* bins, uint32_t which, const BvhNode& box, uint32_t lane) {
    uint32_t lo[3], hi[3], count = 1;
    for (int a = 0; a < 3; ++a) {
        lo[a] = ordered_bits(box.lo[a]);
        hi[a] = ordered_bits(box.hi[a]);
    }
#if __CUDA_ARCH__ >= 800
    const uint32_t group = __match_any_sync(kFullMask, which);
    for (int a = 0; a < 3; ++a) {
        lo[a] = __reduce_min_sync(group, lo[a]);
        hi[a] = __reduce_max_sync(group, hi[a]);
    }
    count = __popc(group);
    if (lane != uint32_t(__ffs(group) - 1)) return;
#else
    (void)lane;
#endif
    if (which == kNoBin) return;
    for (uint32_t axis = 0; axis < 3; ++axis) {
        Bin& b = bins[axis * kBins + ((which >> (8 * axis)) & 255u)];
        for (int a = 0; a < 3; ++a) {
            atomicMin(&b.lo[a], lo[a]);
            atomicMax(&b.hi[a], hi[a]);
        }
        atomicAdd(&b.count, count);
    }
}
__device__ __forceinline__ Vec3f bin_lo(const Bin& b) {
    return Vec3f(from_ordered_bits(b.lo[0]), from_ordered_bits(b.lo[1]), from_ordered_bits(b.lo[2]));
}
__device__ __forceinline__ Vec3f bin_hi(const Bin& b) {
    return Vec3f(from_ordered_bits(b.hi[0]), from_ordered_bits(b.hi[1]), from_ordered_bits(b.hi[2]));
}

// A split's key: cost first (not negative, so its bits order as the floats do; a
// NaN cost, from NaN boxes, counts as infinite), then axis and place (bits 8-9 and
// 0-7; the sweep puts its balance in bits 16-21 before them), so that every tie
// breaks the same way.
__device__ __forceinline__ uint64_t split_key(float cost, uint32_t axis, uint32_t place) {
    const float key = cost == cost ? fmaxf(cost, 0.0f) : kInfinity;
    return (uint64_t(__float_as_uint(key)) << 32) | (axis << 8) | place;
}

// The parent's child field for link (left or right), set to id; the root's link
// names no parent and sets the root.
__device__ __forceinline__ void attach(const PlocArgs& a, uint32_t link, uint32_t id) {
    a.parent[id] = link;
    if (link == kInvalid) {
        *a.root = id;
        return;
    }
    BuildNode& p = a.nodes[parent_id(link)];
    if (is_right_child(link)) p.right = id;
    else p.left = id;
}

// What every pass of the method reads and writes.
struct SahArgs {
    PlocArgs tree;
    uint32_t* order[2];  // by level parity: position -> primitive id (order[0] is ids_sorted)
    BvhNode* boxes[2];   // by level parity: position -> box
    Task* tasks[2];      // by level parity
    Bin* bins[2];        // by level parity: 3 x kBins per task
    uint32_t* hist;      // 3 x kBins counts per chunk of the level
    uint32_t* left_before;  // per chunk: its task's positions going left in the chunks before it
    uint32_t* chunk_task;   // per chunk: its task on the level
    SmallTask* small;
    uint32_t* counts;
};

__device__ __forceinline__ uint64_t warp_min(uint64_t v) {
    for (int d = 16; d > 0; d >>= 1) {
        const uint64_t o = __shfl_xor_sync(kFullMask, v, d);
        v = o < v ? o : v;
    }
    return v;
}

// Whole warp: the best split of m primitives by their bins (3 x kBins, in shared
// or global memory), as a split key (kNoSplit where no bin boundary separates
// them), and the primitives it puts left (m / 2 for kNoSplit: split in the middle).
__device__ inline uint64_t best_bin_split(const Bin* bins, uint32_t m, uint32_t lane, uint32_t* left) {
    uint64_t best = kNoSplit;
    uint32_t left_count[3];
    for (uint32_t a = 0; a < 3; ++a) {
        // Lane j < kBins holds bin j; prefix unions and counts up, suffix unions down.
        const Bin& bin = bins[a * kBins + (lane % kBins)];
        const bool has = lane < kBins && bin.count > 0;
        Vec3f llo = has ? bin_lo(bin) : Vec3f(kInfinity), lhi = has ? bin_hi(bin) : Vec3f(-kInfinity);
        uint32_t count = has ? bin.count : 0u;
        Vec3f rlo = llo, rhi = lhi;
        for (uint32_t d = 1; d < kBins; d <<= 1) {
            const Vec3f plo = shfl_up(llo, d), phi = shfl_up(lhi, d);
            const uint32_t pc = __shfl_up_sync(kFullMask, count, d);
            if (lane >= d) llo = min(llo, plo), lhi = max(lhi, phi), count += pc;
            const Vec3f slo = shfl_down(rlo, d), shi = shfl_down(rhi, d);
            if (lane + d < kBins) rlo = min(rlo, slo), rhi = max(rhi, shi);
        }
        const Vec3f nlo = shfl_down(rlo, 1), nhi = shfl_down(rhi, 1);
        left_count[a] = count;  // lane j: primitives in bins 0..j
        if (lane + 1 < kBins && count > 0 && count < m) {
            const float cost = float(count) * half_area(llo, lhi) + float(m - count) * half_area(nlo, nhi);
            const uint64_t k = split_key(cost, a, lane);
            best = k < best ? k : best;
        }
    }
    best = warp_min(best);
    if (best == kNoSplit) {
        *left = m / 2;
        return best;
    }
    const uint32_t axis = uint32_t(best >> 8) & 3u;
    const uint32_t lc = axis == 0 ? left_count[0] : (axis == 1 ? left_count[1] : left_count[2]);
    *left = __shfl_sync(kFullMask, lc, int(best & 255u));
    return best;
}

}  // namespace wf::sah
