// Hit points with error bounds, and spawning rays off surfaces without
// self-intersection (pbrt-v4, section 6.8.6). The hit point is computed with a
// conservative bound on its rounding error; a new ray starts just outside that
// error box along the geometric normal, on the side it leaves towards. This is
// the only self-intersection remedy of the engine: no epsilons elsewhere.
#pragma once

#include <cmath>

#include "accel/float_error.h"
#include "accel/geometry_view.h"
#include "accel/intersect.h"
#include "accel/plane_hit.h"
#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf {

// Shadow rays stop this fraction short of their target so they cannot hit
// the surface the target lies on (pbrt-v4's ShadowEpsilon).
inline constexpr float kShadowEpsilon = 1e-4f;

struct SurfacePoint {
    Vec3f p;        // world-space hit point
    Vec3f p_error;  // per-axis bound on |p - exact point on the surface|
    Vec3f ng;       // unit geometric normal (triangles: p0,p1,p2 winding; spheres: outward unless flipped)
};

// Point of a triangle from barycentrics (u, v weigh p1, p2): for hits and for
// light sampling alike.
WF_HD_INLINE SurfacePoint surface_point_on_triangle(const Triangle& tri, float u, float v) {
    // p = p0 + u (p1 - p0) + v (p2 - p0); the exact value for these u, v lies
    // in the triangle's plane, which is what self-intersection depends on.
    // Each term u (p1 - p0) is off by gamma_2 of itself (edge, product), the
    // 3-term sum adds gamma_2 sum|terms|: gamma_4 in all, plus one gamma for
    // the bound's own rounding. With two stored barycentrics this replaces
    // pbrt's gamma_7 sum|b_i p_i|, which needs all three computed independently.
    SurfacePoint sp;
    Vec3f e1 = tri.p1 - tri.p0, e2 = tri.p2 - tri.p0;
    Vec3f a = u * e1, b = v * e2;
    sp.p = (tri.p0 + a) + b;
    sp.p_error = rounding_gamma(5) * (abs(tri.p0) + abs(a) + abs(b));
    sp.ng = normalize(cross(e1, e2));
    return sp;
}

// Point of a sphere: q (near the surface, or any point but the centre) is
// projected radially onto it. flip_normal: kPrimFlipNormal (ng inward).
WF_HD_INLINE SurfacePoint surface_point_on_sphere(const Sphere& s, Vec3f q, bool flip_normal) {
    // Reprojection c + r normalize(q - c) is within gamma_5 |local| of the
    // surface whatever the error of q (pbrt-v4); adding the centre rounds
    // once more, gamma_1 |c + local| <= gamma_1 (|c| + |local|).
    SurfacePoint sp;
    Vec3f local = q - s.center;
    local *= std::fabs(s.radius) / length(local);
    sp.p = s.center + local;
    sp.p_error = rounding_gamma(6) * abs(local) + rounding_gamma(1) * abs(s.center);
    sp.ng = normalize(local);
    if (flip_normal) sp.ng = -sp.ng;
    return sp;
}

// Hit point of a ray on a triangle. From barycentrics the error grows with
// the size of the triangle's coordinates (0.3 units on a quad of half-size
// 1e6, across the plane as well as along it, where it moves shadows); along
// the ray, with t recomputed in double precision, it grows only with the
// distance travelled. The tighter of the two wins, and it is the barycentric
// one, without any double arithmetic, for triangles not far larger than t.
inline constexpr float kVisibleErrorRatio = 1e-4f;  // of the hit distance

WF_HD_INLINE SurfacePoint surface_point_on_triangle_hit(const Triangle& tri, const Ray& ray, const Hit& hit) {
    SurfacePoint sp = surface_point_on_triangle(tri, hit.u, hit.v);
    const float bary_error = max_component(sp.p_error);
    const float ray_scale = max_component(abs(ray.origin)) + hit.t * max_component(abs(ray.dir));
    // Only where the barycentric error is visible at the hit's distance: the
    // ray's bound does not cover the mismatch between the planes of two float
    // triangles meant to be coplanar (a tilted quad), which the barycentric
    // bound, growing with the coordinates, does.
    if (!(bary_error > kVisibleErrorRatio * hit.t) || !(bary_error > 4.0f * rounding_gamma(2) * ray_scale)) return sp;
    PlaneHit plane = intersect_triangle_plane(tri, ray.origin, ray.dir);
    if (!plane.valid) return sp;
    // o + t d in double, rounded once to float: half an ulp of p, plus t's
    // error times |d| and the double rounding of the sum.
    const double px = double(ray.origin.x) + plane.t * ray.dir.x, py = double(ray.origin.y) + plane.t * ray.dir.y,
                 pz = double(ray.origin.z) + plane.t * ray.dir.z;
    const Vec3f p{float(px), float(py), float(pz)};
    const double slack = plane.t_error + 4.0 * 1.1102230246251565e-16 * double(ray_scale);
    const Vec3f p_error = rounding_gamma(1) * abs(p) + Vec3f(float(slack * std::fabs(ray.dir.x) + slack),
                                                              float(slack * std::fabs(ray.dir.y) + slack),
                                                              float(slack * std::fabs(ray.dir.z) + slack));
    if (max_component(p_error) < bary_error) {
        sp.p = p;
        sp.p_error = p_error;
    }
    return sp;
}

// Surface point of a closest hit (hit.found() must hold).
WF_HD_INLINE SurfacePoint surface_point(const GeometryView& g, const Ray& ray, const Hit& hit) {
    if (hit.prim < g.num_triangles) return surface_point_on_triangle_hit(g.triangles[hit.prim], ray, hit);
    const Sphere& s = g.spheres[hit.prim - g.num_triangles];
    bool flip = g.prims && (g.prims[hit.prim].flags & kPrimFlipNormal);
    return surface_point_on_sphere(s, ray.origin + hit.t * ray.dir, flip);
}

// Origin for a ray leaving p towards w: p moved along n past the error box
// (by dot(|n|, p_error)) on w's side, then each moved coordinate stepped one
// more ulp outward so rounding of the sum cannot pull it back in.
WF_HD_INLINE Vec3f offset_ray_origin(Vec3f p, Vec3f p_error, Vec3f n, Vec3f w) {
    float d = dot(abs(n), p_error);
    Vec3f offset = d * n;
    if (dot(w, n) < 0.0f) offset = -offset;
    Vec3f po = p + offset;
    if (offset.x > 0.0f) po.x = next_float_up(po.x);
    else if (offset.x < 0.0f) po.x = next_float_down(po.x);
    if (offset.y > 0.0f) po.y = next_float_up(po.y);
    else if (offset.y < 0.0f) po.y = next_float_down(po.y);
    if (offset.z > 0.0f) po.z = next_float_up(po.z);
    else if (offset.z < 0.0f) po.z = next_float_down(po.z);
    return po;
}

// Ray leaving the surface in unit direction dir (either side of ng).
WF_HD_INLINE Ray spawn_ray(const SurfacePoint& from, Vec3f dir) {
    return Ray{offset_ray_origin(from.p, from.p_error, from.ng, dir), dir};
}

// Shadow ray from a surface towards a point off any surface (a point light, a
// camera): unit direction, *t_max set kShadowEpsilon short of the target.
// A target that lies on a surface has a rounding error of its own and may sit
// just behind that surface; use the SurfacePoint overload for it.
WF_HD_INLINE Ray spawn_ray_to(const SurfacePoint& from, Vec3f target, float* t_max) {
    Vec3f o = offset_ray_origin(from.p, from.p_error, from.ng, target - from.p);
    Vec3f d = target - o;
    float dist = length(d);
    if (!(dist > 0.0f)) {  // target on the origin: an empty segment
        *t_max = 0.0f;
        return Ray{o, from.ng};
    }
    *t_max = dist * (1.0f - kShadowEpsilon);
    return Ray{o, d * (1.0f / dist)};
}

// Shadow ray between two surface points (a hit and a sampled point on an area
// light): both ends are offset off their surfaces towards each other, as
// pbrt-v4's SpawnRayTo(from, to), so neither surface blocks the segment, even
// when the two points lie on one plane.
WF_HD_INLINE Ray spawn_ray_to(const SurfacePoint& from, const SurfacePoint& to, float* t_max) {
    Vec3f o = offset_ray_origin(from.p, from.p_error, from.ng, to.p - from.p);
    Vec3f target = offset_ray_origin(to.p, to.p_error, to.ng, o - to.p);
    Vec3f d = target - o;
    float dist = length(d);
    if (!(dist > 0.0f)) {
        *t_max = 0.0f;
        return Ray{o, from.ng};
    }
    *t_max = dist * (1.0f - kShadowEpsilon);
    return Ray{o, d * (1.0f / dist)};
}

}  // namespace wf
