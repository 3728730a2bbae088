// Meshes and transforms in scenes: "file" meshes (paths relative to the scene file),
// every shape's "transform", what HostScene keeps of a mesh, and a mesh file rendered
// on its own through load_scene. Expected values are worked out by hand.
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "io/scene_loader.h"
#include "tests/common/source_dir.h"
#include "tests/io/mesh_test_util.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

using test::expect_near;
using test::parse_error;

const std::string kMeshDir = test::source_dir() + "/tests/data/meshes";

// Parses a scene whose relative paths resolve from tests/data/meshes.
HostScene parse(const std::string& json, SceneLoadStats* stats = nullptr) {
    return parse_scene(json, "inline.json", kMeshDir, stats);
}

std::string error_of(const std::string& json) {
    return test::scene_error_of([&] { parse(json); });
}


Aabb bounds_of(const HostScene& s) { return s.bounds(); }

// ---- Mesh files in a scene ----------------------------------------------------------

TEST(MeshScene, FileMeshIsFlattenedAndKeptIndexed) {
    HostScene s = parse(R"({"materials": {"clay": {"type": "diffuse", "albedo": 0.5}},
        "shapes": [{"type": "sphere", "center": [0, 5, 0], "radius": 1},
                   {"type": "mesh", "file": "pyramid_ascii.ply", "material": "clay"}]})");
    ASSERT_EQ(s.triangles.size(), 6u);
    ASSERT_EQ(s.meshes.size(), 1u);
    const IndexedMesh& m = s.meshes[0];
    EXPECT_EQ(m.first_prim, 0u);
    EXPECT_EQ(m.normals.size(), 5u);
    EXPECT_EQ(m.uvs.size(), 5u);
    // Triangle t of the mesh is primitive first_prim + t, vertex for vertex.
    for (size_t t = 0; t < m.num_triangles(); ++t) {
        const Triangle& flat = s.triangles[m.first_prim + t];
        expect_near(flat.p0, m.positions[m.indices[3 * t]], 0);
        expect_near(flat.p2, m.positions[m.indices[3 * t + 2]], 0);
        EXPECT_EQ(s.prims[m.first_prim + t].material, 0u);
    }
    EXPECT_NEAR(test::signed_volume(s.triangles), 4.0 / 3.0, 1e-6);
}

TEST(MeshScene, FilePathsResolveFromTheSceneFilesFolder) {
    namespace fs = std::filesystem;
    fs::path dir = test::temp_folder("wf_mesh_scene");
    fs::create_directories(dir / "models");
    fs::copy_file(kMeshDir + "/pyramid.obj", dir / "models" / "p.obj", fs::copy_options::overwrite_existing);
    std::string scene = test::write_file((dir / "scene.json").string(),
                                         R"({"shapes": [{"type": "mesh", "file": "models/p.obj"}]})");
    // Loaded from another working directory, the path still resolves from the scene's folder.
    fs::path cwd = fs::current_path();
    fs::current_path(fs::temp_directory_path());
    HostScene s = load_scene(scene);
    fs::current_path(cwd);
    EXPECT_EQ(s.triangles.size(), 6u);
}

TEST(MeshScene, TransformPlacesAFileMesh) {
    // Scale 2, a quarter turn about +y (x -> -z, z -> x), then up by 3: the pyramid's
    // box [-1, 1] x [0, 1] x [-1, 1] becomes [-2, 2] x [3, 5] x [-2, 2].
    HostScene s = parse(R"({"shapes": [{"type": "mesh", "file": "pyramid_ascii.ply",
        "transform": {"scale": 2, "rotate": {"axis": [0, 1, 0], "angle": 90}, "translate": [0, 3, 0]}}]})");
    Aabb box = bounds_of(s);
    expect_near(box.lo, Vec3f(-2, 3, -2));
    expect_near(box.hi, Vec3f(2, 5, 2));
    EXPECT_NEAR(test::signed_volume(s.triangles), 8 * 4.0 / 3.0, 1e-4);  // volume x 2^3
    // Vertex 1 (1, 0, -1) -> (2, 0, -2) -> turned: (-2, 0, -2) -> (-2, 3, -2); its normal
    // (1, -1, -1)/sqrt(3) turns the same way (a similarity keeps normals as directions).
    const IndexedMesh& m = s.meshes[0];
    expect_near(m.positions[1], Vec3f(-2, 3, -2));
    expect_near(m.normals[1], normalize(Vec3f(-1, -1, -1)));
}

TEST(MeshScene, MirroredTransformKeepsTheMeshFacingOutward) {
    const std::string mirror = R"(", "transform": {"scale": [-1, 1, 2]}}]})";
    for (const char* file : {"pyramid.obj", "pyramid_ascii.ply"}) {
        HostScene s = parse(std::string(R"({"shapes": [{"type": "mesh", "file": ")") + file + mirror);
        // Volume 4/3 * |det| = 8/3, positive: normals still point out of the solid.
        EXPECT_NEAR(test::signed_volume(s.triangles), 8.0 / 3.0, 1e-5) << file;
    }
    // The OBJ's flat normals agree with the mirrored triangles' geometric normals.
    HostScene obj = parse(R"({"shapes": [{"type": "mesh", "file": "pyramid.obj)" + mirror);
    const IndexedMesh& m = obj.meshes[0];
    for (size_t t = 0; t < m.num_triangles(); ++t) {
        Vec3f g = test::geometric_normal(obj.triangles[m.first_prim + t]);
        for (int k = 0; k < 3; ++k) EXPECT_GT(dot(m.normals[m.indices[3 * t + k]], g), 0.999f) << "triangle " << t;
    }
    // The PLY's vertex normals follow the inverse transpose diag(-1, 1, 1/2): vertex 2's
    // (1, -1, 1) becomes (-1, -1, 1/2), normalised.
    HostScene ply = parse(R"({"shapes": [{"type": "mesh", "file": "pyramid_ascii.ply)" + mirror);
    expect_near(ply.meshes[0].normals[2], normalize(Vec3f(-1, -1, 0.5f)));
    expect_near(ply.meshes[0].positions[2], Vec3f(-1, 0, 2));
}

TEST(MeshScene, FlipNormalsTurnsTheMeshInsideOut) {
    HostScene s = parse(R"({"shapes": [{"type": "mesh", "file": "pyramid.obj", "flip_normals": true}]})");
    EXPECT_NEAR(test::signed_volume(s.triangles), -4.0 / 3.0, 1e-6);
    const IndexedMesh& m = s.meshes[0];
    Vec3f g = test::geometric_normal(s.triangles[m.first_prim]);
    EXPECT_GT(dot(m.normals[m.indices[0]], g), 0.99f);  // the shading normal turned with it
}

TEST(MeshScene, EmissiveMeshBecomesOneAreaLightPerTriangle) {
    HostScene s = parse(R"({"shapes": [{"type": "quad", "corner": [0, 0, 0], "edge_u": [1, 0, 0], "edge_v": [0, 1, 0]},
        {"type": "mesh", "file": "triangle.gltf", "emission": [4, 3, 2]}],
        "lights": [{"type": "point", "position": [0, 0, 9]}]})");
    ASSERT_EQ(s.triangles.size(), 4u);  // the quad, then the glTF's two triangle instances
    ASSERT_EQ(s.lights.size(), 3u);
    for (int i = 0; i < 2; ++i) {
        const Light& l = s.lights[size_t(i)];
        EXPECT_EQ(l.type, LightType::Area);
        EXPECT_EQ(l.prim, uint32_t(2 + i));
        EXPECT_EQ(s.prims[l.prim].light, i);
        expect_near(l.radiance, Vec3f(4, 3, 2), 0);
    }
    EXPECT_EQ(s.lights[2].type, LightType::Point);
    ASSERT_EQ(s.meshes.size(), 2u);
    EXPECT_EQ(s.meshes[1].first_prim, 3u);
}

TEST(MeshScene, FileProblemsNameTheSceneTheFieldAndTheMeshFile) {
    std::string e = error_of(R"({"shapes": [{"type": "mesh", "file": "no-such.ply"}]})");
    EXPECT_EQ(e.rfind("inline.json: /shapes/0/file: " + kMeshDir + "/no-such.ply: cannot open: No such file", 0), 0u) << e;
    e = error_of(R"({"shapes": [{"type": "mesh", "file": "pyramid.obj", "positions": [[0, 0, 0]]}]})");
    EXPECT_CONTAINS(e, "inline.json: /shapes/0/positions: expected either \"file\" or \"positions\"");
    e = error_of(R"({"shapes": [{"type": "mesh", "file": "scene.json"}]})");
    EXPECT_CONTAINS(e, "not a mesh file: expected the extension .obj, .ply, .gltf or .glb");
    e = error_of(R"({"shapes": [{"type": "mesh", "file": 3}]})");
    EXPECT_CONTAINS(e, "inline.json: /shapes/0/file: expected ");
}

// ---- Transforms of the other shapes ---------------------------------------------------

TEST(ShapeTransform, UnitQuadTurnedAQuarterAboutXLandsInTheXzPlane) {
    HostScene s = parse(R"({"shapes": [{"type": "quad", "corner": [0, 0, 0], "edge_u": [1, 0, 0], "edge_v": [0, 1, 0],
        "transform": {"rotate": {"axis": [1, 0, 0], "angle": 90}}}]})");
    ASSERT_EQ(s.triangles.size(), 2u);
    // (x, y, 0) -> (x, 0, y): the quad spans [0, 1] in x and z at y = 0, facing -y (was +z).
    Aabb box = bounds_of(s);
    expect_near(box.lo, Vec3f(0, 0, 0));
    expect_near(box.hi, Vec3f(1, 0, 1));
    for (const Triangle& t : s.triangles) expect_near(test::geometric_normal(t), Vec3f(0, -1, 0));
    expect_near(s.triangles[0].p2, Vec3f(1, 0, 1));  // corner + u + v
}

TEST(ShapeTransform, RotatedBoxHasTheBoundsOfItsTurnedCorners) {
    // The cube [-1, 1]^3 turned 45 degrees about z reaches sqrt(2) along x and y.
    HostScene s = parse(R"({"shapes": [{"type": "box", "min": [-1, -1, -1], "max": [1, 1, 1],
        "transform": {"rotate": {"axis": [0, 0, 1], "angle": 45}, "translate": [10, 0, 0]}}]})");
    Aabb box = bounds_of(s);
    const float r2 = std::sqrt(2.0f);
    expect_near(box.lo, Vec3f(10 - r2, -r2, -1));
    expect_near(box.hi, Vec3f(10 + r2, r2, 1));
    EXPECT_NEAR(test::signed_volume(s.triangles), 8.0, 1e-4);  // outward normals
}

TEST(ShapeTransform, MatrixAndArraysOfTransforms) {
    // Row-major matrix: x' = y + 1, y' = -x, z' = 2z (a turn and a stretch).
    HostScene a = parse(R"({"shapes": [{"type": "triangle", "vertices": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "transform": {"matrix": [[0, 1, 0, 1], [-1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 1]]}}]})");
    expect_near(a.triangles[0].p0, Vec3f(1, -1, 0));
    expect_near(a.triangles[0].p1, Vec3f(2, 0, 0));
    expect_near(a.triangles[0].p2, Vec3f(1, 0, 2));
    // An array applies first to last: translate then scale is not scale then translate.
    HostScene b = parse(R"({"shapes": [{"type": "triangle", "vertices": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "transform": [{"translate": [1, 0, 0]}, {"scale": 3}]}]})");
    expect_near(b.triangles[0].p0, Vec3f(6, 0, 0));
    expect_near(b.triangles[0].p1, Vec3f(3, 3, 0));
}

TEST(ShapeTransform, OneObjectScalesThenRotatesThenTranslates) {
    // (1, 0, 0) -> scale (2, 0, 0) -> quarter turn about z (0, 2, 0) -> (0, 2, 5).
    // Rotating before scaling would give (0, 1, 5); translating earlier, other points.
    HostScene s = parse(R"({"shapes": [{"type": "triangle", "vertices": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "transform": {"translate": [0, 0, 5], "rotate": {"axis": [0, 0, 1], "angle": 90}, "scale": [2, 1, 1]}}]})");
    expect_near(s.triangles[0].p0, Vec3f(0, 2, 5));
    expect_near(s.triangles[0].p1, Vec3f(-1, 0, 5));
    expect_near(s.triangles[0].p2, Vec3f(0, 0, 6));
}

TEST(ShapeTransform, MirroredBoxAndTriangleKeepTheirFacing) {
    HostScene s = parse(R"({"shapes": [{"type": "box", "min": [0, 0, 0], "max": [1, 2, 3],
        "transform": {"matrix": [[-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}},
        {"type": "triangle", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "transform": {"scale": [1, 1, -1]}}]})");
    std::vector<Triangle> box(s.triangles.begin(), s.triangles.begin() + 12);
    EXPECT_NEAR(test::signed_volume(box), 6.0, 1e-4);
    expect_near(bounds_of(s).lo, Vec3f(-1, 0, 0));
    // The triangle faced +z; mirrored in z it faces -z, as the mirrored surface's normal does.
    expect_near(test::geometric_normal(s.triangles[12]), Vec3f(0, 0, -1));
}

TEST(ShapeTransform, SphereTakesRotationUniformScaleAndTranslation) {
    HostScene s = parse(R"({"shapes": [{"type": "sphere", "center": [1, 0, 0], "radius": 0.5,
        "transform": {"scale": 4, "rotate": {"axis": [0, 0, 1], "angle": 90}, "translate": [0, 0, 7]}}]})");
    ASSERT_EQ(s.spheres.size(), 1u);
    expect_near(s.spheres[0].center, Vec3f(0, 4, 7));
    EXPECT_NEAR(s.spheres[0].radius, 2.0f, 1e-5f);
}

TEST(ShapeTransform, SphereRejectsANonUniformScaleNamingTheField) {
    std::string e = error_of(R"({"shapes": [{"type": "quad", "corner": [0, 0, 0], "edge_u": [1, 0, 0], "edge_v": [0, 1, 0]},
        {"type": "sphere", "center": [0, 0, 0], "radius": 1, "transform": {"scale": [1, 2, 1]}}]})");
    EXPECT_EQ(e.rfind("inline.json: /shapes/1/transform: expected a rotation, uniform scale and translation", 0), 0u) << e;
    EXPECT_CONTAINS(e, "got axis scales 1.000000, 2.000000, 1.000000");
    e = error_of(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1,
        "transform": {"matrix": [[1, 0.5, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}}]})");
    EXPECT_CONTAINS(e, "/shapes/0/transform: expected a rotation, uniform scale and translation");
}

TEST(ShapeTransform, BadTransformsAreRejectedWithTheirPlace) {
    auto tri = [](const std::string& transform) {
        return R"({"shapes": [{"type": "triangle", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "transform": )" +
               transform + "}]}";
    };
    EXPECT_CONTAINS(error_of(tri(R"({"scale": [1, 0, 1]})")),
                    "/shapes/0/transform/scale: expected a non-zero scale on every axis, got [1, 0, 1]");
    EXPECT_CONTAINS(error_of(tri(R"({"matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]]})")),
                    "/shapes/0/transform/matrix/3: expected [0, 0, 0, 1] (an affine transform)");
    EXPECT_CONTAINS(error_of(tri(R"({"matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]})")),
                    "/shapes/0/transform: expected an invertible transform");
    EXPECT_CONTAINS(error_of(tri(R"({"matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "scale": 2})")),
                    "/shapes/0/transform/matrix: expected \"matrix\" alone");
    EXPECT_CONTAINS(error_of(tri(R"({"rotae": {"axis": [0, 0, 1], "angle": 5}})")), "(did you mean \"rotate\"?)");
    EXPECT_CONTAINS(error_of(tri(R"({"rotate": {"axis": [0, 0, 0], "angle": 5}})")),
                    "/shapes/0/transform/rotate/axis: expected non-zero direction");
    EXPECT_CONTAINS(error_of(tri(R"({"translate": [1e10, 0, 0], "scale": 1e5})")),
                    "/shapes/0/transform: expected a transform that keeps coordinates within magnitude 1e10");
    EXPECT_CONTAINS(error_of(tri("[]")), "/shapes/0/transform: expected a transform object or a non-empty array");
}

TEST(ShapeTransform, InlineMeshTakesATransformAndKeepsItsRecord) {
    SceneLoadStats stats;
    HostScene s = parse(R"({"shapes": [{"type": "mesh", "positions": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [2, 0, 0]],
        "indices": [[0, 1, 3], [0, 1, 2]], "transform": {"translate": [0, 0, 5]}}]})", &stats);
    EXPECT_EQ(stats.dropped_degenerate_triangles, 1u);  // (0, 1, 3) is collinear
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].indices, (std::vector<uint32_t>{0, 1, 2}));  // dropped from the record too
    expect_near(s.triangles[0].p2, Vec3f(0, 1, 5));
}

// ---- A mesh file as the whole scene -----------------------------------------------------

TEST(MeshFileScene, GetsAFramingCameraAnEnvironmentAndTheDefaultMaterial) {
    for (const char* file : {"pyramid.obj", "pyramid_ascii.ply", "pyramid_binary_le.ply", "triangle.gltf"}) {
        SCOPED_TRACE(file);
        HostScene s = load_scene(kMeshDir + "/" + file);
        ASSERT_FALSE(s.triangles.empty());
        ASSERT_EQ(s.materials.size(), 1u);
        if (std::string(file) == "triangle.gltf") {
            // glTF's own default material: white, metallic 1, roughness 1 (glTF 2.0, 3.9.6).
            EXPECT_EQ(s.materials[0].type, MaterialType::GltfPbr);
            EXPECT_EQ(s.materials[0].pbr.metallic, 1.0f);
            EXPECT_EQ(s.materials[0].pbr.roughness, 1.0f);
            EXPECT_EQ(s.materials[0].pbr.base_color.x, 1.0f);
        } else {
            EXPECT_EQ(s.material_names[0], "default");
            EXPECT_EQ(s.materials[0].kd.x, 0.8f);
        }
        ASSERT_EQ(s.lights.size(), 1u);
        EXPECT_EQ(s.lights[0].type, LightType::Environment);
        EXPECT_FALSE(s.meshes.empty());
        // Every vertex is in front of the camera and inside its field of view, and the
        // mesh fills a fair part of it.
        Camera cam = s.camera.build(s.settings.width, s.settings.height);
        float widest = 0;
        for (const Triangle& t : s.triangles) {
            for (Vec3f p : {t.p0, t.p1, t.p2}) {
                Vec3f d = p - cam.position;
                float z = dot(d, cam.forward);
                ASSERT_GT(z, 0.0f);
                float x = dot(d, cam.right) / z / (cam.tan_half_fov_y * cam.aspect);
                float y = dot(d, cam.up) / z / cam.tan_half_fov_y;
                EXPECT_LE(std::fabs(x), 1.0f);
                EXPECT_LE(std::fabs(y), 1.0f);
                widest = std::max({widest, std::fabs(x), std::fabs(y)});
            }
        }
        EXPECT_GT(widest, 0.3f);
    }
}

}  // namespace
}  // namespace wf
