// H-PLOC's clustering (Benthin et al. 2024), the heart of bvh_build_gpu.cu: one
// thread per cluster (a primitive, or a pair of neighbours that bvh_pairs.cuh
// merged first) climbs the implicit LBVH of the clusters in Morton order
// (Apetrei 2014), and whenever a subtree holds more than kClusterThreshold
// clusters the whole warp merges them with PLOC (Meister and Bittner 2018).
// Included by bvh_build_gpu.cu only.
//
// Build-node ids: [0, n) are the primitives in Morton order, [n, 2n - 1) the
// interior nodes in creation order, the pairs first (but for the top, which
// bvh_top_sah.cuh rebuilds in the old top's ids). (The binned-SAH method,
// bvh_sah_gpu.cu, numbers its nodes by their split positions instead.) Every build node records its
// box, its two children (for a primitive: its primitive id), its subtree's
// primitive count, the SAH cost of the best tree below it, and whether that
// best tree is a single leaf. Leaf collapsing is thus decided bottom-up when a
// node is created, and so is the node's table for the collapse into the wide
// traversal layout (make_wide_table, traversal_bvh.h).
#pragma once

#include <cstdint>

#include "accel/bvh_build.h"
#include "accel/traversal_bvh.h"
#include "engine/math.h"

namespace wf::hploc {

inline constexpr uint32_t kInvalid = 0xffffffffu;
inline constexpr uint32_t kFullMask = 0xffffffffu;
// PLOC runs in a subtree once it holds more than this many clusters and leaves
// this many: two children's lists then fill one warp (H-PLOC's choice).
inline constexpr uint32_t kClusterThreshold = 16;
// PLOC's neighbour window, in clusters each way. 4 rather than 8: on an H100 the build is
// 10% faster (H-PLOC 0.55 -> 0.44 ms at 1M) for SAH +1.2% on a bumpy sphere and -4% on a
// sphere field, traversal within +-1.5%; 12 is slower still for no better tree (bench/NOTES.md).
inline constexpr int kSearchRadius = 4;
inline constexpr uint32_t kLeafFlag = 0x80000000u;  // in BuildMeta::count: the best subtree is one leaf
// parent[x] is x's parent's id, with kRightChild set when x is its right child
// (ids are below 2^29), or kInvalid at the root: a climb knows which side it
// came from without loading the parent's node.
inline constexpr uint32_t kRightChild = 0x80000000u;
// H-PLOC runs in blocks of one warp (bvh_build_gpu.cu says why); merge_subtree keeps
// its warp's tables in shared memory by that.
inline constexpr uint32_t kHplocBlockSize = 32;
__device__ __forceinline__ uint32_t parent_id(uint32_t link) { return link & ~kRightChild; }
__device__ __forceinline__ bool is_right_child(uint32_t link) { return (link & kRightChild) != 0; }

struct BuildNode {  // 32 bytes: two 128-bit loads
    Vec3f lo;
    uint32_t left;  // a primitive's: its primitive id
    Vec3f hi;
    uint32_t right;
};
static_assert(sizeof(BuildNode) == 32);

struct BuildMeta {  // 16 bytes: one 128-bit load
    float cost;       // SAH cost of the subtree, in areas (not yet divided by the root's)
    uint32_t count;   // primitives below, | kLeafFlag
    uint32_t height;  // of the subtree in the flat tree (0: it is one leaf there)
    uint32_t leaves;  // leaves of the flat tree below (1: it is one leaf there)
};
static_assert(sizeof(BuildMeta) == 16);

__device__ __forceinline__ float half_area(Vec3f lo, Vec3f hi) {
    Vec3f d = hi - lo;
    return d.x * d.y + d.y * d.z + d.z * d.x;
}

__device__ __forceinline__ Vec3f shfl(Vec3f v, int src) {
    return {__shfl_sync(kFullMask, v.x, src), __shfl_sync(kFullMask, v.y, src), __shfl_sync(kFullMask, v.z, src)};
}
__device__ __forceinline__ Vec3f shfl_down(Vec3f v, unsigned d) {
    return {__shfl_down_sync(kFullMask, v.x, d), __shfl_down_sync(kFullMask, v.y, d),
            __shfl_down_sync(kFullMask, v.z, d)};
}
__device__ __forceinline__ Vec3f shfl_up(Vec3f v, unsigned d) {
    return {__shfl_up_sync(kFullMask, v.x, d), __shfl_up_sync(kFullMask, v.y, d), __shfl_up_sync(kFullMask, v.z, d)};
}
__device__ __forceinline__ Vec3f shfl_xor(Vec3f v, int m) {
    return {__shfl_xor_sync(kFullMask, v.x, m), __shfl_xor_sync(kFullMask, v.y, m), __shfl_xor_sync(kFullMask, v.z, m)};
}

// The union of the warp's boxes, in every lane (all 32 lanes must call it).
__device__ __forceinline__ void warp_union(Vec3f* lo, Vec3f* hi) {
    for (int d = 16; d > 0; d >>= 1) {
        *lo = min(*lo, shfl_xor(*lo, d));
        *hi = max(*hi, shfl_xor(*hi, d));
    }
}

// Dissimilarity of sorted neighbours i and i + 1: the bottom-up build merges
// neighbours in order of it (Apetrei 2014), so it must order all boundaries
// strictly. Above, the codes' XOR; below, for equal XORs (runs of equal codes),
// the highest bit of i ^ (i + 1), which splits such a run into a balanced tree,
// then i itself. 31 + 5 + 28 bits: n <= kMaxGpuBvhPrimitives = 2^28.
__device__ __forceinline__ uint64_t dissimilarity(const uint32_t* codes, uint32_t i) {
    const uint32_t level = 31u - __clz(i ^ (i + 1));
    return (uint64_t(codes[i] ^ codes[i + 1]) << 33) | (uint64_t(level) << 28) | i;
}

// The position of the (rank)-th set bit of mask (rank from 1), by binary search.
__device__ __forceinline__ uint32_t nth_set_bit(uint32_t mask, uint32_t rank) {
    uint32_t pos = 0;
    for (uint32_t step = 16; step >= 1; step >>= 1)
        if (uint32_t(__popc(mask & ((1u << (pos + step)) - 1u))) < rank) pos += step;
    return pos;
}

// One lane's cluster: a build node and what merging decisions need of it.
struct Cluster {
    Vec3f lo, hi;
    float cost;
    uint32_t prims, height, id, leaves;
    uint32_t slot;  // where its wide table is in the warp's shared memory

    // Lane src's cluster (every lane must call it: a shuffle must not diverge).
    __device__ __forceinline__ Cluster from_lane(int src) const {
        return {shfl(lo, src),
                shfl(hi, src),
                __shfl_sync(kFullMask, cost, src),
                __shfl_sync(kFullMask, prims, src),
                __shfl_sync(kFullMask, height, src),
                __shfl_sync(kFullMask, id, src),
                __shfl_sync(kFullMask, leaves, src),
                __shfl_sync(kFullMask, slot, src)};
    }
};

// Build node id as a cluster, read from L2 (another SM may have written it), in
// table slot `slot`.
__device__ __forceinline__ Cluster load_cluster(const BuildNode* nodes, const BuildMeta* meta, uint32_t id,
                                                uint32_t slot) {
    const float4* p = reinterpret_cast<const float4*>(&nodes[id]);
    const float4 x = __ldcg(p), y = __ldcg(p + 1);
    BuildMeta m;
    reinterpret_cast<uint4&>(m) = __ldcg(reinterpret_cast<const uint4*>(&meta[id]));
    return Cluster{Vec3f(x.x, x.y, x.z), Vec3f(y.x, y.y, y.z), m.cost, m.count & ~kLeafFlag, m.height, id,
                   m.leaves, slot};
}

// What merging clusters a (left) and b (right) makes: the merged cluster (in a's
// slot; its id is the caller's) and whether it is one leaf of the flat tree. The
// leaf is decided here, bottom-up, by the same SAH as the CPU builder's.
__device__ __forceinline__ Cluster merged_cluster(const Cluster& a, const Cluster& b, bool* leaf) {
    const Vec3f lo = min(a.lo, b.lo), hi = max(a.hi, b.hi);
    const float area = half_area(lo, hi);
    const uint32_t total = a.prims + b.prims;
    const float split_cost = kBvhTraversalCost * area + a.cost + b.cost;
    const float leaf_cost = float(total) * area;
    *leaf = total <= kBvhMaxLeafSize && leaf_cost <= split_cost;
    const uint32_t height = *leaf ? 0u : 1u + ::max(a.height, b.height);
    return Cluster{lo, hi, *leaf ? leaf_cost : split_cost, total, height, kInvalid, *leaf ? 1u : a.leaves + b.leaves,
                   a.slot};
}

// What the merges of one build write to.
struct PlocArgs {
    BuildNode* nodes;
    BuildMeta* meta;
    uint32_t* parent;    // see kRightChild
    WideTable* tables;   // of the interior nodes: node n + i's at i
    uint32_t* clusters;  // cluster ids of a subtree [l, r] live at clusters[l ...]
    uint32_t* counter;   // interior nodes created so far
    uint32_t* root;      // the root's build-node id, once reached
    uint32_t n;
};

// Writes the node `m` that merging build nodes left and right made: its box and
// children, its meta, its table, and the children's parent links.
__device__ __forceinline__ void write_merge(const PlocArgs& a, const Cluster& m, bool leaf, uint32_t left,
                                            uint32_t right, const WideTable& table) {
    a.nodes[m.id] = BuildNode{m.lo, left, m.hi, right};
    a.meta[m.id] = BuildMeta{m.cost, m.prims | (leaf ? kLeafFlag : 0u), m.height, m.leaves};
    a.tables[m.id - a.n] = table;
    a.parent[left] = m.id;
    a.parent[right] = m.id | kRightChild;
}

// A cluster's wide table into shared memory: all zero for a leaf of the flat tree,
// else copied from L2 (another SM may have written it, so not from L1), on sm_80 and
// newer without passing through registers (cp.async.cg). It lands by wait_tables().
// (A load may be hoisted out of its branch, and a lane without a cluster may read a
// node being written: any id that is not an interior node's reads table 0, unused.)
__device__ __forceinline__ void fetch_table(const PlocArgs& a, uint32_t id, uint32_t height, WideTable* to) {
    const uint32_t interior = id - a.n;  // wraps for primitives and kInvalid
    const uint4* from = reinterpret_cast<const uint4*>(&a.tables[height > 0 && interior < a.n - 1 ? interior : 0u]);
    if (height == 0) {
        *to = WideTable{};
        return;
    }
#if __CUDA_ARCH__ >= 800
    const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(to));
#pragma unroll
    for (uint32_t q = 0; q < sizeof(WideTable) / 16; ++q)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst + 16 * q), "l"(from + q) : "memory");
#else
#pragma unroll
    for (uint32_t q = 0; q < sizeof(WideTable) / 16; ++q) reinterpret_cast<uint4*>(to)[q] = __ldcg(from + q);
#endif
}
__device__ __forceinline__ void wait_tables() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
    __syncwarp();
}

// Whole warp: `a` is taken by value, as a reference would point into the
// kernel's parameter space. Loads the clusters of the subtree [l, r] split at s
// (left child [l, s), right child [s, r]), merges them down to the threshold
// (to one at the root) and stores what is left at clusters[l ...], kInvalid after it.
__device__ inline void merge_subtree(const PlocArgs a, uint32_t lane, uint32_t l, uint32_t r, uint32_t s, bool root) {
    // A child's valid ids are a prefix of its first kClusterThreshold slots.
    // __ldcg is an asm statement the compiler may hoist out of a branch, so
    // every load below reads a valid address (slot l, node 0) when unused.
    const uint32_t left_slots = ::min(s - l, kClusterThreshold), right_slots = ::min(r + 1 - s, kClusterThreshold);
    const bool in_left = lane < left_slots;
    uint32_t id = __ldcg(&a.clusters[in_left ? l + lane : l]);
    if (!in_left) id = kInvalid;
    const uint32_t num_left = __popc(__ballot_sync(kFullMask, id != kInvalid));
    const bool in_right = lane >= num_left && lane - num_left < right_slots;
    const uint32_t right_id = __ldcg(&a.clusters[in_right ? s + lane - num_left : l]);
    if (lane >= num_left) id = in_right ? right_id : kInvalid;
    uint32_t count = __popc(__ballot_sync(kFullMask, id != kInvalid));

    // (Node 0 stands in for no cluster: what such a lane reads is never used.)
    Cluster c = load_cluster(a.nodes, a.meta, id != kInvalid ? id : 0u, lane);
    c.id = id;

    // The tables of the warp's clusters, each in the slot of the lane it started in:
    // a merge reads its two clusters' and leaves its own in the creator's slot, so the
    // rounds after the first read no table from L2 (each such read was a round trip
    // in the chain of rounds). One block is one warp (kHplocBlockSize). Nothing is
    // fetched when there is nothing to merge (the children hold few enough clusters).
    __shared__ WideTable warp_tables[kHplocBlockSize];
    const uint32_t target = root ? 1u : kClusterThreshold;
    if (id != kInvalid && count > target) fetch_table(a, id, c.height, &warp_tables[lane]);

    const uint32_t lanes_below = (1u << lane) - 1u;
    while (count > target) {
        // Nearest neighbour: the smallest merged box within the window. The key
        // orders pairs strictly (area, then lane pair), so the globally best pair
        // is always mutual and every round merges at least once.
        uint64_t best = ~0ull;
        for (unsigned d = 1; d <= unsigned(kSearchRadius); ++d) {
            Vec3f olo = shfl_down(c.lo, d), ohi = shfl_down(c.hi, d);
            uint64_t key = ~0ull;
            if (lane + d < count) {
                float area = half_area(min(c.lo, olo), max(c.hi, ohi));
                key = (uint64_t(__float_as_uint(area)) << 10) | (lane << 5) | (lane + d);
            }
            best = ::min(best, key);
            uint64_t from_below = __shfl_up_sync(kFullMask, key, d);
            if (lane >= d) best = ::min(best, from_below);
        }
        const uint32_t pair_lo = uint32_t(best >> 5) & 31u, pair_hi = uint32_t(best) & 31u;
        const uint32_t nn = pair_lo == lane ? pair_hi : pair_lo;
        const uint32_t nn_of_nn = __shfl_sync(kFullMask, nn, nn);  // every lane: a shuffle must not diverge
        const bool mutual = lane < count && nn_of_nn == lane;
        const Cluster other = c.from_lane(nn);

        // The first round's copies landed while it searched; later rounds, which
        // fetched nothing, only synchronise the warp here.
        wait_tables();
        const bool creates = mutual && lane < nn;
        const unsigned creators = __ballot_sync(kFullMask, creates);
        uint32_t base = 0;
        if (lane == uint32_t(__ffs(creators) - 1)) base = atomicAdd(a.counter, uint32_t(__popc(creators)));
        base = __shfl_sync(kFullMask, base, __ffs(creators) - 1);
        if (creates) {
            bool leaf;
            Cluster merged = merged_cluster(c, other, &leaf);
            merged.id = a.n + base + __popc(creators & lanes_below);
            const WideTable table = leaf ? WideTable{}
                                         : make_wide_table(warp_tables[c.slot], warp_tables[other.slot],
                                                           collapse_area(merged.lo, merged.hi), merged.height);
            write_merge(a, merged, leaf, c.id, other.id, table);
            warp_tables[c.slot] = table;  // this round, only this lane reads or writes its slot
            c = merged;
        }
        __syncwarp();  // the tables just written (warp_tables), for the lanes that read them next round
        // The higher lane of a merged pair drops out; the rest close ranks
        // (lanes past the kept ones read garbage, unused).
        const unsigned kept = __ballot_sync(kFullMask, lane < count && !(mutual && lane > nn));
        c = c.from_lane(int(nth_set_bit(kept, lane + 1)) & 31);
        count = __popc(kept);
    }
    wait_tables();  // none may still be landing in the warp's next merge
    if (lane < kClusterThreshold && l + lane <= r) a.clusters[l + lane] = lane < count ? c.id : kInvalid;
    if (root && lane == 0) {
        *a.root = c.id;
        a.parent[c.id] = kInvalid;
    }
}

// Whole warp, thread i starting at the LBVH's leaf i, the i-th of `count`
// clusters in Morton order (primitives, and pairs of them: bvh_pairs.cuh) with
// codes `codes` (i >= count: lanes that only help). At each LBVH node the second
// thread to arrive goes on, now holding the node's range; subtrees that hold too
// many clusters are merged by the whole warp, one subtree at a time.
__device__ __forceinline__ void climb(const PlocArgs a, const uint32_t* codes, uint32_t count, uint32_t* merge_slot,
                                      uint32_t i) {
    const uint32_t n = count, lane = i & 31;
    bool active = i < n;
    uint32_t l = i, r = i, s = 0;
    for (;;) {
        if (!__ballot_sync(kFullMask, active)) break;
        if (active) {
            uint32_t other;
            if (l == 0 || (r != n - 1 && dissimilarity(codes, r) < dissimilarity(codes, l - 1))) {
                s = r + 1;  // the parent lies to the right: this subtree is its left child
                other = atomicExch(&merge_slot[r], l);
                if (other != kInvalid) r = other;
            } else {
                s = l;
                other = atomicExch(&merge_slot[l - 1], r);
                if (other != kInvalid) l = other;
            }
            active = other != kInvalid;  // the first to arrive stops here
        }
        const bool root = active && r - l + 1 == n;
        unsigned todo = __ballot_sync(kFullMask, active && (r - l + 1 > kClusterThreshold || root));
        while (todo) {
            const int who = __ffs(todo) - 1;
            merge_subtree(a, lane, __shfl_sync(kFullMask, l, who), __shfl_sync(kFullMask, r, who),
                          __shfl_sync(kFullMask, s, who), __shfl_sync(kFullMask, root, who));
            todo &= todo - 1;
        }
        if (root) active = false;
        // Publish this round's clusters and nodes before any lane of the warp
        // hands its subtree on through merge_slot. (The receiving side has no
        // fence: its reads are L2 loads (__ldcg) that depend on the exchange's
        // result through the ballot that starts the merge, as in H-PLOC.)
        __threadfence();
    }
}

}  // namespace wf::hploc
