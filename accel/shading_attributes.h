// Shading attributes of mesh triangles: vertex normals, tangents, texture coordinates
// and colours, interpolated at a hit point. The geometry the rays see stays the flat
// triangle (accel/surface.h); these only shade.
//
// Layout: the vertices of every mesh with attributes are concatenated into one array
// per attribute, and each triangle names its three vertices in `triangle_vertices`
// (3 per triangle primitive, in the primitive's vertex order). PrimInfo::flags says which
// attributes a triangle's mesh has (kPrimHas*); arrays no mesh has are null.
#pragma once

#include <cstdint>

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"

namespace wf {

struct ShadingAttributesView {
    const uint32_t* triangle_vertices = nullptr;  // 3 per triangle primitive; null: no triangle has attributes
    const Vec3f* normals = nullptr;
    const Vec2f* uvs = nullptr;
    const Vec2f* uvs1 = nullptr;
    const Vec4f* tangents = nullptr;
    const Vec4f* colors = nullptr;
};

// What a hit point is shaded with. Without vertex data: ns = ng, uv = barycentric
// (u, v), colour white, and a tangent along the first edge, so a texture still maps.
struct ShadingAttributes {
    Vec3f ns;                   // unit shading normal, on the side of the geometric normal's facing as written
    Vec2f uv[2];                // texture coordinate sets 0 and 1
    Vec3f tangent;              // unit, perpendicular to ns, along increasing u (the normal map's x)
    float bitangent_sign = 1.0f;  // the normal map's y is bitangent_sign * cross(ns, tangent)
    Vec4f color{1.0f, 1.0f, 1.0f, 1.0f};
};

namespace shading_detail {

WF_HD_INLINE Vec2f lerp3(Vec2f a, Vec2f b, Vec2f c, float w0, float u, float v) {
    return Vec2f{w0 * a.x + u * b.x + v * c.x, w0 * a.y + u * b.y + v * c.y};
}

// A unit vector perpendicular to n, as close to t as possible; any perpendicular one
// when t is (nearly) parallel to n or zero.
WF_HD_INLINE Vec3f perpendicular_toward(Vec3f n, Vec3f t) {
    Vec3f p = t - dot(t, n) * n;
    float len2 = length_squared(p);
    if (len2 > 1e-12f && len2 == len2) return p * (1.0f / sqrtf(len2));
    return Frame::from_z(n).x;
}

}  // namespace shading_detail

// Texture coordinate sets 0 and 1 of triangle `prim` at barycentrics (u, v) weighing its
// 2nd and 3rd vertex, as triangle_shading gives them: a set the triangle lacks is set 0,
// and without any, the barycentrics (u, v). What an emitter reads its texture with,
// without the rest of the shading frame.
WF_HD_INLINE void triangle_uvs(const ShadingAttributesView& view, uint32_t prim, uint32_t flags, float u, float v,
                               Vec2f uv[2]) {
    using namespace shading_detail;
    uv[0] = Vec2f{u, v};
    uv[1] = uv[0];
    if (!view.triangle_vertices || !(flags & (kPrimHasUvs | kPrimHasUvs1))) return;
    const uint32_t i0 = view.triangle_vertices[3 * prim], i1 = view.triangle_vertices[3 * prim + 1],
                   i2 = view.triangle_vertices[3 * prim + 2];
    const float w0 = 1.0f - u - v;
    if (flags & kPrimHasUvs) {
        uv[0] = lerp3(view.uvs[i0], view.uvs[i1], view.uvs[i2], w0, u, v);
        uv[1] = uv[0];
    }
    if (flags & kPrimHasUvs1) uv[1] = lerp3(view.uvs1[i0], view.uvs1[i1], view.uvs1[i2], w0, u, v);
}

// The vertex colour of triangle `prim` at barycentrics (u, v); white without colours.
WF_HD_INLINE Vec4f triangle_color(const ShadingAttributesView& view, uint32_t prim, uint32_t flags, float u, float v) {
    if (!view.triangle_vertices || !(flags & kPrimHasColors)) return Vec4f{1.0f, 1.0f, 1.0f, 1.0f};
    const uint32_t i0 = view.triangle_vertices[3 * prim], i1 = view.triangle_vertices[3 * prim + 1],
                   i2 = view.triangle_vertices[3 * prim + 2];
    const Vec4f a = view.colors[i0], b = view.colors[i1], c = view.colors[i2];
    const float w0 = 1.0f - u - v;
    return Vec4f{w0 * a.x + u * b.x + v * c.x, w0 * a.y + u * b.y + v * c.y, w0 * a.z + u * b.z + v * c.z,
                 w0 * a.w + u * b.w + v * c.w};
}

// Attributes of triangle `prim` (a triangle primitive id) at barycentrics (u, v) weighing
// its 2nd and 3rd vertex; ng is the hit's unit geometric normal, tri its positions.
WF_HD_INLINE ShadingAttributes triangle_shading(const ShadingAttributesView& view, const Triangle& tri, uint32_t prim,
                                                uint32_t flags, float u, float v, Vec3f ng) {
    using namespace shading_detail;
    ShadingAttributes s;
    s.ns = ng;
    const float w0 = 1.0f - u - v;
    triangle_uvs(view, prim, flags, u, v, s.uv);
    Vec3f dpdu = tri.p1 - tri.p0;  // without UVs: u runs along the first edge
    float sign = 1.0f;
    if (view.triangle_vertices && (flags & (kPrimHasNormals | kPrimHasUvs | kPrimHasUvs1 | kPrimHasTangents | kPrimHasColors))) {
        const uint32_t i0 = view.triangle_vertices[3 * prim], i1 = view.triangle_vertices[3 * prim + 1],
                       i2 = view.triangle_vertices[3 * prim + 2];
        if (flags & kPrimHasNormals) {
            Vec3f n = w0 * view.normals[i0] + u * view.normals[i1] + v * view.normals[i2];
            float len2 = length_squared(n);
            // Opposite vertex normals can cancel; the geometric normal is the fallback.
            if (len2 > 1e-12f) s.ns = n * (1.0f / sqrtf(len2));
        }
        if (flags & kPrimHasUvs) {
            const Vec2f a = view.uvs[i0], b = view.uvs[i1], c = view.uvs[i2];
            // dp/du from the UV parametrisation (pbrt-v4's triangle differentials).
            const float du02 = a.x - c.x, du12 = b.x - c.x, dv02 = a.y - c.y, dv12 = b.y - c.y;
            const float det = du02 * dv12 - dv02 * du12;
            if (fabsf(det) > 1e-20f) {
                const Vec3f dp02 = tri.p0 - tri.p2, dp12 = tri.p1 - tri.p2;
                const float inv = 1.0f / det;
                dpdu = (dv12 * dp02 - dv02 * dp12) * inv;
                const Vec3f dpdv = (du02 * dp12 - du12 * dp02) * inv;
                // The bitangent's sign: whether (dpdu, dpdv, ng) is right-handed.
                sign = dot(cross(dpdu, dpdv), ng) < 0.0f ? -1.0f : 1.0f;
            }
        }
        if (flags & kPrimHasTangents) {
            const Vec4f a = view.tangents[i0], b = view.tangents[i1], c = view.tangents[i2];
            Vec3f t = w0 * Vec3f(a.x, a.y, a.z) + u * Vec3f(b.x, b.y, b.z) + v * Vec3f(c.x, c.y, c.z);
            if (length_squared(t) > 1e-12f) {
                dpdu = t;
                sign = a.w < 0.0f ? -1.0f : 1.0f;  // glTF: w is constant over a triangle
            }
        }
        s.color = triangle_color(view, prim, flags, u, v);
    }
    s.tangent = perpendicular_toward(s.ns, dpdu);
    s.bitangent_sign = sign;
    return s;
}

}  // namespace wf
