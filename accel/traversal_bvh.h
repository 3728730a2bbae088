// The BVH as traversal reads it, converted from the builders' flat layout
// (bvh_node.h) by one parallel pass:
//  - each interior node holds the boxes of its two children and a reference to
//    each (Aila and Laine 2009), so one 64-byte fetch decides a whole step; the
//    flat layout needs the child's own record first to know whether it is a leaf;
//  - each leaf's primitives are copied in leaf order as three 16-byte vectors
//    that carry the primitive id, so a leaf is read with wide contiguous loads
//    instead of an id fetch and then a scattered 36-byte triangle.
// Every float is copied unchanged, so traversal reports exactly the hits it
// reported over the flat layout, in the same visiting order.
#pragma once

#include <cstdint>

#include "accel/bvh_node.h"
#include "accel/float_error.h"
#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf {

struct alignas(16) Float4 {
    float x, y, z, w;
};

// A child reference: an interior child is its TraversalNode index; a leaf sets
// kLeafRefFlag and packs its first leaf-primitive index and its count - 1.
inline constexpr uint32_t kLeafRefFlag = 0x80000000u;
inline constexpr uint32_t kLeafRefCountBits = 3;  // leaves hold 1..8 primitives (kBvhMaxLeafSize)
// Leaf-primitive indices the reference can hold: the limit on primitives in a scene.
inline constexpr uint32_t kMaxTraversalPrims = 1u << (31 - kLeafRefCountBits);

WF_HD_INLINE bool is_leaf_ref(uint32_t ref) { return (ref & kLeafRefFlag) != 0; }
WF_HD_INLINE uint32_t leaf_ref_first(uint32_t ref) { return (ref & ~kLeafRefFlag) >> kLeafRefCountBits; }
WF_HD_INLINE uint32_t leaf_ref_count(uint32_t ref) { return (ref & ((1u << kLeafRefCountBits) - 1u)) + 1u; }

// Two children: x and y bounds of each as (lo, hi) pairs, then both z pairs,
// then the two references. The root is node 0.
struct alignas(16) TraversalNode {
    Float4 left_xy;   // left lo.x, hi.x, lo.y, hi.y
    Float4 right_xy;  // right lo.x, hi.x, lo.y, hi.y
    Float4 z;         // left lo.z, hi.z, right lo.z, hi.z
    uint32_t left, right, pad0, pad1;
};
static_assert(sizeof(TraversalNode) == 64, "TraversalNode must stay 64 bytes");

// One primitive of a leaf: a triangle's p0, p1, p2 in a.xyz, b.xyz, c.xyz, or
// a sphere's centre in a.xyz and radius in b.x; a.w holds the primitive id's bits.
struct alignas(16) LeafPrim {
    Float4 a, b, c;
};
static_assert(sizeof(LeafPrim) == 48, "LeafPrim must stay 48 bytes");

// 16-byte loads that go through the read-only cache on the GPU: the tree and the
// leaf primitives never change while rays are traced.
WF_HD_INLINE Float4 load_float4(const Float4* p) {
#if WF_DEVICE_CODE
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    return Float4{v.x, v.y, v.z, v.w};
#else
    return *p;
#endif
}
WF_HD_INLINE TraversalNode load_traversal_node(const TraversalNode* nodes, uint32_t i) {
#if WF_DEVICE_CODE
    const TraversalNode* n = nodes + i;
    TraversalNode out;
    out.left_xy = load_float4(&n->left_xy);
    out.right_xy = load_float4(&n->right_xy);
    out.z = load_float4(&n->z);
    const uint4 refs = __ldg(reinterpret_cast<const uint4*>(&n->left));
    out.left = refs.x;
    out.right = refs.y;
    out.pad0 = out.pad1 = 0;
    return out;
#else
    return nodes[i];
#endif
}
WF_HD_INLINE LeafPrim load_leaf_prim(const LeafPrim* prims, uint32_t i) {
    return LeafPrim{load_float4(&prims[i].a), load_float4(&prims[i].b), load_float4(&prims[i].c)};
}

// Sizes of the converted arrays for a flat tree of `flat_nodes` nodes: one
// TraversalNode per interior node, and at least one (a tree that is a single
// leaf, or empty, gets a root whose second child is an empty box).
WF_HD_INLINE uint32_t traversal_node_count(uint32_t flat_nodes) { return flat_nodes > 1 ? (flat_nodes - 1) / 2 : 1u; }

// The builders give every interior node a pair of consecutive slots for its
// children, (1, 2), (3, 4), ...: pair p = (first - 1) / 2 numbers the interior
// nodes densely. Traversal node i holds pair i, except that the root's pair
// trades places with pair 0, so that the root is node 0 for either builder.
WF_HD_INLINE uint32_t swap_root_pair(uint32_t pair, uint32_t root_pair) {
    return pair == root_pair ? 0u : (pair == 0u ? root_pair : pair);
}

WF_HD_INLINE uint32_t child_ref(const BvhNode& c, uint32_t root_pair) {
    if (c.count > 0) return kLeafRefFlag | (c.first << kLeafRefCountBits) | (c.count - 1u);
    return swap_root_pair((c.first - 1u) / 2u, root_pair);
}

// Traversal node i of the flat tree `nodes` (nodes[0] is the root), for the
// parallel conversion pass.
WF_HD_INLINE TraversalNode make_traversal_node(const BvhNode* nodes, uint32_t i) {
    const BvhNode& root = nodes[0];
    BvhNode left, right;
    uint32_t root_pair = 0;
    if (root.count > 0 || root.first == 0) {
        // A single leaf, or the empty scene (count 0, first 0, an empty box):
        // the root's only child is that leaf; the other child is an empty box,
        // which every ray misses. The empty scene's leaf gets a count of 1 for
        // the reference's sake; its empty box is never entered.
        left = root;
        left.count = root.count > 0 ? root.count : 1u;
        right = BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 1u};
    } else {
        root_pair = (root.first - 1u) / 2u;
        const uint32_t pair = swap_root_pair(i, root_pair);
        left = nodes[2 * pair + 1];
        right = nodes[2 * pair + 2];
    }
    TraversalNode n;
    n.left_xy = Float4{left.lo.x, left.hi.x, left.lo.y, left.hi.y};
    n.right_xy = Float4{right.lo.x, right.hi.x, right.lo.y, right.hi.y};
    n.z = Float4{left.lo.z, left.hi.z, right.lo.z, right.hi.z};
    n.left = child_ref(left, root_pair);
    n.right = child_ref(right, root_pair);
    n.pad0 = n.pad1 = 0;
    return n;
}

// Leaf primitive i: the primitive prim_index[i] of the flat tree, copied.
WF_HD_INLINE LeafPrim make_leaf_prim(const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                                     uint32_t prim) {
    const float id = bits_to_float(prim);
    if (prim < num_triangles) {
        const Triangle& t = triangles[prim];
        return LeafPrim{{t.p0.x, t.p0.y, t.p0.z, id}, {t.p1.x, t.p1.y, t.p1.z, 0.0f}, {t.p2.x, t.p2.y, t.p2.z, 0.0f}};
    }
    const Sphere& s = spheres[prim - num_triangles];
    return LeafPrim{{s.center.x, s.center.y, s.center.z, id}, {s.radius, 0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}};
}

}  // namespace wf
