// Flat scene records shared by the host loader, the BVH builder and the kernels.
// Every record is trivially copyable and addressed by a 32-bit index, so one
// memcpy moves an array to the GPU and the CPU backend uses the same layout.
#pragma once

#include <cstdint>

#include "engine/math.h"

namespace wf {

// Triangle with vertices in world space. The geometric normal is
// normalize(cross(p1 - p0, p2 - p0)); a loader that flips normals swaps p1 and p2.
struct Triangle {
    Vec3f p0, p1, p2;
};

// Sphere in world space. Its geometric normal points outward unless the
// primitive carries kPrimFlipNormal.
struct Sphere {
    Vec3f center;
    float radius = 1.0f;
};

enum PrimFlags : uint32_t {
    kPrimFlipNormal = 1u << 0,  // spheres: normal points inward (triangles are flipped at load time)
    // Triangles of a mesh with shading attributes (accel/shading_attributes.h): which of
    // them its vertices carry.
    kPrimHasNormals = 1u << 1,
    kPrimHasUvs = 1u << 2,
    kPrimHasUvs1 = 1u << 3,
    kPrimHasTangents = 1u << 4,
    kPrimHasColors = 1u << 5,
};

// Per-primitive data. Primitive ids: [0, num_triangles) are triangles,
// [num_triangles, num_triangles + num_spheres) are spheres.
struct PrimInfo {
    uint32_t material = 0;
    int32_t light = -1;  // index into the light array when the primitive emits, else -1
    uint32_t flags = 0;
};

// One flat material record, tagged with its model. The JSON types map onto it:
//   diffuse:          SmallVcm, kd
//   mirror:           SmallVcm, km, ior < 0 (Fresnel weight 1)
//   dielectric:       SmallVcm, km = 1, ior > 0 (full unpolarised Fresnel, reflect F, refract 1-F)
//   smallvcm:         SmallVcm, kd, ks, phong_exponent, km, ior as given
//   rtiow_lambertian: RtiowLambertian, kd = albedo
//   rtiow_metal:      RtiowMetal, ks = albedo and fuzz (> 0), or a mirror (km = albedo) at fuzz 0
//   rtiow_dielectric: RtiowDielectric, km = 1, ior (Schlick's Fresnel)
//   rough_conductor:  RoughConductor, km = F0 (reflectance at normal incidence), roughness
//   rough_dielectric: RoughDielectric, ior (inside; outside is 1), roughness
//   thin_dielectric:  ThinDielectric, ior (of the slab)
//   glTF materials:   GltfPbr, pbr, ior (KHR_materials_ior), two_sided = doubleSided
// materials/bsdf.h reads the SmallVcm and Rtiow* types, materials/microfacet_bsdf.h the
// microfacet ones; the fields a type does not name stay at their defaults.
enum class MaterialType : uint32_t {
    SmallVcm = 0,         // SmallVCM's model: Lambert + normalised Phong + Fresnel mirror + glass
    RtiowLambertian = 1,  // "Ray Tracing in One Weekend" (2016): normal + a point in the unit ball
    RtiowMetal = 2,       // its metal: mirror direction + fuzz * a point in the unit ball
    RtiowDielectric = 3,  // its glass: reflect with Schlick's probability, else refract
    GltfPbr = 4,          // glTF 2.0 metallic-roughness with its extensions (materials/gltf_bsdf.h)
    RoughConductor = 5,   // GGX conductor, Schlick's Fresnel from F0 (materials/microfacet_bsdf.h)
    RoughDielectric = 6,  // GGX dielectric interface (Walter et al. 2007), exact Fresnel
    ThinDielectric = 7,   // a thin smooth slab: mirror reflection and unbent transmission
};

// The types materials/microfacet_bsdf.h renders.
WF_HD_INLINE constexpr bool is_microfacet_material(MaterialType t) {
    return t == MaterialType::RoughConductor || t == MaterialType::RoughDielectric || t == MaterialType::ThinDielectric;
}
// Whether a material needs the dispatching BSDF (materials/surface_bsdf.h), not the lean
// Bsdf that SmallVCM's and the rtiow types share: the stages are instantiated for one or
// the other per scene (wavefront/scene_view.h SceneView::needs_surface_bsdf).
WF_HD_INLINE constexpr bool needs_surface_bsdf(MaterialType t) {
    return t == MaterialType::GltfPbr || is_microfacet_material(t);
}

enum class AlphaMode : uint32_t { Opaque = 0, Mask = 1, Blend = 2 };  // glTF alphaMode

enum class TextureWrap : uint32_t { Repeat = 0, ClampToEdge = 1, MirroredRepeat = 2 };  // glTF sampler wrapS/wrapT

// A texture image in the device's texel buffer: 8-bit RGBA, rows from the top.
struct TextureImage {
    uint64_t offset = 0;  // first texel (in texels) in the scene's texel array
    uint32_t width = 0, height = 0;
};

// A texture as one material slot uses it (glTF textureInfo with its texture's sampler):
// image, wrap modes, filtering, UV set, transform (KHR_texture_transform) and decoding.
struct TextureBinding {
    uint32_t image = 0;
    TextureWrap wrap_s = TextureWrap::Repeat, wrap_t = TextureWrap::Repeat;
    uint32_t nearest = 0;  // 1: nearest texel (glTF magFilter NEAREST), 0: bilinear
    uint32_t uv_set = 0;   // 0 or 1
    uint32_t srgb = 0;     // 1: colour data, decoded from sRGB to linear; 0: linear data
    // uv' = (m[0] u + m[1] v + m[2], m[3] u + m[4] v + m[5]): KHR_texture_transform's
    // translation * rotation * scale, identity by default.
    float transform[6] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
};

// The glTF metallic-roughness parameters of a GltfPbr material. Texture ids index
// HostScene::texture_bindings; -1 means none. A texture multiplies its factor.
struct PbrParams {
    Vec3f base_color{1.0f};       // linear; times baseColorTexture and COLOR_0
    float alpha = 1.0f;           // base colour alpha
    float metallic = 1.0f;        // times metallicRoughnessTexture.b
    float roughness = 1.0f;       // perceptual; alpha = roughness^2; times metallicRoughnessTexture.g
    float transmission = 0.0f;    // KHR_materials_transmission; times its texture's r
    float specular = 1.0f;        // KHR_materials_specular; times specularTexture.a
    Vec3f specular_color{1.0f};   // times specularColorTexture.rgb
    float normal_scale = 1.0f;    // normalTexture.scale
    float alpha_cutoff = 0.5f;    // alphaMode MASK
    AlphaMode alpha_mode = AlphaMode::Opaque;
    uint32_t thin_walled = 1;     // 0 with KHR_materials_volume (thickness > 0): refracts into a volume
    Vec3f attenuation_color{1.0f};        // KHR_materials_volume, as the file gives it
    float attenuation_distance = 1e30f;   // infinite by default: no absorption
    // Absorption coefficient inside the volume (per unit length, per channel):
    // -ln(attenuation_color) / attenuation_distance for a volume (thin_walled 0), else 0.
    // Every integrator attenuates segments inside the volume by exp(-sigma_a t) (materials/pbr_material.h).
    Vec3f sigma_a{0.0f};
    float clearcoat = 0.0f;              // KHR_materials_clearcoat factor; times clearcoatTexture.r
    float clearcoat_roughness = 0.0f;    // times clearcoatRoughnessTexture.g
    Vec3f sheen_color{0.0f};             // KHR_materials_sheen (linear); times sheenColorTexture.rgb
    float sheen_roughness = 0.0f;        // times sheenRoughnessTexture.a
    float clearcoat_normal_scale = 1.0f;  // clearcoatNormalTexture.scale
    int32_t base_color_texture = -1;
    int32_t metallic_roughness_texture = -1;
    int32_t normal_texture = -1;
    int32_t emissive_texture = -1;
    int32_t transmission_texture = -1;
    int32_t specular_texture = -1;
    int32_t specular_color_texture = -1;
    int32_t clearcoat_texture = -1;
    int32_t clearcoat_roughness_texture = -1;
    int32_t sheen_color_texture = -1;
    int32_t sheen_roughness_texture = -1;
    int32_t clearcoat_normal_texture = -1;  // the coat's own normal map (tangent space, as normal_texture)
};

struct Material {
    MaterialType type = MaterialType::SmallVcm;
    Vec3f kd{0.0f};             // diffuse reflectance
    Vec3f ks{0.0f};             // Phong (rtiow metal: fuzzy-lobe) reflectance
    Vec3f km{0.0f};             // mirror reflectance (scales the reflected lobe; refraction is 1-F, as SmallVCM)
    float phong_exponent = 1.0f;
    float ior = -1.0f;          // < 0: no refraction, mirror Fresnel weight 1
    uint32_t two_sided = 1;     // 0: SmallVCM one-sided surfaces (black from behind the geometric normal)
    float fuzz = 0.0f;          // rtiow metal: radius of the ball added to the mirror direction
    float roughness = 0.0f;     // microfacet types: perceptual, GGX alpha = roughness^2
    PbrParams pbr;              // GltfPbr (ior above is its KHR_materials_ior, 1.5 by default)
};

// The rtiow_* records, as the mapping above defines them.
inline Material rtiow_lambertian_material(Vec3f albedo) {
    Material m;
    m.type = MaterialType::RtiowLambertian;
    m.kd = albedo;
    return m;
}
inline Material rtiow_metal_material(Vec3f albedo, float fuzz) {
    Material m;
    m.type = MaterialType::RtiowMetal;
    m.fuzz = fuzz;
    if (fuzz > 0.0f) m.ks = albedo;
    else m.km = albedo;  // fuzz 0: a perfect mirror, a delta lobe
    return m;
}
inline Material rtiow_dielectric_material(float ior) {
    Material m;
    m.type = MaterialType::RtiowDielectric;
    m.km = Vec3f(1.0f);
    m.ior = ior;
    return m;
}

enum class LightType : uint32_t {
    Area = 0,         // emissive primitive (triangle or sphere), one-sided: emits on the normal side
    Point = 1,        // radiant intensity in W/sr
    Directional = 2,  // irradiance at normal incidence in W/m^2, light travels along `direction`
    Environment = 3,  // radiance from every direction: constant, a gradient from nadir to zenith, or an image
    Spot = 4,         // a point light shining into a cone: radiant intensity in W/sr times its falloff
};

struct Light {
    LightType type = LightType::Area;
    uint32_t prim = 0;  // Area: the emitting primitive id
    // Area on a triangle: a TextureBinding id (HostScene::texture_bindings) whose RGB
    // multiplies `radiance` at each point of the triangle (glTF emissiveTexture), or -1:
    // the light emits `radiance` uniformly. Kept here, not only in the material, so that
    // an untextured light knows it without reading its primitive's material.
    int32_t emissive_texture = -1;
    // Area/Environment: radiance (environment: its mean; area with an emissive texture: the
    // factor the texture multiplies); Point: intensity; Spot: intensity on its axis (inside
    // the inner cone); Directional: irradiance
    Vec3f radiance{0.0f};
    Vec3f position{0.0f};  // Point, Spot
    // Directional: unit direction the light travels in; Spot: the unit axis of its cone
    Vec3f direction{0.0f, 0.0f, -1.0f};
    // Environment: looking along the unit direction w, the radiance is
    // radiance + radiance_slope * dot(w, zenith) (materials/emitters.h), a gradient from
    // the nadir to the zenith. The default slope 0 is a constant environment. With an
    // image (HostScene::environment_map), radiance scales its texels (the scene's
    // "intensity") and the slope is 0.
    Vec3f radiance_slope{0.0f};
    Vec3f zenith{0.0f, 1.0f, 0.0f};
    // Spot: cosines of the inner and outer cone half-angles about `direction`
    // (cos_inner >= cos_outer). The intensity is full inside the inner cone, falls off
    // smoothly to 0 at the outer one (materials/emitters.h spot_falloff, glTF
    // KHR_lights_punctual's recommended curve) and is 0 beyond. Defaults: glTF's 0 and
    // 45 degrees.
    float cos_inner = 1.0f;
    float cos_outer = 0.70710678f;
};

// How lights are picked for next-event estimation and light sub-paths
// (materials/light_selection.h): in proportion to their power, or uniformly as SmallVCM.
enum class LightSelectionMode : uint8_t { Power, Uniform };

// Bounding sphere of the scene geometry; infinite lights use it (as SmallVCM does).
struct SceneSphere {
    Vec3f center{0.0f};
    float radius = 1.0f;
};

}  // namespace wf
