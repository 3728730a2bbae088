// H-PLOC on the CUDA backend; see bvh_build_gpu.h for the outline and
// bvh_ploc.cuh for the clustering. This file holds the stages around it:
// primitive bounds and Morton codes before; after, the wide traversal layout
// read from the build nodes' tables, and the flat layout of bvh_node.h (for
// tests and tools, on request).
#include "accel/bvh_build_gpu.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "accel/bvh_ploc.cuh"
#include "engine/backend/cuda_backend.cuh"

namespace wf {
namespace {

using namespace hploc;

constexpr int kMortonBits = 30;
// A primitive is large when its box spans more than this fraction of the
// centroids' largest extent along some axis (see morton_code).
constexpr float kLargeFraction = 0.25f;
// info[]: the root's build node, then the counter of build nodes created.
constexpr uint32_t kInfoRoot = 0, kInfoCount = 1;
// The collapse's budget maps pack a budget (0: none, 1..kTraversalWidth) in 3 bits;
// its pointer jumping takes kJumpRounds rounds (2^7 = 128 levels).
static_assert(kTraversalWidth <= 7, "the GPU collapse's budget maps hold budgets up to 7");
constexpr uint32_t kJumpRounds = 7;



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

__device__ __forceinline__ BvhNode prim_box(const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                                            uint32_t i) {
    if (i < num_triangles) {
        const Triangle& t = triangles[i];
        return BvhNode{min(t.p0, min(t.p1, t.p2)), 0u, max(t.p0, max(t.p1, t.p2)), 0u};
    }
    const Sphere& s = spheres[i - num_triangles];
    const Vec3f r(fabsf(s.radius));
    return BvhNode{s.center - r, 0u, s.center + r, 0u};
}

// The Morton code of a box's centroid within the centroids' bounds (six
// ordered bits: lo, then hi), bit kMortonBits set for a large box.
__device__ __forceinline__ uint32_t morton_code(const BvhNode& box, const uint32_t* scene_box) {
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
    return large ? code | (1u << kMortonBits) : code;
}

// Calls f(k, primitive id) for the primitives of a leaf's build subtree (at
// most kBvhMaxLeafSize, so a short stack), k counting from `first`.
template <class F>
__device__ __forceinline__ void for_each_leaf_prim(const BuildNode* nodes, uint32_t n, uint32_t x, uint32_t first,
                                                   F&& f) {
    uint32_t stack[kBvhMaxLeafSize];
    uint32_t sp = 0, k = first, y = x;
    for (;;) {
        if (y < n) {
            f(k++, nodes[y].left);
            if (sp == 0) return;
            y = stack[--sp];
        } else {
            stack[sp++] = nodes[y].right;
            y = nodes[y].left;
        }
    }
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
    Buf<WideTable> tables;      // n - 1: the interior nodes' tables
    // n - 1: the node is an interior node of the flat tree (or makes a wide node);
    // its rank among those
    Buf<uint32_t> interior, interior_rank;
    Buf<uint32_t> leaf_prims, leaf_first;   // 2n - 1: a kept leaf's primitive count; its first slot
    Buf<uint2> jumps[2];        // n - 1: the collapse's pointer jumping (ancestor, budget map), two rounds' worth
    Buf<uint32_t> node_count;   // the wide nodes the last write_traversal wrote
    Buf<uint32_t> wide_list;    // the build nodes that make them, in their order
    Buf<uint32_t> refs;         // 2n - 1: a kept node's reference in the wide layout
    Buf<uint32_t> scene_box;    // 6 ordered bits: the centroids' bounds
    Buf<uint32_t> info;         // kInfoCount values + the node counter
    Buf<BvhNode> out_nodes;     // 2n - 1 (an empty scene: 1)
    Buf<BvhNode> warp_boxes;    // one centroid box per warp of primitives
    Buf<uint32_t> out_prims;    // n
    // The primitives of the last build.
    const Triangle* triangles = nullptr;
    const Sphere* spheres = nullptr;
    uint32_t num_triangles = 0;

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
        ensure(tables, inner);
        for (Buf<uint32_t>* b : {&interior, &interior_rank}) ensure(*b, inner);
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

void GpuBvhBuilder::build(CudaBackend& be, const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                          uint32_t num_spheres) {
    const uint64_t n64 = uint64_t(num_triangles) + num_spheres;
    if (n64 > kMaxGpuBvhPrimitives)
        throw std::length_error("GPU BVH builder: " + std::to_string(n64) + " primitives; at most " +
                                std::to_string(kMaxGpuBvhPrimitives));
    Buffers& b = *buf_;
    b.reserve(uint32_t(n64));
    b.triangles = triangles;
    b.spheres = spheres;
    b.num_triangles = num_triangles;
    const uint32_t n = b.n;
    BvhNode* out_nodes = b.out_nodes.data();
    uint32_t* info = b.info.data();
    if (n == 0) {  // one empty root, which every ray misses
        be.parallel_for("bvh_empty", 1, [=] __device__(uint32_t) {
            out_nodes[0] = BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
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
        Vec3f cmin(kInfinity), cmax(-kInfinity);
        if (i < n) {
            const BvhNode box = prim_box(triangles, num_triangles, spheres, i);
            staging[i] = box;
            cmin = cmax = (box.lo + box.hi) * 0.5f;
        }
        warp_union(&cmin, &cmax);
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
        warp_union(&cmin, &cmax);
        if ((i & 31) == 0) {
            for (int a = 0; a < 3; ++a) {
                atomicMin(&scene_box[a], ordered_bits(cmin[a]));
                atomicMax(&scene_box[3 + a], ordered_bits(cmax[a]));
            }
        }
    });

    be.parallel_for("bvh_morton", n, [=] __device__(uint32_t i) {
        codes[i] = morton_code(staging[i], scene_box);
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
        meta[i] = BuildMeta{half_area(box.lo, box.hi), 1u, 0u, 1u};
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
        const uint32_t* sorted_codes = b.codes_sorted.data();
        const PlocArgs args{nodes, meta, parent, b.tables.data(), clusters, info + kInfoCount, info + kInfoRoot, n};
        be.parallel_for("bvh_hploc", padded, [=] __device__(uint32_t i) { climb(args, sorted_codes, merge_slot, i); });
    }
}

void GpuBvhBuilder::write_traversal(CudaBackend& be, TraversalNode* out, LeafPrim* out_prims, uint32_t capacity) {
    Buffers& b = *buf_;
    const uint32_t n = b.n;
    if (b.node_count.size() != 1) b.node_count.resize(1);
    uint32_t* node_count = b.node_count.data();
    if (n == 0) {
        be.parallel_for("bvh_collapse_empty", 1, [=] __device__(uint32_t) {
            out[0] = make_leaf_root(BvhNode{}, 0);
            *node_count = 1;
        });
        return;
    }
    const uint32_t inner = n - 1;
    for (CudaBuffer<uint2>* j : {&b.jumps[0], &b.jumps[1]})
        if (j->size() != inner) j->resize(inner);
    if (b.wide_list.size() != capacity) b.wide_list.resize(capacity);
    if (b.refs.size() != 2 * size_t(n) - 1) b.refs.resize(2 * size_t(n) - 1);
    const BuildNode* nodes = b.nodes.data();
    const BuildMeta* meta = b.meta.data();
    const WideTable* tables = b.tables.data();
    const uint32_t* parent = b.parent.data();
    const uint32_t* info = b.info.data();
    const Triangle* triangles = b.triangles;
    const Sphere* spheres = b.spheres;
    const uint32_t num_triangles = b.num_triangles;

    // Which wide node each binary node belongs to follows from the budget of
    // slots its parent hands it (make_wide_table): 1 at the root; a node that
    // takes its budget as an entry makes a wide node and hands its children the
    // budgets of its own table's choice for 1; an absorbed one hands them those
    // of its choice for its budget; nodes inside a leaf get none (0). So a
    // node's budget is its parent's budget through a map of five states, and the
    // maps compose: pointer jumping (each round, a node's map becomes its map
    // after its ancestor's, and its ancestor that ancestor's) gives every node
    // its budget from the root's in log2(depth) rounds of independent work, with
    // no chain of dependent loads per level of the tree (bench/NOTES.md).
    auto transition = [=] __device__(uint32_t p, bool right) {  // p's map, a budget -> its child's
        uint32_t map = 0;  // 3 bits per state (budget); state 0 (none) maps to none
        if (meta[p].height == 0) return map;  // p is a leaf: everything below it is inside
        const WideTable& t = tables[p - n];
        for (uint32_t budget = 1; budget <= kTraversalWidth; ++budget) {
            const uint32_t c = wide_absorbed(t.choice[budget - 1]) ? t.choice[budget - 1] : t.choice[0];
            map |= (right ? wide_right_budget(c) : wide_left_budget(c)) << (3 * budget);
        }
        return map;
    };
    uint2* jumps = b.jumps[0].data();
    be.parallel_for("bvh_budget_maps", inner, [=] __device__(uint32_t i) {
        const uint32_t y = n + i, p = parent[y];
        jumps[i] = p == kInvalid ? make_uint2(kInvalid, 0u) : make_uint2(p, transition(p, nodes[p].right == y));
    });
    // kJumpRounds rounds reach 128 levels up: every tree within kBvhMaxDepth,
    // leaves of kBvhMaxLeafSize included (deeper ones, which callers refuse, get
    // no budget).
    for (uint32_t round = 0; round < kJumpRounds; ++round) {
        const uint2* from = b.jumps[round % 2].data();
        uint2* to = b.jumps[(round + 1) % 2].data();
        be.parallel_for("bvh_budget_jump", inner, [=] __device__(uint32_t i) {
            const uint2 j = from[i];
            if (j.x == kInvalid || j.x == info[kInfoRoot]) {
                to[i] = j;
                return;
            }
            const uint2 up = from[j.x - n];
            uint32_t map = 0;  // j's map after up's
            for (uint32_t s = 1; s <= kTraversalWidth; ++s) map |= ((j.y >> (3 * ((up.y >> (3 * s)) & 7u))) & 7u) << (3 * s);
            to[i] = make_uint2(up.x, map);
        });
    }
    const uint2* budgets = b.jumps[kJumpRounds % 2].data();
    auto budget_of = [=] __device__(uint32_t y) -> uint32_t {  // 0: none
        const uint32_t root = info[kInfoRoot];
        if (y == root) return 1u;
        if (y >= n) {
            const uint2 j = budgets[y - n];
            return j.x == root ? (j.y >> 3) & 7u : 0u;
        }
        const uint32_t p = parent[y];  // a primitive: its parent's budget through its map
        const uint2 j = budgets[p - n];
        const uint32_t bp = p == root ? 1u : (j.x == root ? (j.y >> 3) & 7u : 0u);
        return (transition(p, nodes[p].right == y) >> (3 * bp)) & 7u;
    };
    uint32_t* wide = b.interior.data();  // the flat layout's scratch, reused
    uint32_t* wide_rank = b.interior_rank.data();
    uint32_t* leaf_prims = b.leaf_prims.data();
    uint32_t* leaf_first = b.leaf_first.data();
    be.parallel_for("bvh_classify_wide", 2 * n - 1, [=] __device__(uint32_t y) {
        const uint32_t budget = budget_of(y);
        const BuildMeta m = meta[y];
        const bool makes_wide = budget != 0 && m.height > 0 && !wide_absorbed(tables[y - n].choice[budget - 1]);
        if (y >= n) wide[y - n] = makes_wide;
        leaf_prims[y] = budget != 0 && m.height == 0 ? (m.count & ~kLeafFlag) : 0u;
    });
    if (inner > 0) be.exclusive_scan("bvh_scan_wide", wide, wide_rank, inner);
    be.exclusive_scan("bvh_scan_leaves", leaf_prims, leaf_first, 2 * n - 1);
    auto index_of = [=] __device__(uint32_t y) {  // the root's wide node is node 0
        const uint32_t root = info[kInfoRoot], r = wide_rank[y - n], root_rank = wide_rank[root - n];
        return y == root ? 0u : r + (r < root_rank ? 1u : 0u);
    };
    auto links = [=] __device__(uint32_t y, uint32_t budget) {
        return WideLinks{nodes[y].left, nodes[y].right, y < n ? 0u : tables[y - n].choice[budget - 1]};
    };
    // Every kept node's reference (its leaf range, or its wide node), and the
    // nodes that make wide nodes listed densely (one in ten build nodes, so that
    // the writing threads of a warp all work); then the wide nodes, whose
    // children need only their boxes and these references.
    uint32_t* list = b.wide_list.data();
    uint32_t* refs = b.refs.data();
    be.parallel_for("bvh_refs", 2 * n - 1, [=] __device__(uint32_t y) {
        const uint32_t root = info[kInfoRoot];
        if (y == 0) *node_count = inner > 0 ? wide_rank[inner - 1] + wide[inner - 1] : 0u;
        const uint32_t prims = leaf_prims[y];
        if (prims > 0) {
            refs[y] = make_leaf_ref(leaf_first[y], prims);
            if (y == root) {  // the root is one leaf
                out[0] = make_leaf_root(BvhNode{nodes[y].lo, 0u, nodes[y].hi, 0u}, prims);
                *node_count = 1;
            }
        } else if (y >= n && wide[y - n]) {
            refs[y] = index_of(y);
            list[refs[y]] = y;
        }
    });
    be.parallel_for("bvh_write_wide", capacity, [=] __device__(uint32_t i) {
        if (i >= *node_count || leaf_prims[info[kInfoRoot]] > 0) return;
        uint32_t kids[kTraversalWidth];
        const uint32_t count = wide_children(list[i], links, kids);
        // Built in registers (the loop unrolled), stored as 16-byte vectors: stored
        // field by field, the node's 28 words stalled the kernel on its store queue.
        TraversalNode node;
#pragma unroll
        for (uint32_t k = 0; k < kTraversalWidth; ++k) {
            BvhNode box{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};  // an empty slot
            uint32_t ref = 0;
            if (k < count) {
                const BvhNode c{nodes[kids[k]].lo, 0u, nodes[kids[k]].hi, 0u};
                if (box_can_be_hit(c)) box = c;
                ref = refs[kids[k]];
            }
            node.lo_x[k] = box.lo.x;
            node.hi_x[k] = box.hi.x;
            node.lo_y[k] = box.lo.y;
            node.hi_y[k] = box.hi.y;
            node.lo_z[k] = box.lo.z;
            node.hi_z[k] = box.hi.z;
            node.child[k] = ref;
        }
        const uint4* from = reinterpret_cast<const uint4*>(&node);
        uint4* to = reinterpret_cast<uint4*>(&out[i]);
#pragma unroll
        for (uint32_t q = 0; q < sizeof(TraversalNode) / 16; ++q) to[q] = from[q];
    });
    // The leaves' primitives, one thread per primitive: its leaf is its highest
    // ancestor that chose to be one (within kBvhMaxLeafSize primitives), its
    // place there the primitives of the left subtrees it climbed out of (the
    // order of for_each_leaf_prim and of the flat layout).
    be.parallel_for("bvh_leaf_prims", n, [=] __device__(uint32_t i) {
        uint32_t x = i, offset = 0, leaf = i, leaf_offset = 0;
        for (uint32_t p = parent[x]; p != kInvalid && (meta[p].count & ~kLeafFlag) <= kBvhMaxLeafSize;
             x = p, p = parent[p]) {
            const BuildNode pn = nodes[p];
            if (pn.right == x) offset += meta[pn.left].count & ~kLeafFlag;
            if (meta[p].count & kLeafFlag) {
                leaf = p;
                leaf_offset = offset;
            }
        }
        out_prims[leaf_first[leaf] + leaf_offset] = make_leaf_prim(triangles, num_triangles, spheres, nodes[i].left);
    });
}

uint32_t GpuBvhBuilder::traversal_node_count(CudaBackend& be) const {
    be.synchronize();
    uint32_t count = 0;
    if (buf_->node_count.size() == 1) buf_->node_count.download(&count, 1);
    return count;
}

void GpuBvhBuilder::write_flat(CudaBackend& be) {
    Buffers& b = *buf_;
    const uint32_t n = b.n;
    if (n == 0) return;  // build() wrote the empty root
    const BuildNode* nodes = b.nodes.data();
    const BuildMeta* meta = b.meta.data();
    const uint32_t* parent = b.parent.data();
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
        const BuildMeta m = meta[x];
        const bool is_interior = !inside_leaf && m.height > 0;
        if (x >= n) interior[x - n] = is_interior;
        leaf_prims[x] = !inside_leaf && m.height == 0 ? (m.count & ~kLeafFlag) : 0u;
    });
    if (n > 1) be.exclusive_scan("bvh_scan_interior", interior, b.interior_rank.data(), n - 1);
    be.exclusive_scan("bvh_scan_leaves", leaf_prims, b.leaf_first.data(), all);
    // The flat layout: children of the interior node ranked k go to slots 2k + 1
    // and 2k + 2; a leaf's primitives go to its range of prim_index.
    const uint32_t* interior_rank = b.interior_rank.data();
    const uint32_t* leaf_first = b.leaf_first.data();
    uint32_t* out_prims = b.out_prims.data();
    BvhNode* out_nodes = b.out_nodes.data();
    be.parallel_for("bvh_layout", 2 * n - 1, [=] __device__(uint32_t x) {
        const bool is_interior = x >= n && interior[x - n];
        const uint32_t prims = leaf_prims[x];
        if (!is_interior && prims == 0) return;
        const uint32_t p = parent[x];
        const uint32_t slot = p == kInvalid ? 0u : 2 * interior_rank[p - n] + 1 + (nodes[p].right == x ? 1u : 0u);
        const BuildNode node = nodes[x];
        if (is_interior) {
            out_nodes[slot] = BvhNode{node.lo, 2 * interior_rank[x - n] + 1, node.hi, 0u};
            return;
        }
        out_nodes[slot] = BvhNode{node.lo, leaf_first[x], node.hi, prims};
        for_each_leaf_prim(nodes, n, x, leaf_first[x], [&](uint32_t k, uint32_t prim) { out_prims[k] = prim; });
    });
}

GpuBvhInfo GpuBvhBuilder::info(CudaBackend& be) const {
    const Buffers& b = *buf_;
    GpuBvhInfo out;
    out.num_prims = b.n;
    be.synchronize();
    out.num_nodes = out.max_traversal_nodes = 1;
    if (b.n == 0) return out;
    uint32_t values[kInfoCount + 1];
    b.info.download(values, kInfoCount + 1);
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
    if (meta.height > 0) {  // the collapse's cost: wide nodes a ray enters, on average over the SAH's rays
        WideTable table;
        WF_CUDA_CHECK(cudaMemcpy(&table, b.tables.data() + (root - b.n), sizeof table, cudaMemcpyDeviceToHost));
        out.wide_node_visits = area > 0.0 ? double(table.cost[0]) / area : 0.0;
    }
    out.num_nodes = 2 * meta.leaves - 1;
    // A wide node has two children or more, so there are fewer than leaves.
    out.max_traversal_nodes = std::max(meta.leaves - 1, 1u);
    return out;
}

Bvh GpuBvhBuilder::download(CudaBackend& be) {
    write_flat(be);
    const GpuBvhInfo figures = info(be);
    const Buffers& b = *buf_;
    Bvh bvh;
    bvh.nodes.resize(figures.num_nodes);
    b.out_nodes.download(bvh.nodes.data(), bvh.nodes.size());
    bvh.prim_index = b.out_prims.to_vector();
    return bvh;
}

}  // namespace wf
