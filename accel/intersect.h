// Ray/primitive intersection: watertight triangles and robust spheres.
// Both tests report a hit only for t in the open interval (0, t_max), and a
// reported t > 0 is certain despite rounding, so a ray spawned off a surface
// (see surface.h) cannot re-hit that surface behind its origin.
// The reported t does not depend on t_max; only the cut-off does. So a closest-
// hit search gives the same answer whatever order it visits primitives in.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/degenerate_triangle.h"
#include "accel/float_error.h"
#include "accel/geometry_view.h"
#include "accel/interval.h"
#include "accel/plane_hit.h"
#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf {

inline constexpr uint32_t kNoHit = 0xffffffffu;

// Closest hit along a ray. For triangles (u, v) are the barycentric weights of
// p1 and p2: p = (1 - u - v) p0 + u p1 + v p2. Spheres leave u = v = 0 (the
// hit point is recomputed from t, see surface.h). A miss has prim == kNoHit.
struct Hit {
    float t = kInfinity;
    uint32_t prim = kNoHit;
    float u = 0.0f, v = 0.0f;

    WF_HD bool found() const { return prim != kNoHit; }
};

// Index of the component of largest magnitude.
WF_HD_INLINE int max_dimension(Vec3f v) {
    return v.x > v.y ? (v.x > v.z ? 0 : 2) : (v.y > v.z ? 1 : 2);
}

WF_HD_INLINE Vec3f permute(Vec3f v, int x, int y, int z) { return {v[x], v[y], v[z]}; }

// The per-ray half of the watertight test: which axis becomes z, and the shear
// that turns the direction into (0, 0, 1). Computed once per ray, it saves the
// traversal three divisions and a permutation per triangle tested.
struct RayTriangleQuery {
    Vec3f origin;
    int kx, ky, kz;
    float sx, sy, sz;

    WF_HD static RayTriangleQuery from(const Ray& ray) {
        RayTriangleQuery q;
        q.origin = ray.origin;
        q.kz = max_dimension(abs(ray.dir));
        q.kx = q.kz == 2 ? 0 : q.kz + 1;
        q.ky = q.kx == 2 ? 0 : q.kx + 1;
        Vec3f d = permute(ray.dir, q.kx, q.ky, q.kz);
        q.sx = -d.x / d.z;
        q.sy = -d.y / d.z;
        q.sz = 1.0f / d.z;
        return q;
    }
};

// Watertight ray/triangle test (Woop, Benthin and Wald 2013) with pbrt-v4's
// conservative t > 0 check. The ray is moved to the origin and sheared so it
// runs along +z; the test is then 2D edge functions, computed with an exactly
// signed a*b - c*d so that neighbouring triangles agree on their shared edge:
// no ray slips between them. Two-sided: either winding is hit.
// On a hit writes t, u, v into *hit (prim is left to the caller).
// Above this ratio of t's error bound to t, the hit's t is recomputed in
// double precision (plane_hit.h): only triangles far larger than the distance
// to the hit get there, so the common case stays in float.
inline constexpr float kTriangleRefineRatio = 1e-5f;

// The test for a triangle known to have a plane (!triangle_is_degenerate).
WF_HD_INLINE bool intersect_plane_triangle(const Triangle& tri, const Ray& ray, const RayTriangleQuery& q, float t_max,
                                           Hit* hit) {
    // Ray-space: translate by the origin, permute the dominant axis of dir to z.
    Vec3f p0 = permute(tri.p0 - q.origin, q.kx, q.ky, q.kz);
    Vec3f p1 = permute(tri.p1 - q.origin, q.kx, q.ky, q.kz);
    Vec3f p2 = permute(tri.p2 - q.origin, q.kx, q.ky, q.kz);

    // Shear x and y so the direction becomes (0, 0, 1); z is scaled only if
    // the 2D test passes.
    const float sx = q.sx, sy = q.sy, sz = q.sz;
    p0.x += sx * p0.z;
    p0.y += sy * p0.z;
    p1.x += sx * p1.z;
    p1.y += sy * p1.z;
    p2.x += sx * p2.z;
    p2.y += sy * p2.z;

    // Edge functions: twice the signed areas seen from the ray. e0 is opposite p0.
    float e0 = difference_of_products(p1.x, p2.y, p1.y, p2.x);
    float e1 = difference_of_products(p2.x, p0.y, p2.y, p0.x);
    float e2 = difference_of_products(p0.x, p1.y, p0.y, p1.x);
    if ((e0 < 0.0f || e1 < 0.0f || e2 < 0.0f) && (e0 > 0.0f || e1 > 0.0f || e2 > 0.0f)) return false;
    float det = e0 + e1 + e2;
    if (det == 0.0f) return false;  // seen edge-on

    p0.z *= sz;
    p1.z *= sz;
    p2.z *= sz;
    float t_scaled = e0 * p0.z + e1 * p1.z + e2 * p2.z;
    float inv_det = 1.0f / det;
    float t = t_scaled * inv_det;

    // Accept t only if it is positive beyond its rounding-error bound
    // (pbrt-v4, section 6.8.4): a hit at the ray origin itself is rejected.
    // The bound grows with the vertices' distance from the ray origin; where it
    // is not small against t (a triangle far larger than the distance to the
    // hit), even t's sign is uncertain, and the double-precision plane distance
    // decides instead.
    float max_zt = max_component(abs(Vec3f(p0.z, p1.z, p2.z)));
    float max_xt = max_component(abs(Vec3f(p0.x, p1.x, p2.x)));
    float max_yt = max_component(abs(Vec3f(p0.y, p1.y, p2.y)));
    float delta_z = rounding_gamma(3) * max_zt;
    float delta_x = rounding_gamma(5) * (max_xt + max_zt);
    float delta_y = rounding_gamma(5) * (max_yt + max_zt);
    float delta_e = 2.0f * (rounding_gamma(2) * max_xt * max_yt + delta_y * max_xt + delta_x * max_yt);
    float max_e = max_component(abs(Vec3f(e0, e1, e2)));
    float delta_t = 3.0f * (rounding_gamma(3) * max_e * max_zt + delta_e * max_zt + delta_z * max_e) *
                    std::fabs(inv_det);
    if (delta_t > kTriangleRefineRatio * std::fabs(t)) {
        PlaneHit plane = intersect_triangle_plane(tri, ray.origin, ray.dir);
        if (!plane.valid || !(plane.t - plane.t_error > 0.0)) return false;
        t = float(plane.t);
    } else if (!(t > 0.0f)) {
        return false;  // behind the origin (or NaN from bad input); t > delta_t otherwise
    }
    // After any refinement, so that the reported t never depends on t_max.
    if (!(t < t_max)) return false;
    hit->t = t;
    hit->u = e1 * inv_det;
    hit->v = e2 * inv_det;
    return true;
}

WF_HD_INLINE bool intersect_triangle(const Triangle& tri, const Ray& ray, const RayTriangleQuery& q, float t_max,
                                     Hit* hit) {
    return !triangle_is_degenerate(tri) && intersect_plane_triangle(tri, ray, q, t_max, hit);
}

WF_HD_INLINE bool intersect_triangle(const Triangle& tri, const Ray& ray, float t_max, Hit* hit) {
    return intersect_triangle(tri, ray, RayTriangleQuery::from(ray), t_max, hit);
}

// Ray/sphere test in interval arithmetic. The discriminant comes from the
// distance between the centre and the ray's line (Haines et al., "Precision
// Improvements for Ray/Sphere Intersection", Ray Tracing Gems ch. 7), which
// stays accurate for small spheres far away; the roots use the stable
// quadratic form. A root counts only when its whole interval is positive, so a
// ray leaving the surface never finds its own origin again, and a grazing ray
// whose discriminant sign is uncertain misses (as in pbrt-v4).
// On a hit writes t (u = v = 0) into *hit.
WF_HD_INLINE bool intersect_sphere_interval(const Sphere& sphere, const Ray& ray, float t_max, Hit* hit) {
    Interval fx = Interval(ray.origin.x) - Interval(sphere.center.x);
    Interval fy = Interval(ray.origin.y) - Interval(sphere.center.y);
    Interval fz = Interval(ray.origin.z) - Interval(sphere.center.z);
    Interval dx(ray.dir.x), dy(ray.dir.y), dz(ray.dir.z);
    Interval r(sphere.radius);

    // |f + t d|^2 = r^2  <=>  a t^2 + b t + c = 0
    Interval a = sqr(dx) + sqr(dy) + sqr(dz);
    Interval b = scale_pow2(dx * fx + dy * fy + dz * fz, 2.0f);
    Interval c = sqr(fx) + sqr(fy) + sqr(fz) - sqr(r);

    // b^2 - 4ac = 4a (r^2 - |v|^2), v = f - (f.d / d.d) d the centre-to-line vector.
    Interval k = b / scale_pow2(a, 2.0f);
    Interval vx = fx - k * dx, vy = fy - k * dy, vz = fz - k * dz;
    Interval len = interval_sqrt(sqr(vx) + sqr(vy) + sqr(vz));
    Interval disc = scale_pow2(a, 4.0f) * (r - len) * (r + len);
    if (disc.lo < 0.0f) return false;

    Interval root = interval_sqrt(disc);
    Interval q = b.midpoint() < 0.0f ? scale_pow2(b - root, -0.5f) : scale_pow2(b + root, -0.5f);
    Interval t0 = q / a, t1 = c / q;
    if (t0.lo > t1.lo) {
        Interval tmp = t0;
        t0 = t1;
        t1 = tmp;
    }
    Interval t_hit = t0;
    if (!(t_hit.lo > 0.0f)) {
        t_hit = t1;
        if (!(t_hit.lo > 0.0f)) return false;
    }
    float t = t_hit.midpoint();
    if (!(t < t_max)) return false;
    hit->t = t;
    hit->u = 0.0f;
    hit->v = 0.0f;
    return true;
}

// Whether a ray certainly misses a sphere, decided in plain float: its line passes
// farther from the centre than r, or both crossings lie behind the origin, each by a
// margin of 2^-14 (|o - c| + r), thousands of times the rounding error of the float
// expressions (a few ulps of |o - c| and r). Where the exact line misses, the exact
// discriminant is negative, so its interval enclosure starts below 0 and
// intersect_sphere_interval misses too; where both exact roots are negative, so do
// the lower ends of their intervals. The filter never changes an answer, it only skips
// the interval arithmetic (a dozen divisions and square roots) for clear misses, which
// are most rays that reach a sphere's leaf. Non-finite input is never filtered.
WF_HD_INLINE bool sphere_certainly_missed(const Sphere& sphere, const Ray& ray) {
    const Vec3f f = ray.origin - sphere.center;
    const float a = dot(ray.dir, ray.dir);
    const float k = dot(f, ray.dir) / a;  // the centre's closest approach is at t = -k
    const Vec3f v = f - k * ray.dir;      // centre to line
    const float r = sphere.radius;
    const float reach = r + 6.103515625e-05f * (std::sqrt(dot(f, f)) + r);  // r + 2^-14 (|f| + r)
    if (dot(v, v) > reach * reach) return true;
    return -k + reach / std::sqrt(a) < 0.0f;  // both crossings, within t = -k +- r / |d|, behind
}

WF_HD_INLINE bool intersect_sphere(const Sphere& sphere, const Ray& ray, float t_max, Hit* hit) {
    if (sphere_certainly_missed(sphere, ray)) return false;
    return intersect_sphere_interval(sphere, ray, t_max, hit);
}

// Dispatch on the primitive id (see GeometryView). Traversal passes the
// per-ray triangle query it computed once.
WF_HD_INLINE bool intersect_prim(const GeometryView& g, uint32_t prim, const Ray& ray, const RayTriangleQuery& tq,
                                 float t_max, Hit* hit) {
    if (prim < g.num_triangles) return intersect_triangle(g.triangles[prim], ray, tq, t_max, hit);
    return intersect_sphere(g.spheres[prim - g.num_triangles], ray, t_max, hit);
}
WF_HD_INLINE bool intersect_prim(const GeometryView& g, uint32_t prim, const Ray& ray, float t_max, Hit* hit) {
    return intersect_prim(g, prim, ray, RayTriangleQuery::from(ray), t_max, hit);
}

}  // namespace wf
