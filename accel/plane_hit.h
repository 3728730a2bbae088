// Ray/triangle-plane distance in double precision, for triangles much larger
// than the distance to the hit: a ground quad of half-size 1e6 seen from one
// unit above it. There the float watertight test's t carries an error bound
// (pbrt-v4's) near 0.1 units, so it must reject hits near the camera, and a
// hit point interpolated from barycentrics is as far off the plane. In double
// precision both are exact to ~1e-15 of the coordinates' size, which is below
// float rounding for every coordinate the scene loader accepts (|x| <= 1e10).
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf {

// Where the ray meets the triangle's plane, with a bound on the error of t.
struct PlaneHit {
    double t = 0.0;
    double t_error = 0.0;
    bool valid = false;  // the ray is not parallel to the plane
};

WF_HD_INLINE PlaneHit intersect_triangle_plane(const Triangle& tri, Vec3f origin, Vec3f dir) {
    // Differences of floats are exact in double (up to 2^29 apart in exponent,
    // far beyond the loader's range); the cross product and the dot products
    // then round a few times each: 8 unit roundoffs of the absolute sums bound them.
    const double ax = double(tri.p1.x) - tri.p0.x, ay = double(tri.p1.y) - tri.p0.y, az = double(tri.p1.z) - tri.p0.z;
    const double bx = double(tri.p2.x) - tri.p0.x, by = double(tri.p2.y) - tri.p0.y, bz = double(tri.p2.z) - tri.p0.z;
    const double nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
    const double wx = double(tri.p0.x) - origin.x, wy = double(tri.p0.y) - origin.y, wz = double(tri.p0.z) - origin.z;
    const double num = wx * nx + wy * ny + wz * nz;
    const double den = double(dir.x) * nx + double(dir.y) * ny + double(dir.z) * nz;
    PlaneHit h;
    if (den == 0.0) return h;
    const double u = 1.1102230246251565e-16;  // 2^-53
    const double anx = std::fabs(nx), any = std::fabs(ny), anz = std::fabs(nz);
    const double num_error = 8.0 * u * (std::fabs(wx) * anx + std::fabs(wy) * any + std::fabs(wz) * anz);
    const double den_error = 8.0 * u * (std::fabs(dir.x) * anx + std::fabs(dir.y) * any + std::fabs(dir.z) * anz);
    h.t = num / den;
    h.t_error = (num_error + std::fabs(h.t) * den_error) / std::fabs(den) + 2.0 * u * std::fabs(h.t);
    h.valid = true;
    return h;
}

}  // namespace wf
