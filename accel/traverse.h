// BVH traversal: closest hit and any hit over the traversal layout of
// traversal_bvh.h. Stack-based, no recursion, fixed-size local stack; runs per
// ray on the GPU and on the CPU backend alike.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/bvh_node.h"
#include "accel/traversal_bvh.h"
#include "accel/float_error.h"
#include "accel/geometry_view.h"
#include "accel/intersect.h"
#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// Deepest tree the traversal stack can hold: it pushes at most one node per
// level, and the builders keep trees shallower than this (bvh_build.h).
inline constexpr int kTraversalStackSize = 64;

// Per-ray constants of the slab test.
struct RayBoxQuery {
    Vec3f origin;
    Vec3f inv_dir;  // 1/dir; a zero component gives +-inf
    bool neg_x, neg_y, neg_z;  // sign bits of dir (so -0 counts as negative)

    WF_HD static RayBoxQuery from(const Ray& ray) {
        RayBoxQuery q;
        q.origin = ray.origin;
        q.inv_dir = Vec3f(1.0f / ray.dir.x, 1.0f / ray.dir.y, 1.0f / ray.dir.z);
        q.neg_x = std::signbit(ray.dir.x);
        q.neg_y = std::signbit(ray.dir.y);
        q.neg_z = std::signbit(ray.dir.z);
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
WF_HD_INLINE bool intersect_box(float lo_x, float hi_x, float lo_y, float hi_y, float lo_z, float hi_z,
                                const RayBoxQuery& q, float t_max, float* t_entry) {
    float near_x = q.neg_x ? hi_x : lo_x, far_x = q.neg_x ? lo_x : hi_x;
    float near_y = q.neg_y ? hi_y : lo_y, far_y = q.neg_y ? lo_y : hi_y;
    float near_z = q.neg_z ? hi_z : lo_z, far_z = q.neg_z ? lo_z : hi_z;
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
WF_HD_INLINE bool intersect_box(const BvhNode& node, const RayBoxQuery& q, float t_max, float* t_entry) {
    return intersect_box(node.lo.x, node.hi.x, node.lo.y, node.hi.y, node.lo.z, node.hi.z, q, t_max, t_entry);
}

// The two children of a traversal node: which boxes the ray enters before t_max.
struct ChildHits {
    bool left, right;
    float t_left, t_right;  // entry distances (meaningful where hit)
};
WF_HD_INLINE ChildHits intersect_children(const TraversalNode& n, const RayBoxQuery& q, float t_max) {
    ChildHits h;
    h.left = intersect_box(n.left_xy.x, n.left_xy.y, n.left_xy.z, n.left_xy.w, n.z.x, n.z.y, q, t_max, &h.t_left);
    h.right = intersect_box(n.right_xy.x, n.right_xy.y, n.right_xy.z, n.right_xy.w, n.z.z, n.z.w, q, t_max,
                            &h.t_right);
    return h;
}

// One primitive of a leaf against the ray (intersect.h's tests, on the copied
// vertices); on a hit writes t, u, v and the primitive id into *hit.
WF_HD_INLINE bool intersect_leaf_prim(const GeometryView& g, const LeafPrim& p, const Ray& ray,
                                      const RayTriangleQuery& tq, float t_max, Hit* hit) {
    const uint32_t prim = float_to_bits(p.a.w);
    bool found;
    if (prim < g.num_triangles) {
        const Triangle tri{{p.a.x, p.a.y, p.a.z}, {p.b.x, p.b.y, p.b.z}, {p.c.x, p.c.y, p.c.z}};
        found = intersect_triangle(tri, ray, tq, t_max, hit);
    } else {
        const Sphere sphere{{p.a.x, p.a.y, p.a.z}, p.b.x};
        found = intersect_sphere(sphere, ray, t_max, hit);
    }
    if (found) hit->prim = prim;
    return found;
}

// Closest primitive hit with t in (0, t_max). On a miss prim == kNoHit and
// t == t_max. Children are visited nearer-entry first, so t_max shrinks early.
WF_HD_INLINE Hit intersect_closest(const GeometryView& g, const Ray& ray, float t_max) {
    Hit best;
    best.t = t_max;
    if (g.num_prims() == 0) return best;

    const RayBoxQuery q = RayBoxQuery::from(ray);
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);

    // A popped node is culled again if a hit found meanwhile lies before it.
    uint32_t stack_ref[kTraversalStackSize];
    float stack_t[kTraversalStackSize];
    int sp = 0;
    uint32_t ref = 0;  // the root, always an interior node (traversal_bvh.h)
    const float slack = 1.0f + 2.0f * rounding_gamma(3);  // as in intersect_box
    // While-while traversal (Aila and Laine 2009): descend interior nodes in one
    // loop until a leaf is reached, then test the leaf's primitives in another.
    // On the GPU the threads of a warp then tend to run box tests together and
    // primitive tests together, instead of splitting every step between both.
    for (;;) {
        while (!is_leaf_ref(ref)) {
            const TraversalNode n = load_traversal_node(g.traversal_nodes, ref);
            const ChildHits h = intersect_children(n, q, best.t);
            if (h.left && h.right) {
                const bool left_first = h.t_left <= h.t_right;
                if (sp < kTraversalStackSize) {  // never full for builder-made trees
                    stack_ref[sp] = left_first ? n.right : n.left;
                    stack_t[sp] = left_first ? h.t_right : h.t_left;
                    ++sp;
                }
                ref = left_first ? n.left : n.right;
            } else if (h.left || h.right) {
                ref = h.left ? n.left : n.right;
            } else {
                // Pop the next node that can still hold a closer hit.
                for (;;) {
                    if (sp == 0) return best;
                    --sp;
                    if (stack_t[sp] <= best.t * slack) break;
                }
                ref = stack_ref[sp];
            }
        }
        const uint32_t first = leaf_ref_first(ref), end = first + leaf_ref_count(ref);
        for (uint32_t i = first; i < end; ++i)
            intersect_leaf_prim(g, load_leaf_prim(g.leaf_prims, i), ray, tq, best.t, &best);
        // Pop the next node that can still hold a closer hit.
        for (;;) {
            if (sp == 0) return best;
            --sp;
            if (stack_t[sp] <= best.t * slack) break;
        }
        ref = stack_ref[sp];
    }
}

// Whether any primitive is hit with t in (0, t_max): shadow rays. Stops at
// the first hit found; visiting order does not matter.
WF_HD_INLINE bool intersect_any(const GeometryView& g, const Ray& ray, float t_max) {
    if (g.num_prims() == 0) return false;

    const RayBoxQuery q = RayBoxQuery::from(ray);
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);

    uint32_t stack[kTraversalStackSize];
    int sp = 0;
    uint32_t ref = 0;
    Hit scratch;
    // While-while, as intersect_closest.
    for (;;) {
        while (!is_leaf_ref(ref)) {
            const TraversalNode n = load_traversal_node(g.traversal_nodes, ref);
            const ChildHits h = intersect_children(n, q, t_max);
            if (h.left && h.right) {
                if (sp < kTraversalStackSize) stack[sp++] = n.right;
                ref = n.left;
            } else if (h.left || h.right) {
                ref = h.left ? n.left : n.right;
            } else {
                if (sp == 0) return false;
                ref = stack[--sp];
            }
        }
        const uint32_t first = leaf_ref_first(ref), end = first + leaf_ref_count(ref);
        for (uint32_t i = first; i < end; ++i)
            if (intersect_leaf_prim(g, load_leaf_prim(g.leaf_prims, i), ray, tq, t_max, &scratch)) return true;
        if (sp == 0) return false;
        ref = stack[--sp];
    }
}

}  // namespace wf
