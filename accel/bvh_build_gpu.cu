// H-PLOC on the CUDA backend; see bvh_build_gpu.h for the outline.
//
// Build-node ids: [0, n) are the primitives in Morton order, [n, 2n - 1) the
// interior nodes in creation order. Every build node records its box, its two
// children (for a primitive: its primitive id), its subtree's primitive count,
// the SAH cost of the best tree below it, and whether that best tree is a single
// leaf. Leaf collapsing is thus decided bottom-up when a node is created; the
// layout pass then keeps the topmost nodes that chose to be leaves.
#include "accel/bvh_build_gpu.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "accel/bvh_quality.h"
#include "engine/backend/cuda_backend.cuh"

namespace wf {
namespace {

constexpr uint32_t kInvalid = 0xffffffffu;
constexpr uint32_t kFullMask = 0xffffffffu;
// PLOC runs in a subtree once it holds more than this many clusters and leaves
// this many: two children's lists then fill one warp (H-PLOC's choice).
constexpr uint32_t kClusterThreshold = 16;
constexpr int kSearchRadius = 8;             // PLOC's neighbour window, in clusters each way
constexpr uint32_t kLeafFlag = 0x80000000u;  // in BuildMeta::count: the best subtree is one leaf
constexpr int kMortonBits = 30;
// A primitive is large when its box spans more than this fraction of the
// centroids' largest extent along some axis (see bvh_morton).
constexpr float kLargeFraction = 0.25f;
constexpr uint32_t kInfoInterior = 0, kInfoRoot = 1, kInfoCount = 2;  // then the node counter

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
    uint32_t pad;
};
static_assert(sizeof(BuildMeta) == 16);

__device__ __forceinline__ float half_area(Vec3f lo, Vec3f hi) {
    Vec3f d = hi - lo;
    return d.x * d.y + d.y * d.z + d.z * d.x;
}
__device__ __forceinline__ Vec3f vmin(Vec3f a, Vec3f b) { return {fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)}; }
__device__ __forceinline__ Vec3f vmax(Vec3f a, Vec3f b) { return {fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)}; }

__device__ __forceinline__ Vec3f shfl(Vec3f v, int src) {
    return {__shfl_sync(kFullMask, v.x, src), __shfl_sync(kFullMask, v.y, src), __shfl_sync(kFullMask, v.z, src)};
}
__device__ __forceinline__ Vec3f shfl_down(Vec3f v, unsigned d) {
    return {__shfl_down_sync(kFullMask, v.x, d), __shfl_down_sync(kFullMask, v.y, d),
            __shfl_down_sync(kFullMask, v.z, d)};
}

// Floats as unsigned integers in the same order, for integer atomicMin/Max.
__device__ __forceinline__ uint32_t ordered_bits(float f) {
    uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float from_ordered_bits(uint32_t u) {
    return __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}

__device__ __forceinline__ uint32_t spread_bits(uint32_t x) {  // 10 bits -> every third bit
    x = (x | (x << 16)) & 0x030000ffu;
    x = (x | (x << 8)) & 0x0300f00fu;
    x = (x | (x << 4)) & 0x030c30c3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
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

// The primitives of one bottom-up step's subtree, one cluster per lane, merged
// with PLOC until at most `target` remain.
struct PlocArgs {
    BuildNode* nodes;
    BuildMeta* meta;
    uint32_t* parent;
    uint32_t* clusters;  // cluster ids of a subtree [l, r] live at clusters[l ...]
    uint32_t* counter;   // interior nodes created so far
    uint32_t* info;
    uint32_t n;
};

// Whole warp: `a` is taken by value, as a reference would point into the
// kernel's parameter space. Loads the clusters of the subtree [l, r] split at s (left child
// [l, s), right child [s, r]), merges them down to the threshold (to one at the
// root) and stores what is left at clusters[l ...], kInvalid after it.
__device__ void merge_subtree(const PlocArgs a, uint32_t lane, uint32_t l, uint32_t r, uint32_t s, bool root) {
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

    const uint32_t safe = id != kInvalid ? id : 0u;
    const float4* p = reinterpret_cast<const float4*>(&a.nodes[safe]);
    const float4 x = __ldcg(p), y = __ldcg(p + 1);
    Vec3f lo(x.x, x.y, x.z), hi(y.x, y.y, y.z);
    BuildMeta m;
    reinterpret_cast<uint4&>(m) = __ldcg(reinterpret_cast<const uint4*>(&a.meta[safe]));
    float cost = m.cost;
    uint32_t prims = m.count & ~kLeafFlag, height = m.height;

    const uint32_t target = root ? 1u : kClusterThreshold;
    const uint32_t lanes_below = (1u << lane) - 1u;
    while (count > target) {
        // Nearest neighbour: the smallest merged box within the window. The key
        // orders pairs strictly (area, then lane pair), so the globally best pair
        // is always mutual and every round merges at least once.
        uint64_t best = ~0ull;
        for (unsigned d = 1; d <= unsigned(kSearchRadius); ++d) {
            Vec3f olo = shfl_down(lo, d), ohi = shfl_down(hi, d);
            uint64_t key = ~0ull;
            if (lane + d < count) {
                float area = half_area(vmin(lo, olo), vmax(hi, ohi));
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

        const Vec3f nlo = shfl(lo, nn), nhi = shfl(hi, nn);
        const float ncost = __shfl_sync(kFullMask, cost, nn);
        const uint32_t nprims = __shfl_sync(kFullMask, prims, nn), nid = __shfl_sync(kFullMask, id, nn);
        const uint32_t nheight = __shfl_sync(kFullMask, height, nn);

        const bool creates = mutual && lane < nn;
        const unsigned creators = __ballot_sync(kFullMask, creates);
        uint32_t base = 0;
        if (lane == uint32_t(__ffs(creators) - 1)) base = atomicAdd(a.counter, uint32_t(__popc(creators)));
        base = __shfl_sync(kFullMask, base, __ffs(creators) - 1);
        if (creates) {
            const uint32_t k = a.n + base + __popc(creators & lanes_below);
            lo = vmin(lo, nlo);
            hi = vmax(hi, nhi);
            const float area = half_area(lo, hi);
            const uint32_t total = prims + nprims;
            const float split_cost = kBvhTraversalCost * area + cost + ncost;
            const float leaf_cost = float(total) * area;
            const bool leaf = total <= kBvhMaxLeafSize && leaf_cost <= split_cost;
            cost = leaf ? leaf_cost : split_cost;
            height = leaf ? 0u : 1u + ::max(height, nheight);
            a.nodes[k] = BuildNode{lo, id, hi, nid};
            a.meta[k] = BuildMeta{cost, total | (leaf ? kLeafFlag : 0u), height, 0u};
            a.parent[id] = k;
            a.parent[nid] = k;
            id = k;
            prims = total;
        }
        // The higher lane of a merged pair drops out; the rest close ranks.
        const unsigned kept = __ballot_sync(kFullMask, lane < count && !(mutual && lane > nn));
        const int src = int(nth_set_bit(kept, lane + 1)) & 31;  // lanes past the kept ones read garbage, unused
        lo = shfl(lo, src);
        hi = shfl(hi, src);
        cost = __shfl_sync(kFullMask, cost, src);
        prims = __shfl_sync(kFullMask, prims, src);
        height = __shfl_sync(kFullMask, height, src);
        id = __shfl_sync(kFullMask, id, src);
        count = __popc(kept);
    }
    if (lane < kClusterThreshold && l + lane <= r) a.clusters[l + lane] = lane < count ? id : kInvalid;
    if (root && lane == 0) a.info[kInfoRoot] = id;
}

}  // namespace

struct GpuBvhBuilder::Buffers {
    template <class T>
    using Buf = CudaBuffer<T>;
    uint32_t n = 0;
    Buf<BuildNode> nodes;       // 2n - 1
    Buf<BuildMeta> meta;        // 2n - 1
    Buf<uint32_t> parent;       // 2n - 1
    Buf<uint32_t> codes, codes_sorted, ids, ids_sorted;  // n
    Buf<uint32_t> clusters;     // n
    Buf<uint32_t> merge_slot;   // n - 1: who reached an LBVH node first
    Buf<uint32_t> interior, interior_rank;  // n - 1: the node is an output interior node; its pair index
    Buf<uint32_t> leaf_prims, leaf_first;   // 2n - 1: an output leaf's primitive count; its first slot
    Buf<uint32_t> scene_box;    // 6 ordered bits: the centroids' bounds
    Buf<uint32_t> info;         // kInfoCount values + the node counter
    Buf<BvhNode> out_nodes;     // 2n - 1 (an empty scene: 1)
    Buf<BvhNode> warp_boxes;    // one centroid box per warp of primitives
    Buf<uint32_t> out_prims;    // n

    template <class T>
    static void ensure(Buf<T>& b, size_t size) {
        if (b.size() != size) b.resize(size);
    }
    void reserve(uint32_t count) {
        n = count;
        const size_t all = count ? 2 * size_t(count) - 1 : 0, inner = count ? count - 1 : 0;
        ensure(nodes, all);
        ensure(meta, all);
        ensure(parent, all);
        for (Buf<uint32_t>* b : {&codes, &codes_sorted, &ids, &ids_sorted, &clusters}) ensure(*b, count);
        ensure(merge_slot, inner);
        ensure(interior, inner);
        ensure(interior_rank, inner);
        ensure(leaf_prims, all);
        ensure(leaf_first, all);
        ensure(scene_box, 6);
        ensure(info, kInfoCount + 1);
        ensure(out_nodes, std::max<size_t>(all, 1));
        ensure(out_prims, count);
        ensure(warp_boxes, (size_t(count) + 31) / 32);
    }
};

GpuBvhBuilder::GpuBvhBuilder() : buf_(std::make_unique<Buffers>()) {}
GpuBvhBuilder::~GpuBvhBuilder() = default;

const BvhNode* GpuBvhBuilder::nodes() const { return buf_->out_nodes.data(); }
const uint32_t* GpuBvhBuilder::prim_index() const { return buf_->out_prims.data(); }

void GpuBvhBuilder::release_scratch() {
    Buffers& b = *buf_;
    for (CudaBuffer<uint32_t>* x : {&b.parent, &b.codes, &b.codes_sorted, &b.ids, &b.ids_sorted, &b.clusters,
                                    &b.merge_slot, &b.interior, &b.interior_rank, &b.leaf_prims, &b.leaf_first})
        x->resize(0);
    b.nodes.resize(0);
    b.meta.resize(0);
}

void GpuBvhBuilder::build(CudaBackend& be, const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                          uint32_t num_spheres) {
    const uint64_t n64 = uint64_t(num_triangles) + num_spheres;
    if (n64 > kMaxGpuBvhPrimitives)
        throw std::length_error("GPU BVH builder: " + std::to_string(n64) + " primitives; at most " +
                                std::to_string(kMaxGpuBvhPrimitives));
    Buffers& b = *buf_;
    b.reserve(uint32_t(n64));
    const uint32_t n = b.n;
    BvhNode* out_nodes = b.out_nodes.data();
    uint32_t* info = b.info.data();
    if (n == 0) {  // one empty root, which every ray misses
        be.parallel_for("bvh_empty", 1, [=] __device__(uint32_t) {
            out_nodes[0] = BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
            info[kInfoInterior] = 0;
            info[kInfoRoot] = kInvalid;
        });
        return;
    }

    BuildNode* nodes = b.nodes.data();
    BuildMeta* meta = b.meta.data();
    uint32_t* parent = b.parent.data();
    uint32_t* scene_box = b.scene_box.data();
    uint32_t* codes = b.codes.data();
    uint32_t* ids = b.ids.data();

    be.parallel_for("bvh_init", 7, [=] __device__(uint32_t i) {
        if (i < 3) scene_box[i] = ~0u;            // min of ordered bits
        else if (i < 6) scene_box[i] = 0u;        // max
        else {
            info[kInfoCount] = 0;                 // the node counter
            info[kInfoRoot] = kInvalid;           // until the build reaches it
        }
    });

    // Primitive boxes, by primitive id, and the bounds of their centroids
    // (reduced per warp first). The output nodes are free until the layout pass,
    // so they hold the boxes until the leaves take them in Morton order.
    BvhNode* staging = out_nodes;
    BvhNode* warp_boxes = b.warp_boxes.data();
    const uint32_t padded = (n + 31) & ~31u;
    be.parallel_for("bvh_prim_bounds", padded, [=] __device__(uint32_t i) {
        Vec3f lo(kInfinity), hi(-kInfinity);
        if (i < n) {
            if (i < num_triangles) {
                const Triangle& t = triangles[i];
                lo = vmin(t.p0, vmin(t.p1, t.p2));
                hi = vmax(t.p0, vmax(t.p1, t.p2));
            } else {
                const Sphere& s = spheres[i - num_triangles];
                Vec3f r(fabsf(s.radius));
                lo = s.center - r;
                hi = s.center + r;
            }
            staging[i] = BvhNode{lo, 0u, hi, 0u};
        }
        Vec3f c = i < n ? (lo + hi) * 0.5f : Vec3f(kInfinity);
        Vec3f cmin = c, cmax = i < n ? c : Vec3f(-kInfinity);
        for (int d = 16; d > 0; d >>= 1) {
            cmin = vmin(cmin, Vec3f(__shfl_xor_sync(kFullMask, cmin.x, d), __shfl_xor_sync(kFullMask, cmin.y, d),
                                    __shfl_xor_sync(kFullMask, cmin.z, d)));
            cmax = vmax(cmax, Vec3f(__shfl_xor_sync(kFullMask, cmax.x, d), __shfl_xor_sync(kFullMask, cmax.y, d),
                                    __shfl_xor_sync(kFullMask, cmax.z, d)));
        }
        if ((i & 31) == 0) warp_boxes[i / 32] = BvhNode{cmin, 0u, cmax, 0u};
    });
    // Second level: one atomic per warp of warp boxes (atomics on the same six
    // words from every warp of the first level took 0.15 ms for 1M primitives).
    const uint32_t num_warp_boxes = padded / 32, padded_boxes = (num_warp_boxes + 31) & ~31u;
    be.parallel_for("bvh_scene_bounds", padded_boxes, [=] __device__(uint32_t i) {
        Vec3f cmin(kInfinity), cmax(-kInfinity);
        if (i < num_warp_boxes) {
            cmin = warp_boxes[i].lo;
            cmax = warp_boxes[i].hi;
        }
        for (int d = 16; d > 0; d >>= 1) {
            cmin = vmin(cmin, Vec3f(__shfl_xor_sync(kFullMask, cmin.x, d), __shfl_xor_sync(kFullMask, cmin.y, d),
                                    __shfl_xor_sync(kFullMask, cmin.z, d)));
            cmax = vmax(cmax, Vec3f(__shfl_xor_sync(kFullMask, cmax.x, d), __shfl_xor_sync(kFullMask, cmax.y, d),
                                    __shfl_xor_sync(kFullMask, cmax.z, d)));
        }
        if ((i & 31) == 0) {
            for (int a = 0; a < 3; ++a) {
                atomicMin(&scene_box[a], ordered_bits(cmin[a]));
                atomicMax(&scene_box[3 + a], ordered_bits(cmax[a]));
            }
        }
    });

    be.parallel_for("bvh_morton", n, [=] __device__(uint32_t i) {
        const BvhNode box = staging[i];
        const Vec3f c = (box.lo + box.hi) * 0.5f;
        const Vec3f lo(from_ordered_bits(scene_box[0]), from_ordered_bits(scene_box[1]), from_ordered_bits(scene_box[2]));
        const Vec3f hi(from_ordered_bits(scene_box[3]), from_ordered_bits(scene_box[4]), from_ordered_bits(scene_box[5]));
        // One cell size on every axis (a cube around the centroids): per-axis
        // scaling would give a flat scene's thin axis as many code bits as the
        // wide ones, and every third LBVH split would then sort by that thin
        // coordinate (sphere size, on a field of spheres) instead of by place.
        const float extent = fmaxf(hi.x - lo.x, fmaxf(hi.y - lo.y, hi.z - lo.z));
        const float scale = extent > 0.0f ? 1024.0f / extent : 0.0f;
        uint32_t code = 0;
        bool large = false;
        for (int a = 0; a < 3; ++a) {
            float f = (c[a] - lo[a]) * scale;  // NaN (bad input) clamps to 0 below
            uint32_t q = uint32_t(fminf(fmaxf(f, 0.0f), 1023.0f));
            code |= spread_bits(q) << (2 - a);
            large |= box.hi[a] - box.lo[a] > kLargeFraction * extent;
        }
        // Large primitives (a ground plane under a field of spheres) sort after
        // all others: the top bit makes the LBVH's root split between the two
        // groups, so PLOC meets them only at the root and places them near the top
        // instead of inflating every box on the path up from where their
        // centroid falls (measured: SAH 4.7x the CPU builder's, without this).
        if (large) code |= 1u << kMortonBits;
        codes[i] = code;
        ids[i] = i;
    });
    be.sort_pairs("bvh_sort", b.codes.data(), b.codes_sorted.data(), b.ids.data(), b.ids_sorted.data(), n,
                  kMortonBits + 1);

    // Leaves in Morton order: build node i is the i-th primitive of the sort.
    const uint32_t* sorted_ids = b.ids_sorted.data();
    uint32_t* clusters = b.clusters.data();
    uint32_t* merge_slot = b.merge_slot.data();
    be.parallel_for("bvh_leaves", n, [=] __device__(uint32_t i) {
        const uint32_t prim = sorted_ids[i];
        const BvhNode box = staging[prim];
        nodes[i] = BuildNode{box.lo, prim, box.hi, kInvalid};
        meta[i] = BuildMeta{half_area(box.lo, box.hi), 1u, 0u, 0u};
        parent[i] = kInvalid;
        clusters[i] = i;
        if (i + 1 < n) {
            merge_slot[i] = kInvalid;
            parent[n + i] = kInvalid;  // the root keeps it
        }
    });

    if (n == 1) {
        be.parallel_for("bvh_single", 1, [=] __device__(uint32_t) { info[kInfoRoot] = 0; });
    } else {
        // Bottom-up over the implicit LBVH (Apetrei 2014): every thread starts at
        // one leaf and climbs; at each LBVH node the second thread to arrive goes
        // on, now holding the node's range. Subtrees that hold too many clusters
        // are merged by the whole warp, one subtree at a time.
        const uint32_t* sorted_codes = b.codes_sorted.data();
        PlocArgs args{nodes, meta, parent, clusters, info + kInfoCount, info, n};
        be.parallel_for("bvh_hploc", padded, [=] __device__(uint32_t i) {
            const uint32_t lane = i & 31;
            bool active = i < n;
            uint32_t l = i, r = i, s = 0;
            for (;;) {
                if (!__ballot_sync(kFullMask, active)) break;
                if (active) {
                    uint32_t other;
                    if (l == 0 || (r != n - 1 && dissimilarity(sorted_codes, r) < dissimilarity(sorted_codes, l - 1))) {
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
                    merge_subtree(args, lane, __shfl_sync(kFullMask, l, who), __shfl_sync(kFullMask, r, who),
                                  __shfl_sync(kFullMask, s, who), __shfl_sync(kFullMask, root, who));
                    todo &= todo - 1;
                }
                if (root) active = false;
                // Publish this round's clusters and nodes before any lane of the
                // warp hands its subtree on through merge_slot.
                __threadfence();
            }
        });
    }

    // Which build nodes the flat tree keeps: a node under an ancestor that chose
    // to be a leaf is inside that leaf. Only nodes of at most kBvhMaxLeafSize
    // primitives choose that, so the walk up stops at the first larger one.
    uint32_t* interior = b.interior.data();
    uint32_t* leaf_prims = b.leaf_prims.data();
    const uint32_t all = 2 * n - 1;
    be.parallel_for("bvh_classify", all, [=] __device__(uint32_t x) {
        bool inside_leaf = false;
        for (uint32_t p = parent[x]; p != kInvalid && (meta[p].count & ~kLeafFlag) <= kBvhMaxLeafSize; p = parent[p])
            if (meta[p].count & kLeafFlag) { inside_leaf = true; break; }
        const uint32_t c = meta[x].count;
        const bool is_leaf = x < n || (c & kLeafFlag);
        if (x >= n) interior[x - n] = !inside_leaf && !is_leaf;
        leaf_prims[x] = !inside_leaf && is_leaf ? (c & ~kLeafFlag) : 0u;
    });
    if (n > 1) be.exclusive_scan("bvh_scan_interior", interior, b.interior_rank.data(), n - 1);
    be.exclusive_scan("bvh_scan_leaves", leaf_prims, b.leaf_first.data(), all);

    // The flat layout: children of the interior node ranked k go to slots 2k + 1
    // and 2k + 2; a leaf's primitives go to its range of prim_index, gathered
    // from its build subtree (at most kBvhMaxLeafSize primitives, so a short stack).
    const uint32_t* interior_rank = b.interior_rank.data();
    const uint32_t* leaf_first = b.leaf_first.data();
    uint32_t* out_prims = b.out_prims.data();
    be.parallel_for("bvh_layout", all, [=] __device__(uint32_t x) {
        const bool is_interior = x >= n && interior[x - n];
        const uint32_t prims = leaf_prims[x];
        if (x == 0 && n > 1) info[kInfoInterior] = interior_rank[n - 2] + interior[n - 2];
        if (!is_interior && prims == 0) return;
        const uint32_t p = parent[x];
        const uint32_t slot = p == kInvalid ? 0u : 2 * interior_rank[p - n] + 1 + (nodes[p].right == x ? 1u : 0u);
        const BuildNode node = nodes[x];
        if (is_interior) {
            out_nodes[slot] = BvhNode{node.lo, 2 * interior_rank[x - n] + 1, node.hi, 0u};
            return;
        }
        const uint32_t first = leaf_first[x];
        out_nodes[slot] = BvhNode{node.lo, first, node.hi, prims};
        uint32_t stack[kBvhMaxLeafSize];
        uint32_t sp = 0, k = first, y = x;
        for (;;) {
            if (y < n) {
                out_prims[k++] = nodes[y].left;
                if (sp == 0) break;
                y = stack[--sp];
            } else {
                stack[sp++] = nodes[y].right;
                y = nodes[y].left;
            }
        }
    });
}

GpuBvhInfo GpuBvhBuilder::info(CudaBackend& be) const {
    const Buffers& b = *buf_;
    GpuBvhInfo out;
    out.num_prims = b.n;
    be.synchronize();
    if (b.n == 0) {
        out.num_nodes = 1;
        return out;
    }
    uint32_t values[kInfoCount + 1];
    b.info.download(values, kInfoCount + 1);
    out.num_nodes = 1 + 2 * (b.n > 1 ? values[kInfoInterior] : 0u);
    // The SAH from the root's bookkeeping, normalised as measure_bvh does.
    const uint32_t root = values[kInfoRoot];
    if (root >= 2 * b.n - 1) throw std::logic_error("GPU BVH builder: the build did not reach a root");
    BuildNode node;
    BuildMeta meta;
    WF_CUDA_CHECK(cudaMemcpy(&node, b.nodes.data() + root, sizeof node, cudaMemcpyDeviceToHost));
    WF_CUDA_CHECK(cudaMemcpy(&meta, b.meta.data() + root, sizeof meta, cudaMemcpyDeviceToHost));
    double dx = double(node.hi.x) - node.lo.x, dy = double(node.hi.y) - node.lo.y, dz = double(node.hi.z) - node.lo.z;
    double area = dx * dy + dy * dz + dz * dx;
    out.sah = area > 0.0 ? double(meta.cost) / area : double(b.n);
    out.depth = meta.height;
    return out;
}

Bvh GpuBvhBuilder::download() const {
    const Buffers& b = *buf_;
    WF_CUDA_CHECK(cudaDeviceSynchronize());
    uint32_t values[kInfoCount + 1] = {};
    if (b.n > 1) b.info.download(values, kInfoCount + 1);
    Bvh bvh;
    bvh.nodes.resize(1 + 2 * size_t(values[kInfoInterior]));
    b.out_nodes.download(bvh.nodes.data(), bvh.nodes.size());
    bvh.prim_index = b.out_prims.to_vector();
    return bvh;
}

namespace {

// Host primitives copied to the device, and a builder over them.
struct UploadedBuild {
    CudaBuffer<Triangle> triangles;
    CudaBuffer<Sphere> spheres;
    GpuBvhBuilder builder;
    UploadedBuild(const std::vector<Triangle>& t, const std::vector<Sphere>& s) {
        triangles.upload(t);
        spheres.upload(s);
    }
    void build(CudaBackend& be) {
        builder.build(be, triangles.data(), uint32_t(triangles.size()), spheres.data(), uint32_t(spheres.size()));
    }
};

}  // namespace

Bvh build_bvh_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres, GpuBvhInfo* info) {
    CudaBackend be;
    UploadedBuild up(triangles, spheres);
    up.build(be);
    if (info) *info = up.builder.info(be);
    return up.builder.download();
}

GpuBvhTiming time_bvh_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                             uint32_t warmup, uint32_t reps) {
    CudaBackend be;
    UploadedBuild up(triangles, spheres);
    GpuBvhBuilder& builder = up.builder;
    auto build = [&] { up.build(be); };
    for (uint32_t i = 0; i < warmup; ++i) build();
    GpuBvhTiming out;
    out.device = be.device_name();
    out.info = builder.info(be);

    // Whole builds between two events each, launched back to back as a renderer
    // would; then the same count profiled launch by launch for the stage table.
    std::vector<cudaEvent_t> events(2 * size_t(reps));
    for (cudaEvent_t& e : events) WF_CUDA_CHECK(cudaEventCreate(&e));
    for (uint32_t i = 0; i < reps; ++i) {
        WF_CUDA_CHECK(cudaEventRecord(events[2 * i]));
        build();
        WF_CUDA_CHECK(cudaEventRecord(events[2 * i + 1]));
    }
    be.synchronize();
    std::vector<double> ms;
    for (uint32_t i = 0; i < reps; ++i) {
        float m = 0.0f;
        WF_CUDA_CHECK(cudaEventElapsedTime(&m, events[2 * i], events[2 * i + 1]));
        ms.push_back(m);
    }
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    std::sort(ms.begin(), ms.end());
    if (!ms.empty()) {
        out.median_ms = ms[ms.size() / 2];
        out.min_ms = ms.front();
    }
    be.set_profiling(true);
    for (uint32_t i = 0; i < reps; ++i) build();
    be.flush_profile();
    out.stages = be.stages().rows();
    return out;
}

}  // namespace wf
