// glTF materials, textures, vertex attributes, cameras and lights as read by
// io/mesh_gltf.cpp and io/gltf_materials.cpp (read_gltf_scene) and adopted by the scene
// loader (load_scene of a .gltf), from small files each test writes itself. Bad input:
// gltf_bad_files_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/gltf_scene.h"
#include "io/scene_loader.h"
#include "tests/io/gltf_test_files.h"
#include "tests/io/mesh_test_util.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

using nlohmann::json;
using test::camera_doc;
using test::GltfDoc;
using test::kTexels;
using test::read_error;
using test::texels_png;

constexpr double kPi = 3.14159265358979323846;

// glTF sampler and filter enums (glTF 2.0, 5.26).
constexpr int kNearest = 9728, kLinear = 9729, kRepeat = 10497, kClamp = 33071, kMirror = 33648;


GltfScene read_full(const GltfDoc& d, const std::string& name) { return read_gltf_scene(d.write(name), true); }


void expect_vec(Vec3f a, Vec3f b, float tol = 1e-5f) { test::expect_near(a, b, tol); }

// ---- Materials and textures --------------------------------------------------------------

TEST(GltfSceneMaterials, FactorsAndTextureBindingsLandInTheMaterial) {
    GltfDoc d;
    const int uv1 = d.floats({0, 0, 1, 0, 1, 1, 0, 1}, "VEC2");
    d.primitive()["attributes"]["TEXCOORD_1"] = uv1;
    const int colour_image = d.image(texels_png());
    const int data_image = d.image(test::png_rgba(1, 1, {1, 2, 3, 4}));
    d.g["samplers"] = json::array({{{"wrapS", kClamp}, {"wrapT", kMirror}, {"magFilter", kNearest}},
                                   {{"wrapS", kMirror}, {"wrapT", kRepeat}, {"magFilter", kLinear}}});
    const int base_tex = d.texture(colour_image, 0);
    const int mr_tex = d.texture(data_image, 1);
    const int normal_tex = d.texture(data_image);  // no sampler: repeat, linear
    d.primitive()["material"] = d.material({{"name", "painted"},
                                            {"doubleSided", true},
                                            {"alphaMode", "MASK"},
                                            {"alphaCutoff", 0.3},
                                            {"emissiveFactor", {1.0, 0.5, 0.25}},
                                            {"normalTexture", {{"index", normal_tex}, {"scale", 0.5}}},
                                            {"pbrMetallicRoughness",
                                             {{"baseColorFactor", {0.5, 0.25, 0.125, 0.75}},
                                              {"metallicFactor", 0.3},
                                              {"roughnessFactor", 0.6},
                                              {"baseColorTexture", {{"index", base_tex}, {"texCoord", 1}}},
                                              {"metallicRoughnessTexture", {{"index", mr_tex}}}}},
                                            {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 4}}}}}});
    d.g["extensionsUsed"] = {"KHR_materials_emissive_strength"};
    GltfScene s = read_full(d, "factors.gltf");
    ASSERT_EQ(s.materials.size(), 1u);
    const Material& m = s.materials[0];
    EXPECT_EQ(m.type, MaterialType::GltfPbr);
    EXPECT_EQ(s.material_names[0], "painted");
    EXPECT_EQ(m.two_sided, 1u);
    EXPECT_FLOAT_EQ(m.ior, 1.5f);  // glTF's default
    const PbrParams& p = m.pbr;
    expect_vec(p.base_color, Vec3f(0.5f, 0.25f, 0.125f));
    EXPECT_FLOAT_EQ(p.alpha, 0.75f);
    EXPECT_FLOAT_EQ(p.metallic, 0.3f);
    EXPECT_FLOAT_EQ(p.roughness, 0.6f);
    EXPECT_EQ(p.alpha_mode, AlphaMode::Mask);
    EXPECT_FLOAT_EQ(p.alpha_cutoff, 0.3f);
    EXPECT_FLOAT_EQ(p.normal_scale, 0.5f);
    ASSERT_EQ(s.material_emission.size(), 1u);
    expect_vec(s.material_emission[0], Vec3f(4.0f, 2.0f, 1.0f));  // emissiveFactor x emissiveStrength

    ASSERT_EQ(s.texture_images.size(), 2u) << "two images, the second shared by two textures, decoded once";
    ASSERT_EQ(s.texture_bindings.size(), 3u);
    ASSERT_GE(p.base_color_texture, 0);
    ASSERT_GE(p.metallic_roughness_texture, 0);
    ASSERT_GE(p.normal_texture, 0);
    const TextureBinding& base = s.texture_bindings[size_t(p.base_color_texture)];
    const TextureBinding& mr = s.texture_bindings[size_t(p.metallic_roughness_texture)];
    const TextureBinding& normal = s.texture_bindings[size_t(p.normal_texture)];
    EXPECT_EQ(base.srgb, 1u) << "base colour is sRGB-encoded colour (glTF 2.0, 3.9.2)";
    EXPECT_EQ(mr.srgb, 0u) << "metallic-roughness is linear data";
    EXPECT_EQ(normal.srgb, 0u) << "a normal map is linear data";
    EXPECT_EQ(base.uv_set, 1u);
    EXPECT_EQ(mr.uv_set, 0u);
    EXPECT_EQ(base.wrap_s, TextureWrap::ClampToEdge);
    EXPECT_EQ(base.wrap_t, TextureWrap::MirroredRepeat);
    EXPECT_EQ(base.nearest, 1u);
    EXPECT_EQ(mr.wrap_s, TextureWrap::MirroredRepeat);
    EXPECT_EQ(mr.wrap_t, TextureWrap::Repeat);
    EXPECT_EQ(mr.nearest, 0u);
    EXPECT_EQ(normal.wrap_s, TextureWrap::Repeat);
    EXPECT_EQ(normal.wrap_t, TextureWrap::Repeat);
    EXPECT_EQ(normal.nearest, 0u);
    EXPECT_EQ(mr.image, normal.image);
    EXPECT_NE(base.image, mr.image);
    for (const TextureBinding* b : {&base, &mr, &normal}) {
        const float identity[6] = {1, 0, 0, 0, 1, 0};
        for (int i = 0; i < 6; ++i) EXPECT_EQ(b->transform[i], identity[i]) << i;
    }
    // The decoded texels: exactly the PNG's codes, rows from the top.
    const HostTextureImage& img = s.texture_images[base.image];
    ASSERT_EQ(img.width, 2u);
    ASSERT_EQ(img.height, 2u);
    EXPECT_EQ(img.rgba, kTexels);
    EXPECT_EQ(s.texture_images[mr.image].rgba, (std::vector<uint8_t>{1, 2, 3, 4}));
}

TEST(GltfSceneMaterials, DefaultsWithoutAnyFactor) {
    GltfDoc d;
    d.primitive()["material"] = d.material(json::object());
    GltfScene s = read_full(d, "defaults.gltf");
    ASSERT_EQ(s.materials.size(), 1u);
    const PbrParams& p = s.materials[0].pbr;
    expect_vec(p.base_color, Vec3f(1.0f));
    EXPECT_EQ(p.alpha, 1.0f);
    EXPECT_EQ(p.metallic, 1.0f);
    EXPECT_EQ(p.roughness, 1.0f);
    EXPECT_EQ(p.alpha_mode, AlphaMode::Opaque);
    EXPECT_EQ(p.alpha_cutoff, 0.5f);
    EXPECT_EQ(s.materials[0].two_sided, 0u);
    EXPECT_EQ(p.base_color_texture, -1);
    EXPECT_EQ(p.transmission, 0.0f);
    EXPECT_EQ(p.specular, 1.0f);
    EXPECT_EQ(p.thin_walled, 1u);
    expect_vec(s.material_emission[0], Vec3f(0.0f));
}

// KHR_texture_transform: uv' = T(offset) R(rotation) S(scale) uv, the rotation in the
// direction the KHR_texture_transform sample model's green marker shows (glTF issue
// #1563: "counter-clockwise" as drawn in UV space, v down): u' = c sx u + s sy v + ox,
// v' = -s sx u + c sy v + oy. The non-uniform scale tells T R S from T S R.
TEST(GltfSceneMaterials, TextureTransformOffsetRotationScaleAndTexCoord) {
    GltfDoc d;
    d.primitive()["attributes"]["TEXCOORD_1"] = d.floats({0, 0, 1, 0, 1, 1, 0, 1}, "VEC2");
    const int tex = d.texture(d.image(texels_png()));
    const double rot = 0.5, sx = 2.0, sy = 3.0, ox = 0.25, oy = -0.5;
    d.primitive()["material"] = d.material(
        {{"pbrMetallicRoughness",
          {{"baseColorTexture",
            {{"index", tex},
             {"texCoord", 0},
             {"extensions",
              {{"KHR_texture_transform", {{"offset", {ox, oy}}, {"rotation", rot}, {"scale", {sx, sy}}, {"texCoord", 1}}}}}}}}}});
    d.g["extensionsUsed"] = {"KHR_texture_transform"};
    GltfScene s = read_full(d, "transform.gltf");
    ASSERT_EQ(s.texture_bindings.size(), 1u);
    const TextureBinding& b = s.texture_bindings[0];
    EXPECT_EQ(b.uv_set, 1u) << "the extension's texCoord overrides the textureInfo's";
    const double c = std::cos(rot), sn = std::sin(rot);
    const double expected[6] = {c * sx, sn * sy, ox, -sn * sx, c * sy, oy};
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(b.transform[i], expected[i], 1e-6) << "transform[" << i << "]";
    EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
}

TEST(GltfSceneMaterials, IorTransmissionSpecularVolumeExtensions) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material(
        {{"pbrMetallicRoughness", {{"metallicFactor", 0.0}}},
         {"extensions",
          {{"KHR_materials_ior", {{"ior", 1.33}}},
           {"KHR_materials_transmission", {{"transmissionFactor", 0.8}, {"transmissionTexture", {{"index", tex}}}}},
           {"KHR_materials_specular",
            {{"specularFactor", 0.4},
             {"specularColorFactor", {0.9, 0.8, 0.7}},
             {"specularTexture", {{"index", tex}}},
             {"specularColorTexture", {{"index", tex}, {"texCoord", 0}}}}},
           {"KHR_materials_volume",
            {{"thicknessFactor", 0.1}, {"attenuationColor", {0.5, 0.6, 0.7}}, {"attenuationDistance", 2.0}}}}}});
    d.primitive()["material"] = 0;
    d.g["extensionsUsed"] = {"KHR_materials_ior", "KHR_materials_transmission", "KHR_materials_specular",
                             "KHR_materials_volume"};
    GltfScene s = read_full(d, "extensions.gltf");
    ASSERT_EQ(s.materials.size(), 1u);
    const Material& m = s.materials[0];
    const PbrParams& p = m.pbr;
    EXPECT_FLOAT_EQ(m.ior, 1.33f);
    EXPECT_FLOAT_EQ(p.transmission, 0.8f);
    EXPECT_FLOAT_EQ(p.specular, 0.4f);
    expect_vec(p.specular_color, Vec3f(0.9f, 0.8f, 0.7f));
    EXPECT_EQ(p.thin_walled, 0u) << "thicknessFactor > 0: a volume boundary";
    expect_vec(p.attenuation_color, Vec3f(0.5f, 0.6f, 0.7f));
    EXPECT_FLOAT_EQ(p.attenuation_distance, 2.0f);
    ASSERT_GE(p.transmission_texture, 0);
    ASSERT_GE(p.specular_texture, 0);
    ASSERT_GE(p.specular_color_texture, 0);
    EXPECT_EQ(s.texture_bindings[size_t(p.transmission_texture)].srgb, 0u) << "transmission is linear data";
    EXPECT_EQ(s.texture_bindings[size_t(p.specular_texture)].srgb, 0u) << "specular strength is linear data";
    EXPECT_EQ(s.texture_bindings[size_t(p.specular_color_texture)].srgb, 1u) << "specular colour is sRGB colour";
    EXPECT_EQ(s.texture_images.size(), 1u) << "one image for three textures";
    // sigma_a = -ln(attenuationColor) / attenuationDistance, rendered: no warning.
    expect_vec(p.sigma_a, Vec3f(-std::log(0.5f) / 2.0f, -std::log(0.6f) / 2.0f, -std::log(0.7f) / 2.0f));
    for (const std::string& w : s.warnings) EXPECT_EQ(w.find("KHR_materials_volume"), std::string::npos) << w;
    // No distance (infinite), or a thin wall (thickness 0): no absorption.
    d.g["materials"][0]["extensions"]["KHR_materials_volume"].erase("attenuationDistance");
    expect_vec(read_full(d, "clear_volume.gltf").materials[0].pbr.sigma_a, Vec3f(0.0f));
    d.g["materials"][0]["extensions"]["KHR_materials_volume"] = {{"attenuationColor", {0.5, 0.6, 0.7}},
                                                                 {"attenuationDistance", 2.0}};
    expect_vec(read_full(d, "thin_absorbing.gltf").materials[0].pbr.sigma_a, Vec3f(0.0f));

    // Thickness 0 (the default): thin-walled.
    d.g["materials"][0]["extensions"]["KHR_materials_volume"] = json::object();
    EXPECT_EQ(read_full(d, "thin.gltf").materials[0].pbr.thin_walled, 1u);
    // ior 0 is the extension's "infinite" index: a Fresnel of 1, stood for by a huge ior.
    d.g["materials"][0]["extensions"]["KHR_materials_ior"]["ior"] = 0;
    EXPECT_GT(read_full(d, "ior0.gltf").materials[0].ior, 100.0f);
}

TEST(GltfSceneMaterials, ClearcoatAndSheenExtensions) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material(
        {{"extensions",
          {{"KHR_materials_clearcoat",
            {{"clearcoatFactor", 0.8},
             {"clearcoatRoughnessFactor", 0.3},
             {"clearcoatTexture", {{"index", tex}}},
             {"clearcoatRoughnessTexture", {{"index", tex}}}}},
           {"KHR_materials_sheen",
            {{"sheenColorFactor", {0.9, 0.5, 0.2}},
             {"sheenRoughnessFactor", 0.4},
             {"sheenColorTexture", {{"index", tex}}},
             {"sheenRoughnessTexture", {{"index", tex}}}}}}}});
    d.g["extensionsUsed"] = {"KHR_materials_clearcoat", "KHR_materials_sheen"};
    GltfScene s = read_full(d, "layers.gltf");
    const PbrParams& p = s.materials[0].pbr;
    EXPECT_FLOAT_EQ(p.clearcoat, 0.8f);
    EXPECT_FLOAT_EQ(p.clearcoat_roughness, 0.3f);
    expect_vec(p.sheen_color, Vec3f(0.9f, 0.5f, 0.2f));
    EXPECT_FLOAT_EQ(p.sheen_roughness, 0.4f);
    ASSERT_GE(p.clearcoat_texture, 0);
    ASSERT_GE(p.clearcoat_roughness_texture, 0);
    ASSERT_GE(p.sheen_color_texture, 0);
    ASSERT_GE(p.sheen_roughness_texture, 0);
    EXPECT_EQ(s.texture_bindings[size_t(p.clearcoat_texture)].srgb, 0u);
    EXPECT_EQ(s.texture_bindings[size_t(p.sheen_color_texture)].srgb, 1u) << "sheen colour is sRGB colour";
    EXPECT_EQ(s.texture_bindings[size_t(p.sheen_roughness_texture)].srgb, 0u);
    EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
    EXPECT_EQ(p.clearcoat_normal_texture, -1);
    // Defaults: no coat, black sheen. clearcoatNormalTexture is a linear binding with its
    // texCoord and scale (1 by default).
    d.g["materials"][0]["extensions"] = {
        {"KHR_materials_clearcoat", {{"clearcoatNormalTexture", {{"index", tex}, {"texCoord", 1}}}}},
        {"KHR_materials_sheen", json::object()}};
    d.primitive()["attributes"]["TEXCOORD_1"] = d.floats({0, 0, 1, 0, 1, 1, 0, 1}, "VEC2");
    GltfScene defaults = read_full(d, "layer_defaults.gltf");
    EXPECT_EQ(defaults.materials[0].pbr.clearcoat, 0.0f);
    expect_vec(defaults.materials[0].pbr.sheen_color, Vec3f(0.0f));
    EXPECT_TRUE(defaults.warnings.empty()) << defaults.warnings[0];
    const int32_t coat_normal = defaults.materials[0].pbr.clearcoat_normal_texture;
    ASSERT_GE(coat_normal, 0);
    EXPECT_EQ(defaults.texture_bindings[size_t(coat_normal)].srgb, 0u);
    EXPECT_EQ(defaults.texture_bindings[size_t(coat_normal)].uv_set, 1u);
    EXPECT_EQ(defaults.materials[0].pbr.clearcoat_normal_scale, 1.0f);
    d.g["materials"][0]["extensions"]["KHR_materials_clearcoat"]["clearcoatNormalTexture"]["scale"] = 0.25;
    EXPECT_EQ(read_full(d, "coat_scale.gltf").materials[0].pbr.clearcoat_normal_scale, 0.25f);
    d.g["materials"][0]["extensions"]["KHR_materials_clearcoat"]["clearcoatNormalTexture"]["scale"] = "big";
    EXPECT_CONTAINS(read_error(d, "coat_bad_scale.gltf"), ": /materials/0/extensions/KHR_materials_clearcoat/clearcoatNormalTexture/scale: not a finite number");
}

// emissiveTexture: an sRGB colour binding of its own (texCoord and KHR_texture_transform as
// any texture), which the area lights of the material's triangles carry with the factor.
// A texture under a black factor makes no light (glTF: emission = factor x texture).
TEST(GltfSceneMaterials, EmissiveTextureIsAnSrgbBindingThatTheAreaLightsCarry) {
    GltfDoc d;
    d.primitive()["attributes"]["TEXCOORD_1"] = d.floats({0, 0, 1, 0, 1, 1, 0, 1}, "VEC2");
    const int tex = d.texture(d.image(texels_png()));
    const int lit = d.material(
        {{"emissiveFactor", {1.0, 0.5, 0.25}},
         {"emissiveTexture", {{"index", tex}, {"texCoord", 1}, {"extensions", {{"KHR_texture_transform", {{"offset", {0.5, 0}}}}}}}},
         {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 2}}}}}});
    const int dark = d.material({{"emissiveTexture", {{"index", tex}}}});  // emissiveFactor defaults to black
    d.primitive()["material"] = lit;
    d.g["meshes"].push_back(d.g["meshes"][0]);
    d.g["meshes"][1]["primitives"][0]["material"] = dark;
    d.g["nodes"].push_back({{"mesh", 1}, {"translation", {0, 0, -1}}});
    d.g["scenes"][0]["nodes"] = {0, 1};
    d.g["extensionsUsed"] = {"KHR_materials_emissive_strength", "KHR_texture_transform"};
    const std::string path = d.write("emissive_texture.gltf");
    SceneLoadStats stats;
    HostScene scene = load_scene(path, &stats);
    for (const std::string& w : stats.warnings) EXPECT_EQ(w.find("emissive"), std::string::npos) << w;
    const uint32_t lit_material = uint32_t(lit) + 1, dark_material = uint32_t(dark) + 1;  // 0: glTF's default material
    const PbrParams& p = scene.materials[lit_material].pbr;
    ASSERT_GE(p.emissive_texture, 0);
    const TextureBinding& b = scene.texture_bindings[size_t(p.emissive_texture)];
    EXPECT_EQ(b.srgb, 1u) << "emissiveTexture is sRGB-encoded colour (glTF 2.0, 3.9.5)";
    EXPECT_EQ(b.uv_set, 1u);
    EXPECT_FLOAT_EQ(b.transform[2], 0.5f) << "KHR_texture_transform's offset";
    EXPECT_EQ(scene.texture_images[b.image].rgba, kTexels);
    EXPECT_GE(scene.materials[dark_material].pbr.emissive_texture, 0) << "read, though it emits nothing";

    ASSERT_EQ(scene.lights.size(), 2u) << "the lit square's two triangles; the dark one makes no light, and the file "
                                          "gets no environment since it has lights";
    for (const Light& l : scene.lights) {
        EXPECT_EQ(l.type, LightType::Area);
        EXPECT_EQ(scene.prims[l.prim].material, lit_material);
        expect_vec(l.radiance, Vec3f(2.0f, 1.0f, 0.5f));  // factor x strength; the texture multiplies it where sampled
        EXPECT_EQ(l.emissive_texture, p.emissive_texture);
    }
    for (const PrimInfo& prim : scene.prims)
        if (prim.material == dark_material) EXPECT_EQ(prim.light, -1);
}

// ---- Vertex attributes --------------------------------------------------------------------

TEST(GltfSceneAttributes, TangentColourAndSecondUvSetAreRead) {
    GltfDoc d;
    d.primitive()["attributes"]["TANGENT"] =
        d.floats({1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, -1, 0, 2, 0, -1}, "VEC4");  // unnormalised, w -1 on two
    d.primitive()["attributes"]["COLOR_0"] =
        d.unsigned_bytes({255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 51, 102, 153, 204}, "VEC4", true);
    d.primitive()["attributes"]["TEXCOORD_1"] = d.unsigned_shorts({0, 0, 65535, 0, 65535, 65535, 0, 32768}, "VEC2", true);
    GltfScene s = read_gltf_scene(d.write("attributes.gltf"), true);
    ASSERT_EQ(s.meshes.size(), 1u);
    const IndexedMesh& m = s.meshes[0];
    ASSERT_EQ(m.tangents.size(), 4u);
    ASSERT_EQ(m.colors.size(), 4u);
    ASSERT_EQ(m.uvs1.size(), 4u);
    ASSERT_EQ(m.uvs.size(), 4u);
    const float t[4][4] = {{1, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, -1}, {0, 1, 0, -1}};
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(m.tangents[size_t(i)].x, t[i][0], 1e-6f) << i;
        EXPECT_NEAR(m.tangents[size_t(i)].y, t[i][1], 1e-6f) << i;
        EXPECT_NEAR(m.tangents[size_t(i)].z, t[i][2], 1e-6f) << i;
        EXPECT_EQ(m.tangents[size_t(i)].w, t[i][3]) << i;
    }
    // Normalised unsigned bytes: code / 255.
    EXPECT_FLOAT_EQ(m.colors[1].y, 1.0f);
    EXPECT_FLOAT_EQ(m.colors[1].w, 128.0f / 255.0f);
    EXPECT_FLOAT_EQ(m.colors[3].x, 0.2f);
    EXPECT_FLOAT_EQ(m.colors[3].y, 0.4f);
    EXPECT_FLOAT_EQ(m.colors[3].z, 0.6f);
    EXPECT_FLOAT_EQ(m.colors[3].w, 0.8f);
    // Normalised unsigned shorts: code / 65535.
    EXPECT_FLOAT_EQ(m.uvs1[2].x, 1.0f);
    EXPECT_FLOAT_EQ(m.uvs1[2].y, 1.0f);
    EXPECT_FLOAT_EQ(m.uvs1[3].y, 32768.0f / 65535.0f);
    EXPECT_FLOAT_EQ(m.uvs[0].y, 1.0f);  // TEXCOORD_0 as written
}

TEST(GltfSceneAttributes, VertexColourVec3FloatHasAlphaOne) {
    GltfDoc d;
    d.primitive()["attributes"]["COLOR_0"] = d.floats({0.1f, 0.2f, 0.3f, 1, 1, 1, 0, 0, 0, 0.5f, 0.5f, 0.5f}, "VEC3");
    GltfScene s = read_gltf_scene(d.write("rgb.gltf"), true);
    ASSERT_EQ(s.meshes[0].colors.size(), 4u);
    EXPECT_FLOAT_EQ(s.meshes[0].colors[0].x, 0.1f);
    EXPECT_FLOAT_EQ(s.meshes[0].colors[0].z, 0.3f);
    EXPECT_EQ(s.meshes[0].colors[0].w, 1.0f);
}

// A node turned a quarter about +z: positions, normals and tangents turn with it (the
// tangent +x becomes +y); a mirror (scale -1 in x) flips the bitangent sign w.
TEST(GltfSceneAttributes, TangentsFollowTheNodeTransform) {
    GltfDoc d;
    d.primitive()["attributes"]["TANGENT"] = d.floats({1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}, "VEC4");
    d.primitive()["attributes"]["NORMAL"] = d.floats({0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
    const double h = std::sqrt(0.5);
    d.g["nodes"][0]["rotation"] = {0, 0, h, h};
    GltfScene s = read_gltf_scene(d.write("turned.gltf"), true);
    const IndexedMesh& m = s.meshes[0];
    expect_vec(m.positions[1], Vec3f(0, 1, 0));
    expect_vec(Vec3f(m.tangents[0].x, m.tangents[0].y, m.tangents[0].z), Vec3f(0, 1, 0));
    EXPECT_EQ(m.tangents[0].w, 1.0f);
    expect_vec(m.normals[0], Vec3f(0, 0, 1));

    d.g["nodes"][0].erase("rotation");
    d.g["nodes"][0]["scale"] = {-1, 1, 1};
    GltfScene mirrored = read_gltf_scene(d.write("mirrored.gltf"), true);
    expect_vec(Vec3f(mirrored.meshes[0].tangents[0].x, mirrored.meshes[0].tangents[0].y, mirrored.meshes[0].tangents[0].z),
               Vec3f(-1, 0, 0));
    EXPECT_EQ(mirrored.meshes[0].tangents[0].w, -1.0f);
}

// ---- Cameras ------------------------------------------------------------------------------

TEST(GltfSceneCameras, NodeTransformGivesPositionForwardUpAndFov) {
    GltfScene s = read_full(camera_doc(2.0), "camera.gltf");
    ASSERT_EQ(s.cameras.size(), 1u);
    const CameraDesc& c = s.cameras[0].desc;
    expect_vec(c.position, Vec3f(11, 2, 3));
    expect_vec(normalize(c.forward), Vec3f(-1, 0, 0));
    expect_vec(normalize(c.up), Vec3f(0, 1, 0));
    EXPECT_NEAR(c.fov_y_degrees, 0.5 * 180.0 / kPi, 1e-4);
    EXPECT_FLOAT_EQ(s.cameras[0].aspect_ratio, 2.0f);
}

TEST(GltfSceneCameras, TheFileCameraIsTheScenesAndItsAspectSetsTheFilmHeight) {
    const std::string path = camera_doc(2.0).write("camera_scene.gltf");
    HostScene scene = load_scene(path);
    expect_vec(scene.camera.position, Vec3f(11, 2, 3));
    expect_vec(normalize(scene.camera.forward), Vec3f(-1, 0, 0));
    EXPECT_NEAR(scene.camera.fov_y_degrees, 0.5 * 180.0 / kPi, 1e-4);
    EXPECT_EQ(scene.settings.height * 2, scene.settings.width) << scene.settings.width << " x " << scene.settings.height;
    EXPECT_EQ(scene.settings.tonemap, "pbr-neutral");
    // No aspect ratio: the film keeps its default shape.
    HostScene free_aspect = load_scene(camera_doc(0.0).write("camera_free.gltf"));
    EXPECT_EQ(free_aspect.settings.width, HostScene().settings.width);
    EXPECT_EQ(free_aspect.settings.height, HostScene().settings.height);
}

// xmag and ymag are the half-width and half-height of the view: the view is 2 ymag tall,
// and xmag / ymag shapes the film as a perspective camera's aspectRatio does.
TEST(GltfSceneCameras, OrthographicGivesTheViewHeightAndTheAspectRatio) {
    GltfDoc d = camera_doc(1.0);
    d.g["cameras"][0] = {{"type", "orthographic"}, {"orthographic", {{"xmag", 2}, {"ymag", 0.5}, {"znear", 0.1}, {"zfar", 10}}}};
    GltfScene s = read_full(d, "ortho.gltf");
    EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
    ASSERT_EQ(s.cameras.size(), 1u);
    const CameraDesc& c = s.cameras[0].desc;
    EXPECT_EQ(c.ortho_height, 1.0f);
    EXPECT_FLOAT_EQ(s.cameras[0].aspect_ratio, 4.0f);
    expect_vec(c.position, Vec3f(11, 2, 3));
    expect_vec(normalize(c.forward), Vec3f(-1, 0, 0));
    HostScene scene = load_scene(d.write("ortho_scene.gltf"));
    EXPECT_EQ(scene.camera.ortho_height, 1.0f);
    EXPECT_EQ(scene.settings.height * 4, scene.settings.width);

    for (const char* key : {"xmag", "ymag"})
        for (double bad : {0.0, -1.0, 1e-12}) {  // 1e-12: below float resolution at (11, 2, 3)
            GltfDoc b = d;
            b.g["cameras"][0]["orthographic"][key] = bad;
            EXPECT_CONTAINS(read_error(b, "ortho_bad.gltf"),
                            std::string(": /nodes/2/camera: camera 0 (/cameras/0/orthographic/") + key + "): ");
        }
}

// ---- KHR_lights_punctual ----------------------------------------------------------------------

GltfDoc lights_doc() {
    GltfDoc d;
    const double h = std::sqrt(0.5);
    d.g["extensionsUsed"] = {"KHR_lights_punctual"};
    d.g["extensions"]["KHR_lights_punctual"]["lights"] =
        json::array({{{"type", "point"}, {"color", {1.0, 0.5, 0.25}}, {"intensity", 5.0}},
                     {{"type", "directional"}, {"intensity", 3.0}},
                     {{"type", "spot"}, {"color", {0.5, 1.0, 1.0}}, {"intensity", 2.0},
                      {"spot", {{"innerConeAngle", 0.25}, {"outerConeAngle", 0.5}}}},
                     {{"type", "spot"}, {"spot", json::object()}}});  // glTF's defaults: intensity 1, cone 0 to pi/4
    auto light = [](int i) { return json{{"KHR_lights_punctual", {{"light", i}}}}; };
    d.g["nodes"].push_back({{"translation", {0, 1, 0}}, {"children", {2}}});                       // 1
    d.g["nodes"].push_back({{"translation", {0, 3, 0}}, {"extensions", light(0)}});                // 2: point at (0, 4, 0)
    d.g["nodes"].push_back({{"rotation", {-h, 0, 0, h}}, {"extensions", light(1)}});               // 3: -90 deg about x
    // 5 under 1: a spot at (5, 6, 5) turned +90 degrees about y (-z becomes -x)
    d.g["nodes"].push_back({{"translation", {5, 5, 5}}, {"rotation", {0, h, 0, h}}, {"extensions", light(2)}});
    d.g["nodes"][1]["children"].push_back(4);
    d.g["nodes"].push_back({{"extensions", light(3)}});                                            // 5: default spot
    d.g["scenes"][0]["nodes"] = {0, 1, 3, 5};
    return d;
}

TEST(GltfSceneLights, PointDirectionalAndSpotWithNodeTransforms) {
    const std::string path = lights_doc().write("lights.gltf");
    GltfScene s = read_gltf_scene(path, true);
    ASSERT_EQ(s.lights.size(), 4u);
    const Light& point = s.lights[0];
    EXPECT_EQ(point.type, LightType::Point);
    expect_vec(point.position, Vec3f(0, 4, 0));
    expect_vec(point.radiance, Vec3f(5.0f, 2.5f, 1.25f));  // colour x intensity
    // Depth-first node order: node 1's children (point, spot), node 3 (sun), node 5 (spot).
    const Light& sun = s.lights[2];
    EXPECT_EQ(sun.type, LightType::Directional);
    expect_vec(sun.direction, Vec3f(0, -1, 0));  // the node's -z turned -90 degrees about x: straight down
    expect_vec(sun.radiance, Vec3f(3.0f));
    const Light& spot = s.lights[1];
    EXPECT_EQ(spot.type, LightType::Spot);
    expect_vec(spot.position, Vec3f(5, 6, 5));  // the parent's translation added
    expect_vec(spot.direction, Vec3f(-1, 0, 0));
    expect_vec(spot.radiance, Vec3f(1.0f, 2.0f, 2.0f));  // candela as W/sr, colour x intensity
    EXPECT_NEAR(spot.cos_inner, std::cos(0.25), 1e-6);
    EXPECT_NEAR(spot.cos_outer, std::cos(0.5), 1e-6);
    const Light& plain = s.lights[3];
    EXPECT_EQ(plain.type, LightType::Spot);
    expect_vec(plain.position, Vec3f(0, 0, 0));
    expect_vec(plain.direction, Vec3f(0, 0, -1));
    expect_vec(plain.radiance, Vec3f(1.0f));
    EXPECT_EQ(plain.cos_inner, 1.0f);
    EXPECT_NEAR(plain.cos_outer, std::sqrt(0.5), 1e-6);
    for (const std::string& w : s.warnings) {
        EXPECT_EQ(w.rfind(path + ": ", 0), 0u) << w;
        EXPECT_EQ(w.find("spot"), std::string::npos) << w;  // spot lights are rendered now
    }

    // Through load_scene: the lights are the scene's (no neutral environment added), the
    // warnings reach SceneLoadStats.
    SceneLoadStats stats;
    HostScene scene = load_scene(path, &stats);
    size_t points = 0, suns = 0, spot_lights = 0, environments = 0;
    for (const Light& l : scene.lights) {
        points += l.type == LightType::Point;
        suns += l.type == LightType::Directional;
        spot_lights += l.type == LightType::Spot;
        environments += l.type == LightType::Environment;
    }
    EXPECT_EQ(points, 1u);
    EXPECT_EQ(suns, 1u);
    EXPECT_EQ(spot_lights, 2u);
    EXPECT_EQ(environments, 0u);
    EXPECT_TRUE(stats.warnings.empty());
}

TEST(GltfSceneLights, APunctualLightTooStrongForFloatIsAnErrorNamingIt) {
    // Four lights: 4 x 4 pi x intensity must stay <= 2^96 (a light path's start), so 1e30 cd fails.
    GltfDoc d = lights_doc();
    d.g["extensions"]["KHR_lights_punctual"]["lights"][0]["intensity"] = 1e30;
    const std::string path = d.write("strong.gltf");
    try {
        load_scene(path);
        ADD_FAILURE() << "a 1e30 cd light was accepted";
    } catch (const SceneError& e) {
        EXPECT_CONTAINS(std::string(e.what()), path + ": KHR_lights_punctual light 0 (in node order)");
        EXPECT_CONTAINS(std::string(e.what()), "more than 2^96");
    }
    d.g["extensions"]["KHR_lights_punctual"]["lights"][0]["intensity"] = 1e20;  // 4 x 4 pi x 1e20 < 2^96
    EXPECT_EQ(load_scene(d.write("strong_enough.gltf")).lights.size(), 4u);
}

TEST(GltfSceneLights, RangeIsWarnedAboutAndBadLightsAreErrors) {
    GltfDoc d = lights_doc();
    d.g["extensions"]["KHR_lights_punctual"]["lights"][0]["range"] = 10.0;
    GltfScene s = read_gltf_scene(d.write("range.gltf"), true);
    bool range = false;
    for (const std::string& w : s.warnings) range |= w.find("range") != std::string::npos;
    EXPECT_TRUE(range);

    GltfDoc bad_index = lights_doc();
    bad_index.g["nodes"][2]["extensions"]["KHR_lights_punctual"]["light"] = 9;
    EXPECT_CONTAINS(read_error(bad_index, "light_index.gltf"), ": /nodes/2/extensions/KHR_lights_punctual/light: light 9 does not exist");
    GltfDoc negative = lights_doc();
    negative.g["extensions"]["KHR_lights_punctual"]["lights"][0]["intensity"] = -1.0;
    EXPECT_CONTAINS(read_error(negative, "light_negative.gltf"),
                    ": /nodes/2/extensions/KHR_lights_punctual/light: light 0 (/extensions/KHR_lights_punctual/lights/0): "
                    "color x intensity must be finite and non-negative");

    // Spot cones outside the spec's 0 <= inner <= outer <= pi/2, outer > 0.
    auto spot_error = [](double inner, double outer, const std::string& name) {
        GltfDoc d = lights_doc();
        d.g["extensions"]["KHR_lights_punctual"]["lights"][2]["spot"] = {{"innerConeAngle", inner}, {"outerConeAngle", outer}};
        return read_error(d, name);
    };
    EXPECT_CONTAINS(spot_error(0.0, 1.6, "spot_wide.gltf"), "spot_wide.gltf");
    const std::string spot = ": /nodes/4/extensions/KHR_lights_punctual/light: light 2 (/extensions/KHR_lights_punctual/lights/2/spot/";
    EXPECT_CONTAINS(spot_error(0.0, 1.6, "spot_wide.gltf"), spot + "outerConeAngle): 1.6 is not in (0, pi/2]");
    EXPECT_CONTAINS(spot_error(0.0, 0.0, "spot_zero.gltf"), spot + "outerConeAngle): 0 is not in (0, pi/2]");
    EXPECT_CONTAINS(spot_error(0.6, 0.5, "spot_inner.gltf"), spot + "innerConeAngle): 0.6 is not in [0, outerConeAngle = 0.5]");
    EXPECT_CONTAINS(spot_error(-0.1, 0.5, "spot_negative.gltf"), spot + "innerConeAngle): -0.1 is not in [0, outerConeAngle = 0.5]");
    EXPECT_CONTAINS(spot_error(0.0, 1e-6, "spot_narrow.gltf"), "too narrow");
    // pi/2 as written by hand (a hair above) is the hemisphere.
    GltfDoc half = lights_doc();
    half.g["extensions"]["KHR_lights_punctual"]["lights"][2]["spot"] = {{"outerConeAngle", 1.5707964}};
    GltfScene hemisphere = read_gltf_scene(half.write("spot_half_pi.gltf"), true);
    bool found = false;
    for (const Light& l : hemisphere.lights)
        if (l.type == LightType::Spot && l.position.x == 5.0f) {
            found = true;
            EXPECT_NEAR(l.cos_outer, 0.0f, 1e-6f);
        }
    EXPECT_TRUE(found);
}

// ---- Extensions --------------------------------------------------------------------------

TEST(GltfSceneExtensions, RequiredUnknownExtensionIsAnErrorNamingIt) {
    GltfDoc d;
    d.g["extensionsUsed"] = {"EXT_made_up_extension"};
    d.g["extensionsRequired"] = {"EXT_made_up_extension"};
    const std::string path = d.write("required.gltf");
    const std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << e;
    EXPECT_CONTAINS(e, "EXT_made_up_extension");
}

TEST(GltfSceneExtensions, UsedUnknownExtensionIsAWarningInTheLoadStats) {
    GltfDoc d;
    d.g["extensionsUsed"] = {"EXT_made_up_extension", "KHR_texture_transform"};
    const std::string path = d.write("used.gltf");
    SceneLoadStats stats;
    HostScene scene = load_scene(path, &stats);
    ASSERT_EQ(stats.warnings.size(), 1u) << "only the unknown extension is warned about";
    EXPECT_EQ(stats.warnings[0].rfind(path + ": ", 0), 0u) << stats.warnings[0];
    EXPECT_CONTAINS(stats.warnings[0], "EXT_made_up_extension");
    EXPECT_EQ(scene.triangles.size(), 2u);
}

}  // namespace
}  // namespace wf
