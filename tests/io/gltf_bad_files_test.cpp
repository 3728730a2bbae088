// Bad glTF input (io/mesh_gltf.cpp, io/gltf_materials.cpp): each problem a SceneError
// whose message starts with the file and names the place, from small files each test
// writes itself.
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
using test::read_error;
using test::texels_png;

// ---- Bad input: a SceneError naming the file and the place ---------------------------------

TEST(GltfSceneBadFiles, MaterialIndexOutOfRange) {
    GltfDoc d;
    d.material(json::object());
    d.primitive()["material"] = 5;
    EXPECT_CONTAINS(read_error(d, "material_index.gltf"), "material 5");
    // Through load_scene too.
    const std::string path = d.write("material_index_scene.gltf");
    const std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << e;
    EXPECT_CONTAINS(e, "material 5");
}

TEST(GltfSceneBadFiles, TextureImageAndSamplerIndicesOutOfRange) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});

    GltfDoc texture = d;
    texture.g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 3;
    std::string e = read_error(texture, "texture_index.gltf");
    EXPECT_CONTAINS(e, "material 0");
    EXPECT_CONTAINS(e, "baseColorTexture");
    EXPECT_CONTAINS(e, "texture 3 does not exist");

    GltfDoc image = d;
    image.g["textures"][0]["source"] = 2;
    e = read_error(image, "image_index.gltf");
    EXPECT_CONTAINS(e, "material 0");
    EXPECT_CONTAINS(e, "image 2 does not exist");

    GltfDoc sampler = d;
    sampler.g["textures"][0]["sampler"] = 4;
    e = read_error(sampler, "sampler_index.gltf");
    EXPECT_CONTAINS(e, "material 0");
    EXPECT_CONTAINS(e, "sampler 4 does not exist");

    GltfDoc normal = d;
    normal.g["materials"][0]["normalTexture"] = {{"index", 7}};
    EXPECT_CONTAINS(read_error(normal, "normal_index.gltf"), "normalTexture: texture 7 does not exist");

    GltfDoc emissive = d;
    emissive.g["materials"][0]["emissiveFactor"] = {1, 1, 1};
    emissive.g["materials"][0]["emissiveTexture"] = {{"index", 9}};
    EXPECT_CONTAINS(read_error(emissive, "emissive_index.gltf"), "emissiveTexture: texture 9 does not exist");
    emissive.g["materials"][0]["emissiveTexture"] = {{"index", tex}, {"texCoord", 2}};
    EXPECT_CONTAINS(read_error(emissive, "emissive_tex_coord.gltf"), "emissiveTexture: texCoord 2");

    GltfDoc extension = d;
    extension.g["materials"][0]["extensions"]["KHR_materials_transmission"] = {{"transmissionTexture", {{"index", 6}}}};
    EXPECT_CONTAINS(read_error(extension, "transmission_index.gltf"), "texture 6 does not exist");
}

TEST(GltfSceneBadFiles, MissingImageFileAndCorruptImageBytes) {
    GltfDoc d;
    d.g["images"] = json::array({{{"uri", "no_such_texture.png"}}});
    const int tex = d.texture(0);
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
    EXPECT_CONTAINS(read_error(d, "missing_image.gltf"), "no_such_texture.png");

    GltfDoc corrupt = d;
    corrupt.g["images"] = json::array();
    std::string png = texels_png();
    png.replace(png.size() / 2, 8, "garbage!");  // inside the compressed data
    corrupt.image(png);
    std::string e = read_error(corrupt, "corrupt_image.gltf");
    EXPECT_CONTAINS(e, "image 0");

    GltfDoc not_png = d;
    not_png.g["images"] = json::array();
    not_png.image("this is not an image at all");
    e = read_error(not_png, "not_an_image.gltf");
    EXPECT_CONTAINS(e, "image 0");
}

TEST(GltfSceneBadFiles, FactorsOutOfRange) {
    auto with_material = [](const json& m) {
        GltfDoc d;
        d.primitive()["material"] = d.material(m);
        return d;
    };
    std::string e = read_error(with_material({{"pbrMetallicRoughness", {{"metallicFactor", 2}}}}), "metallic2.gltf");
    EXPECT_CONTAINS(e, "material 0");
    EXPECT_CONTAINS(e, "metallicFactor");
    e = read_error(with_material({{"pbrMetallicRoughness", {{"roughnessFactor", -0.5}}}}), "rough.gltf");
    EXPECT_CONTAINS(e, "roughnessFactor");
    e = read_error(with_material({{"pbrMetallicRoughness", {{"baseColorFactor", {1, 1, 1, 1.5}}}}}), "alpha.gltf");
    EXPECT_CONTAINS(e, "baseColorFactor");
    e = read_error(with_material({{"pbrMetallicRoughness", {{"baseColorFactor", {-0.1, 1, 1, 1}}}}}), "negbase.gltf");
    EXPECT_CONTAINS(e, "baseColorFactor");
    e = read_error(with_material({{"emissiveFactor", {-1, 0, 0}}}), "negative_emission.gltf");
    EXPECT_CONTAINS(e, "material 0");
    EXPECT_CONTAINS(e, "emissiveFactor");
    e = read_error(with_material({{"emissiveFactor", {1, 1, 1}},
                                  {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", -2}}}}}}),
                   "negative_strength.gltf");
    EXPECT_CONTAINS(e, "emissiveStrength");
    e = read_error(with_material({{"extensions", {{"KHR_materials_ior", {{"ior", 0.5}}}}}}), "ior_half.gltf");
    EXPECT_CONTAINS(e, "KHR_materials_ior");
    e = read_error(with_material({{"extensions", {{"KHR_materials_transmission", {{"transmissionFactor", 1.5}}}}}}),
                   "transmission.gltf");
    EXPECT_CONTAINS(e, "transmissionFactor");
    e = read_error(with_material({{"extensions", {{"KHR_materials_specular", {{"specularColorFactor", {1, -1, 1}}}}}}}),
                   "specular_colour.gltf");
    EXPECT_CONTAINS(e, "specularColorFactor");
    e = read_error(with_material({{"alphaMode", "TRANSLUCENT"}}), "alpha_mode.gltf");
    EXPECT_CONTAINS(e, "alphaMode");
}

// KHR_materials_volume's attenuation, KHR_materials_clearcoat and KHR_materials_sheen out of
// range: each error names the material, the extension and the field.
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
        EXPECT_CONTAINS(e, "material 0");
        EXPECT_CONTAINS(e, b.ext);
        EXPECT_CONTAINS(e, b.field);
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
                    "baseColorFactor");
    EXPECT_CONTAINS(raw(R"({"emissiveFactor": [1, 1e300, 0]})", "big_emission.gltf"), "emissiveFactor");
    EXPECT_CONTAINS(raw(R"({"normalTexture": {"index": 0, "scale": 1e300}})", "big_normal_scale.gltf"), "material 0");
    EXPECT_CONTAINS(raw(R"({"pbrMetallicRoughness": {"roughnessFactor": 1e300}})", "big_rough.gltf"), "roughnessFactor");
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
    EXPECT_CONTAINS(read_error(fov, "yfov.gltf"), "camera 0: yfov");
    GltfDoc aspect = camera_doc(1.0);
    aspect.g["cameras"][0]["perspective"]["aspectRatio"] = -2.0;
    EXPECT_CONTAINS(read_error(aspect, "aspect.gltf"), "camera 0: aspectRatio");
    GltfDoc index = camera_doc(1.0);
    index.g["nodes"][2]["camera"] = 3;
    EXPECT_CONTAINS(read_error(index, "camera_index.gltf"), "node 2: camera 3 does not exist");
}

TEST(GltfSceneBadFiles, TextureTransformAndTexCoordProblems) {
    GltfDoc d;
    const int tex = d.texture(d.image(texels_png()));
    d.primitive()["material"] = d.material({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", tex}}}}}});
    GltfDoc set2 = d;
    set2.g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 2;
    EXPECT_CONTAINS(read_error(set2, "texcoord2.gltf"), "texCoord 2");
    GltfDoc offset = d;
    offset.g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]["KHR_texture_transform"] = {
        {"offset", {1}}};
    EXPECT_CONTAINS(read_error(offset, "offset.gltf"), "KHR_texture_transform: offset");
}

}  // namespace
}  // namespace wf
