// Bad scene files (tests/io/bad_scenes/): each is rejected with a one-line message
// that names the file and the exact place of the problem.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "io/scene_loader.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

struct BadScene {
    const char* file;
    const char* where;   // what follows "<path>": ": /json/pointer: expected" or ":line:col: malformed JSON"
    const char* detail;  // a further piece the message must contain
};

const BadScene kBadScenes[] = {
    // Syntax.
    {"malformed_trailing_comma.json", ":4:3: malformed JSON: ", "unexpected '}'"},
    {"empty_file.json", ":1:1: malformed JSON: ", "unexpected end of input"},
    {"trailing_garbage.json", ":1:41: malformed JSON: ", "expected end of input"},
    {"duplicate_key.json", ": /render/spp: expected ", "each key once per object, got a second \"spp\""},
    {"root_not_object.json", ": (root): expected ", "an object (scene), got [1, 2, 3]"},
    // Structure and types.
    {"unknown_key.json", ": /camera/fvo: expected ", "unknown key \"fvo\" (did you mean \"fov\"?)"},
    {"unknown_top_level_key.json", ": /shape: expected ", "(did you mean \"shapes\"?)"},
    {"wrong_type_width.json", ": /film/width: expected ", "integer in [1, 16384], got string \"512\""},
    {"fractional_width.json", ": /film/width: expected ", "got 512.5"},
    {"shapes_not_array.json", ": /shapes: expected ", "an array (list of shapes), got an object"},
    {"short_vector.json", ": /shapes/0/center: expected ", "array of 3 numbers [x, y, z], got [0, 0]"},
    {"missing_shape_type.json", ": /shapes/0: expected ", "key \"type\" (required in a shape)"},
    {"missing_radius.json", ": /shapes/0: expected ", "key \"radius\" (required in a sphere shape)"},
    // Numbers: not numbers, not finite, out of range, absurd.
    {"nan_string_radius.json", ": /shapes/0/radius: expected ", "got string \"NaN\""},
    {"overflowing_number.json", ": /lights/0/intensity/1: expected ", "a finite number, got 1e999, which overflows to infinity"},
    {"negative_radius.json", ": /shapes/1/radius: expected ", "number in (0, 1e+10], got -0.5"},
    {"huge_coordinate.json", ": /shapes/0/center/1: expected ", "got 1e+20"},
    {"zero_width.json", ": /film/width: expected ", "integer in [1, 16384], got 0"},
    {"huge_film.json", ": /film/width: expected ", "integer in [1, 16384], got 100000"},
    {"too_many_pixels.json", ": /film: expected ", "width * height <= 67108864 pixels, got 16384 x 16384 = 268435456"},
    {"zero_spp.json", ": /render/spp: expected ", "integer in [1, 1048576], got 0"},
    {"huge_max_depth.json", ": /render/max_depth: expected ", "integer in [1, 1024], got 5000"},
    {"fov_out_of_range.json", ": /camera/fov: expected ", "number in (0, 180), got 180"},
    // Names and kinds.
    {"unknown_integrator.json", ": /render/integrator: expected ", "got string \"pathtracer\""},
    {"unknown_tonemap.json", ": /render/tonemap: expected ", "\"pbr-neutral\", \"agx\", got string \"filmic\""},
    {"huge_exposure.json", ": /render/exposure: expected ", "number in [-32, 32], got 40"},
    {"unknown_material.json", ": /shapes/1/material: expected ", "got string \"whte\" (did you mean \"white\"?)"},
    {"unknown_material_type.json", ": /materials/skin/type: expected ", "got string \"subsurface\""},
    {"unknown_shape_type.json", ": /shapes/0/type: expected ", "got string \"cube\""},
    // Physically meaningless values.
    {"albedo_above_one.json", ": /materials/hot/albedo/0: expected ", "number in [0, 1], got 1.2"},
    {"negative_emission.json", ": /shapes/0/emission: expected ", "got -1"},
    {"dielectric_zero_ior.json", ": /materials/glass/ior: expected ", "number > 0, got 0"},
    // Geometry that cannot render.
    {"index_out_of_range.json", ": /shapes/0/indices/1/2: expected ", "index in [0, 3] (the mesh has 4 positions), got 4"},
    {"negative_index.json", ": /shapes/0/indices/0/1: expected ", "got -1"},
    {"empty_mesh.json", ": /shapes/0/positions: expected ", "at least 3 positions, got an empty array"},
    {"positions_not_multiple_of_three.json", ": /shapes/0/positions: expected ", "a multiple of 3 positions"},
    {"degenerate_triangle.json", ": /shapes/0/vertices: expected ", "3 vertices spanning a non-zero area"},
    {"parallel_quad_edges.json", ": /shapes/0/edge_v: expected ", "edge_v not parallel to edge_u"},
    {"inverted_box.json", ": /shapes/0/max: expected ", "max > min on every axis"},
    // Lights and camera.
    {"zero_direction.json", ": /lights/0/direction: expected ", "non-zero direction, got [0, 0, 0]"},
    {"two_environments.json", ": /lights/2: expected ", "at most one environment light, got a second one (the first is /lights/0)"},
    {"look_at_and_forward.json", ": /camera/forward: expected ", "either \"look_at\" or \"forward\", not both"},
    {"look_at_camera_position.json", ": /camera/look_at: expected ", "a point away from the camera position"},
    {"up_parallel_to_view.json", ": /camera/up: expected ", "an up vector not parallel to the view direction"},
    // Values whose float arithmetic breaks down (limits derived in io/scene_json.h).
    {"tiny_sphere_radius.json", ": /shapes/1/radius: expected ", "number >= 3.62396e-06 (2^-20 of the scene's largest coordinate magnitude, 3.8"},
    {"tiny_emissive_quad.json", ": /shapes/1: expected ", "emissive triangles of area >= 1.65035e-10 (that of a sphere of radius 2^-20 of the scene's largest coordinate magnitude, 3.8, and at least 2^-61"},
    {"huge_phong_exponent.json", ": /materials/glossy/phong_exponent: expected ", "number in [0, 131072], got 1e+09"},
    {"fov_rounds_to_180.json", ": /camera/fov: expected ", "179.99998474121094] (as a float; outside it the camera's tan(fov / 2)"},
    {"huge_point_intensity.json", ": /lights/0/intensity: expected ", "intensity <= 6.30478e+27, so that (number of lights) * power = 1 * 4 pi * intensity <= 2^96, got 3e+38"},
    {"huge_spot_intensity.json", ": /lights/0/intensity: expected ", "intensity <= 6.30478e+27, so that (number of lights) * power = 1 * 4 pi * intensity <= 2^96, got 3e+38"},
    {"huge_emission.json", ": /shapes/1/emission: expected ", "power pi * area * radiance per light (sphere or triangle) is <= 2^65"},
    {"huge_directional_irradiance.json", ": /lights/0/irradiance: expected ", "irradiance <= 8.40637e+09"},
};

std::string bad_scene_path(const std::string& file) { return test::scene_path("tests/io/bad_scenes/" + file); }

class BadSceneFile : public testing::TestWithParam<BadScene> {};

TEST_P(BadSceneFile, IsRejectedWithFileAndPlace) {
    const BadScene& bad = GetParam();
    std::string path = bad_scene_path(bad.file);
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + bad.where, 0), 0u) << e;
    EXPECT_NE(e.find(bad.detail), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

INSTANTIATE_TEST_SUITE_P(Files, BadSceneFile, testing::ValuesIn(kBadScenes),
                         [](const testing::TestParamInfo<BadScene>& info) {
                             std::string name = info.param.file;
                             name = name.substr(0, name.find('.'));
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(BadSceneFiles, EveryFileInTheFolderHasAnExpectation) {
    std::set<std::string> listed;
    for (const BadScene& b : kBadScenes) listed.insert(b.file);
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::scene_path("tests/io/bad_scenes"))) {
        ++count;
        EXPECT_TRUE(listed.count(entry.path().filename().string())) << entry.path() << " has no expectation";
    }
    EXPECT_EQ(count, listed.size());
    EXPECT_GE(count, 15u);
}

TEST(BadSceneFiles, MissingFileIsReportedWithItsPath) {
    std::string path = bad_scene_path("no-such-scene.json");
    std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + ": cannot open: ", 0), 0u) << e;
}

}  // namespace
}  // namespace wf
