// BVH traversal: closest hit and any hit over the wide traversal layout of
// traversal_bvh.h. Stack-based, no recursion, fixed-size local stack (the
// collapse bounds every path's pushes by its size); runs per ray on the GPU and
// on the CPU backend alike.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "accel/bvh_node.h"
#include "accel/traversal_bvh.h"
#include "accel/float_error.h"
#include "accel/geometry_view.h"
#include "accel/intersect.h"
#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// Per-ray constants of the slab test.
struct RayBoxQuery {
    Vec3f origin;
    Vec3f inv_dir;  // 1/dir; a zero component gives +-inf
    bool neg_x, neg_y, neg_z;  // sign bits of dir (so -0 counts as negative)
    // The TraversalNode fields that hold each axis' near bounds for this ray (its
    // far bounds are the field after or before: index ^ 1): lo_x is field 0,
    // hi_x 1, lo_y 2, hi_y 3, lo_z 4, hi_z 5.
    uint32_t near_x, near_y, near_z;

    WF_HD static RayBoxQuery from(const Ray& ray) {
        RayBoxQuery q;
        q.origin = ray.origin;
        q.inv_dir = Vec3f(1.0f / ray.dir.x, 1.0f / ray.dir.y, 1.0f / ray.dir.z);
        q.neg_x = std::signbit(ray.dir.x);
        q.neg_y = std::signbit(ray.dir.y);
        q.neg_z = std::signbit(ray.dir.z);
        q.near_x = q.neg_x ? 1u : 0u;
        q.near_y = q.neg_y ? 3u : 2u;
        q.near_z = q.neg_z ? 5u : 4u;
        return q;
    }
};

// max/min where the second operand may be NaN and then loses (t never is NaN).
// On the GPU that is fmaxf/fminf, one instruction; on x86 those are library
// calls, while the compare-select becomes maxss/minss.
WF_HD_INLINE float max_ignore_nan(float t, float x) {
#if WF_DEVICE_CODE
    return fmaxf(t, x);
#else
    return x > t ? x : t;
#endif
}
WF_HD_INLINE float min_ignore_nan(float t, float x) {
#if WF_DEVICE_CODE
    return fminf(t, x);
#else
    return x < t ? x : t;
#endif
}

// Slab test over [0, t_max] of the box [lo, hi]; on a hit *t_entry is where the
// ray enters the box.
// Near and far planes are chosen by the sign of dir (Williams et al. 2005), not
// by min/max, which keeps two corner cases right:
//  - a zero dir component with the origin exactly on a slab plane gives 0*inf
//    = NaN; the min/max drop a NaN operand, so that slab constrains nothing
//    (the ray lies in the closed slab);
//  - an empty box (lo > hi) always misses.
// t_far is widened by 1 + 2 gamma_3 (pbrt-v4 / Ize 2013) so that rounding
// never culls a box containing a hit the primitive test would report.
// The slab test with each axis' planes already ordered for the ray (near, far).
WF_HD_INLINE bool intersect_slabs(float near_x, float far_x, float near_y, float far_y, float near_z, float far_z,
                                  const RayBoxQuery& q, float t_max, float* t_entry) {
    float t0 = 0.0f, t1 = t_max;
    t0 = max_ignore_nan(t0, (near_x - q.origin.x) * q.inv_dir.x);
    t0 = max_ignore_nan(t0, (near_y - q.origin.y) * q.inv_dir.y);
    t0 = max_ignore_nan(t0, (near_z - q.origin.z) * q.inv_dir.z);
    t1 = min_ignore_nan(t1, (far_x - q.origin.x) * q.inv_dir.x);
    t1 = min_ignore_nan(t1, (far_y - q.origin.y) * q.inv_dir.y);
    t1 = min_ignore_nan(t1, (far_z - q.origin.z) * q.inv_dir.z);
    t1 *= 1.0f + 2.0f * rounding_gamma(3);
    *t_entry = t0;
    return t0 <= t1;
}
WF_HD_INLINE bool intersect_box(float lo_x, float hi_x, float lo_y, float hi_y, float lo_z, float hi_z,
                                const RayBoxQuery& q, float t_max, float* t_entry) {
    return intersect_slabs(q.neg_x ? hi_x : lo_x, q.neg_x ? lo_x : hi_x, q.neg_y ? hi_y : lo_y, q.neg_y ? lo_y : hi_y,
                           q.neg_z ? hi_z : lo_z, q.neg_z ? lo_z : hi_z, q, t_max, t_entry);
}
WF_HD_INLINE bool intersect_box(const BvhNode& node, const RayBoxQuery& q, float t_max, float* t_entry) {
    return intersect_box(node.lo.x, node.hi.x, node.lo.y, node.hi.y, node.lo.z, node.hi.z, q, t_max, t_entry);
}

// The children of a traversal node the ray enters before t_max: bit s of the
// mask for slot s, and per slot a sort key, the entry distance's bits with the
// slot in the low 3 bits (entry distances are >= 0, so keys order as distances
// do; clearing 3 low bits only moves a distance down, which culls less), or
// ~0 for a slot the ray misses.
struct ChildHits {
    uint32_t mask;
    uint32_t key[kTraversalWidth];
};
WF_HD_INLINE uint32_t child_key_slot(uint32_t key) { return key & 7u; }
WF_HD_INLINE float child_key_t(uint32_t key) { return bits_to_float(key & ~7u); }

// A traversal node as one ray meets it: per axis its children's near and far
// bounds, and their references. On the GPU the ray picks the bounds by the
// 16-byte vectors it loads (RayBoxQuery's fields), so a node costs no selects;
// picked after loading the whole node, they cost 24 per 4-wide node, in a
// kernel that is issue-bound.
struct alignas(16) OrientedNode {
    float near_x[kTraversalWidth], far_x[kTraversalWidth];
    float near_y[kTraversalWidth], far_y[kTraversalWidth];
    float near_z[kTraversalWidth], far_z[kTraversalWidth];
    uint32_t child[kTraversalWidth];
};
WF_HD_INLINE OrientedNode load_oriented_node(const TraversalNode* nodes, uint32_t i, const RayBoxQuery& q) {
    OrientedNode out;
#if WF_DEVICE_CODE
    constexpr uint32_t V = kTraversalWidth / 4;  // 16-byte vectors per field
    const float4* src = reinterpret_cast<const float4*>(nodes + i);
    auto field = [&](float* dst, uint32_t f) {  // dst: 16-byte aligned, as every field is
#pragma unroll
        for (uint32_t k = 0; k < V; ++k) reinterpret_cast<float4*>(dst)[k] = __ldg(src + f * V + k);
    };
    field(out.near_x, q.near_x);
    field(out.far_x, q.near_x ^ 1u);
    field(out.near_y, q.near_y);
    field(out.far_y, q.near_y ^ 1u);
    field(out.near_z, q.near_z);
    field(out.far_z, q.near_z ^ 1u);
    const uint4* refs = reinterpret_cast<const uint4*>(src + 6u * V);
#pragma unroll
    for (uint32_t k = 0; k < V; ++k) reinterpret_cast<uint4*>(out.child)[k] = __ldg(refs + k);
#else
    const TraversalNode& n = nodes[i];
    for (uint32_t s = 0; s < kTraversalWidth; ++s) {
        out.near_x[s] = q.neg_x ? n.hi_x[s] : n.lo_x[s];
        out.far_x[s] = q.neg_x ? n.lo_x[s] : n.hi_x[s];
        out.near_y[s] = q.neg_y ? n.hi_y[s] : n.lo_y[s];
        out.far_y[s] = q.neg_y ? n.lo_y[s] : n.hi_y[s];
        out.near_z[s] = q.neg_z ? n.hi_z[s] : n.lo_z[s];
        out.far_z[s] = q.neg_z ? n.lo_z[s] : n.hi_z[s];
        out.child[s] = n.child[s];
    }
#endif
    return out;
}
static_assert(sizeof(TraversalNode) == sizeof(OrientedNode) && alignof(OrientedNode) >= 16 &&
                  offsetof(TraversalNode, hi_x) == 4 * kTraversalWidth &&
                  offsetof(TraversalNode, child) == 24 * kTraversalWidth,
              "load_oriented_node reads TraversalNode's fields by index, as 16-byte vectors");

WF_HD_INLINE ChildHits intersect_children(const OrientedNode& n, const RayBoxQuery& q, float t_max) {
    ChildHits h;
    h.mask = 0;
#if WF_DEVICE_CODE
#pragma unroll
#endif
    for (uint32_t s = 0; s < kTraversalWidth; ++s) {
        float t = 0.0f;
        const bool hit =
            intersect_slabs(n.near_x[s], n.far_x[s], n.near_y[s], n.far_y[s], n.near_z[s], n.far_z[s], q, t_max, &t);
        h.key[s] = hit ? ((float_to_bits(t) & ~7u) | s) : 0xFFFFFFFFu;
        h.mask |= hit ? (1u << s) : 0u;
    }
    return h;
}

WF_HD_INLINE void compare_swap(uint32_t& a, uint32_t& b) {
    const uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    a = lo;
    b = hi;
}
// Sorts the keys ascending with an optimal comparator network (Knuth, TAOCP
// 5.3.4: 5 comparators for 4 keys, 19 for 8): no branches, every index
// constant, so the keys stay in registers.
WF_HD_INLINE void sort4(uint32_t* k) {
    compare_swap(k[0], k[1]); compare_swap(k[2], k[3]);
    compare_swap(k[0], k[2]); compare_swap(k[1], k[3]);
    compare_swap(k[1], k[2]);
}
WF_HD_INLINE void sort8(uint32_t* k) {
    compare_swap(k[0], k[2]); compare_swap(k[1], k[3]); compare_swap(k[4], k[6]); compare_swap(k[5], k[7]);
    compare_swap(k[0], k[4]); compare_swap(k[1], k[5]); compare_swap(k[2], k[6]); compare_swap(k[3], k[7]);
    compare_swap(k[0], k[1]); compare_swap(k[2], k[3]); compare_swap(k[4], k[5]); compare_swap(k[6], k[7]);
    compare_swap(k[2], k[4]); compare_swap(k[3], k[5]);
    compare_swap(k[1], k[4]); compare_swap(k[3], k[6]);
    compare_swap(k[1], k[2]); compare_swap(k[3], k[4]); compare_swap(k[5], k[6]);
}
WF_HD_INLINE void sort_child_keys(uint32_t* k) {
    if constexpr (kTraversalWidth == 4) sort4(k);
    else sort8(k);
}

// n.child[slot] through selects, so the node stays in registers (an indexed
// read of a local array would go through memory on the GPU).
WF_HD_INLINE uint32_t child_in_slot(const OrientedNode& n, uint32_t slot) {
    uint32_t r = n.child[0];
#if WF_DEVICE_CODE
#pragma unroll
#endif
    for (uint32_t s = 1; s < kTraversalWidth; ++s) r = slot == s ? n.child[s] : r;
    return r;
}

WF_HD_INLINE int popcount32(uint32_t x) {
#if WF_DEVICE_CODE
    return __popc(x);
#else
    return __builtin_popcount(x);
#endif
}
WF_HD_INLINE uint32_t lowest_set_bit(uint32_t x) {
#if WF_DEVICE_CODE
    return uint32_t(__ffs(int(x)) - 1);
#else
    return uint32_t(__builtin_ctz(x));
#endif
}

// One primitive of a leaf against the ray (intersect.h's tests, on the copied
// vertices); on a hit writes t, u, v and the primitive id into *hit.
WF_HD_INLINE bool intersect_leaf_prim(const GeometryView& g, const LeafPrim& p, const Ray& ray,
                                      const RayTriangleQuery& tq, float t_max, Hit* hit) {
    const uint32_t prim = float_to_bits(p.a.w);
    bool found;
    if (prim < g.num_triangles) {
        const Triangle tri{{p.a.x, p.a.y, p.a.z}, {p.b.x, p.b.y, p.b.z}, {p.c.x, p.c.y, p.c.z}};
        found = p.b.w == 0.0f && intersect_plane_triangle(tri, ray, tq, t_max, hit);  // b.w: no plane
    } else {
        const Sphere sphere{{p.a.x, p.a.y, p.a.z}, p.b.x};
        found = intersect_sphere(sphere, ray, t_max, hit);
    }
    if (found) hit->prim = prim;
    return found;
}

// Closest hit's stack entries: a node reference and the distance at which the
// ray enters its box (the bits of t, >= 0) in one 64-bit word, so that a push
// or a pop is one 8-byte access to local memory, not two 4-byte ones.
WF_HD_INLINE uint64_t stack_entry(uint32_t ref, uint32_t t_bits) { return (uint64_t(t_bits) << 32) | ref; }
WF_HD_INLINE uint32_t entry_ref(uint64_t e) { return uint32_t(e); }
WF_HD_INLINE float entry_t(uint64_t e) { return bits_to_float(uint32_t(e >> 32)); }

// The children of node n that the ray enters (h, at least one): all but the
// nearest pushed farthest first, so that they pop nearest first; returns the
// nearest. The collapse (make_wide_table) keeps sp within the stack for every
// tree within kBvhMaxDepth (the renderer's); deeper trees (only tests traverse
// them) drop what does not fit, never write past it.
WF_HD_INLINE uint32_t push_farther_children(const OrientedNode& n, ChildHits& h, uint64_t* stack, int& sp) {
    const int hits = popcount32(h.mask);
    sort_child_keys(h.key);
#if WF_DEVICE_CODE
#pragma unroll
#endif
    for (int i = int(kTraversalWidth) - 1; i >= 1; --i) {
        if (i < hits && sp < kTraversalStackSize) {  // never full within kBvhMaxDepth
            stack[sp] = stack_entry(child_in_slot(n, child_key_slot(h.key[i])), h.key[i] & ~7u);
            ++sp;
        }
    }
    return child_in_slot(n, child_key_slot(h.key[0]));
}

// The share of the lanes descending together (the active mask) that must hold
// a postponed leaf before they test their leaves (LeafOrder::kPostponed), in
// quarters. Aila and Laine wait for every lane (4). H100, bench_traversal, two
// rounds, 4 -> 2: bump meshes of 1M and 10M triangles +5-5.5% on all bounces
// and +9-10% on shadow rays, MetalRoughSpheres 0-1%; 1 lost to 2 on every kind
// of ray that votes (bench/NOTES.md).
inline constexpr uint32_t kLeafVoteQuarters = 2;
static_assert(kLeafVoteQuarters >= 1 && kLeafVoteQuarters <= 4, "0 would pass every vote, over 4 none");

// Whether x holds in at least kLeafVoteQuarters quarters of the lanes of the
// warp that run this together. The CPU runs no warps (and never postpones
// leaves in a render: leaf_order_for), so there it answers as if too few lanes
// agreed: the longest speculation, which the CPU tests then cover.
WF_HD_INLINE bool enough_lanes(bool x) {
#if WF_DEVICE_CODE
    const uint32_t active = __activemask();
    return 4u * uint32_t(__popc(__ballot_sync(active, x))) >= kLeafVoteQuarters * uint32_t(__popc(active));
#else
    (void)x;
    return false;
#endif
}

// How intersect_closest and intersect_any order their work between interior
// nodes and leaves. Either order gives the same answers.
enum class LeafOrder {
    // While-while (Aila and Laine 2009): descend interior nodes in one loop
    // until a leaf is reached, then test the leaf's primitives in another. On
    // the GPU the threads of a warp then tend to run box tests together and
    // primitive tests together, instead of splitting every step between both.
    kImmediate,
    // Speculative while-while (same paper): a ray that reaches a leaf postpones
    // it and goes on descending until half the lanes descending with it (the
    // active mask, under independent thread scheduling) hold a leaf
    // (kLeafVoteQuarters), a second leaf comes, or its stack empties; then it
    // tests its leaves. Lanes that found a leaf early keep working instead of
    // idling, at the cost of nodes the postponed leaf's hit would have culled
    // (closest hit) or made needless (any hit). H100, meshes of 1M and 10M
    // triangles: with every lane's vote, diffuse bounce rays +8-14% over
    // immediate leaves and shadow rays +4-6%; half the lanes' vote adds +5-5.5%
    // and +9-10%. Camera rays lose 1-3.5%, and short walks lose: small scenes
    // and fields of spheres 7-12% per whole render, small meshes up to 17% on
    // shadow rays (bench/NOTES.md). The stages pick it per launch
    // (leaf_order_for, wavefront/stages/leaf_order.h).
    kPostponed,
};

// One round of the walk of LeafOrder::kPostponed, for closest and any hit alike:
// descend(&ref) visits interior node ref and leaves in ref the next node to visit
// (false when none is left); pop(&ref) takes the next node off the stack (false
// when none); test_leaf(leaf) tests a leaf's primitives and returns true to end
// the walk. The walk's state is ref (the node to visit next), live (ref holds a
// node still to visit) and leaf (the postponed leaf, 0 for none: a leaf reference
// is never 0); a walk starts at the root (ref 0, live, no leaf) and runs rounds
// while live. Returns whether test_leaf ended the walk.
template <class Descend, class Pop, class TestLeaf>
WF_HD_INLINE bool postponed_round(Descend& descend, Pop& pop, TestLeaf&& test_leaf, uint32_t& ref, bool& live,
                                  uint32_t& leaf) {
    // Descend until this ray holds a leaf and so do enough lanes beside it
    // (enough_lanes), or a second leaf comes, or nothing is left. A lane
    // without a leaf that the vote stops comes back here at once.
    while (live && !is_leaf_ref(ref)) {
        live = descend(&ref);
        if (live && leaf == 0 && is_leaf_ref(ref)) {
            leaf = ref;
            live = pop(&ref);
        }
        if (enough_lanes(leaf != 0)) break;
    }
    // The postponed leaf, then ref while it is a leaf too (the round always ends
    // with leaf == 0, unless test_leaf ended the walk).
    while (leaf != 0) {
        if (test_leaf(leaf)) return true;
        leaf = 0;
        if (live && is_leaf_ref(ref)) {
            leaf = ref;
            live = pop(&ref);
        }
    }
    return false;
}

// The whole walk of LeafOrder::kPostponed (postponed_round): returns whether
// test_leaf ended it.
template <class Descend, class Pop, class TestLeaf>
WF_HD_INLINE bool walk_leaves_postponed(Descend& descend, Pop& pop, TestLeaf&& test_leaf) {
    uint32_t ref = 0;  // the root, always an interior node (traversal_bvh.h)
    bool live = true;
    uint32_t leaf = 0;
    while (live)
        if (postponed_round(descend, pop, test_leaf, ref, live, leaf)) return true;
    return false;
}

// The steps of closest hit's walk, over state its caller keeps (intersect_closest,
// closest_hits_refilling in traverse_refill.h): the stack, its depth sp, the nearest
// hit so far, the ray and its queries. (The stack lives in a plain array, not a
// struct: a struct holding a dynamically indexed array goes to local memory
// whole, its scalars too.)
// pop(&ref): the next node that can still hold a closer hit into ref (a popped node
// is culled again if a hit found meanwhile lies before it); false when none is left.
WF_HD_INLINE auto closest_hit_pop(const uint64_t* stack, int& sp, const Hit& best) {
    return [stack, &sp, &best](uint32_t* ref) {
        const float slack = 1.0f + 2.0f * rounding_gamma(3);  // as in intersect_box
        for (;;) {
            if (sp == 0) return false;
            --sp;
            const uint64_t e = stack[sp];
            if (entry_t(e) <= best.t * slack) {
                *ref = entry_ref(e);
                return true;
            }
        }
    };
}
// descend(&ref), interior node ref: its nearest child the ray enters becomes ref,
// the others are pushed; where it enters none, the next node is popped. False
// when nothing is left.
template <class Pop>
WF_HD_INLINE auto closest_hit_descend(const GeometryView& g, const RayBoxQuery& q, uint64_t* stack, int& sp,
                                      const Hit& best, Pop& pop) {
    return [&g, &q, stack, &sp, &best, &pop](uint32_t* ref) {
        const OrientedNode n = load_oriented_node(g.traversal_nodes, *ref, q);
        ChildHits h = intersect_children(n, q, best.t);
        if (h.mask == 0) return pop(ref);
        *ref = push_farther_children(n, h, stack, sp);
        return true;
    };
}
// test_leaf(leaf): the leaf's primitives; returns false (every leaf that can hold a
// closer hit is tested: the walk never ends at a leaf).
WF_HD_INLINE auto closest_hit_test_leaf(const GeometryView& g, const Ray& ray, const RayTriangleQuery& tq, Hit& best) {
    return [&g, &ray, &tq, &best](uint32_t leaf) {
        const uint32_t first = leaf_ref_first(leaf), end = first + leaf_ref_count(leaf);
        for (uint32_t i = first; i < end; ++i)
            intersect_leaf_prim(g, load_leaf_prim(g.leaf_prims, i), ray, tq, best.t, &best);
        return false;
    };
}

// Closest primitive hit with t in (0, t_max). On a miss prim == kNoHit and
// t == t_max. Children are visited nearer-entry first, so t_max shrinks early.
// Either leaf order finds the same nearest t (where two primitives share it,
// either may be the one reported).
template <LeafOrder kOrder = LeafOrder::kImmediate>
WF_HD_INLINE Hit intersect_closest(const GeometryView& g, const Ray& ray, float t_max) {
    Hit best;
    best.t = t_max;
    if (g.num_prims() == 0) return best;

    const RayBoxQuery q = RayBoxQuery::from(ray);
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);

    uint64_t stack[kTraversalStackSize];
    int sp = 0;
    auto test_leaf = closest_hit_test_leaf(g, ray, tq, best);

    if constexpr (kOrder == LeafOrder::kImmediate) {
        const float slack = 1.0f + 2.0f * rounding_gamma(3);  // as in intersect_box
        uint32_t ref = 0;  // the root, always an interior node (traversal_bvh.h)
        // Written out, not through descend() and pop(): with them (and a flag for
        // a node left to visit) the kernel kept its registers and stack frame but
        // camera rays lost 5% (H100, bench_traversal, bumps-1M primary 3.02-3.04 ->
        // 2.85-2.87 G rays/s).
        for (;;) {
            while (!is_leaf_ref(ref)) {
                const OrientedNode n = load_oriented_node(g.traversal_nodes, ref, q);
                ChildHits h = intersect_children(n, q, best.t);
                if (h.mask == 0) {
                    // Pop the next node that can still hold a closer hit.
                    uint64_t e;
                    for (;;) {
                        if (sp == 0) return best;
                        e = stack[--sp];
                        if (entry_t(e) <= best.t * slack) break;
                    }
                    ref = entry_ref(e);
                    continue;
                }
                ref = push_farther_children(n, h, stack, sp);
            }
            test_leaf(ref);
            // Pop the next node that can still hold a closer hit.
            uint64_t e;
            for (;;) {
                if (sp == 0) return best;
                e = stack[--sp];
                if (entry_t(e) <= best.t * slack) break;
            }
            ref = entry_ref(e);
        }
    } else {
        auto pop = closest_hit_pop(stack, sp, best);
        auto descend = closest_hit_descend(g, q, stack, sp, best, pop);
        walk_leaves_postponed(descend, pop, test_leaf);
    }
    return best;
}

// The steps of any hit's walk, over state its caller keeps (intersect_any,
// any_hits_refilling): take_children(n, mask, &ref) the first child of node n in
// mask into ref, the rest pushed; pop(&ref), false when the stack is empty;
// descend(&ref) interior node ref's first child the ray enters into ref, the
// others pushed, or else the next node popped (false: none left); test_leaf(leaf)
// true when a primitive of the leaf is hit (scratch holds that hit).
WF_HD_INLINE auto any_hit_take_children(uint32_t* stack, int& sp) {
    return [stack, &sp](const OrientedNode& n, uint32_t mask, uint32_t* ref) {
        *ref = child_in_slot(n, lowest_set_bit(mask));
        mask &= mask - 1u;
        while (mask != 0) {
            if (sp < kTraversalStackSize) stack[sp++] = child_in_slot(n, lowest_set_bit(mask));
            mask &= mask - 1u;
        }
    };
}
WF_HD_INLINE auto any_hit_pop(const uint32_t* stack, int& sp) {
    return [stack, &sp](uint32_t* ref) {
        if (sp == 0) return false;
        *ref = stack[--sp];
        return true;
    };
}
template <class TakeChildren, class Pop>
WF_HD_INLINE auto any_hit_descend(const GeometryView& g, const RayBoxQuery& q, const float& t_max,
                                  TakeChildren& take_children, Pop& pop) {
    return [&g, &q, &t_max, &take_children, &pop](uint32_t* ref) {
        const OrientedNode n = load_oriented_node(g.traversal_nodes, *ref, q);
        const uint32_t mask = intersect_children(n, q, t_max).mask;
        if (mask == 0) return pop(ref);
        take_children(n, mask, ref);
        return true;
    };
}
WF_HD_INLINE auto any_hit_test_leaf(const GeometryView& g, const Ray& ray, const RayTriangleQuery& tq,
                                    const float& t_max, Hit& scratch) {
    return [&g, &ray, &tq, &t_max, &scratch](uint32_t leaf) {
        const uint32_t first = leaf_ref_first(leaf), end = first + leaf_ref_count(leaf);
        for (uint32_t i = first; i < end; ++i)
            if (intersect_leaf_prim(g, load_leaf_prim(g.leaf_prims, i), ray, tq, t_max, &scratch)) return true;
        return false;
    };
}

// Whether any primitive is hit with t in (0, t_max): shadow rays. Stops at
// the first hit found; visiting order does not matter, and children are taken
// in slot order. Either leaf order gives the same answer.
template <LeafOrder kOrder = LeafOrder::kImmediate>
WF_HD_INLINE bool intersect_any(const GeometryView& g, const Ray& ray, float t_max) {
    if (g.num_prims() == 0) return false;

    const RayBoxQuery q = RayBoxQuery::from(ray);
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);

    uint32_t stack[kTraversalStackSize];
    int sp = 0;
    Hit scratch;
    auto take_children = any_hit_take_children(stack, sp);
    auto test_leaf = any_hit_test_leaf(g, ray, tq, t_max, scratch);

    if constexpr (kOrder == LeafOrder::kImmediate) {
        uint32_t ref = 0;  // the root
        // While-while, as intersect_closest.
        for (;;) {
            while (!is_leaf_ref(ref)) {
                const OrientedNode n = load_oriented_node(g.traversal_nodes, ref, q);
                const uint32_t mask = intersect_children(n, q, t_max).mask;
                if (mask == 0) {
                    if (sp == 0) return false;
                    ref = stack[--sp];
                    continue;
                }
                take_children(n, mask, &ref);
            }
            if (test_leaf(ref)) return true;
            if (sp == 0) return false;
            ref = stack[--sp];
        }
    } else {
        auto pop = any_hit_pop(stack, sp);
        auto descend = any_hit_descend(g, q, t_max, take_children, pop);
        return walk_leaves_postponed(descend, pop, test_leaf);
    }
}

}  // namespace wf
