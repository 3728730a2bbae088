// JSON scenes that include glTF files ("gltf" shapes, io/scene_gltf_shape.cpp): the files'
// materials and textures join the scene's tables with their ids offset, their geometry,
// punctual lights and cameras are placed by the shape's transform, and bad input is an
// error naming the scene file and the JSON path. Rendered: tests/wavefront/gltf_include_render_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "tests/io/gltf_include_files.h"
#include "tests/io/gltf_test_files.h"
#include "tests/io/mesh_test_util.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

using nlohmann::json;
using test::GltfDoc;
using test::textured_square;

const char* kFolder = "wf_gltf_include";

std::string folder() { return test::temp_folder(kFolder); }

// Writes `scene` as NAME into the test folder (beside the glTF files) and loads it.
HostScene load_json(const json& scene, const std::string& name, SceneLoadStats* stats = nullptr) {
    return load_scene(test::write_file(folder() + "/" + name, scene.dump()), stats);
}

std::string load_error(const json& scene, const std::string& name) {
    const std::string path = folder() + "/" + name;
    test::write_file(path, scene.dump());
    const std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << "the message does not start with the scene file: " << e;
    return e;
}

// The RGBA codes of the base colour texture of material `m`.
std::vector<uint8_t> base_colour_texels(const HostScene& s, uint32_t m) {
    const int32_t binding = s.materials.at(m).pbr.base_color_texture;
    if (binding < 0 || size_t(binding) >= s.texture_bindings.size()) {
        ADD_FAILURE() << "material " << m << " has base colour texture " << binding << " of "
                      << s.texture_bindings.size();
        return {};
    }
    const uint32_t image = s.texture_bindings[size_t(binding)].image;
    if (image >= s.texture_images.size()) {
        ADD_FAILURE() << "binding " << binding << " names image " << image << " of " << s.texture_images.size();
        return {};
    }
    return s.texture_images[image].rgba;
}

// The material of the triangle whose first vertex is nearest `p`.
uint32_t material_near(const HostScene& s, Vec3f p) {
    size_t best = 0;
    for (size_t t = 1; t < s.triangles.size(); ++t)
        if (length(s.triangles[t].p0 - p) < length(s.triangles[best].p0 - p)) best = t;
    return s.prims[best].material;
}

// The red file's image serves two textures (base colour and metallic-roughness): it adds 2
// bindings and 1 image, so the blue file's binding ids and image ids are offset differently.
TEST(GltfInclude, MaterialsAndTexturesJoinTheScenesTablesWithOffsetIds) {
    GltfDoc red = textured_square({200, 10, 10});
    red.g["materials"][0]["pbrMetallicRoughness"]["metallicRoughnessTexture"] = {{"index", 0}};
    red.write("red.gltf", kFolder);
    textured_square({10, 10, 200}).write("blue.gltf", kFolder);
    const json scene = {
        {"materials", {{"white", {{"type", "diffuse"}}}}},
        {"shapes",
         {{{"type", "quad"}, {"material", "white"}, {"corner", {-1, -1, -1}}, {"edge_u", {2, 0, 0}}, {"edge_v", {0, 2, 0}}},
          {{"type", "gltf"}, {"file", "red.gltf"}, {"transform", {{"translate", {-4, 0, 0}}}}},
          {{"type", "gltf"}, {"file", "blue.gltf"}, {"transform", {{"translate", {4, 0, 0}}}}}}}};
    const HostScene s = load_json(scene, "tables.json");
    ASSERT_EQ(s.triangles.size(), 6u);
    ASSERT_EQ(s.materials.size(), 3u) << "white, then each file's one material";
    EXPECT_EQ(s.texture_bindings.size(), 3u);
    EXPECT_EQ(s.texture_images.size(), 2u);

    EXPECT_EQ(material_near(s, Vec3f(-1, -1, -1)), 0u);
    EXPECT_EQ(s.materials[0].type, MaterialType::SmallVcm);
    const uint32_t r = material_near(s, Vec3f(-4, 0, 0)), b = material_near(s, Vec3f(4, 0, 0));
    EXPECT_EQ(s.material_names.at(r), "material 0 (red.gltf)");
    EXPECT_EQ(s.material_names.at(b), "material 0 (blue.gltf)");
    EXPECT_EQ(s.materials[r].type, MaterialType::GltfPbr);
    EXPECT_EQ(s.materials[b].type, MaterialType::GltfPbr);
    EXPECT_EQ(base_colour_texels(s, r), (std::vector<uint8_t>{200, 10, 10, 255}));
    EXPECT_EQ(base_colour_texels(s, b), (std::vector<uint8_t>{10, 10, 200, 255}));
    const int32_t mr = s.materials[r].pbr.metallic_roughness_texture;
    ASSERT_GE(mr, 0);
    EXPECT_EQ(s.texture_bindings[size_t(mr)].image, s.texture_bindings[size_t(s.materials[r].pbr.base_color_texture)].image);
    EXPECT_EQ(s.texture_bindings[size_t(mr)].srgb, 0u);
    EXPECT_EQ(s.materials[b].pbr.metallic_roughness_texture, -1);
}

TEST(GltfInclude, TheSameFileTwiceIsPlacedByEachTransformWithOneCopyOfItsMaterials) {
    const std::string red = textured_square({200, 10, 10}).write("twice.gltf", kFolder);
    const json scene = {
        {"shapes",
         {{{"type", "gltf"}, {"file", "twice.gltf"}, {"transform", {{"rotate", {{"axis", {0, 0, 1}}, {"angle", 90}}}}}},
          {{"type", "gltf"}, {"file", "twice.gltf"}, {"transform", {{"scale", 2}, {"translate", {0, 0, -3}}}}}}}};
    const HostScene s = load_json(scene, "twice.json");
    ASSERT_EQ(s.triangles.size(), 4u);
    // The square's triangle 0, (0,0,0) (1,0,0) (1,1,0), turned 90 degrees about +z, then scaled 2 and moved to z = -3.
    test::expect_near(s.triangles[0].p0, Vec3f(0, 0, 0));
    test::expect_near(s.triangles[0].p1, Vec3f(0, 1, 0));
    test::expect_near(s.triangles[0].p2, Vec3f(-1, 1, 0));
    test::expect_near(s.triangles[2].p0, Vec3f(0, 0, -3));
    test::expect_near(s.triangles[2].p1, Vec3f(2, 0, -3));
    test::expect_near(s.triangles[2].p2, Vec3f(2, 2, -3));
    ASSERT_EQ(s.materials.size(), 1u);
    EXPECT_EQ(s.texture_images.size(), 1u);
    for (const PrimInfo& p : s.prims) EXPECT_EQ(p.material, 0u);
    ASSERT_EQ(s.meshes.size(), 2u);
    EXPECT_EQ(s.meshes[1].uvs.size(), 4u) << "the texture coordinates come along";
    EXPECT_EQ(s.meshes[1].first_prim, 2u);
    EXPECT_EQ(std::count(s.input_files.begin(), s.input_files.end(), red), 1);
}

// A lamp: an emissive square and a spot light 2 in front of it, placed turned 90 degrees
// about +y ((x, y, z) -> (z, y, -x)) and moved by +10 in x.
GltfDoc lamp() {
    GltfDoc d = textured_square({255, 255, 255}, {{"emissiveFactor", {0.5, 0.75, 1.0}}});
    test::add_spot_light(d, {0.5, 0.5, 2.0}, 5.0);
    return d;
}

TEST(GltfInclude, EmissiveMaterialsAreAreaLightsAndPunctualLightsArePlaced) {
    lamp().write("lamp.gltf", kFolder);
    json scene = {{"shapes",
                   {{{"type", "gltf"},
                     {"file", "lamp.gltf"},
                     {"transform", {{"rotate", {{"axis", {0, 1, 0}}, {"angle", 90}}}, {"translate", {10, 0, 0}}}}}}},
                  {"lights", {{{"type", "point"}, {"position", {0, 9, 0}}, {"intensity", 3}}}}};
    const HostScene s = load_json(scene, "lamp.json");
    // The shape's area lights and its spot light in shape order, then the JSON's lights.
    ASSERT_EQ(s.lights.size(), 4u);
    for (int i = 0; i < 2; ++i) {
        const Light& area = s.lights[size_t(i)];
        EXPECT_EQ(area.type, LightType::Area);
        test::expect_near(area.radiance, Vec3f(0.5f, 0.75f, 1.0f));
        EXPECT_EQ(s.prims.at(area.prim).light, i);
    }
    const Light& spot = s.lights[2];
    EXPECT_EQ(spot.type, LightType::Spot);
    test::expect_near(spot.position, Vec3f(12.0f, 0.5f, -0.5f));
    test::expect_near(spot.direction, Vec3f(-1, 0, 0));
    test::expect_near(spot.radiance, Vec3f(5.0f));
    EXPECT_NEAR(spot.cos_outer, std::cos(0.6), 1e-6);
    EXPECT_EQ(s.lights[3].type, LightType::Point);
    test::expect_near(s.lights[3].position, Vec3f(0, 9, 0));

    scene["shapes"][0]["lights"] = false;
    const HostScene unlit = load_json(scene, "lamp_unlit.json");
    ASSERT_EQ(unlit.lights.size(), 3u) << "\"lights\": false leaves the file's punctual lights out, not its emission";
    EXPECT_EQ(unlit.lights[1].type, LightType::Area);
    EXPECT_EQ(unlit.lights[2].type, LightType::Point);
}

// An emissive texture's binding id on the area lights is offset like the material's: the
// lights of the second file read the second file's texels, not the first file's.
TEST(GltfInclude, AreaLightsOfAnIncludedFileReadItsEmissiveTexture) {
    GltfDoc red = textured_square({200, 10, 10});
    red.g["materials"][0]["pbrMetallicRoughness"]["metallicRoughnessTexture"] = {{"index", 0}};
    red.write("red_first.gltf", kFolder);
    textured_square({10, 220, 10}, {{"emissiveFactor", {1.0, 1.0, 1.0}}, {"emissiveTexture", {{"index", 0}}}})
        .write("green_glow.gltf", kFolder);
    const json scene = {{"shapes",
                         {{{"type", "gltf"}, {"file", "red_first.gltf"}},
                          {{"type", "gltf"}, {"file", "green_glow.gltf"}, {"transform", {{"translate", {4, 0, 0}}}}}}}};
    const HostScene s = load_json(scene, "glow.json");
    ASSERT_EQ(s.lights.size(), 2u) << "the green square's two triangles";
    const uint32_t g = material_near(s, Vec3f(4, 0, 0));
    const int32_t binding = s.materials.at(g).pbr.emissive_texture;
    ASSERT_GE(binding, 2) << "after the red file's two bindings";
    for (const Light& l : s.lights) {
        EXPECT_EQ(l.type, LightType::Area);
        EXPECT_EQ(l.emissive_texture, binding);
    }
    const uint32_t image = s.texture_bindings.at(size_t(binding)).image;
    EXPECT_EQ(s.texture_images.at(image).rgba, (std::vector<uint8_t>{10, 220, 10, 255}));
}

TEST(GltfInclude, AMaterialOverridesEveryMaterialOfTheFileAndItsEmission) {
    lamp().write("lamp_clay.gltf", kFolder);
    const json scene = {{"materials", {{"clay", {{"type", "diffuse"}, {"albedo", 0.5}}}}},
                        {"shapes", {{{"type", "gltf"}, {"file", "lamp_clay.gltf"}, {"material", "clay"}}}}};
    const HostScene s = load_json(scene, "clay.json");
    ASSERT_EQ(s.materials.size(), 1u) << "the file's materials are not read into the scene";
    for (const PrimInfo& p : s.prims) {
        EXPECT_EQ(p.material, 0u);
        EXPECT_EQ(p.light, -1);
    }
    ASSERT_EQ(s.lights.size(), 1u) << "no area lights; the spot light stays";
    EXPECT_EQ(s.lights[0].type, LightType::Spot);
    EXPECT_TRUE(s.texture_bindings.empty());
}

// camera_doc: a camera at (11, 2, 3) looking along -x with +y up, aspect ratio 2. Turned
// 90 degrees about +y ((x, y, z) -> (z, y, -x)) and moved by +1 in x: at (4, 2, -11), looking along +z.
TEST(GltfInclude, TheShapesCameraIsPlacedAndItsAspectRatioSetsTheFilmHeight) {
    test::camera_doc(2.0).write("camera.gltf", kFolder);
    json scene = {{"film", {{"width", 400}}},
                  {"shapes",
                   {{{"type", "gltf"},
                     {"file", "camera.gltf"},
                     {"camera", 0},
                     {"transform", {{"rotate", {{"axis", {0, 1, 0}}, {"angle", 90}}}, {"translate", {1, 0, 0}}}}}}}};
    const HostScene s = load_json(scene, "camera.json");
    test::expect_near(s.camera.position, Vec3f(4, 2, -11));
    test::expect_near(normalize(s.camera.forward), Vec3f(0, 0, 1));
    test::expect_near(normalize(s.camera.up), Vec3f(0, 1, 0));
    EXPECT_NEAR(s.camera.fov_y_degrees, 0.5 * 180.0 / 3.14159265358979, 1e-4);
    EXPECT_EQ(s.settings.height, 200u);
    ASSERT_EQ(s.file_cameras.size(), 1u) << "the included cameras serve --camera";
    test::expect_near(s.file_cameras[0].desc.position, Vec3f(4, 2, -11));

    scene["film"]["height"] = 300;  // the JSON's film is authoritative
    EXPECT_EQ(load_json(scene, "camera_film.json").settings.height, 300u);
    scene["shapes"][0].erase("camera");  // no "camera": the JSON's (default) camera
    const HostScene own = load_json(scene, "camera_none.json");
    test::expect_near(own.camera.position, CameraDesc().position);
    EXPECT_EQ(own.file_cameras.size(), 1u);
}

// An orthographic camera (view 2 ymag = 1 tall) scales with the include: twice the size, twice the view.
TEST(GltfInclude, AnOrthographicCamerasViewScalesWithTheShape) {
    GltfDoc d = test::camera_doc(1.0);
    d.g["cameras"][0] = {{"type", "orthographic"}, {"orthographic", {{"xmag", 0.5}, {"ymag", 0.5}, {"znear", 0.1}, {"zfar", 10}}}};
    d.write("ortho.gltf", kFolder);
    const json scene = {{"shapes", {{{"type", "gltf"}, {"file", "ortho.gltf"}, {"camera", 0}, {"transform", {{"scale", 2}}}}}}};
    const HostScene s = load_json(scene, "ortho.json");
    EXPECT_FLOAT_EQ(s.camera.ortho_height, 2.0f);
    test::expect_near(s.camera.position, Vec3f(22, 4, 6));
}

TEST(GltfInclude, TheFilesWarningsReachTheLoadStatsOncePerFile) {
    GltfDoc d = textured_square({1, 2, 3});
    d.g["extensionsUsed"] = {"EXT_made_up_extension"};
    const std::string path = d.write("warned.gltf", kFolder);
    const json scene = {{"shapes", {{{"type", "gltf"}, {"file", "warned.gltf"}}, {{"type", "gltf"}, {"file", "warned.gltf"}}}}};
    SceneLoadStats stats;
    load_json(scene, "warned.json", &stats);
    ASSERT_EQ(stats.warnings.size(), 1u);
    EXPECT_EQ(stats.warnings[0].rfind(path + ": ", 0), 0u) << stats.warnings[0];
    EXPECT_CONTAINS(stats.warnings[0], "EXT_made_up_extension");
}

TEST(GltfInclude, BadShapesAreErrorsNamingTheSceneFileAndTheJsonPath) {
    textured_square({1, 2, 3}).write("plain.gltf", kFolder);
    test::camera_doc(0.0).write("one_camera.gltf", kFolder);
    auto shape = [](json s) { return json{{"materials", {{"clay", {{"type", "diffuse"}}}}}, {"shapes", {s}}}; };
    const json plain = {{"type", "gltf"}, {"file", "plain.gltf"}};

    EXPECT_CONTAINS(load_error(shape({{"type", "gltf"}, {"file", "absent.glb"}}), "missing.json"),
                    ": /shapes/0/file: " + folder() + "/absent.glb: cannot open");
    EXPECT_CONTAINS(load_error(shape({{"type", "gltf"}}), "no_file.json"), ": /shapes/0: expected key \"file\"");
    EXPECT_CONTAINS(load_error(shape({{"type", "gltf"}, {"file", "model.obj"}}), "obj.json"),
                    ": /shapes/0/file: expected a .gltf or .glb file");
    json bad_transform = plain;
    bad_transform["transform"] = {{"scale", {1, 0, 1}}};
    EXPECT_CONTAINS(load_error(shape(bad_transform), "transform.json"), ": /shapes/0/transform/scale: expected a non-zero scale");
    json emission = plain;
    emission["emission"] = 1;
    EXPECT_CONTAINS(load_error(shape(emission), "emission.json"), ": /shapes/0/emission: expected ");
    EXPECT_CONTAINS(load_error(shape(emission), "emission.json"), "unknown key \"emission\"");
    json lights = plain;
    lights["lights"] = "yes";
    EXPECT_CONTAINS(load_error(shape(lights), "lights.json"), ": /shapes/0/lights: expected ");

    // A material override names a JSON material; the files' own are not listed.
    json scene = shape(plain);
    scene["shapes"].push_back({{"type", "gltf"}, {"file", "plain.gltf"}, {"material", "caly"}});
    const std::string unknown = load_error(scene, "material.json");
    EXPECT_CONTAINS(unknown, ": /shapes/1/material: expected the name of a material in /materials (\"clay\") or \"default\"");
    EXPECT_CONTAINS(unknown, "(did you mean \"clay\"?)");

    // Cameras: in range, only without /camera, chosen once.
    json camera = {{"type", "gltf"}, {"file", "one_camera.gltf"}, {"camera", 1}};
    EXPECT_CONTAINS(load_error(shape(camera), "camera_range.json"),
                    ": /shapes/0/camera: expected a camera of one_camera.gltf: integer in [0, 0] (its cameras in node "
                    "order), got 1");
    json no_camera = plain;
    no_camera["camera"] = 0;
    EXPECT_CONTAINS(load_error(shape(no_camera), "camera_none.json"),
                    ": /shapes/0/camera: expected no \"camera\": plain.gltf has no camera, got 0");
    camera["camera"] = 0;
    json with_json_camera = shape(camera);
    with_json_camera["camera"] = {{"position", {0, 0, 3}}};
    EXPECT_CONTAINS(load_error(with_json_camera, "camera_twice.json"),
                    ": /shapes/0/camera: expected no \"camera\" on a gltf shape when the scene has /camera");
    json two = shape(camera);
    two["shapes"].push_back(camera);
    EXPECT_CONTAINS(load_error(two, "camera_two.json"),
                    ": /shapes/1/camera: expected one gltf shape choosing the camera, got a second (/shapes/0/camera chose one)");

    // The file's own problems come after the place in the scene.
    GltfDoc metal = textured_square({1, 2, 3});
    metal.g["materials"][0]["pbrMetallicRoughness"]["metallicFactor"] = 2;
    const std::string metal_path = metal.write("metal.gltf", kFolder);
    EXPECT_CONTAINS(load_error(shape({{"type", "gltf"}, {"file", "metal.gltf"}}), "metal.json"),
                    ": /shapes/0/file: " + metal_path + ": /materials/0/pbrMetallicRoughness/metallicFactor: 2 is not in [0, 1]");
    // A punctual light too strong for a light path (4 pi x 1e30 > 2^96).
    GltfDoc strong = textured_square({1, 2, 3});
    test::add_spot_light(strong, {0, 0, 1}, 1e30);
    strong.write("strong.gltf", kFolder);
    const std::string power = load_error(shape({{"type", "gltf"}, {"file", "strong.gltf"}}), "strong.json");
    EXPECT_CONTAINS(power, ": /shapes/0/file: expected lights whose power a light path can carry");
    EXPECT_CONTAINS(power, "KHR_lights_punctual light 0 (in node order)");
    // A light placed beyond the coordinate limit (the square stays within it: z = 5e9).
    GltfDoc spot = textured_square({1, 2, 3});
    test::add_spot_light(spot, {0, 0, 1}, 1.0);
    spot.write("spot.gltf", kFolder);
    json far = {{"type", "gltf"}, {"file", "spot.gltf"}, {"transform", {{"scale", {1, 1, 1e10}}, {"translate", {0, 0, 5e9}}}}};
    EXPECT_CONTAINS(load_error(shape(far), "far.json"),
                    ": /shapes/0/transform: expected a transform that keeps the file's lights within magnitude 1e10");
    far["lights"] = false;
    EXPECT_EQ(load_json(shape(far), "far_unlit.json").lights.size(), 0u);
}

}  // namespace
}  // namespace wf
