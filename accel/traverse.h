// BVH traversal: closest hit and any hit over the flat BvhNode array.
// Stack-based, no recursion, fixed-size local stack; runs per ray on the GPU
// and on the CPU backend alike.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/bvh_node.h"
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

// Slab test over [0, t_max]; on a hit *t_entry is where the ray enters the box.
// Near and far planes are chosen by the sign of dir (Williams et al. 2005), not
// by min/max, which keeps two corner cases right:
//  - a zero dir component with the origin exactly on a slab plane gives 0*inf
//    = NaN; the min/max drop a NaN operand, so that slab constrains nothing
//    (the ray lies in the closed slab);
//  - an empty box (lo > hi) always misses.
// t_far is widened by 1 + 2 gamma_3 (pbrt-v4 / Ize 2013) so that rounding
// never culls a box containing a hit the primitive test would report.
WF_HD_INLINE bool intersect_box(const BvhNode& node, const RayBoxQuery& q, float t_max, float* t_entry) {
    float near_x = q.neg_x ? node.hi.x : node.lo.x, far_x = q.neg_x ? node.lo.x : node.hi.x;
    float near_y = q.neg_y ? node.hi.y : node.lo.y, far_y = q.neg_y ? node.lo.y : node.hi.y;
    float near_z = q.neg_z ? node.hi.z : node.lo.z, far_z = q.neg_z ? node.lo.z : node.hi.z;
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

// Closest primitive hit with t in (0, t_max). On a miss prim == kNoHit and
// t == t_max. Children are visited nearer-entry first, so t_max shrinks early.
WF_HD_INLINE Hit intersect_closest(const GeometryView& g, const Ray& ray, float t_max) {
    Hit best;
    best.t = t_max;
    if (g.num_prims() == 0) return best;

    RayBoxQuery q = RayBoxQuery::from(ray);
    float t_entry;
    if (!intersect_box(g.nodes[0], q, best.t, &t_entry)) return best;
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);

    // A popped node is culled again if a hit found meanwhile lies before it.
    uint32_t stack_node[kTraversalStackSize];
    float stack_t[kTraversalStackSize];
    int sp = 0;
    uint32_t node = 0;
    const float slack = 1.0f + 2.0f * rounding_gamma(3);  // as in intersect_box
    // While-while traversal (Aila and Laine 2009): descend interior nodes in one
    // loop until a leaf is reached, then test the leaf's primitives in another.
    // On the GPU the threads of a warp then tend to run box tests together and
    // primitive tests together, instead of splitting every step between both.
    for (;;) {
        bool have_leaf = true;
        while (g.nodes[node].count == 0) {
            const BvhNode& n = g.nodes[node];
            uint32_t left = n.first, right = n.first + 1;
            float t_left, t_right;
            bool hit_left = intersect_box(g.nodes[left], q, best.t, &t_left);
            bool hit_right = intersect_box(g.nodes[right], q, best.t, &t_right);
            if (hit_left && hit_right) {
                bool left_first = t_left <= t_right;
                if (sp < kTraversalStackSize) {  // never full for builder-made trees
                    stack_node[sp] = left_first ? right : left;
                    stack_t[sp] = left_first ? t_right : t_left;
                    ++sp;
                }
                node = left_first ? left : right;
            } else if (hit_left || hit_right) {
                node = hit_left ? left : right;
            } else {
                // Pop the next node that can still hold a closer hit.
                have_leaf = false;
                while (sp > 0) {
                    --sp;
                    if (stack_t[sp] <= best.t * slack) {
                        node = stack_node[sp];
                        have_leaf = true;
                        break;
                    }
                }
                if (!have_leaf) break;
            }
        }
        if (!have_leaf) return best;
        const BvhNode& leaf = g.nodes[node];
        for (uint32_t i = leaf.first; i < leaf.first + leaf.count; ++i) {
            uint32_t prim = g.prim_index[i];
            if (intersect_prim(g, prim, ray, tq, best.t, &best)) best.prim = prim;
        }
        // Pop the next node that can still hold a closer hit.
        for (;;) {
            if (sp == 0) return best;
            --sp;
            if (stack_t[sp] <= best.t * slack) break;
        }
        node = stack_node[sp];
    }
}

// Whether any primitive is hit with t in (0, t_max): shadow rays. Stops at
// the first hit found; visiting order does not matter.
WF_HD_INLINE bool intersect_any(const GeometryView& g, const Ray& ray, float t_max) {
    if (g.num_prims() == 0) return false;

    RayBoxQuery q = RayBoxQuery::from(ray);
    float t_entry;
    if (!intersect_box(g.nodes[0], q, t_max, &t_entry)) return false;
    const RayTriangleQuery tq = RayTriangleQuery::from(ray);

    uint32_t stack[kTraversalStackSize];
    int sp = 0;
    uint32_t node = 0;
    Hit scratch;
    // While-while, as intersect_closest.
    for (;;) {
        while (g.nodes[node].count == 0) {
            const BvhNode& n = g.nodes[node];
            uint32_t left = n.first, right = n.first + 1;
            bool hit_left = intersect_box(g.nodes[left], q, t_max, &t_entry);
            bool hit_right = intersect_box(g.nodes[right], q, t_max, &t_entry);
            if (hit_left && hit_right) {
                if (sp < kTraversalStackSize) stack[sp++] = right;
                node = left;
            } else if (hit_left || hit_right) {
                node = hit_left ? left : right;
            } else {
                if (sp == 0) return false;
                node = stack[--sp];
            }
        }
        const BvhNode& leaf = g.nodes[node];
        for (uint32_t i = leaf.first; i < leaf.first + leaf.count; ++i) {
            if (intersect_prim(g, g.prim_index[i], ray, tq, t_max, &scratch)) return true;
        }
        if (sp == 0) return false;
        node = stack[--sp];
    }
}

}  // namespace wf
