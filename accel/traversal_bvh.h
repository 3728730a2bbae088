// The BVH as traversal reads it: a kTraversalWidth-wide tree collapsed from the
// builders' binary tree (the CPU builder's flat layout, bvh_node.h, or the GPU
// builder's build nodes):
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
#include "accel/degenerate_triangle.h"
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
// pushes within it (make_wide_table), for any flat tree within kBvhMaxDepth
// (bvh_build.h), which callers check.
inline constexpr int kTraversalStackSize = 128;

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
// a sphere's centre in a.xyz and radius in b.x; a.w holds the primitive id's bits;
// a triangle's b.w is 1 when it has no plane (triangle_is_degenerate, decided
// once here rather than at every test: a fifth of a missing test's work).
struct alignas(16) LeafPrim {
    Float4 a, b, c;
};
static_assert(sizeof(LeafPrim) == 48, "LeafPrim must stay 48 bytes");

// 16-byte loads that go through the read-only cache on the GPU: the tree and the
// leaf primitives never change while rays are traced (nodes: load_oriented_node,
// traverse.h).
WF_HD_INLINE Float4 load_float4(const Float4* p) {
#if WF_DEVICE_CODE
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    return Float4{v.x, v.y, v.z, v.w};
#else
    return *p;
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

// ---- the collapse of the binary tree: a table per node, bottom-up ----------
//
// Which binary nodes become wide nodes is chosen by dynamic programming over
// the binary tree (the SAH-optimal conversion of Ylitie, Karras and Laine 2017,
// "Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs"):
// every interior node gets a table that gives, for every budget b of slots
// (1..kTraversalWidth) in the wide node above it, the cheapest way for its
// subtree to fill them: as one entry (the node makes a wide node of its own),
// or absorbed (its two children share the b slots). The cost is the sum of
// the surface areas of the wide nodes made (the rays that enter them, up to a
// factor); leaves cost the same in every tree and count 0. A table needs only
// the children's tables, so the GPU builder fills it when it creates a node
// (bvh_ploc.cuh), and the wide tree is read from the tables afterwards; the
// host runs the same arithmetic over a flat tree (traversal_bvh_build.h), so
// both make the same wide tree from the same binary tree.
//
// The traversal stack: a wide node of w children pushes at most w - 1 entries,
// so a node that makes a wide node needs (w - 1) + the most its entries need.
// A node of binary height h may only make a wide node that needs at most 2h
// (never absorbing needs 2h - 1, so the choice always exists): every tree within
// kBvhMaxDepth needs at most 2 x kBvhMaxDepth entries.

static_assert(2 * kBvhMaxDepth <= uint32_t(kTraversalStackSize), "the collapse's stack bound must fit the stack");

// One choice, packed: absorbed (bit 0); the left and right children's budgets
// (4 bits each); the entries it gives the wide node above, minus 1 (3 bits);
// the most stack any of those entries needs (8 bits). 0 is a leaf's choice.
WF_HD_INLINE bool wide_absorbed(uint32_t c) { return (c & 1u) != 0; }
WF_HD_INLINE uint32_t wide_left_budget(uint32_t c) { return (c >> 1) & 15u; }
WF_HD_INLINE uint32_t wide_right_budget(uint32_t c) { return (c >> 5) & 15u; }
WF_HD_INLINE uint32_t wide_width(uint32_t c) { return ((c >> 9) & 7u) + 1u; }
WF_HD_INLINE uint32_t wide_below(uint32_t c) { return (c >> 12) & 255u; }
WF_HD_INLINE uint32_t pack_wide_choice(bool absorbed, uint32_t left, uint32_t right, uint32_t width, uint32_t below) {
    return (absorbed ? 1u : 0u) | (left << 1) | (right << 5) | ((width - 1u) << 9) | ((below < 255u ? below : 255u) << 12);
}

// An interior node's table; a leaf's is all zero.
struct alignas(16) WideTable {
    float cost[kTraversalWidth];       // [b - 1]: the cheapest cost with b slots
    uint32_t choice[kTraversalWidth];  // [b - 1]: how
};

// Surface area (half) of a box for the tables, rounded the same way on host and
// device (no fused multiply-add), so both make the same choices.
WF_HD_INLINE float collapse_area(Vec3f lo, Vec3f hi) {
#if WF_DEVICE_CODE
    const float dx = __fsub_rn(hi.x, lo.x), dy = __fsub_rn(hi.y, lo.y), dz = __fsub_rn(hi.z, lo.z);
    return __fadd_rn(__fadd_rn(__fmul_rn(dx, dy), __fmul_rn(dy, dz)), __fmul_rn(dz, dx));
#else
    const float dx = hi.x - lo.x, dy = hi.y - lo.y, dz = hi.z - lo.z;
    volatile float xy = dx * dy, yz = dy * dz, zx = dz * dx;  // volatile: never contracted into an fma
    return (xy + yz) + zx;
#endif
}

// The table of an interior node of surface area `area` (collapse_area) and
// binary height `height` (>= 1) from its children's.
WF_HD_INLINE WideTable make_wide_table(const WideTable& left, const WideTable& right, float area, uint32_t height) {
    constexpr uint32_t W = kTraversalWidth;
    // (Trees deeper than kBvhMaxDepth, which callers refuse, keep the bound of
    // kBvhMaxDepth and may find no choice within it: they take a plain binary step.)
    const uint32_t limit = 2u * (height < kBvhMaxDepth ? height : kBvhMaxDepth);
    // The wide node this node makes: its children's entries in at most W slots.
    // (Loops unrolled on the device, and nothing indexed by a value found at
    // run time, so that the tables stay in registers.)
    uint32_t best_k = 1, best_m = 1;
    float best = left.cost[0] + right.cost[0];
    uint32_t best_stack = wide_width(left.choice[0]) + wide_width(right.choice[0]) - 1u +
                          (wide_below(left.choice[0]) > wide_below(right.choice[0]) ? wide_below(left.choice[0])
                                                                                     : wide_below(right.choice[0]));
    bool found = false;
#if WF_DEVICE_CODE
#pragma unroll
#endif
    for (uint32_t k = 1; k < W; ++k) {
#if WF_DEVICE_CODE
#pragma unroll
#endif
        for (uint32_t m = 1; m < W; ++m) {
            if (k + m > W) continue;
            const uint32_t cl = left.choice[k - 1], cr = right.choice[m - 1];
            const uint32_t below = wide_below(cl) > wide_below(cr) ? wide_below(cl) : wide_below(cr);
            const uint32_t stack = wide_width(cl) + wide_width(cr) - 1u + below;
            if (stack > limit) continue;
            const float cost = left.cost[k - 1] + right.cost[m - 1];
            if (!found || cost < best) {
                best = cost;
                best_k = k;
                best_m = m;
                best_stack = stack;
                found = true;
            }
        }
    }
    const uint32_t entry = pack_wide_choice(false, best_k, best_m, 1u, best_stack);
    WideTable t;
    t.cost[0] = area + best;
    t.choice[0] = entry;
#if WF_DEVICE_CODE
#pragma unroll
#endif
    for (uint32_t b = 2; b <= W; ++b) {
        t.cost[b - 1] = t.cost[0];
        t.choice[b - 1] = entry;
#if WF_DEVICE_CODE
#pragma unroll
#endif
        for (uint32_t k = 1; k < b; ++k) {  // absorbed: k slots left, b - k right
            const float cost = left.cost[k - 1] + right.cost[b - k - 1];
            if (!(cost < t.cost[b - 1])) continue;
            const uint32_t l = left.choice[k - 1], r = right.choice[b - k - 1];
            t.cost[b - 1] = cost;
            t.choice[b - 1] = pack_wide_choice(true, k, b - k, wide_width(l) + wide_width(r),
                                               wide_below(l) > wide_below(r) ? wide_below(l) : wide_below(r));
        }
    }
    return t;
}

// The children of the wide node that binary interior node x makes, left to
// right: its binary descendants down to those that are entries under the
// budgets its table hands down. `links(y, b)` gives y's binary children and its
// choice for budget b as a WideLinks (a leaf's choice: 0).
struct WideLinks {
    uint32_t left, right, choice;
};
template <class Links>
WF_HD_INLINE uint32_t wide_children(uint32_t x, const Links& links, uint32_t out[kTraversalWidth]) {
    struct Pending {
        uint32_t node, budget;
    };
    Pending stack[kTraversalWidth];
    const WideLinks root = links(x, 1u);
    stack[0] = {root.right, wide_right_budget(root.choice)};
    stack[1] = {root.left, wide_left_budget(root.choice)};
    uint32_t sp = 2, count = 0;
    while (sp > 0) {
        const Pending p = stack[--sp];
        const WideLinks y = links(p.node, p.budget);
        if (!wide_absorbed(y.choice)) {
            if (count < kTraversalWidth) out[count++] = p.node;  // always: budgets sum to at most W
            continue;
        }
        if (sp + 2 > kTraversalWidth) break;  // likewise unreachable
        stack[sp++] = {y.right, wide_right_budget(y.choice)};
        stack[sp++] = {y.left, wide_left_budget(y.choice)};
    }
    return count;
}

// A traversal node from up to kTraversalWidth child boxes and references; a
// box that cannot hold a hit makes an empty slot.
WF_HD_INLINE TraversalNode make_traversal_node(const BvhNode* boxes, uint32_t count, const uint32_t* refs) {
    TraversalNode out;
    for (uint32_t i = 0; i < kTraversalWidth; ++i) {
        const BvhNode empty{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
        const BvhNode& n = i < count && box_can_be_hit(boxes[i]) ? boxes[i] : empty;
        out.lo_x[i] = n.lo.x;
        out.hi_x[i] = n.hi.x;
        out.lo_y[i] = n.lo.y;
        out.hi_y[i] = n.hi.y;
        out.lo_z[i] = n.lo.z;
        out.hi_z[i] = n.hi.z;
        out.child[i] = i < count ? refs[i] : 0u;
    }
    return out;
}

// The traversal root of a tree whose root is one leaf of `count` primitives
// (its box `box`), or of an empty scene (count 0: no child can be hit).
WF_HD_INLINE TraversalNode make_leaf_root(const BvhNode& box, uint32_t count) {
    const uint32_t ref = make_leaf_ref(0, count > 0 ? count : 1u);
    const BvhNode b = count > 0 ? box : BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
    return make_traversal_node(&b, 1, &ref);
}

// Leaf primitive i: the primitive prim_index[i] of the flat tree, copied.
WF_HD_INLINE LeafPrim make_leaf_prim(const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                                     uint32_t prim) {
    const float id = bits_to_float(prim);
    if (prim < num_triangles) {
        const Triangle& t = triangles[prim];
        const float degenerate = triangle_is_degenerate(t) ? 1.0f : 0.0f;
        return LeafPrim{{t.p0.x, t.p0.y, t.p0.z, id}, {t.p1.x, t.p1.y, t.p1.z, degenerate}, {t.p2.x, t.p2.y, t.p2.z, 0.0f}};
    }
    const Sphere& s = spheres[prim - num_triangles];
    return LeafPrim{{s.center.x, s.center.y, s.center.z, id}, {s.radius, 0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}};
}

}  // namespace wf
