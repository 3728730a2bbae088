// Whether a triangle has a plane: the intersection tests skip those without
// one (intersect.h), and the traversal layout records it per leaf primitive
// (traversal_bvh.h) so that traversal need not recompute it at every test.
#pragma once

#include "engine/hd.h"
#include "engine/scene_types.h"

namespace wf {

// Whether a triangle has no plane, and so no normal (its edges' cross product
// has zero length): such triangles are never hit. Rounded the same way on host
// and device (no fused multiply-add), so that the flag make_leaf_prim stores
// once per leaf primitive (traversal_bvh.h) agrees with this test everywhere.
// (That also needs denormals kept on the device: no -ftz or --use_fast_math,
// which the build does not use; collapse_area assumes the same.)
WF_HD_INLINE bool triangle_is_degenerate(const Triangle& t) {
#if WF_DEVICE_CODE
    const float ax = __fsub_rn(t.p2.x, t.p0.x), ay = __fsub_rn(t.p2.y, t.p0.y), az = __fsub_rn(t.p2.z, t.p0.z);
    const float bx = __fsub_rn(t.p1.x, t.p0.x), by = __fsub_rn(t.p1.y, t.p0.y), bz = __fsub_rn(t.p1.z, t.p0.z);
    const float cx = __fsub_rn(__fmul_rn(ay, bz), __fmul_rn(az, by));
    const float cy = __fsub_rn(__fmul_rn(az, bx), __fmul_rn(ax, bz));
    const float cz = __fsub_rn(__fmul_rn(ax, by), __fmul_rn(ay, bx));
    return __fadd_rn(__fadd_rn(__fmul_rn(cx, cx), __fmul_rn(cy, cy)), __fmul_rn(cz, cz)) == 0.0f;
#else
    const float ax = t.p2.x - t.p0.x, ay = t.p2.y - t.p0.y, az = t.p2.z - t.p0.z;
    const float bx = t.p1.x - t.p0.x, by = t.p1.y - t.p0.y, bz = t.p1.z - t.p0.z;
    volatile float p[6] = {ay * bz, az * by, az * bx, ax * bz, ax * by, ay * bx};  // never contracted into an fma
    const float cx = p[0] - p[1], cy = p[2] - p[3], cz = p[4] - p[5];
    volatile float q[3] = {cx * cx, cy * cy, cz * cz};
    return (q[0] + q[1]) + q[2] == 0.0f;
#endif
}

}  // namespace wf
