// Scene loader: what each part of the format turns into, on inline scenes.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "io/scene_loader.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

using test::parse_error;

HostScene parse(const std::string& json, SceneLoadStats* stats = nullptr) {
    return parse_scene(json, "inline.json", ".", stats);
}

Vec3f normal_of(const Triangle& t) { return normalize(cross(t.p1 - t.p0, t.p2 - t.p0)); }

void expect_vec_near(Vec3f a, Vec3f b, float tol = 1e-6f) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

TEST(SceneLoader, EmptySceneGetsDefaults) {
    HostScene s = parse("{}");
    EXPECT_EQ(s.source_path, "inline.json");
    EXPECT_EQ(s.settings.width, 512u);
    EXPECT_EQ(s.settings.height, 512u);
    EXPECT_EQ(s.settings.spp, 16u);
    EXPECT_EQ(s.settings.max_depth, 10u);
    EXPECT_EQ(s.settings.seed, 0u);
    EXPECT_EQ(s.settings.integrator, "pt");
    EXPECT_EQ(s.camera.fov_y_degrees, 45.0f);
    EXPECT_EQ(s.camera.aperture_radius, 0.0f);
    EXPECT_EQ(s.num_prims(), 0u);
    EXPECT_TRUE(s.lights.empty());
    EXPECT_TRUE(s.materials.empty());
}

TEST(SceneLoader, FilmAndRenderSettingsAreRead) {
    HostScene s = parse(R"({"film": {"width": 640, "height": 480.0},
        "render": {"spp": 4, "max_depth": 3, "seed": 4294967295, "integrator": "vcm"}})");
    EXPECT_EQ(s.settings.width, 640u);
    EXPECT_EQ(s.settings.height, 480u);
    EXPECT_EQ(s.settings.spp, 4u);
    EXPECT_EQ(s.settings.max_depth, 3u);
    EXPECT_EQ(s.settings.seed, 4294967295u);
    EXPECT_EQ(s.settings.integrator, "vcm");
}

TEST(SceneLoader, FilmPixelCountIsLimited) {
    EXPECT_NO_THROW(parse(R"({"film": {"width": 8192, "height": 8192}})"));
    std::string e = parse_error(R"({"film": {"width": 16384, "height": 8193}})");
    EXPECT_NE(e.find("inline.json: /film: expected width * height <= 67108864"), std::string::npos) << e;
}

TEST(SceneLoader, SeedAboveUint32IsRejected) {
    std::string e = parse_error(R"({"render": {"seed": 4294967296}})");
    EXPECT_NE(e.find("/render/seed: expected integer in [0, 4294967295], got 4294967296"), std::string::npos) << e;
}

TEST(SceneLoader, CameraLookAtSetsForwardAndFocusDistance) {
    HostScene s = parse(R"({"camera": {"position": [1, 2, 3], "look_at": [1, 2, -1], "fov": 30,
        "aperture_radius": 0.1}})");
    expect_vec_near(s.camera.position, Vec3f(1, 2, 3));
    expect_vec_near(normalize(s.camera.forward), Vec3f(0, 0, -1));
    EXPECT_FLOAT_EQ(s.camera.focus_distance, 4.0f);
    EXPECT_FLOAT_EQ(s.camera.fov_y_degrees, 30.0f);
    EXPECT_FLOAT_EQ(s.camera.aperture_radius, 0.1f);
}

TEST(SceneLoader, CameraForwardDefaultsFocusDistanceToOne) {
    HostScene s = parse(R"({"camera": {"forward": [0, 0, 2], "up": [0, 1, 0]}})");
    expect_vec_near(s.camera.forward, Vec3f(0, 0, 2));
    EXPECT_FLOAT_EQ(s.camera.focus_distance, 1.0f);
    HostScene f = parse(R"({"camera": {"forward": [0, 0, 2], "focus_distance": 7}})");
    EXPECT_FLOAT_EQ(f.camera.focus_distance, 7.0f);
}

TEST(SceneLoader, CameraLookingAlongDefaultUpNeedsAnUpVector) {
    std::string e = parse_error(R"({"camera": {"forward": [0, -1, 0]}})");
    EXPECT_NE(e.find("inline.json: /camera: expected \"up\""), std::string::npos) << e;
    EXPECT_NO_THROW(parse(R"({"camera": {"forward": [0, -1, 0], "up": [0, 0, 1]}})"));
}

TEST(SceneLoader, OrthographicCameraTakesAHeightAndNoFieldOfViewOrLens) {
    HostScene s = parse(R"({"camera": {"position": [1, 2, 3], "projection": "orthographic", "height": 2.5}})");
    EXPECT_EQ(s.camera.ortho_height, 2.5f);
    EXPECT_EQ(parse(R"({"camera": {"projection": "perspective", "fov": 30}})").camera.ortho_height, 0.0f);
    struct Bad {
        const char* json;
        const char* message;
    };
    for (const Bad& b : {
             Bad{R"({"camera": {"projection": "orthographic"}})", "/camera: expected key \"height\" (required in an orthographic camera)"},
             Bad{R"({"camera": {"height": 2}})", "/camera/height: expected \"height\" only with \"projection\": \"orthographic\", got 2"},
             Bad{R"({"camera": {"projection": "orthographic", "height": 2, "fov": 30}})", "/camera/fov: expected no \"fov\" on an orthographic camera"},
             Bad{R"({"camera": {"projection": "orthographic", "height": 2, "aperture_radius": 0.1}})", "/camera/aperture_radius: expected no"},
             Bad{R"({"camera": {"projection": "orthographic", "height": 0}})", "/camera/height: expected number in (0, 1e+10], got 0"},
             Bad{R"({"camera": {"projection": "orthographic", "height": "NaN"}})", "/camera/height: expected "},
             Bad{R"({"camera": {"position": [1e6, 0, 0], "projection": "orthographic", "height": 1e-3}})",
                 "/camera/height: expected number in [0.95367431640625, 1e+10] (2^-20 of the camera position's largest coordinate"},
             Bad{R"({"camera": {"projection": "orthogonal", "height": 2}})", "/camera/projection: expected "},
         }) {
        const std::string e = parse_error(b.json);
        EXPECT_NE(e.find(std::string("inline.json: ") + b.message), std::string::npos) << b.json << "\n" << e;
    }
}

TEST(SceneLoader, MaterialTypesMapOntoMaterialRecord) {
    HostScene s = parse(R"({"materials": {
        "d": {"type": "diffuse", "albedo": [0.1, 0.2, 0.3]},
        "m": {"type": "mirror", "reflectance": 0.9},
        "g": {"type": "dielectric", "ior": 1.33},
        "v": {"type": "smallvcm", "kd": 0.1, "ks": 0.7, "phong_exponent": 90},
        "d1": {"type": "diffuse", "two_sided": false},
        "g1": {"type": "dielectric"}}})");
    ASSERT_EQ(s.materials.size(), 6u);
    ASSERT_EQ(s.material_names.size(), 6u);
    // File order, not alphabetical.
    EXPECT_EQ(s.material_names[0], "d");
    EXPECT_EQ(s.material_names[3], "v");

    const Material& d = s.materials[0];
    expect_vec_near(d.kd, Vec3f(0.1f, 0.2f, 0.3f));
    EXPECT_TRUE(is_black(d.ks));
    EXPECT_TRUE(is_black(d.km));
    EXPECT_LT(d.ior, 0.0f);
    EXPECT_EQ(d.two_sided, 1u);

    const Material& m = s.materials[1];
    EXPECT_TRUE(is_black(m.kd));
    expect_vec_near(m.km, Vec3f(0.9f));
    EXPECT_LT(m.ior, 0.0f);

    const Material& g = s.materials[2];
    expect_vec_near(g.km, Vec3f(1.0f));
    EXPECT_FLOAT_EQ(g.ior, 1.33f);

    const Material& v = s.materials[3];
    expect_vec_near(v.kd, Vec3f(0.1f));
    expect_vec_near(v.ks, Vec3f(0.7f));
    EXPECT_FLOAT_EQ(v.phong_exponent, 90.0f);
    EXPECT_FLOAT_EQ(v.ior, -1.0f);
    EXPECT_EQ(v.two_sided, 0u);  // smallvcm surfaces are one-sided unless told otherwise

    expect_vec_near(s.materials[4].kd, Vec3f(0.8f));  // diffuse albedo default
    EXPECT_EQ(s.materials[4].two_sided, 0u);
    EXPECT_FLOAT_EQ(s.materials[5].ior, 1.5f);  // dielectric ior default
}

TEST(SceneLoader, MicrofacetMaterialTypesMapOntoMaterialRecord) {
    HostScene s = parse(R"({"materials": {
        "steel": {"type": "rough_conductor", "roughness": 0.4, "reflectance": [0.6, 0.55, 0.5]},
        "gold": {"type": "rough_conductor", "roughness": 0.25, "eta": [0.16, 0.43, 1.44], "k": [3.6, 2.4, 1.8]},
        "white": {"type": "rough_conductor", "roughness": 1},
        "frosted": {"type": "rough_dielectric", "roughness": 0.3, "ior": 1.33},
        "glass": {"type": "rough_dielectric", "roughness": 0},
        "pane": {"type": "thin_dielectric", "ior": 1.52},
        "bubble": {"type": "thin_dielectric"}}})");
    ASSERT_EQ(s.materials.size(), 7u);
    EXPECT_EQ(s.materials[0].type, MaterialType::RoughConductor);
    EXPECT_FLOAT_EQ(s.materials[0].roughness, 0.4f);
    expect_vec_near(s.materials[0].km, Vec3f(0.6f, 0.55f, 0.5f));
    // Gold's F0 from its complex index, ((n - 1)^2 + k^2) / ((n + 1)^2 + k^2) per channel,
    // worked by hand: red (0.7056 + 12.96) / (1.3456 + 12.96) = 0.95525.
    EXPECT_EQ(s.materials[1].type, MaterialType::RoughConductor);
    expect_vec_near(s.materials[1].km, Vec3f(13.6656f / 14.3056f, 6.0849f / 7.8049f, 3.4336f / 9.1936f), 1e-5f);
    expect_vec_near(s.materials[2].km, Vec3f(1.0f));  // reflectance default
    EXPECT_EQ(s.materials[3].type, MaterialType::RoughDielectric);
    EXPECT_FLOAT_EQ(s.materials[3].ior, 1.33f);
    EXPECT_FLOAT_EQ(s.materials[3].roughness, 0.3f);
    EXPECT_FLOAT_EQ(s.materials[4].ior, 1.5f);  // ior default
    EXPECT_EQ(s.materials[5].type, MaterialType::ThinDielectric);
    EXPECT_FLOAT_EQ(s.materials[5].ior, 1.52f);
    EXPECT_FLOAT_EQ(s.materials[6].ior, 1.5f);
    // A huge index (any finite float is accepted) reflects everything, not nothing.
    HostScene huge = parse(R"({"materials": {"m": {"type": "rough_conductor", "roughness": 0.1, "eta": 1e30, "k": 1e30}}})");
    expect_vec_near(huge.materials[0].km, Vec3f(1.0f), 1e-6f);
}

TEST(SceneLoader, BadMicrofacetMaterialsAreErrorsNamingTheField) {
    struct Case {
        const char* material;
        const char* message;
    } cases[] = {
        {R"({"type": "rough_conductor", "reflectance": 0.9})",
         "inline.json: /materials/x: expected key \"roughness\" (required in a rough_conductor material)"},
        {R"({"type": "rough_dielectric"})",
         "inline.json: /materials/x: expected key \"roughness\" (required in a rough_dielectric material)"},
        {R"({"type": "rough_conductor", "roughness": 1.5})",
         "inline.json: /materials/x/roughness: expected number in [0, 1], got 1.5"},
        {R"({"type": "rough_dielectric", "roughness": "NaN"})",
         "inline.json: /materials/x/roughness: expected number in [0, 1], got string \"NaN\""},
        {R"({"type": "rough_conductor", "roughness": 0.2, "reflectance": 1.2})",
         "inline.json: /materials/x/reflectance: expected number in [0, 1], got 1.2"},
        {R"({"type": "rough_conductor", "roughness": 0.2, "eta": 1.2})",
         "inline.json: /materials/x: expected key \"k\" (required in a rough_conductor material with eta)"},
        {R"({"type": "rough_conductor", "roughness": 0.2, "k": 3})",
         "inline.json: /materials/x: expected key \"eta\" (required in a rough_conductor material with k)"},
        {R"({"type": "rough_conductor", "roughness": 0.2, "eta": 0, "k": 3})",
         "inline.json: /materials/x/eta: expected number > 0, got 0"},
        {R"({"type": "rough_conductor", "roughness": 0.2, "eta": 1, "k": [1, -1, 1]})",
         "inline.json: /materials/x/k/1: expected number >= 0, got -1"},
        {R"({"type": "rough_conductor", "roughness": 0.2, "eta": 1, "k": 1, "reflectance": 1})",
         "inline.json: /materials/x: expected either reflectance or the complex index (eta and k), not both, got "
         "reflectance and eta and k"},
        {R"({"type": "rough_dielectric", "roughness": 0.2, "ior": 0})",
         "inline.json: /materials/x/ior: expected number > 0, got 0"},
        {R"({"type": "thin_dielectric", "ior": -1.5})", "inline.json: /materials/x/ior: expected number > 0, got -1.5"},
        {R"({"type": "thin_dielectric", "roughness": 0.1})",
         "inline.json: /materials/x/roughness: expected a key of a thin_dielectric material"},
        {R"({"type": "rough_conductr", "roughness": 0.1})", "(did you mean \"rough_conductor\"?)"},
    };
    for (const Case& c : cases) {
        std::string e = parse_error(std::string(R"({"materials": {"x": )") + c.material + "}}");
        EXPECT_NE(e.find(c.message), std::string::npos) << c.material << "\n" << e;
    }
}

TEST(SceneLoader, SmallVcmMaterialMustConserveEnergy) {
    std::string e = parse_error(R"({"materials": {"hot": {"type": "smallvcm", "kd": 0.6, "ks": 0.6}}})");
    EXPECT_NE(e.find("inline.json: /materials/hot: expected kd + ks + km <= 1"), std::string::npos) << e;
}

TEST(SceneLoader, ShapeWithoutMaterialUsesBuiltInDefault) {
    HostScene s = parse(R"({"materials": {"red": {"type": "diffuse", "albedo": [0.8, 0, 0]}},
        "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1},
                   {"type": "sphere", "center": [3, 0, 0], "radius": 1, "material": "red"}]})");
    ASSERT_EQ(s.materials.size(), 2u);
    EXPECT_EQ(s.material_names[1], "default");
    expect_vec_near(s.materials[1].kd, Vec3f(0.8f));
    EXPECT_EQ(s.materials[1].two_sided, 1u);
    EXPECT_EQ(s.prims[0].material, 1u);
    EXPECT_EQ(s.prims[1].material, 0u);
}

TEST(SceneLoader, DefinedDefaultMaterialReplacesBuiltIn) {
    HostScene s = parse(R"({"materials": {"default": {"type": "mirror"}},
        "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1}]})");
    ASSERT_EQ(s.materials.size(), 1u);
    EXPECT_EQ(s.prims[0].material, 0u);
    expect_vec_near(s.materials[0].km, Vec3f(1.0f));
}

TEST(SceneLoader, QuadNormalFollowsCrossOfEdges) {
    HostScene s = parse(R"({"shapes": [{"type": "quad", "corner": [0, 0, 0], "edge_u": [2, 0, 0], "edge_v": [0, 3, 0]}]})");
    ASSERT_EQ(s.triangles.size(), 2u);
    for (const Triangle& t : s.triangles) expect_vec_near(normal_of(t), Vec3f(0, 0, 1));
    float area = 0.0f;
    for (const Triangle& t : s.triangles) area += 0.5f * length(cross(t.p1 - t.p0, t.p2 - t.p0));
    EXPECT_FLOAT_EQ(area, 6.0f);
}

TEST(SceneLoader, BoxHasTwelveOutwardTriangles) {
    HostScene s = parse(R"({"shapes": [{"type": "box", "min": [-1, 0, 2], "max": [1, 3, 4]}]})");
    ASSERT_EQ(s.triangles.size(), 12u);
    Vec3f center(0.0f, 1.5f, 3.0f);
    float area = 0.0f;
    for (const Triangle& t : s.triangles) {
        Vec3f centroid = (t.p0 + t.p1 + t.p2) / 3.0f;
        EXPECT_GT(dot(normal_of(t), centroid - center), 0.0f);
        area += 0.5f * length(cross(t.p1 - t.p0, t.p2 - t.p0));
    }
    EXPECT_FLOAT_EQ(area, 2.0f * (2 * 3 + 3 * 2 + 2 * 2));
}

TEST(SceneLoader, FlipNormalsTurnsBoxInward) {
    HostScene s = parse(R"({"shapes": [{"type": "box", "min": [0, 0, 0], "max": [1, 1, 1], "flip_normals": true}]})");
    ASSERT_EQ(s.triangles.size(), 12u);
    for (const Triangle& t : s.triangles) {
        Vec3f centroid = (t.p0 + t.p1 + t.p2) / 3.0f;
        EXPECT_LT(dot(normal_of(t), centroid - Vec3f(0.5f)), 0.0f);
    }
}

TEST(SceneLoader, FlipNormalsSwapsTriangleVerticesAndFlagsSpheres) {
    HostScene s = parse(R"({"shapes": [
        {"type": "triangle", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "flip_normals": true},
        {"type": "sphere", "center": [0, 0, 0], "radius": 1, "flip_normals": true},
        {"type": "sphere", "center": [0, 0, 0], "radius": 1}]})");
    ASSERT_EQ(s.triangles.size(), 1u);
    expect_vec_near(s.triangles[0].p0, Vec3f(0, 0, 0));
    expect_vec_near(s.triangles[0].p1, Vec3f(0, 1, 0));
    expect_vec_near(s.triangles[0].p2, Vec3f(1, 0, 0));
    expect_vec_near(normal_of(s.triangles[0]), Vec3f(0, 0, -1));
    EXPECT_EQ(s.prims[1].flags & kPrimFlipNormal, uint32_t(kPrimFlipNormal));
    EXPECT_EQ(s.prims[2].flags & kPrimFlipNormal, 0u);
}

TEST(SceneLoader, EmissiveSphereLightNamesSpherePrimIdAfterAllTriangles) {
    // The sphere comes first in the file, but primitive ids put triangles first.
    HostScene s = parse(R"({"shapes": [
        {"type": "sphere", "center": [0, 0, 0], "radius": 0.5, "emission": [1, 2, 3]},
        {"type": "quad", "corner": [0, 0, 0], "edge_u": [1, 0, 0], "edge_v": [0, 1, 0], "emission": 4},
        {"type": "sphere", "center": [5, 0, 0], "radius": 0.5},
        {"type": "sphere", "center": [9, 0, 0], "radius": 0.5, "emission": 5}]})");
    ASSERT_EQ(s.triangles.size(), 2u);
    ASSERT_EQ(s.spheres.size(), 3u);
    ASSERT_EQ(s.prims.size(), 5u);
    ASSERT_EQ(s.lights.size(), 4u);
    for (size_t i = 0; i < s.lights.size(); ++i) {
        const Light& l = s.lights[i];
        EXPECT_EQ(l.type, LightType::Area);
        ASSERT_LT(l.prim, s.prims.size());
        EXPECT_EQ(s.prims[l.prim].light, int32_t(i));
    }
    EXPECT_EQ(s.lights[0].prim, 2u);  // first sphere
    expect_vec_near(s.lights[0].radiance, Vec3f(1, 2, 3));
    EXPECT_EQ(s.lights[1].prim, 0u);
    EXPECT_EQ(s.lights[2].prim, 1u);
    EXPECT_EQ(s.lights[3].prim, 4u);  // third sphere
    EXPECT_EQ(s.prims[3].light, -1);
}

TEST(SceneLoader, BlackEmissionAddsNoLight) {
    HostScene s = parse(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "emission": 0}]})");
    EXPECT_TRUE(s.lights.empty());
    EXPECT_EQ(s.prims[0].light, -1);
}

TEST(SceneLoader, MeshWithoutIndicesTakesPositionsThreeAtATime) {
    HostScene s = parse(R"({"shapes": [{"type": "mesh", "positions":
        [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]]}]})");
    ASSERT_EQ(s.triangles.size(), 2u);
    expect_vec_near(s.triangles[1].p0, Vec3f(0, 0, 1));
    expect_vec_near(s.triangles[1].p2, Vec3f(0, 1, 1));
}

TEST(SceneLoader, MeshIndicesSelectPositions) {
    HostScene s = parse(R"({"shapes": [{"type": "mesh", "positions": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
        "indices": [[0, 1, 2], [0, 2, 3]]}]})");
    ASSERT_EQ(s.triangles.size(), 2u);
    expect_vec_near(s.triangles[1].p2, Vec3f(0, 1, 0));
    for (const Triangle& t : s.triangles) expect_vec_near(normal_of(t), Vec3f(0, 0, 1));
}

TEST(SceneLoader, DegenerateMeshTrianglesAreDroppedAndCounted) {
    SceneLoadStats stats;
    HostScene s = parse(R"({"shapes": [{"type": "mesh", "emission": 1,
        "positions": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [2, 0, 0]],
        "indices": [[0, 1, 2], [0, 1, 3], [2, 2, 1]]}]})", &stats);
    EXPECT_EQ(stats.dropped_degenerate_triangles, 2u);
    ASSERT_EQ(s.triangles.size(), 1u);
    ASSERT_EQ(s.lights.size(), 1u);  // no light for a dropped triangle
    EXPECT_EQ(s.lights[0].prim, 0u);
}

TEST(SceneLoader, MeshOfOnlyDegenerateTrianglesIsAnError) {
    std::string e = parse_error(R"({"shapes": [{"type": "mesh", "positions": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]}]})");
    EXPECT_NE(e.find("inline.json: /shapes/0/positions: expected at least one triangle of non-zero area"),
              std::string::npos) << e;
}

TEST(SceneLoader, LightsAreRead) {
    HostScene s = parse(R"({"lights": [
        {"type": "point", "position": [1, 2, 3], "intensity": 5},
        {"type": "directional", "direction": [0, 0, -2], "irradiance": [1, 2, 3]},
        {"type": "environment", "radiance": [0.1, 0.2, 0.3], "name": "sky"}]})");
    ASSERT_EQ(s.lights.size(), 3u);
    EXPECT_EQ(s.lights[0].type, LightType::Point);
    expect_vec_near(s.lights[0].position, Vec3f(1, 2, 3));
    expect_vec_near(s.lights[0].radiance, Vec3f(5.0f));
    EXPECT_EQ(s.lights[1].type, LightType::Directional);
    expect_vec_near(s.lights[1].direction, Vec3f(0, 0, -1));  // normalised
    expect_vec_near(s.lights[1].radiance, Vec3f(1, 2, 3));
    EXPECT_EQ(s.lights[2].type, LightType::Environment);
    expect_vec_near(s.lights[2].radiance, Vec3f(0.1f, 0.2f, 0.3f));
}

TEST(SceneLoader, SpotLightIsReadWithGltfDefaults) {
    HostScene s = parse(R"({"lights": [
        {"type": "spot", "position": [1, 2, 3], "direction": [0, 0, -2], "intensity": [1, 2, 3],
         "inner_cone_angle": 10, "outer_cone_angle": 30, "name": "key"},
        {"type": "spot", "position": [0, 0, 0], "direction": [1, 0, 0]},
        {"type": "spot", "position": [0, 0, 0], "direction": [1, 0, 0], "inner_cone_angle": 90, "outer_cone_angle": 90}]})");
    ASSERT_EQ(s.lights.size(), 3u);
    const Light& l = s.lights[0];
    EXPECT_EQ(l.type, LightType::Spot);
    expect_vec_near(l.position, Vec3f(1, 2, 3));
    expect_vec_near(l.direction, Vec3f(0, 0, -1));  // normalised
    expect_vec_near(l.radiance, Vec3f(1, 2, 3));
    EXPECT_NEAR(l.cos_inner, 0.98480775f, 1e-6f);  // cos 10 degrees
    EXPECT_NEAR(l.cos_outer, 0.86602540f, 1e-6f);  // cos 30 degrees
    // Defaults: intensity 1, glTF's inner 0 and outer 45 degrees.
    expect_vec_near(s.lights[1].radiance, Vec3f(1.0f));
    EXPECT_EQ(s.lights[1].cos_inner, 1.0f);
    EXPECT_NEAR(s.lights[1].cos_outer, 0.70710678f, 1e-6f);
    EXPECT_NEAR(s.lights[2].cos_outer, 0.0f, 1e-6f);  // a hemisphere
}

TEST(SceneLoader, BadSpotLightsAreErrorsNamingTheField) {
    const std::string head = R"({"lights": [{"type": "spot", "position": [0, 0, 0], )";
    struct Case {
        const char* fields;
        const char* message;
        const char* detail = "";  // a further piece the message must contain
    } cases[] = {
        {R"("direction": [0, 0, 0]})", "inline.json: /lights/0/direction: expected non-zero direction, got [0, 0, 0]"},
        {R"("direction": [0, 0, "NaN"]})", "inline.json: /lights/0/direction/2: expected ", "got string \"NaN\""},
        {R"("direction": [0, 0, -1], "outer_cone_angle": 91})",
         "inline.json: /lights/0/outer_cone_angle: expected number in [0.02, 90], got 91"},
        {R"("direction": [0, 0, -1], "outer_cone_angle": 0})",
         "inline.json: /lights/0/outer_cone_angle: expected number in [0.02, 90], got 0"},
        {R"("direction": [0, 0, -1], "inner_cone_angle": -5})",
         "inline.json: /lights/0/inner_cone_angle: expected number in [0, 90], got -5"},
        {R"("direction": [0, 0, -1], "inner_cone_angle": 30, "outer_cone_angle": 20})",
         "inline.json: /lights/0/inner_cone_angle: expected number <= outer_cone_angle (20), got 30"},
        {R"("direction": [0, 0, -1], "inner_cone_angle": 50})",  // the default outer cone is 45
         "inline.json: /lights/0/inner_cone_angle: expected number <= outer_cone_angle (45), got 50"},
        {R"("direction": [0, 0, -1], "intensity": -1})", "inline.json: /lights/0/intensity: expected number >= 0"},
        {R"("direction": [0, 0, -1], "outer_angle": 30})", "inline.json: /lights/0/outer_angle: expected a key of a spot light",
         "got unknown key \"outer_angle\""},
        {R"("intensity": 1})", "inline.json: /lights/0: expected key \"direction\" (required in a spot light)"},
    };
    for (const Case& c : cases) {
        std::string e = parse_error(head + c.fields + "]}");
        EXPECT_NE(e.find(c.message), std::string::npos) << c.fields << "\n" << e;
        EXPECT_NE(e.find(c.detail), std::string::npos) << c.fields << "\n" << e;
    }
    std::string no_position = parse_error(R"({"lights": [{"type": "spot", "direction": [0, 0, -1]}]})");
    EXPECT_NE(no_position.find("inline.json: /lights/0: expected key \"position\" (required in a spot light)"),
              std::string::npos) << no_position;
}

TEST(SceneLoader, AreaLightsComeBeforeExplicitLights) {
    HostScene s = parse(R"({"lights": [{"type": "environment"}],
        "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "emission": 2}]})");
    ASSERT_EQ(s.lights.size(), 2u);
    EXPECT_EQ(s.lights[0].type, LightType::Area);
    EXPECT_EQ(s.lights[1].type, LightType::Environment);
    expect_vec_near(s.lights[1].radiance, Vec3f(1.0f));  // default radiance
}

TEST(SceneLoader, CommentsAreAccepted) {
    HostScene s = parse("{ // film size\n \"film\": {\"width\": 64 /* px */, \"height\": 32}}");
    EXPECT_EQ(s.settings.width, 64u);
    EXPECT_EQ(s.settings.height, 32u);
}

TEST(SceneLoader, UnknownKeySuggestsTheClosestKey) {
    std::string e = parse_error(R"({"camera": {"fvo": 40}})");
    EXPECT_EQ(e.rfind("inline.json: /camera/fvo: expected a key of camera (", 0), 0u) << e;
    EXPECT_NE(e.find("got unknown key \"fvo\" (did you mean \"fov\"?)"), std::string::npos) << e;
}

TEST(SceneLoader, UnknownMaterialSuggestsTheClosestName) {
    std::string e = parse_error(R"({"materials": {"white": {"type": "diffuse"}},
        "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "material": "whte"}]})");
    EXPECT_NE(e.find("inline.json: /shapes/0/material: expected the name of a material"), std::string::npos) << e;
    EXPECT_NE(e.find("got string \"whte\" (did you mean \"white\"?)"), std::string::npos) << e;
}

TEST(SceneLoader, MalformedJsonReportsLineAndColumn) {
    std::string e = parse_error("{\n  \"film\": {\n    \"width\": 5x\n  }\n}");
    EXPECT_EQ(e.rfind("inline.json:3:15: malformed JSON: ", 0), 0u) << e;
}

TEST(SceneLoader, DuplicateKeyIsAnError) {
    std::string e = parse_error(R"({"render": {"spp": 4, "spp": 8}})");
    EXPECT_EQ(e, "inline.json: /render/spp: expected each key once per object, got a second \"spp\"");
}

TEST(SceneLoader, DuplicateKeyInsideArrayElementNamesTheElement) {
    std::string e = parse_error(R"({"shapes": [{"type": "sphere"}, {"type": "sphere", "radius": 1, "radius": 2}]})");
    EXPECT_NE(e.find("inline.json: /shapes/1/radius: expected each key once"), std::string::npos) << e;
}

TEST(SceneLoader, DeepNestingIsAnErrorNotACrash) {
    std::string deep = "{\"shapes\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    std::string e = parse_error(deep);
    EXPECT_NE(e.find("expected nesting depth <= 64"), std::string::npos) << e;
}

TEST(SceneLoader, PointerEscapesSlashAndTildeInNames) {
    std::string e = parse_error(R"({"materials": {"a/b~c": {"type": "diffuse", "albedo": 2}}})");
    EXPECT_NE(e.find("inline.json: /materials/a~1b~0c/albedo: expected number in [0, 1], got 2"), std::string::npos) << e;
}

TEST(SceneLoader, ErrorMessagesStayOnOneLine) {
    const char* bad[] = {
        "{\"materials\": {\"x\\ny\": 3}}",
        "{\"render\": {\"integrator\": \"p\\nt\"}}",
        "{\n\n\"a\n",
        "{\"film\": {\"width\": \"\\u0001\"}}",
    };
    for (const char* json : bad) {
        std::string e = parse_error(json);
        EXPECT_FALSE(e.empty());
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
}

TEST(SceneLoader, OverflowingNumberIsReportedAsSuch) {
    std::string e = parse_error(R"({"camera": {"fov": 1e999}})");
    EXPECT_EQ(e, "inline.json: /camera/fov: expected a finite number, got 1e999, which overflows to infinity");
    std::string in_array = parse_error(R"({"shapes": [{"type": "sphere", "center": [0, -1e400, 0]}]})");
    EXPECT_NE(in_array.find("inline.json: /shapes/0/center/1: expected a finite number, got -1e400"), std::string::npos)
        << in_array;
}

TEST(SceneLoader, NumberBeyondFloatRangeIsRejected) {
    std::string e = parse_error(R"({"lights": [{"type": "point", "position": [0, 0, 0], "intensity": 1e300}]})");
    EXPECT_NE(e.find("/lights/0/intensity: expected number >= 0 that fits a 32-bit float, got 1e+300"),
              std::string::npos) << e;
}

TEST(SceneLoader, ResolveScenePathJoinsRelativePaths) {
    EXPECT_EQ(resolve_scene_path("scenes/x", "meshes/a.obj"), "scenes/x/meshes/a.obj");
    EXPECT_EQ(resolve_scene_path("scenes/x", "../b.obj"), "scenes/b.obj");
    EXPECT_EQ(resolve_scene_path("scenes/x", "/abs/c.obj"), "/abs/c.obj");
    EXPECT_EQ(resolve_scene_path("", "c.obj"), "c.obj");
}

TEST(SceneLoader, LoadSceneReportsMissingFile) {
    std::string path = test::scene_path("tests/io/bad_scenes/does-not-exist.json");
    std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e, path + ": cannot open: No such file or directory");
}

TEST(SceneLoader, LoadSceneReportsDirectory) {
    std::string path = test::scene_path("tests/io/bad_scenes");
    std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e, path + ": cannot open: is a directory");
}

TEST(SceneLoader, LoadSceneUsesThePathInMessagesAndSourcePath) {
    std::string path = (std::filesystem::temp_directory_path() / "wf_scene_loader_test.json").string();
    {
        std::ofstream f(path);
        f << R"({"film": {"width": 8, "height": 8}})";
    }
    HostScene s = load_scene(path);
    EXPECT_EQ(s.source_path, path);
    EXPECT_EQ(s.settings.width, 8u);
    std::filesystem::remove(path);
}

TEST(SceneLoader, DocumentationExampleLoads) {
    std::ifstream f(test::scene_path("docs/scene-format.md"));
    ASSERT_TRUE(f) << "docs/scene-format.md";
    std::string doc((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t begin = doc.find("```json\n");
    ASSERT_NE(begin, std::string::npos);
    begin += 8;
    size_t end = doc.find("```", begin);
    ASSERT_NE(end, std::string::npos);
    SceneLoadStats stats;
    HostScene s = parse_scene(doc.substr(begin, end - begin), "scene-format.md", ".", &stats);
    EXPECT_EQ(s.triangles.size(), 2u + 12 + 1 + 4 + 2);
    EXPECT_EQ(s.spheres.size(), 3u);
    EXPECT_EQ(s.lights.size(), 2u + 1 + 4);  // area lights, then point, spot, directional, environment
    EXPECT_EQ(s.lights[s.lights.size() - 3].type, LightType::Spot);
    EXPECT_EQ(s.materials.size(), 6u);  // five named, plus the default for the backdrop
    EXPECT_EQ(stats.dropped_degenerate_triangles, 0u);
    EXPECT_EQ(s.settings.width, 640u);
    EXPECT_FLOAT_EQ(s.camera.aperture_radius, 0.02f);
}

}  // namespace
}  // namespace wf
