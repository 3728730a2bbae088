// The GPU builder's wide traversal layout (traversal_bvh.h), written from the
// build nodes and their tables (make_wide_table): budgets by links followed up
// to the root, scans, one thread per wide node, one per primitive for the leaves.
#include <cuda/atomic>

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
// A node's link towards the root for the budgets (write_traversal): an ancestor
// in the low word, the map from its budget to the node's in the high word. 0 is
// "not yet written" (node 0 is a primitive, never an ancestor).
__device__ __forceinline__ unsigned long long pack_link(uint32_t ancestor, uint32_t map) {
    return (static_cast<unsigned long long>(map) << 32) | ancestor;
}
__device__ __forceinline__ uint32_t link_ancestor(unsigned long long link) { return uint32_t(link); }
__device__ __forceinline__ uint32_t link_map(unsigned long long link) { return uint32_t(link >> 32); }
// Another thread's link, or this thread's for it: relaxed atomics, so that a
// link is read whole, old or new (either is a true ancestor and map).
__device__ __forceinline__ unsigned long long load_link(unsigned long long* link) {
    return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*link).load(cuda::memory_order_relaxed);
}
__device__ __forceinline__ void store_link(unsigned long long* link, unsigned long long value) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*link).store(value, cuda::memory_order_relaxed);
}

}  // namespace

void GpuBvhBuilder::write_traversal(CudaBackend& be, TraversalNode* out, LeafPrim* out_prims, uint32_t capacity,
                                    BudgetOrder order) {
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
    if (b.links.size() != inner) b.links.resize(inner);
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
    // node's budget is its parent's through a map, and maps compose.
    auto child_budget = [=] __device__(uint32_t p, uint32_t budget, bool right) {  // 0: none
        if (budget == 0 || meta[p].height == 0) return 0u;  // p is inside a leaf, or is one
        const WideTable& t = tables[p - n];
        const uint32_t c = wide_absorbed(t.choice[budget - 1]) ? t.choice[budget - 1] : t.choice[0];
        return right ? wide_right_budget(c) : wide_left_budget(c);
    };
    auto first_link = [=] __device__(uint32_t y) {  // y's parent and the map from its budget to y's
        const uint32_t link = parent[y], p = parent_id(link);
        const bool right = is_right_child(link);
        uint32_t map = 0;
        for (uint32_t s = 1; s <= kTraversalWidth; ++s) map |= child_budget(p, s, right) << (4 * (s - 1));
        return pack_link(p, map);
    };
    // One thread per interior node in reverse order of creation, the root first
    // (H-PLOC creates it last), so that a node's ancestors (created after it, but
    // in the top bvh_top_sah.cuh rebuilds) are mostly done before it starts. (The
    // SAH method's ids follow split positions, which this order does not favour:
    // the pass took as long on its trees, 0.065 ms at 1M on an H200.) Each
    // follows the links up to the root, composing maps, and stores its link after
    // every step: a descendant that reads it jumps as far; it stops early at a map
    // of all 0 (it lies inside a leaf). No thread waits: a link not yet written is
    // made from the tree. (Pointer jumping in rounds, a kernel per round over all
    // nodes, then a pass to classify, took 0.13 ms at 1M on an H100.) Then a node's
    // budget says whether it makes a wide node and, for a leaf of the flat tree and
    // for its primitive children, how many primitives it places.
    unsigned long long* budget_links = b.links.data();
    b.links.fill_zero();
    uint32_t* wide = b.interior.data();  // the flat layout's scratch, reused
    uint32_t* wide_rank = b.interior_rank.data();
    uint32_t* leaf_prims = b.leaf_prims.data();
    uint32_t* leaf_first = b.leaf_first.data();
    if (n == 1) be.parallel_for("bvh_budgets_single", 1, [=] __device__(uint32_t) { leaf_prims[0] = 1; });
    const bool descendants_first = order == BudgetOrder::kDescendantsFirst;
    be.parallel_for("bvh_budgets", inner, [=] __device__(uint32_t t) {
        const uint32_t root = info[kInfoRoot], y = descendants_first ? n + t : n + inner - 1 - t;
        uint32_t budget = 1;
        if (y != root) {
            unsigned long long link = first_link(y);
            store_link(&budget_links[y - n], link);
            // (A map of all 0, inside a leaf, stays 0 whatever lies above.)
            while (link_ancestor(link) != root && link_map(link) != 0) {
                const uint32_t a = link_ancestor(link);
                unsigned long long up = load_link(&budget_links[a - n]);
                if (up == 0) up = first_link(a);
                uint32_t map = 0;  // link's map after up's
                for (uint32_t s = 1; s <= kTraversalWidth; ++s)
                    map |= map_budget(link_map(link), map_budget(link_map(up), s)) << (4 * (s - 1));
                link = pack_link(link_ancestor(up), map);
                store_link(&budget_links[y - n], link);
            }
            budget = map_budget(link_map(link), 1);
        }
        const BuildMeta m = meta[y];
        wide[y - n] = budget != 0 && m.height > 0 && !wide_absorbed(tables[y - n].choice[budget - 1]);
        leaf_prims[y] = budget != 0 && m.height == 0 ? (m.count & ~kLeafFlag) : 0u;
        const BuildNode node = nodes[y];
        if (node.left < n) leaf_prims[node.left] = child_budget(y, budget, false) != 0 ? 1u : 0u;
        if (node.right < n) leaf_prims[node.right] = child_budget(y, budget, true) != 0 ? 1u : 0u;
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
    const uint32_t* sorted_ids = b.ids_sorted.data();
    be.parallel_for("bvh_leaf_prims", n, [=] __device__(uint32_t i) {
        uint32_t count = 1, offset = 0, leaf = i, leaf_offset = 0;
        for (uint32_t link = parent[i]; link != kInvalid;) {
            const uint32_t p = parent_id(link), p_count = meta[p].count;
            if ((p_count & ~kLeafFlag) > kBvhMaxLeafSize) break;
            // Out of a right child: the left sibling's primitives, p's less ours, come first.
            if (is_right_child(link)) offset += (p_count & ~kLeafFlag) - count;
            if (p_count & kLeafFlag) {
                leaf = p;
                leaf_offset = offset;
            }
            count = p_count & ~kLeafFlag;
            link = parent[p];
        }
        out_prims[leaf_first[leaf] + leaf_offset] = make_leaf_prim(triangles, num_triangles, spheres, sorted_ids[i]);
    });
}

uint32_t GpuBvhBuilder::traversal_node_count(CudaBackend& be) const {
    be.synchronize();
    uint32_t count = 0;
    if (buf_->node_count.size() == 1) buf_->node_count.download(&count, 1);
    return count;
}

}  // namespace wf
