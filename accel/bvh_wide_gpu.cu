// The GPU builder's wide traversal layout (traversal_bvh.h), written from the
// build nodes and their tables (make_wide_table): budgets by pointer jumping,
// scans, one thread per wide node, one per primitive for the leaves.
#include <bit>

#include "accel/bvh_build_gpu_buffers.cuh"

namespace wf {
namespace {

using namespace gpu_bvh;

// A budget map: for each budget s = 1..kTraversalWidth (4 bits at 4(s - 1)) the
// budget it becomes, 0 for none; none always becomes none.
static_assert(4 * kTraversalWidth <= 32, "a budget map holds kTraversalWidth budgets of 4 bits");
__device__ __forceinline__ uint32_t map_budget(uint32_t map, uint32_t budget) {
    return budget == 0 ? 0u : (map >> (4 * (budget - 1))) & 15u;
}
// Pointer-jumping rounds: 2^6 = 64 levels up reach the root from every kept node
// of a tree within kBvhMaxDepth (a node inside a leaf gets none through its
// leaf, however deep it lies).
constexpr uint32_t kJumpRounds = uint32_t(std::bit_width(kBvhMaxDepth));
static_assert((1u << kJumpRounds) > kBvhMaxDepth);

}  // namespace

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
    // node's budget is its parent's budget through a map, and the maps compose: pointer jumping (each round, a node's map becomes its map
    // after its ancestor's, and its ancestor that ancestor's) gives every node
    // its budget from the root's in log2(depth) rounds of independent work, with
    // no chain of dependent loads per level of the tree (bench/NOTES.md).
    auto transition = [=] __device__(uint32_t p, bool right) {  // p's map, a budget -> its child's
        uint32_t map = 0;
        if (meta[p].height == 0) return map;  // p is a leaf: everything below it is inside
        const WideTable& t = tables[p - n];
        for (uint32_t budget = 1; budget <= kTraversalWidth; ++budget) {
            const uint32_t c = wide_absorbed(t.choice[budget - 1]) ? t.choice[budget - 1] : t.choice[0];
            map |= (right ? wide_right_budget(c) : wide_left_budget(c)) << (4 * (budget - 1));
        }
        return map;
    };
    uint2* jumps = b.jumps[0].data();
    be.parallel_for("bvh_budget_maps", inner, [=] __device__(uint32_t i) {
        const uint32_t y = n + i, p = parent[y];
        jumps[i] = p == kInvalid ? make_uint2(kInvalid, 0u) : make_uint2(p, transition(p, nodes[p].right == y));
    });
    // (Deeper trees, which callers must not pass, leave nodes with no budget.)
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
            for (uint32_t s = 1; s <= kTraversalWidth; ++s) map |= map_budget(j.y, map_budget(up.y, s)) << (4 * (s - 1));
            to[i] = make_uint2(up.x, map);
        });
    }
    const uint2* budgets = b.jumps[kJumpRounds % 2].data();
    auto budget_of = [=] __device__(uint32_t y) -> uint32_t {  // 0: none
        const uint32_t root = info[kInfoRoot];
        if (y == root) return 1u;
        if (y >= n) {
            const uint2 j = budgets[y - n];
            return j.x == root ? map_budget(j.y, 1) : 0u;
        }
        const uint32_t p = parent[y];  // a primitive: its parent's budget through its map
        const uint2 j = budgets[p - n];
        const uint32_t bp = p == root ? 1u : (j.x == root ? map_budget(j.y, 1) : 0u);
        return map_budget(transition(p, nodes[p].right == y), bp);
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
    be.exclusive_scan("bvh_scan_wide_leaves", leaf_prims, leaf_first, 2 * n - 1);
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
        const bool root_is_leaf = leaf_prims[root] > 0;
        if (y == 0) *node_count = root_is_leaf ? 1u : wide_rank[inner - 1] + wide[inner - 1];
        const uint32_t prims = leaf_prims[y];
        if (prims > 0) {
            refs[y] = make_leaf_ref(leaf_first[y], prims);
            if (y == root) out[0] = make_leaf_root(BvhNode{nodes[y].lo, 0u, nodes[y].hi, 0u}, prims);
        } else if (y >= n && wide[y - n]) {
            refs[y] = index_of(y);
            if (refs[y] < capacity) list[refs[y]] = y;  // always: a wide node has two children or more
        }
    });
    be.parallel_for("bvh_write_wide", capacity, [=] __device__(uint32_t i) {
        if (i >= *node_count || leaf_prims[info[kInfoRoot]] > 0) return;
        uint32_t kids[kTraversalWidth], child_refs[kTraversalWidth];
        BvhNode boxes[kTraversalWidth];
        const uint32_t count = wide_children(list[i], links, kids);
#pragma unroll
        for (uint32_t k = 0; k < kTraversalWidth; ++k)
            if (k < count) {
                boxes[k] = BvhNode{nodes[kids[k]].lo, 0u, nodes[kids[k]].hi, 0u};
                child_refs[k] = refs[kids[k]];
            }
        // Built in registers, stored as 16-byte vectors: stored field by field, the
        // node's 28 words stalled the kernel on its store queue (bench/NOTES.md).
        const TraversalNode node = make_traversal_node(boxes, count, child_refs);
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

}  // namespace wf
