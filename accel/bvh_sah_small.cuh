// The GPU builder's binned-SAH method (bvh_sah_gpu.cu): a small task (at most
// kSmall primitives) split down to single primitives by one warp in shared memory.
// Included by bvh_sah_gpu.cu only.
#pragma once

#include <cstdint>

#include "accel/bvh_sah_bins.cuh"

namespace wf::sah {

// ---- small tasks: one warp each ----------------------------------------------

// Positions [base, ...) of boxes and order: a small task's in its warp's shared
// memory, or a level's whole arrays (base 0).
struct Positions {
    BvhNode* boxes;
    uint32_t* order;
    uint32_t base;
    __device__ __forceinline__ BvhNode& box(uint32_t p) const { return boxes[p - base]; }
    __device__ __forceinline__ uint32_t& prim(uint32_t p) const { return order[p - base]; }
};
struct SmallShared {  // one warp's
    BvhNode boxes[kSmall];
    uint32_t order[kSmall];
    Bin bins[3 * kBins];
};

// Primitive p's leaf (build node p), from the box and primitive at position p.
__device__ __forceinline__ void write_leaf(const SahArgs& s, uint32_t p, Vec3f lo, Vec3f hi, uint32_t prim,
                                          uint32_t link) {
    s.tree.nodes[p] = BuildNode{lo, prim, hi, kInvalid};
    s.tree.meta[p] = BuildMeta{half_area(lo, hi), 1u, 0u, 1u};
    s.order[0][p] = prim;
    attach(s.tree, link, p);
}

// Lane `lane` of a range starting at b holds position b + lane (lo, hi, prim); a
// child [cb, ce) of at most two primitives under `link` is finished here: its
// leaves, and for two, the node over them (id n + cb). Returns whether it was.
__device__ __forceinline__ bool finish_child(const SahArgs& s, uint32_t b, uint32_t cb, uint32_t ce, uint32_t link,
                                             uint32_t lane, Vec3f lo, Vec3f hi, uint32_t prim) {
    if (ce - cb > 2) return false;
    const uint32_t p = b + lane;
    if (ce - cb == 1) {
        if (p == cb) write_leaf(s, p, lo, hi, prim, link);
        return true;
    }
    const uint32_t pair = s.tree.n + cb;
    if (p == cb) {
        attach(s.tree, link, pair);
        write_leaf(s, p, lo, hi, prim, pair);
    } else if (p == cb + 1) {
        write_leaf(s, p, lo, hi, prim, pair | kRightChild);
    }
    return true;
}

// Whole warp: the range [b, e) of 3..32 primitives under `link` split by a full
// SAH sweep along the best axis: its node attached, its positions rewritten in
// that axis' order (ties by position), and children of one or two primitives
// finished (finish_child). Returns the split and, in *done, which children were
// finished (bit 0 left, bit 1 right). The sort and the scans span only the lanes
// the range needs (the next power of two): most ranges hold 4 or 8.
__device__ inline uint32_t sweep_split(const SahArgs& s, const Positions& at, uint32_t b, uint32_t e,
                                       uint32_t link, uint32_t lane, uint32_t* done) {
    const uint32_t m = e - b;
    const uint32_t width = m <= 4 ? 4u : (m <= 8 ? 8u : (m <= 16 ? 16u : 32u));
    const bool valid = lane < m;
    const BvhNode box = valid ? at.box(b + lane) : BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
    const uint32_t prim = valid ? at.prim(b + lane) : 0u;
    const Vec3f c = centroid(box);
    // The three axes in lockstep, so that their chains of shuffles overlap. Sort
    // keys: the centroid's ordered bits above, the lane in the low 5 bits (ties, and
    // centroids within 2^-18 of each other, in lane order); the lanes past the
    // range sort last.
    uint32_t key[3];
#pragma unroll
    for (uint32_t a = 0; a < 3; ++a) key[a] = valid ? (::min(ordered_bits(c[a]), 0xffffffc0u) & ~31u) | lane : ~0u;
    for (uint32_t k = 2; k <= width; k <<= 1)
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            const bool keep_min = ((lane & j) == 0) == ((lane & k) == 0);
#pragma unroll
            for (uint32_t a = 0; a < 3; ++a) {
                const uint32_t o = __shfl_xor_sync(kFullMask, key[a], j);
                key[a] = keep_min ? ::min(key[a], o) : ::max(key[a], o);
            }
        }
    // Lane k holds the k-th box along each axis; the unions of boxes 0..k and k..31.
    uint32_t source[3];
    Vec3f llo[3], lhi[3], rlo[3], rhi[3];
#pragma unroll
    for (uint32_t a = 0; a < 3; ++a) {
        source[a] = key[a] & 31u;
        llo[a] = shfl(box.lo, int(source[a]));
        lhi[a] = shfl(box.hi, int(source[a]));
        if (!valid) llo[a] = Vec3f(kInfinity), lhi[a] = Vec3f(-kInfinity);
        rlo[a] = llo[a];
        rhi[a] = lhi[a];
    }
    for (uint32_t d = 1; d < width; d <<= 1) {
#pragma unroll
        for (uint32_t a = 0; a < 3; ++a) {
            const Vec3f plo = shfl_up(llo[a], d), phi = shfl_up(lhi[a], d);
            if (lane >= d) llo[a] = min(llo[a], plo), lhi[a] = max(lhi[a], phi);
            const Vec3f slo = shfl_down(rlo[a], d), shi = shfl_down(rhi[a], d);
            if (lane + d < 32) rlo[a] = min(rlo[a], slo), rhi[a] = max(rhi[a], shi);
        }
    }
    uint64_t best = kNoSplit;
#pragma unroll
    for (uint32_t a = 0; a < 3; ++a) {
        const Vec3f nlo = shfl_down(rlo[a], 1), nhi = shfl_down(rhi[a], 1);  // boxes k + 1 ..
        if (lane + 1 < m) {
            const float cost =
                float(lane + 1) * half_area(llo[a], lhi[a]) + float(m - lane - 1) * half_area(nlo, nhi);
            // Equal costs (equal boxes) split as evenly as they can, not one off the end.
            const uint32_t imbalance = uint32_t(::abs(int(2 * (lane + 1)) - int(m)));
            const uint64_t k = split_key(cost, a, lane) | (uint64_t(imbalance) << 16);
            best = k < best ? k : best;
        }
    }
    best = warp_min(best);
    const uint32_t axis = uint32_t(best >> 8) & 3u, split = b + (uint32_t(best) & 255u) + 1;
    const uint32_t src = axis == 0 ? source[0] : (axis == 1 ? source[1] : source[2]);
    const Vec3f lo = shfl(box.lo, int(src)), hi = shfl(box.hi, int(src));
    const uint32_t p = __shfl_sync(kFullMask, prim, int(src));
    __syncwarp();
    if (valid) {
        at.box(b + lane) = BvhNode{lo, 0u, hi, 0u};
        at.prim(b + lane) = p;
    }
    const uint32_t id = s.tree.n + split - 1;
    if (lane == 0) attach(s.tree, link, id);
    *done = (finish_child(s, b, b, split, id, lane, lo, hi, p) ? 1u : 0u) |
            (finish_child(s, b, split, e, id | kRightChild, lane, lo, hi, p) ? 2u : 0u);
    __syncwarp();
    return split;
}

// Whole warp: the range [b, e) of more than 32 primitives split by binned SAH
// (bins: the warp's 3 x kBins in shared memory), partitioned stably through the
// other level's arrays (tmp_*) and copied back. Returns the split; a range whose
// centroids no bin separates splits in the middle, unmoved.
__device__ inline uint32_t binned_split(const Positions& at, const Positions& tmp, uint32_t b, uint32_t e,
                                        uint32_t lane, Bin* bins) {
    const uint32_t m = e - b;
    Vec3f clo(kInfinity), chi(-kInfinity);
    for (uint32_t p = b + lane; p < e; p += 32) {
        const Vec3f c = centroid(at.box(p));
        clo = min(clo, c);
        chi = max(chi, c);
    }
    warp_union(&clo, &chi);
    const Vec3f scale(bin_scale(clo.x, chi.x), bin_scale(clo.y, chi.y), bin_scale(clo.z, chi.z));
    for (uint32_t i = lane; i < 3 * kBins; i += 32) empty_bin(bins[i]);
    __syncwarp();
    for (uint32_t base = b; base < e; base += 32) {
        const uint32_t p = base + lane;
        const BvhNode box = p < e ? at.box(p) : BvhNode{};
        add_to_bins(bins, p < e ? pack_bins(centroid(box), clo, scale) : kNoBin, box, lane);
    }
    __syncwarp();
    uint32_t nl;
    const uint64_t best = best_bin_split(bins, m, lane, &nl);
    __syncwarp();  // the bins are the next range's
    if (best == kNoSplit) return b + nl;
    const uint32_t axis = uint32_t(best >> 8) & 3u, last = uint32_t(best) & 255u;
    uint32_t lefts = 0, rights = 0;
    for (uint32_t base = b; base < e; base += 32) {
        const uint32_t p = base + lane;
        const bool valid = p < e;
        BvhNode box{};
        uint32_t prim = 0;
        bool goes_left = false;
        if (valid) {
            box = at.box(p);
            prim = at.prim(p);
            goes_left = bin_of(centroid(box)[axis], clo[axis], scale[axis]) <= last;
        }
        const uint32_t below = (1u << lane) - 1u;
        const uint32_t left_mask = __ballot_sync(kFullMask, valid && goes_left);
        const uint32_t right_mask = __ballot_sync(kFullMask, valid && !goes_left);
        if (valid) {
            const uint32_t to = goes_left ? b + lefts + __popc(left_mask & below)
                                          : b + nl + rights + __popc(right_mask & below);
            tmp.box(to) = box;
            tmp.prim(to) = prim;
        }
        lefts += __popc(left_mask);
        rights += __popc(right_mask);
    }
    __syncwarp();
    for (uint32_t p = b + lane; p < e; p += 32) {
        at.box(p) = tmp.box(p);
        at.prim(p) = tmp.prim(p);
    }
    __syncwarp();
    return b + nl;
}

// Whole warp: small task t split down to single primitives (the larger child of
// each split waits on a stack, so it holds at most log2(kSmall) + 1 ranges), each
// primitive's leaf written and its primitive id put in ids_sorted.
__device__ inline void split_small_task(const SahArgs& s, const SmallTask& t, uint32_t lane, SmallShared& sh) {
    const uint32_t n = s.tree.n;
    // The task's positions into shared memory: every split below reads and writes
    // them a few times. The binned splits' partitions go through the other level's
    // arrays, free over the task's range.
    const Positions at{sh.boxes, sh.order, t.begin}, tmp{s.boxes[1 - t.parity], s.order[1 - t.parity], 0u};
    for (uint32_t p = t.begin + lane; p < t.end; p += 32) {
        at.box(p) = s.boxes[t.parity][p];
        at.prim(p) = s.order[t.parity][p];
    }
    __syncwarp();
    uint32_t stack_b[12], stack_e[12], stack_link[12];
    uint32_t sp = 0;
    auto push = [&](uint32_t b, uint32_t e, uint32_t link) {
        stack_b[sp] = b;
        stack_e[sp] = e;
        stack_link[sp] = link;
        ++sp;
    };
    push(t.begin, t.end, t.link);
    while (sp > 0) {
        --sp;
        const uint32_t b = stack_b[sp], e = stack_e[sp], link = stack_link[sp], m = e - b;
        if (m <= 2) {  // a task of one or two primitives (a sweep finishes its own)
            const bool valid = lane < m;
            const BvhNode box = valid ? at.box(b + lane) : BvhNode{};
            const uint32_t prim = valid ? at.prim(b + lane) : 0u;
            finish_child(s, b, b, e, link, lane, box.lo, box.hi, prim);
            continue;
        }
        uint32_t done = 0, split;
        if (m <= 32) {
            split = sweep_split(s, at, b, e, link, lane, &done);
        } else {
            split = binned_split(at, tmp, b, e, lane, sh.bins);
            if (lane == 0) attach(s.tree, link, n + split - 1);
        }
        // The larger child below the smaller on the stack, so the smaller goes first.
        const uint32_t id = n + split - 1;
        const bool left_larger = split - b > e - split;
        for (uint32_t k = 0; k < 2; ++k) {
            const bool left = (k == 0) == left_larger;
            if (done & (left ? 1u : 2u)) continue;
            if (left) push(b, split, id);
            else push(split, e, id | kRightChild);
        }
    }
}

}  // namespace wf::sah
