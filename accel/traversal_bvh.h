// The BVH as traversal reads it: a kTraversalWidth-wide tree collapsed from the
// builders' binary flat layout (bvh_node.h):
//  - a node holds the boxes of up to kTraversalWidth children (copied from the
//    builder, float for float) and a reference to each; one step of traversal
//    tests them all where the binary tree needed a dependent fetch per level;
//  - each leaf's primitives are copied in leaf order as three 16-byte vectors
//    that carry the primitive id, so a leaf is read with wide contiguous loads.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/bvh_build.h"
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
WF_HD_INLINE uint32_t make_leaf_ref(uint32_t first, uint32_t count) {
    return kLeafRefFlag | (first << kLeafRefCountBits) | (count - 1u);
}

#ifndef WF_TRAVERSAL_WIDTH
#define WF_TRAVERSAL_WIDTH 4
#endif
inline constexpr uint32_t kTraversalWidth = WF_TRAVERSAL_WIDTH;  // children per node, at most
static_assert(kTraversalWidth == 4 || kTraversalWidth == 8, "the sorting networks exist for 4 and 8");
// Entries of the traversal stack (traverse.h). The collapse keeps every path's
// pushes within it (collect_children), for any flat tree within kBvhMaxDepth
// (bvh_build.h), which callers check.
inline constexpr int kTraversalStackSize = 128;
static_assert(kTraversalStackSize > int(kBvhMaxDepth), "a binary step must always fit the stack");

// Up to kTraversalWidth children, boxes by axis and bound (so one 16-byte load
// brings one bound of 4 children); an empty slot has lo +inf and hi -inf, a
// box no ray enters. The root is node 0.
struct alignas(16) TraversalNode {
    float lo_x[kTraversalWidth], hi_x[kTraversalWidth];
    float lo_y[kTraversalWidth], hi_y[kTraversalWidth];
    float lo_z[kTraversalWidth], hi_z[kTraversalWidth];
    uint32_t child[kTraversalWidth];  // references; meaningless in an empty slot
};
static_assert(sizeof(TraversalNode) == 28 * kTraversalWidth, "TraversalNode holds 7 words per child");

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
    const uint4* src = reinterpret_cast<const uint4*>(nodes + i);
    TraversalNode out;
    uint4* dst = reinterpret_cast<uint4*>(&out);
#pragma unroll
    for (int k = 0; k < int(sizeof(TraversalNode) / 16); ++k) dst[k] = __ldg(src + k);
    return out;
#else
    return nodes[i];
#endif
}
WF_HD_INLINE LeafPrim load_leaf_prim(const LeafPrim* prims, uint32_t i) {
    return LeafPrim{load_float4(&prims[i].a), load_float4(&prims[i].b), load_float4(&prims[i].c)};
}

// Whether a builder box can hold a hit: finite and lo <= hi on every axis. A
// box that cannot (an empty scene's root; a leaf whose primitives all have NaN
// coordinates on some axis, which no ray hits) becomes an empty slot.
WF_HD_INLINE bool box_can_be_hit(const BvhNode& n) {
    for (int a = 0; a < 3; ++a)
        if (!(n.lo[a] <= n.hi[a]) || !std::isfinite(n.lo[a]) || !std::isfinite(n.hi[a])) return false;
    return true;
}

// ---- the collapse of the binary tree -----------------------------------------

// The flat-tree nodes one traversal node takes as its children.
struct CollapsedChildren {
    uint32_t node[kTraversalWidth];   // flat node indices
    uint32_t depth[kTraversalWidth];  // their depths in the flat tree (root = 0)
    uint32_t count = 0;
};

WF_HD_INLINE float half_area(const BvhNode& n) {
    const Vec3f d = n.hi - n.lo;
    return d.x * d.y + d.y * d.z + d.z * d.x;
}

// The children of the traversal node made from flat interior node `b` (depth
// `depth`), when `pushes` stack entries may lie below it during traversal:
// b's two children, then, greedily, the interior child of largest surface
// area replaced by its own two, while there are fewer than 8 and the stack
// stays within kTraversalStackSize. Traversal pushes at most count - 1 entries
// at a node, so every traversal node keeps
//   pushes + (kBvhMaxDepth - depth) <= kTraversalStackSize,
// which holds at the root, and which a plain binary step (2 children) always
// keeps: no path can overflow the stack.
WF_HD_INLINE CollapsedChildren collect_children(const BvhNode* nodes, uint32_t b, uint32_t depth, uint32_t pushes) {
    CollapsedChildren c;
    c.node[0] = nodes[b].first;
    c.node[1] = nodes[b].first + 1;
    c.depth[0] = c.depth[1] = depth + 1;
    c.count = 2;
    while (c.count < kTraversalWidth) {
        int best = -1;
        float best_area = -1.0f;
        uint32_t shallowest_other = kBvhMaxDepth;  // of the interior children but `best`
        for (uint32_t i = 0; i < c.count; ++i) {
            const BvhNode& n = nodes[c.node[i]];
            if (n.count > 0) continue;
            const float area = half_area(n);
            if (area > best_area) {
                if (best >= 0 && c.depth[best] < shallowest_other) shallowest_other = c.depth[best];
                best = int(i);
                best_area = area;
            } else if (c.depth[i] < shallowest_other) {
                shallowest_other = c.depth[i];
            }
        }
        if (best < 0) break;
        // After the split: count + 1 children, the shallowest interior one at
        // most min(shallowest_other, depth of best + 1) deep.
        uint32_t shallowest = c.depth[best] + 1;
        if (shallowest_other < shallowest) shallowest = shallowest_other;
        // (A tree deeper than kBvhMaxDepth, which callers refuse, gets no
        // guarantee; traversal then drops pushes rather than overflow.)
        const uint32_t below = shallowest < kBvhMaxDepth ? kBvhMaxDepth - shallowest : 0u;
        if (pushes + c.count + below > uint32_t(kTraversalStackSize)) break;
        const BvhNode& n = nodes[c.node[best]];
        const uint32_t d = c.depth[best] + 1;
        c.node[best] = n.first;
        c.depth[best] = d;
        c.node[c.count] = n.first + 1;
        c.depth[c.count] = d;
        ++c.count;
    }
    return c;
}

// The traversal node over the flat nodes `c`, with `refs[i]` the reference of
// child i (an interior child's traversal node, or its leaf range).
WF_HD_INLINE TraversalNode make_traversal_node(const BvhNode* nodes, const CollapsedChildren& c, const uint32_t* refs) {
    TraversalNode out;
    for (uint32_t i = 0; i < kTraversalWidth; ++i) {
        const bool used = i < c.count && box_can_be_hit(nodes[c.node[i]]);
        const BvhNode empty{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
        const BvhNode& n = used ? nodes[c.node[i]] : empty;
        out.lo_x[i] = n.lo.x;
        out.hi_x[i] = n.hi.x;
        out.lo_y[i] = n.lo.y;
        out.hi_y[i] = n.hi.y;
        out.lo_z[i] = n.lo.z;
        out.hi_z[i] = n.hi.z;
        out.child[i] = i < c.count ? refs[i] : 0u;
    }
    return out;
}

// The traversal root of a flat tree whose root is a leaf (one leaf child) or
// the empty scene's root (count 0, first 0: no child can be hit).
WF_HD_INLINE bool flat_root_is_leaf(const BvhNode* nodes) { return nodes[0].count > 0 || nodes[0].first == 0; }
WF_HD_INLINE TraversalNode make_leaf_root(const BvhNode* nodes) {
    CollapsedChildren c;
    c.node[0] = 0;
    c.depth[0] = 0;
    c.count = 1;
    const uint32_t ref = make_leaf_ref(nodes[0].first, nodes[0].count > 0 ? nodes[0].count : 1u);
    return make_traversal_node(nodes, c, &ref);
}

// One traversal node to make: flat interior node `flat` at depth `depth`, with
// `pushes` stack entries possibly below it (collect_children). `ready` is for
// the device's work queue (traversal_bvh_cuda.cu).
struct CollapseTask {
    uint32_t flat, depth, pushes, ready;
};

WF_HD_INLINE uint32_t count_interior(const BvhNode* nodes, const CollapsedChildren& c) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < c.count; ++i) k += nodes[c.node[i]].count == 0 ? 1u : 0u;
    return k;
}

// The traversal node of task t whose children are c: its interior children
// become traversal nodes first_child, first_child + 1, ..., whose tasks are
// written to kids[0..count_interior).
WF_HD_INLINE TraversalNode make_collapsed_node(const BvhNode* nodes, const CollapseTask& t, const CollapsedChildren& c,
                                               uint32_t first_child, CollapseTask* kids) {
    uint32_t refs[kTraversalWidth];
    uint32_t k = 0;
    for (uint32_t i = 0; i < c.count; ++i) {
        const BvhNode& n = nodes[c.node[i]];
        if (n.count > 0) {
            refs[i] = make_leaf_ref(n.first, n.count);
        } else {
            refs[i] = first_child + k;
            kids[k++] = CollapseTask{c.node[i], c.depth[i], t.pushes + c.count - 1u, 0u};
        }
    }
    return make_traversal_node(nodes, c, refs);
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
