// Bad glTF input (io/mesh_gltf.cpp, io/gltf_materials.cpp): each problem a SceneError
// whose message starts with the file and names the place as a JSON pointer into it (and,
// where a reference was followed, the place in the object it names), from small files
// each test writes itself.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/gltf_pointer.h"
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
using test::read_error;
using test::texels_png;

// ---- Bad input: a SceneError naming the file and the place ---------------------------------

TEST(GltfSceneBadFiles, MaterialIndexOutOfRange) {
    GltfDoc d;
    d.material(json::object());
    d.primitive()["material"] = 5;
    EXPECT_CONTAINS(read_error(d, "material_index.gltf"),
                    ": /meshes/0/primitives/0/material: material 5 does not exist (the file has 1 materials)");
    // Through load_scene too.
    const std::string path = d.write("material_index_scene.gltf");
    const std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << e;
    EXPECT_CONTAINS(e, ": /meshes/0/primitives/0/material: material 5 does not exist");
}

TEST(GltfSceneBadFiles, TextureImageAndSamplerIndicesOutOfRange) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});

    GltfDoc texture = d;
    texture.g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 3;
    EXPECT_CONTAINS(read_error(texture, "texture_index.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorTexture/index: texture 3 does not exist (the file has 1 textures)");

    // The texture's own bad index: the material's reference, then the place in the texture.
    GltfDoc image = d;
    image.g["textures"][0]["source"] = 2;
    EXPECT_CONTAINS(read_error(image, "image_index.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorTexture/index: texture 0 (/textures/0/source): "
                    "image 2 does not exist");

    GltfDoc sampler = d;
    sampler.g["textures"][0]["sampler"] = 4;
    EXPECT_CONTAINS(read_error(sampler, "sampler_index.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorTexture/index: texture 0 (/textures/0/sampler): "
                    "sampler 4 does not exist");

    GltfDoc normal = d;
    normal.g["materials"][0]["normalTexture"] = {{"index", 7}};
    EXPECT_CONTAINS(read_error(normal, "normal_index.gltf"), ": /materials/0/normalTexture/index: texture 7 does not exist");

    GltfDoc emissive = d;
    emissive.g["materials"][0]["emissiveFactor"] = {1, 1, 1};
    emissive.g["materials"][0]["emissiveTexture"] = {{"index", 9}};
    EXPECT_CONTAINS(read_error(emissive, "emissive_index.gltf"), ": /materials/0/emissiveTexture/index: texture 9 does not exist");
    emissive.g["materials"][0]["emissiveTexture"] = {{"index", tex}, {"texCoord", 2}};
    EXPECT_CONTAINS(read_error(emissive, "emissive_tex_coord.gltf"),
                    ": /materials/0/emissiveTexture/texCoord: set 2: only sets 0 and 1 are supported");

    GltfDoc extension = d;
    extension.g["materials"][0]["extensions"]["KHR_materials_transmission"] = {{"transmissionTexture", {{"index", 6}}}};
    EXPECT_CONTAINS(read_error(extension, "transmission_index.gltf"),
                    ": /materials/0/extensions/KHR_materials_transmission/transmissionTexture/index: texture 6 does not exist");
}

TEST(GltfSceneBadFiles, MissingImageFileAndCorruptImageBytes) {
    GltfDoc d;
    d.g["images"] = json::array({{{"uri", "no_such_texture.png"}}});
    const int tex = d.texture(0);
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
    EXPECT_CONTAINS(read_error(d, "missing_image.gltf"),
                    ": /images/0/uri \"no_such_texture.png\": no image data (a missing or unreadable file)");

    GltfDoc corrupt = d;
    corrupt.g["images"] = json::array();
    std::string png = texels_png();
    png.replace(png.size() / 2, 8, "garbage!");  // inside the compressed data
    corrupt.image(png);
    EXPECT_CONTAINS(read_error(corrupt, "corrupt_image.gltf"), ": /images/0: cannot decode the image");

    GltfDoc not_png = d;
    not_png.g["images"] = json::array();
    not_png.image("this is not an image at all");
    EXPECT_CONTAINS(read_error(not_png, "not_an_image.gltf"), ": /images/0: cannot decode the image (PNG or JPEG expected)");
}

TEST(GltfSceneBadFiles, FactorsOutOfRange) {
    auto with_material = [](const json& m) {
        GltfDoc d;
        d.primitive()["material"] = d.material(m);
        return d;
    };
    EXPECT_CONTAINS(read_error(with_material({{"pbrMetallicRoughness", {{"metallicFactor", 2}}}}), "metallic2.gltf"),
                    ": /materials/0/pbrMetallicRoughness/metallicFactor: 2 is not in [0, 1]");
    EXPECT_CONTAINS(read_error(with_material({{"pbrMetallicRoughness", {{"roughnessFactor", -0.5}}}}), "rough.gltf"),
                    ": /materials/0/pbrMetallicRoughness/roughnessFactor: -0.5 is not in [0, 1]");
    EXPECT_CONTAINS(read_error(with_material({{"pbrMetallicRoughness", {{"baseColorFactor", {1, 1, 1, 1.5}}}}}), "alpha.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorFactor/3: alpha 1.5 is not in [0, 1]");
    EXPECT_CONTAINS(read_error(with_material({{"pbrMetallicRoughness", {{"baseColorFactor", {-0.1, 1, 1, 1}}}}}), "negbase.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorFactor/0: -0.1 is negative");
    EXPECT_CONTAINS(read_error(with_material({{"emissiveFactor", {-1, 0, 0}}}), "negative_emission.gltf"),
                    ": /materials/0/emissiveFactor/0: -1 is negative");
    EXPECT_CONTAINS(read_error(with_material({{"emissiveFactor", {1, 1, 1}},
                                              {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", -2}}}}}}),
                               "negative_strength.gltf"),
                    ": /materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength: -2 is out of [0, 1e+12]");
    EXPECT_CONTAINS(read_error(with_material({{"extensions", {{"KHR_materials_ior", {{"ior", 0.5}}}}}}), "ior_half.gltf"),
                    ": /materials/0/extensions/KHR_materials_ior/ior: 0.5 is below 1 (and not 0)");
    EXPECT_CONTAINS(read_error(with_material({{"extensions", {{"KHR_materials_transmission", {{"transmissionFactor", 1.5}}}}}}),
                               "transmission.gltf"),
                    ": /materials/0/extensions/KHR_materials_transmission/transmissionFactor: 1.5 is out of [0, 1]");
    EXPECT_CONTAINS(read_error(with_material({{"extensions", {{"KHR_materials_specular", {{"specularColorFactor", {1, -1, 1}}}}}}}),
                               "specular_colour.gltf"),
                    ": /materials/0/extensions/KHR_materials_specular/specularColorFactor/1: -1 is negative");
    EXPECT_CONTAINS(read_error(with_material({{"alphaMode", "TRANSLUCENT"}}), "alpha_mode.gltf"),
                    ": /materials/0/alphaMode: unknown alphaMode \"TRANSLUCENT\" (OPAQUE, MASK or BLEND)");
}

// KHR_materials_volume's attenuation, KHR_materials_clearcoat and KHR_materials_sheen out of
// range: each error's pointer names the material, the extension and the field.
TEST(GltfSceneBadFiles, VolumeClearcoatSheenOutOfRange) {
    auto error_of = [](const char* ext, const json& fields, const std::string& name) {
        GltfDoc d;
        d.primitive()["material"] = d.material({{"extensions", {{ext, fields}}}});
        return read_error(d, name);
    };
    struct Bad {
        const char* ext;
        json fields;
        const char* field;
    };
    const Bad bad[] = {
        {"KHR_materials_volume", {{"thicknessFactor", 1}, {"attenuationDistance", -2}}, "attenuationDistance"},
        {"KHR_materials_volume", {{"thicknessFactor", 1}, {"attenuationDistance", 0}}, "attenuationDistance"},
        {"KHR_materials_volume", {{"thicknessFactor", 1}, {"attenuationColor", {0.5, 1.5, 0.5}}}, "attenuationColor"},
        {"KHR_materials_volume", {{"thicknessFactor", 1}, {"attenuationColor", {0.5, -0.5, 0.5}}}, "attenuationColor"},
        {"KHR_materials_volume", {{"thicknessFactor", 1}, {"attenuationColor", {0.5, 0.5}}}, "attenuationColor"},
        {"KHR_materials_volume", {{"attenuationDistance", "far"}}, "attenuationDistance"},
        {"KHR_materials_clearcoat", {{"clearcoatFactor", 1.5}}, "clearcoatFactor"},
        {"KHR_materials_clearcoat", {{"clearcoatRoughnessFactor", -0.1}}, "clearcoatRoughnessFactor"},
        {"KHR_materials_clearcoat", {{"clearcoatTexture", {{"index", 7}}}}, "clearcoatTexture"},
        {"KHR_materials_sheen", {{"sheenColorFactor", {1.2, 0, 0}}}, "sheenColorFactor"},
        {"KHR_materials_sheen", {{"sheenRoughnessFactor", 2}}, "sheenRoughnessFactor"},
        {"KHR_materials_sheen", {{"sheenRoughnessTexture", {{"index", -1}}}}, "sheenRoughnessTexture"},
    };
    int i = 0;
    for (const Bad& b : bad) {
        const std::string e = error_of(b.ext, b.fields, "layers_" + std::to_string(i++) + ".gltf");
        EXPECT_CONTAINS(e, ": /materials/0/extensions/" + std::string(b.ext) + "/" + b.field);
    }
}

// JSON has no NaN or infinity: a number beyond double's range (1e999) is refused by the
// JSON parser, naming the file. Numbers finite as doubles but not as floats (1e300), and
// products of finite factors that overflow a float (emissiveFactor x emissiveStrength),
// must not reach the scene as infinities.
TEST(GltfSceneBadFiles, NonFiniteFactors) {
    auto raw = [](const std::string& material_json, const std::string& name) {
        GltfDoc d;
        d.primitive()["material"] = 0;
        std::string text = d.document().dump();
        EXPECT_EQ(text.find("\"materials\":"), std::string::npos);
        text.insert(text.size() - 1, ",\"materials\":[" + material_json + "]");
        const std::string path = test::write_file(test::temp_folder("wf_gltf_scene") + "/" + name, text);
        const std::string e = test::scene_error_of([&] { read_gltf_scene(path, true); });
        EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << e;
        return e;
    };
    raw(R"({"pbrMetallicRoughness": {"metallicFactor": 1e999}})", "inf_metallic.gltf");
    raw(R"({"emissiveFactor": [1, 1e999, 0]})", "inf_emission.gltf");
    EXPECT_CONTAINS(raw(R"({"pbrMetallicRoughness": {"baseColorFactor": [1e300, 1, 1, 1]}})", "big_base.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorFactor/0: 1e+300 is not finite as a float");
    EXPECT_CONTAINS(raw(R"({"emissiveFactor": [1, 1e300, 0]})", "big_emission.gltf"),
                    ": /materials/0/emissiveFactor/1: 1e+300 is not finite as a float");
    // No texture 0 in the file: its index is named before the scale (a scale beyond float:
    // GltfSceneBadFiles.RepresentativePlacesAreJsonPointers).
    EXPECT_CONTAINS(raw(R"({"normalTexture": {"index": 0, "scale": 1e300}})", "big_normal_scale.gltf"),
                    ": /materials/0/normalTexture/index: texture 0 does not exist");
    EXPECT_CONTAINS(raw(R"({"pbrMetallicRoughness": {"roughnessFactor": 1e300}})", "big_rough.gltf"),
                    ": /materials/0/pbrMetallicRoughness/roughnessFactor: 1e+300 is not in [0, 1]");
}

// emissiveFactor 1e38 (a finite float) times emissiveStrength 1e6 (within the reader's
// range) is 1e44: beyond float. The scene must not get an infinite emission (a light of
// infinite power): an error naming the file, or a finite emission.
TEST(GltfSceneBadFiles, EmissionOverflowingFloatIsNotInfinite) {
    GltfDoc d;
    d.primitive()["material"] = d.material(
        {{"emissiveFactor", {1e38, 1e38, 1e38}}, {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 1e6}}}}}});
    const std::string path = d.write("overflow_emission.gltf");
    try {
        GltfScene s = read_gltf_scene(path, true);
        EXPECT_TRUE(is_finite(s.material_emission[0])) << "emission (" << s.material_emission[0].x << ", ...)";
        HostScene scene = load_scene(path);
        for (const Light& l : scene.lights) EXPECT_TRUE(is_finite(l.radiance)) << "a light of radiance " << l.radiance.x;
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
    }
}

TEST(GltfSceneBadFiles, BadCameras) {
    GltfDoc fov = camera_doc(1.0);
    fov.g["cameras"][0]["perspective"]["yfov"] = 4.0;
    EXPECT_CONTAINS(read_error(fov, "yfov.gltf"), ": /nodes/2/camera: camera 0 (/cameras/0/perspective/yfov): 4 is not in (0, pi)");
    GltfDoc aspect = camera_doc(1.0);
    aspect.g["cameras"][0]["perspective"]["aspectRatio"] = -2.0;
    EXPECT_CONTAINS(read_error(aspect, "aspect.gltf"),
                    ": /nodes/2/camera: camera 0 (/cameras/0/perspective/aspectRatio): -2 is not in (0.001, 1000)");
    GltfDoc index = camera_doc(1.0);
    index.g["nodes"][2]["camera"] = 3;
    EXPECT_CONTAINS(read_error(index, "camera_index.gltf"), ": /nodes/2/camera: camera 3 does not exist");
}

TEST(GltfSceneBadFiles, TextureTransformAndTexCoordProblems) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
    GltfDoc set2 = d;
    set2.g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 2;
    EXPECT_CONTAINS(read_error(set2, "texcoord2.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorTexture/texCoord: set 2: only sets 0 and 1 are supported");
    GltfDoc offset = d;
    offset.g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]["KHR_texture_transform"] = {
        {"offset", {1}}};
    EXPECT_CONTAINS(read_error(offset, "offset.gltf"),
                    ": /materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset: "
                    "expected 2 numbers");
}

// One place of each kind, whole: a material factor (with the material's name after the
// pointer), an extension's factor, a texture index out of range, an accessor of the wrong
// type named through the attribute that uses it, a node's light index out of range, and
// an attribute name holding '/' and '~' escaped as RFC 6901 says.
TEST(GltfSceneBadFiles, RepresentativePlacesAreJsonPointers) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material({{"name", "Gold"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
    auto error_of = [&](void (*edit)(json&), const std::string& name) {
        GltfDoc b = d;
        edit(b.g);
        const std::string path = b.write(name);
        const std::string e = read_error(b, name);
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        return e.substr(path.size());
    };
    EXPECT_EQ(error_of([](json& g) { g["materials"][0]["pbrMetallicRoughness"]["metallicFactor"] = 2; }, "place_metal.gltf"),
              ": /materials/0/pbrMetallicRoughness/metallicFactor (material \"Gold\"): 2 is not in [0, 1]");
    EXPECT_EQ(error_of([](json& g) { g["materials"][0]["extensions"]["KHR_materials_clearcoat"] = {{"clearcoatFactor", 1.5}}; },
                       "place_coat.gltf"),
              ": /materials/0/extensions/KHR_materials_clearcoat/clearcoatFactor (material \"Gold\"): 1.5 is out of [0, 1]");
    EXPECT_EQ(error_of([](json& g) { g["materials"][0]["normalTexture"] = {{"index", 4}}; }, "place_texture.gltf"),
              ": /materials/0/normalTexture/index (material \"Gold\"): texture 4 does not exist (the file has 1 textures)");
    EXPECT_EQ(error_of([](json& g) { g["materials"][0]["normalTexture"] = {{"index", 0}, {"scale", 1e300}}; }, "place_scale.gltf"),
              ": /materials/0/normalTexture/scale (material \"Gold\"): 1e+300 is not finite as a float");
    EXPECT_EQ(error_of([](json& g) { g["materials"][0]["name"] = "Line 1\nLine 2"; g["materials"][0]["alphaCutoff"] = -1; },
                       "place_name.gltf"),
              ": /materials/0/alphaCutoff (material \"Line 1\\nLine 2\"): -1 is negative");
    // NORMAL given accessor 1, the UVs (VEC2).
    ASSERT_EQ(d.primitive()["attributes"]["TEXCOORD_0"], 1);
    EXPECT_EQ(error_of([](json& g) { g["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 1; }, "place_accessor.gltf"),
              ": /meshes/0/primitives/0/attributes/NORMAL: accessor 1 (/accessors/1/type): type VEC2, expected VEC3");
    EXPECT_EQ(error_of([](json& g) { g["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_1"] = 99; }, "place_uv1.gltf"),
              ": /meshes/0/primitives/0/attributes/TEXCOORD_1: accessor 99 does not exist");
    // A reference token holding '/' or '~' (RFC 6901); the tokens the reader names are fixed
    // member names, so the helper itself.
    EXPECT_EQ(gltf_io::child(gltf_io::element("meshes", 0), "a/b~c"), "/meshes/0/a~1b~0c");

    GltfDoc lights = test::camera_doc(1.0);
    lights.g["extensions"]["KHR_lights_punctual"]["lights"] = json::array({{{"type", "point"}}});
    lights.g["nodes"][2]["extensions"]["KHR_lights_punctual"]["light"] = 9;
    const std::string path = lights.write("place_light.gltf");
    EXPECT_EQ(read_error(lights, "place_light.gltf"), path + ": /nodes/2/extensions/KHR_lights_punctual/light: light 9 does not exist");
}

}  // namespace
}  // namespace wf
