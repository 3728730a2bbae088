// Light sources with SmallVCM's sampling (lights.hxx): next-event sampling (illuminate),
// radiance of an emitter a path hits (radiance_on_hit, environment_radiance), and
// particle emission for light sub-paths (emit).
//
// The environment is constant or a linear gradient from nadir to zenith
// (Light::radiance_slope), sampled uniformly over the sphere, so that its pdfs do not
// depend on the direction (SmallVCM's BackgroundLight); or an equirectangular image
// (EmitterContext::environment_map, materials/environment_map.h) times Light::radiance,
// sampled in proportion to luminance x sin(theta), with the pdf of each direction.
//
// Units: area and environment lights carry radiance (W/sr/m^2; an environment image's
// texels do, and Light::radiance scales them), point lights radiant intensity (W/sr),
// directional lights irradiance at normal incidence (W/m^2), spot lights radiant
// intensity on their axis, times spot_falloff off it.
// Spot lights are point lights that emit only into their outer cone; their particles
// leave uniformly inside it (their emission pdf is 1 / the cone's solid angle) and carry
// the falloff in their energy.
// Area lights are one-sided: they emit into the hemisphere of their geometric normal
// (triangles: normalize(cross(p1-p0, p2-p0)); spheres: outward, inward with kPrimFlipNormal).
// Area lights are sampled uniformly by area (triangles with the sqrt barycentric mapping,
// spheres over their whole surface).
// A triangle light with an emissive texture (Light::emissive_texture, glTF emissiveTexture)
// emits Light::radiance times the texture's RGB at each point (area_radiance): what a ray
// hits, a next-event sample and a particle all read the texture at their point, through
// the triangle's texture coordinates (accel/shading_attributes.h). The sampling stays
// uniform by area, so its pdfs are those of an untextured light and every estimator stays
// unbiased; an untextured light never reads the texture arrays.
//
// Densities: "_w" per unit solid angle, "_a" per unit area. None of them includes the
// light-pick probability: the integrator multiplies by it (SmallVCM picks uniformly).
// Infinite lights (directional, environment) use the scene bounding sphere: their
// particles start on a disc of radius R at centre - R*dir, so their emission pdf carries
// the disc's 1/(pi R^2). As in SmallVCM, the environment's "area" pdf is a solid-angle pdf.
#pragma once

#include <cmath>
#include <cstdint>

#include "accel/surface.h"
#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "accel/shading_attributes.h"
#include "materials/environment_map.h"
#include "materials/pbr_coverage.h"
#include "materials/sampling.h"
#include "materials/texture.h"

namespace wf {

// Distance reported for lights at infinity; shadow rays toward them use it as t_max.
// Finite and small enough that its square (1e36) stays finite in float, yet far beyond
// any scene. Never compare it for equality; use DirectSample::is_infinite.
inline constexpr float kInfiniteLightDistance = 1e18f;

// Geometry the emitters need; a view of the device (or host) scene arrays.
// Primitive ids: [0, num_triangles) triangles, then spheres (see PrimInfo).
struct EmitterContext {
    const Triangle* triangles = nullptr;
    uint32_t num_triangles = 0;
    const Sphere* spheres = nullptr;
    const PrimInfo* prims = nullptr;  // may be null: no flags (sphere normals outward)
    SceneSphere scene_sphere{};
    // The environment light's image, when it has one (there is at most one environment
    // light); invalid (texels null) for a constant or gradient environment.
    EnvironmentMapView environment_map{};
    // Texture coordinates and textures, read only for lights with an emissive texture or
    // a glTF material that alpha does not cover wholly.
    ShadingAttributesView shading{};
    TextureView textures{};
    // The materials (by PrimInfo::material), for their glTF alpha coverage; may be null
    // (every emitter fully covered).
    const Material* materials = nullptr;
};

// Next-event sample toward a light (SmallVCM Illuminate).
struct DirectSample {
    Vec3f radiance{0.0f};       // arriving radiance (point: intensity; directional: irradiance); black: no contribution
    Vec3f dir_to_light{0.0f};   // unit, from the receiver toward the light
    float distance = 0.0f;      // to the sampled point; kInfiniteLightDistance for infinite lights
    float pdf_direct_w = 0.0f;  // solid-angle pdf of this direction at the receiver (point: dist^2, directional: 1)
    float pdf_emission_w = 0.0f;  // pdf that emit() produces the reverse particle (position and direction)
    float cos_at_light = 0.0f;  // cos between the light normal and -dir_to_light; 1 for non-area lights
    bool is_delta = false;      // point, spot, directional: cannot be hit by BSDF sampling
    bool is_infinite = false;   // directional, environment
    // The sampled point as a surface point (area: position, error bound, emitting-side
    // normal; point light: its position with zero error), so a shadow ray can be
    // offset off both ends (accel/surface.h spawn_ray_to). Unused for infinite lights.
    SurfacePoint light_point{};
};

// Radiance of an emitter found by a ray (SmallVCM GetRadiance).
struct EmitterHit {
    Vec3f radiance{0.0f};       // black from behind an area light
    float pdf_direct_a = 0.0f;  // area pdf of illuminate() choosing this point (environment: solid angle)
    float pdf_emission_w = 0.0f;  // pdf of emit() producing a particle along -ray_dir from there
};

// A particle leaving a light (SmallVCM Emit).
struct EmissionSample {
    Vec3f origin{0.0f};
    Vec3f origin_error{0.0f};     // rounding-error bound of origin (area lights; 0 elsewhere)
    Vec3f origin_normal{0.0f, 0.0f, 1.0f};  // area lights: the emitting side's normal (to offset the ray)
    Vec3f dir{0.0f, 0.0f, 1.0f};  // unit, the direction the particle travels
    Vec3f energy{0.0f};  // radiance * cos (area), intensity (point; spot: times falloff), irradiance (directional), radiance (env)
    float pdf_emission_w = 0.0f;  // pdf of (origin, dir): area pdf x solid-angle pdf
    float pdf_direct_a = 0.0f;    // illuminate()'s pdf of choosing this origin (area; 1 for delta; env: solid angle)
    float cos_light = 1.0f;       // cos between the light normal and dir; 1 for non-area lights
};

WF_HD_INLINE bool light_is_delta(const Light& l) {
    return l.type == LightType::Point || l.type == LightType::Spot || l.type == LightType::Directional;
}
WF_HD_INLINE bool light_is_infinite(const Light& l) {
    return l.type == LightType::Directional || l.type == LightType::Environment;
}

// A spot light's intensity relative to its axis, for a direction at cosine `cos_theta` to
// the axis: KHR_lights_punctual's recommended implementation, t = saturate((cos_theta -
// cos_outer) / max(1e-3, cos_inner - cos_outer)), falloff t^2. 1 inside the inner cone, 0
// on and beyond the outer one; the 1e-3 keeps an inner cone equal to the outer one finite.
WF_HD_INLINE float spot_falloff(const Light& spot, float cos_theta) {
    float t = clampf((cos_theta - spot.cos_outer) / fmaxf(1e-3f, spot.cos_inner - spot.cos_outer), 0.0f, 1.0f);
    return t * t;
}

// Environment radiance seen looking along the unit direction `w` (away from the scene).
WF_HD_INLINE Vec3f environment_radiance_along(const Light& env, Vec3f w) {
    // Clamped: a w a hair longer than 1 must not take a black end below zero.
    return env.radiance + env.radiance_slope * clampf(dot(w, env.zenith), -1.0f, 1.0f);
}

// ---- Emitting surfaces ------------------------------------------------------------------
struct EmitterPoint {
    Vec3f position;
    Vec3f position_error;  // rounding-error bound of position (accel/surface.h), for shadow rays
    Vec3f normal;  // unit, the emitting side
    float inv_area = 0.0f;
    float b1 = 0.0f, b2 = 0.0f;  // triangles: barycentrics of the 2nd and 3rd vertex (0 on spheres)
};

WF_HD_INLINE bool emitter_is_sphere(const EmitterContext& ctx, uint32_t prim) {
    return prim >= ctx.num_triangles;
}

WF_HD_INLINE float emitter_normal_sign(const EmitterContext& ctx, uint32_t prim) {
    return (ctx.prims != nullptr && (ctx.prims[prim].flags & kPrimFlipNormal)) ? -1.0f : 1.0f;
}

WF_HD_INLINE float emitter_inv_area(const EmitterContext& ctx, uint32_t prim) {
    if (emitter_is_sphere(ctx, prim)) {
        float r = ctx.spheres[prim - ctx.num_triangles].radius;
        return 1.0f / (4.0f * kPi * r * r);
    }
    const Triangle& t = ctx.triangles[prim];
    return 2.0f / length(cross(t.p1 - t.p0, t.p2 - t.p0));
}

// Emitting-side normal of `prim` at a point on it.
WF_HD_INLINE Vec3f emitter_normal(const EmitterContext& ctx, uint32_t prim, Vec3f p) {
    if (emitter_is_sphere(ctx, prim)) {
        const Sphere& s = ctx.spheres[prim - ctx.num_triangles];
        return normalize(p - s.center) * emitter_normal_sign(ctx, prim);
    }
    const Triangle& t = ctx.triangles[prim];
    return normalize(cross(t.p1 - t.p0, t.p2 - t.p0));
}

// Uniform point on the primitive (density inv_area).
WF_HD_INLINE EmitterPoint sample_emitter_point(const EmitterContext& ctx, uint32_t prim, float u0, float u1) {
    EmitterPoint ep;
    if (emitter_is_sphere(ctx, prim)) {
        const Sphere& s = ctx.spheres[prim - ctx.num_triangles];
        Vec3f d = sample_uniform_sphere(u0, u1);
        SurfacePoint sp = surface_point_on_sphere(s, s.center + s.radius * d, false);
        ep.position = sp.p;
        ep.position_error = sp.p_error;
        ep.normal = d * emitter_normal_sign(ctx, prim);
        ep.inv_area = 1.0f / (4.0f * kPi * s.radius * s.radius);
        return ep;
    }
    const Triangle& t = ctx.triangles[prim];
    Vec3f e1 = t.p1 - t.p0, e2 = t.p2 - t.p0;
    Vec3f c = cross(e1, e2);
    float len = length(c);
    Vec2f b = sample_uniform_triangle(u0, u1);
    SurfacePoint sp = surface_point_on_triangle(t, b.x, b.y);  // p0 + b.x e1 + b.y e2, with its error
    ep.position = sp.p;
    ep.position_error = sp.p_error;
    ep.normal = c / len;
    ep.inv_area = 2.0f / len;
    ep.b1 = b.x;
    ep.b2 = b.y;
    return ep;
}

// Whether an area light's emission varies over its surface: an emissive texture, or a
// glTF material whose alpha may cover less than all of it.
WF_HD_INLINE bool area_emission_varies(const Light& area, const EmitterContext& ctx, uint32_t prim) {
    if (area.emissive_texture >= 0) return true;
    if (ctx.materials == nullptr || ctx.prims == nullptr) return false;
    const Material& m = ctx.materials[ctx.prims[prim].material];
    return m.type == MaterialType::GltfPbr && m.pbr.alpha_mode != AlphaMode::Opaque;
}

// Radiance an area light emits at barycentrics (b1, b2) of its primitive `prim`:
// Light::radiance, times its emissive texture's RGB there when it has one (only
// triangles do), times its glTF alpha coverage a there (materials/pbr_coverage.h): a
// point that alpha covers in part is the mixture a (surface) + (1 - a) (nothing), and
// only the surface emits. Every estimator reads emission here (a hit, a light sample,
// a particle), so they agree on it; illuminate<false> alone skips it, for scenes where it
// is Light::radiance anyway (no glTF material, app/device_scene.h checks). The emissive
// texture's alpha is not read: glTF's emission is RGB.
WF_HD_INLINE Vec3f area_radiance(const Light& area, const EmitterContext& ctx, uint32_t prim, float b1, float b2) {
    if (!area_emission_varies(area, ctx, prim)) return area.radiance;
    const bool sphere = emitter_is_sphere(ctx, prim);
    const uint32_t flags = ctx.prims != nullptr ? ctx.prims[prim].flags : 0u;
    Vec2f uv[2] = {Vec2f{0.0f, 0.0f}, Vec2f{0.0f, 0.0f}};  // spheres have no texture coordinates
    if (!sphere) triangle_uvs(ctx.shading, prim, flags, b1, b2, uv);
    Vec3f radiance = area.radiance;
    if (area.emissive_texture >= 0 && !sphere) {
        const Vec4f t = sample_texture(ctx.textures, area.emissive_texture, uv);
        radiance *= Vec3f(t.x, t.y, t.z);
    }
    if (ctx.materials != nullptr && ctx.prims != nullptr) {
        const Material& m = ctx.materials[ctx.prims[prim].material];
        if (m.type == MaterialType::GltfPbr) {
            const float color_alpha = sphere ? 1.0f : triangle_color(ctx.shading, prim, flags, b1, b2).w;
            radiance *= pbr_coverage(m.pbr, ctx.textures, uv, color_alpha);
        }
    }
    return radiance;
}

// Density of a particle starting uniformly on a disc covering the scene sphere.
WF_HD_INLINE float infinite_light_position_pdf_a(const EmitterContext& ctx) {
    float r = ctx.scene_sphere.radius;
    return concentric_disk_pdf_a() / (r * r);
}

// ---- Next-event estimation --------------------------------------------------------------
// (u0, u1): position on an area light, or direction for the environment.
// kVaryingEmission false: the caller knows no area light's emission varies (a scene
// without glTF materials, app/device_scene.h checks it), and the texture and coverage
// look-ups of area_radiance are left out of its code: inlined, their local array of UV
// sets gave every stage that samples lights a stack frame and spills (bench/NOTES.md,
// twelfth session).
template <bool kVaryingEmission = true>
WF_HD_INLINE DirectSample illuminate(const Light& light, const EmitterContext& ctx, Vec3f receiver,
                                     float u0, float u1) {
    DirectSample ds;
    ds.is_delta = light_is_delta(light);
    ds.is_infinite = light_is_infinite(light);
    switch (light.type) {
    case LightType::Area: {
        EmitterPoint ep = sample_emitter_point(ctx, light.prim, u0, u1);
        Vec3f to_light = ep.position - receiver;
        float dist2 = length_squared(to_light);
        if (!(dist2 > 0.0f)) return ds;
        ds.distance = sqrtf(dist2);
        ds.dir_to_light = to_light / ds.distance;
        float cos_light = dot(ep.normal, -ds.dir_to_light);
        if (cos_light < kEpsCosine) return ds;  // behind or grazing the emitting side
        ds.pdf_direct_w = ep.inv_area * dist2 / cos_light;
        ds.pdf_emission_w = ep.inv_area * cos_light * kInvPi;
        ds.cos_at_light = cos_light;
        if constexpr (kVaryingEmission) ds.radiance = area_radiance(light, ctx, light.prim, ep.b1, ep.b2);
        else ds.radiance = light.radiance;
        ds.light_point = SurfacePoint{ep.position, ep.position_error, ep.normal};
        return ds;
    }
    case LightType::Point:
    case LightType::Spot: {
        Vec3f to_light = light.position - receiver;
        float dist2 = length_squared(to_light);
        if (!(dist2 > 0.0f)) return ds;
        ds.distance = sqrtf(dist2);
        ds.dir_to_light = to_light / ds.distance;
        float falloff = 1.0f;
        ds.pdf_emission_w = uniform_sphere_pdf_w();
        if (light.type == LightType::Spot) {
            falloff = spot_falloff(light, dot(light.direction, -ds.dir_to_light));
            if (!(falloff > 0.0f)) return ds;  // outside the outer cone: black
            ds.pdf_emission_w = uniform_cone_pdf_w(light.cos_outer);
        }
        ds.pdf_direct_w = dist2;  // so that radiance * cos / pdf = I cos / d^2
        ds.cos_at_light = 1.0f;
        ds.radiance = light.radiance * falloff;
        ds.light_point = SurfacePoint{light.position, Vec3f(0.0f), -ds.dir_to_light};
        return ds;
    }
    case LightType::Directional: {
        ds.dir_to_light = -light.direction;
        ds.distance = kInfiniteLightDistance;
        ds.pdf_direct_w = 1.0f;
        ds.pdf_emission_w = infinite_light_position_pdf_a(ctx);
        ds.cos_at_light = 1.0f;
        ds.radiance = light.radiance;
        return ds;
    }
    case LightType::Environment: {
        if (ctx.environment_map.valid()) {
            EnvironmentSample s = sample_environment_map(ctx.environment_map, u0, u1);
            if (!(s.pdf_w > 0.0f)) return ds;
            ds.dir_to_light = s.dir;
            ds.distance = kInfiniteLightDistance;
            ds.pdf_direct_w = s.pdf_w;
            ds.pdf_emission_w = s.pdf_w * infinite_light_position_pdf_a(ctx);
            ds.cos_at_light = 1.0f;
            ds.radiance = light.radiance * s.texel;
            return ds;
        }
        ds.dir_to_light = sample_uniform_sphere(u0, u1);
        ds.distance = kInfiniteLightDistance;
        ds.pdf_direct_w = uniform_sphere_pdf_w();
        ds.pdf_emission_w = ds.pdf_direct_w * infinite_light_position_pdf_a(ctx);
        ds.cos_at_light = 1.0f;
        ds.radiance = environment_radiance_along(light, ds.dir_to_light);
        return ds;
    }
    }
    return ds;
}

// ---- Emitters hit by a ray --------------------------------------------------------------
// An area light's primitive `prim` hit at `hit_point`, barycentrics (b1, b2) of its 2nd and
// 3rd vertex (a triangle; spheres ignore them), by a ray travelling along `ray_dir`.
// Black when the ray arrives from behind the emitting side, or for a non-area light.
WF_HD_INLINE EmitterHit radiance_on_hit(const Light& area, const EmitterContext& ctx, uint32_t prim,
                                        Vec3f hit_point, float b1, float b2, Vec3f ray_dir) {
    EmitterHit h;
    if (area.type != LightType::Area) return h;
    float cos_light = dot(emitter_normal(ctx, prim, hit_point), -ray_dir);
    if (!(cos_light > 0.0f)) return h;
    float inv_area = emitter_inv_area(ctx, prim);
    h.radiance = area_radiance(area, ctx, prim, b1, b2);
    h.pdf_direct_a = inv_area;
    h.pdf_emission_w = inv_area * cos_hemisphere_pdf_w(cos_light);
    return h;
}

// Radiance of the environment seen along `ray_dir` (an escaped ray).
// pdf_direct_a is the solid-angle pdf of illuminate() choosing this direction.
WF_HD_INLINE EmitterHit environment_radiance(const Light& env, const EmitterContext& ctx, Vec3f ray_dir) {
    EmitterHit h;
    if (env.type != LightType::Environment) return h;
    if (ctx.environment_map.valid()) {
        EnvironmentLookup l = environment_map_lookup(ctx.environment_map, ray_dir);
        h.radiance = env.radiance * l.texel;
        h.pdf_direct_a = l.pdf_w;
        h.pdf_emission_w = l.pdf_w * infinite_light_position_pdf_a(ctx);
        return h;
    }
    h.radiance = environment_radiance_along(env, ray_dir);
    h.pdf_direct_a = uniform_sphere_pdf_w();
    h.pdf_emission_w = h.pdf_direct_a * infinite_light_position_pdf_a(ctx);
    return h;
}

// ---- Particle emission ------------------------------------------------------------------
// (u0, u1): direction, (u2, u3): position (SmallVCM's draw order: direction pair first).
// A light sub-path starts with throughput energy / (pick_prob * pdf_emission_w).
WF_HD_INLINE EmissionSample emit(const Light& light, const EmitterContext& ctx, float u0, float u1,
                                 float u2, float u3) {
    EmissionSample es;
    switch (light.type) {
    case LightType::Area: {
        EmitterPoint ep = sample_emitter_point(ctx, light.prim, u2, u3);
        Vec3f local = sample_cos_hemisphere(u0, u1);
        es.pdf_emission_w = ep.inv_area * cos_hemisphere_pdf_w(local.z);
        // A particle cannot be refused here; bias a grazing direction to a valid angle.
        local.z = fmaxf(local.z, kEpsCosine);
        es.origin = ep.position;
        es.origin_error = ep.position_error;
        es.origin_normal = ep.normal;
        es.dir = Frame::from_z(ep.normal).to_world(local);
        es.energy = area_radiance(light, ctx, light.prim, ep.b1, ep.b2) * local.z;
        es.pdf_direct_a = ep.inv_area;
        es.cos_light = local.z;
        return es;
    }
    case LightType::Point: {
        es.origin = light.position;
        es.dir = sample_uniform_sphere(u0, u1);
        es.energy = light.radiance;
        es.pdf_emission_w = uniform_sphere_pdf_w();
        es.pdf_direct_a = 1.0f;
        es.cos_light = 1.0f;
        return es;
    }
    case LightType::Spot: {
        // Uniform in the outer cone, where all the light goes; the falloff rides in the energy.
        Vec3f local = sample_uniform_cone(u0, u1, light.cos_outer);
        es.origin = light.position;
        es.dir = Frame::from_z(light.direction).to_world(local);
        es.energy = light.radiance * spot_falloff(light, local.z);
        es.pdf_emission_w = uniform_cone_pdf_w(light.cos_outer);
        es.pdf_direct_a = 1.0f;
        es.cos_light = 1.0f;
        return es;
    }
    case LightType::Directional:
    case LightType::Environment: {
        bool env = light.type == LightType::Environment;
        Vec3f d;
        float dir_pdf;
        // The particle travels along d: it comes from the environment seen looking along -d.
        if (env && ctx.environment_map.valid()) {
            EnvironmentSample s = sample_environment_map(ctx.environment_map, u0, u1);
            if (!(s.pdf_w > 0.0f)) return es;  // pdf 0: refused by the caller
            d = -s.dir;
            dir_pdf = s.pdf_w;
            es.energy = light.radiance * s.texel;
        } else {
            d = env ? sample_uniform_sphere(u0, u1) : light.direction;
            dir_pdf = env ? uniform_sphere_pdf_w() : 1.0f;
            es.energy = env ? environment_radiance_along(light, -d) : light.radiance;
        }
        Vec2f xy = sample_concentric_disk(u2, u3);
        Frame f = Frame::from_z(d);
        float r = ctx.scene_sphere.radius;
        es.origin = ctx.scene_sphere.center + r * (-d + f.x * xy.x + f.y * xy.y);
        es.dir = d;
        es.pdf_emission_w = dir_pdf * infinite_light_position_pdf_a(ctx);
        es.pdf_direct_a = dir_pdf;  // directional: 1 (delta); environment: solid angle
        es.cos_light = 1.0f;
        return es;
    }
    }
    return es;
}

}  // namespace wf
