// Neighbours in Morton order paired before H-PLOC (bvh_build_gpu.cu): primitives
// i and i + 1 of the sort become one cluster, a build node of two primitives,
// when each is the other's nearest of its two neighbours, nearness being the
// surface area of the two boxes' union. This is the first round of PLOC with a
// window of one, done once over all primitives by one thread each, and most
// primitives of a mesh pair (70-90% of bench_bvh's). H-PLOC then climbs the
// LBVH of the clusters, and its merges, each a warp's round of PLOC, are that
// many fewer. Two passes and a scan between them: which neighbours pair
// (pair_flags), then the clusters listed in order (list_cluster).
// Included by bvh_build_gpu.cu only.
#pragma once

#include <cstdint>

#include "accel/bvh_build.h"
#include "accel/bvh_node.h"
#include "accel/bvh_ploc.cuh"

namespace wf::hploc {

// Orders the boundaries between sorted neighbours j and j + 1 strictly: the
// area of the union of their boxes a and b, then, as dissimilarity() does for
// equal codes, the highest bit of j ^ (j + 1) and j itself, so that in a run of
// equal areas (equal boxes, evenly spaced ones) every other boundary pairs. A
// key whose area part is kNeverPair never pairs: a union of NaN area (boxes
// NaN on both sides: min and max drop a NaN beside a number), or two primitives
// on either side of the large primitives' bit of the Morton code
// (bvh_build_gpu.cu sorts those after all others so that H-PLOC meets them only
// near the root). 31 + 5 + 28 bits.
inline constexpr uint32_t kNeverPair = 0x7fffffffu;  // above every area's bits (+inf is 0x7f800000)
inline constexpr uint64_t kNoBoundary = ~0ull;       // past the last primitive
__device__ __forceinline__ uint64_t pair_key(const BvhNode& a, const BvhNode& b, const uint32_t* sorted_codes,
                                             uint32_t large_bit, uint32_t j) {
    const float area = half_area(min(a.lo, b.lo), max(a.hi, b.hi));
    // Areas are not negative, so their bits order as the floats do.
    uint32_t bits = area >= 0.0f ? __float_as_uint(area) & 0x7fffffffu : kNeverPair;  // NaN fails; -0 is 0
    if ((sorted_codes[j] ^ sorted_codes[j + 1]) & large_bit) bits = kNeverPair;
    const uint32_t level = 31u - __clz(j ^ (j + 1));
    return (uint64_t(bits) << 33) | (uint64_t(level) << 28) | j;
}
__device__ __forceinline__ bool pairable(uint64_t key) { return uint32_t(key >> 33) != kNeverPair; }

// The primitives in sorted order: their boxes and Morton codes.
struct SortedPrims {
    const BvhNode* boxes;  // by primitive id
    const uint32_t* ids;
    const uint32_t* codes;
    uint32_t large_bit;
    uint32_t n;
    __device__ __forceinline__ BvhNode box(uint32_t j) const { return boxes[ids[j]]; }
    __device__ __forceinline__ uint64_t key(const BvhNode& a, const BvhNode& b, uint32_t j) const {
        return pair_key(a, b, codes, large_bit, j);
    }
};

// Whole warp, thread i for sorted primitive i (i >= n: lanes that only help):
// writes build node i, the primitive's leaf, and starts[i + 1]: 0 where i pairs
// with i + 1 (their boundary's key is below both neighbouring boundaries'),
// else 1; thread 0 writes starts[0] = 1. Each lane loads its own box and takes
// its neighbours' keys from the lanes beside it; the lanes at the warp's edges
// load what lies past them.
__device__ __forceinline__ void pair_flags(const PlocArgs& a, const SortedPrims& s, uint32_t* starts, uint32_t i) {
    const uint32_t n = s.n, lane = i & 31;
    const bool valid = i < n;
    const BvhNode box = valid ? s.box(i) : BvhNode{};
    if (valid) {
        a.nodes[i] = BuildNode{box.lo, s.ids[i], box.hi, kInvalid};
        a.meta[i] = BuildMeta{half_area(box.lo, box.hi), 1u, 0u, 1u};
    }
    BvhNode next;
    next.lo = shfl_down(box.lo, 1);
    next.hi = shfl_down(box.hi, 1);
    if (lane == 31 && i + 1 < n) next = s.box(i + 1);
    const uint64_t key = i + 1 < n ? s.key(box, next, i) : kNoBoundary;
    uint64_t left = __shfl_up_sync(kFullMask, key, 1), right = __shfl_down_sync(kFullMask, key, 1);
    if (lane == 0 && valid && i > 0) left = s.key(s.box(i - 1), box, i - 1);
    if (lane == 31 && i + 2 < n) right = s.key(next, s.box(i + 2), i + 1);
    if (i == 0) starts[0] = 1;
    if (i + 1 < n) {
        const bool pairs = pairable(key) && (i == 0 || key < left) && (i + 2 >= n || key < right);
        starts[i + 1] = pairs ? 0u : 1u;
    }
}

// Thread i, once starts[] is scanned (rank: the clusters before i): where a
// cluster starts at i, lists it as cluster `rank` with its code, and where it
// is a pair, writes its node, id n + (pairs before it), and its children's
// parent links. The last cluster's thread writes their count and the pairs'
// (the build's node counter, from which H-PLOC goes on), and where that one
// pair is the whole tree, the root.
__device__ __forceinline__ void list_cluster(const PlocArgs& a, const SortedPrims& s, const uint32_t* starts,
                                             uint32_t rank, uint32_t* cluster_codes, uint32_t* num_clusters,
                                             uint32_t i) {
    const uint32_t n = s.n;
    if (!starts[i]) return;
    const bool pair = i + 1 < n && !starts[i + 1];
    uint32_t id = i;
    if (pair) {
        id = n + (i - rank);
        const BuildNode l = a.nodes[i], r = a.nodes[i + 1];
        const Cluster left{l.lo, l.hi, half_area(l.lo, l.hi), 1u, 0u, i, 1u, 0u};
        const Cluster right{r.lo, r.hi, half_area(r.lo, r.hi), 1u, 0u, i + 1, 1u, 0u};
        bool leaf;
        Cluster merged = merged_cluster(left, right, &leaf);
        merged.id = id;
        const WideTable table = leaf ? WideTable{}
                                     : make_wide_table(WideTable{}, WideTable{}, collapse_area(merged.lo, merged.hi),
                                                       merged.height);
        write_merge(a, merged, leaf, i, i + 1, table);
    }
    a.clusters[rank] = id;
    cluster_codes[rank] = s.codes[i];
    if (i + (pair ? 2u : 1u) == n) {  // the last cluster
        *num_clusters = rank + 1;
        *a.counter = n - (rank + 1);
        if (rank == 0) {  // two primitives, paired
            *a.root = id;
            a.parent[id] = kInvalid;
        }
    }
}

}  // namespace wf::hploc
