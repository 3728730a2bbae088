// Inputs at the edge of float arithmetic (limits derived in io/scene_json.h,
// io/scene_shapes.h, io/scene_loader.cpp and io/scene_materials.cpp): just inside each limit the scene
// loads and renders finite, correct samples; just outside it is refused with a message
// naming the field. The tiny-direction cases are made right rather than refused.
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/render.h"
#include "io/scene_loader.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

using Json = nlohmann::json;

// Shortest text that reads back as exactly `v`.
std::string exact(double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}
std::string exact(float v) { return exact(double(v)); }

Json cornell_box() {
    std::ifstream f(test::scene_path("scenes/cornell-box.json"));
    std::stringstream s;
    s << f.rdbuf();
    return Json::parse(s.str(), nullptr, true, /*ignore_comments=*/true);
}

HostScene parse(const Json& doc) { return parse_scene(doc.dump(), "inline.json", "."); }
HostScene parse(const char* text) { return parse_scene(text, "inline.json", "."); }
HostScene parse(const std::string& text) { return parse_scene(text, "inline.json", "."); }

// Renders a small film of the scene on the CPU; returns the result (non-finite count in stats).
RenderResult render_small(const HostScene& scene, const std::string& integrator, uint32_t spp = 8) {
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 24;
    o.settings.spp = spp;
    o.settings.max_depth = 6;
    o.settings.integrator = integrator;
    o.backend = BackendKind::Cpu;
    return render(scene, o);
}

double image_mean(const Image& image) {
    double sum = 0;
    for (const Vec3f& p : image.pixels) sum += (double(p.x) + p.y + p.z) / 3.0;
    return sum / double(image.pixel_count());
}

// ---- Sphere radius -----------------------------------------------------------------------

// The box spans [-1, 1] x [0, 2] x [-1, 1]; the camera at z = 3.8 has the largest coordinate.
constexpr double kCornellLargestCoordinate = double(3.8f);  // as the loader sees it

Json cornell_with_sphere(const std::string& radius_text, float emission) {
    Json doc = cornell_box();
    doc["shapes"].push_back(Json::parse(R"({"type": "sphere", "center": [0, 1, 0], "emission": )" +
                                        exact(emission) + R"(, "radius": )" + radius_text + "}"));
    return doc;
}

TEST(SceneFloatLimits, SphereRadiusBoundaryIsTwoToTheMinus20OfTheLargestCoordinate) {
    float inside = float(kCornellLargestCoordinate * 0x1p-20);
    if (double(inside) < kCornellLargestCoordinate * 0x1p-20) inside = std::nextafter(inside, 1.0f);
    float outside = std::nextafter(inside, 0.0f);
    EXPECT_NO_THROW(parse(cornell_with_sphere(exact(inside), 1.0f)));
    std::string e = test::scene_error_of([&] { parse(cornell_with_sphere(exact(outside), 1.0f)); });
    EXPECT_NE(e.find("inline.json: /shapes/8/radius: expected number >= "), std::string::npos) << e;
    EXPECT_NE(e.find("got " + exact(outside)), std::string::npos) << e;
    // The example of the issue: 1e-30 squared underflows to 0 in float.
    e = test::scene_error_of([&] { parse(cornell_with_sphere("1e-30", 1.0f)); });
    EXPECT_NE(e.find("/shapes/8/radius"), std::string::npos) << e;
}

TEST(SceneFloatLimits, SphereRadiusHasAnAbsoluteFloorOfTwoToTheMinus60) {
    // A scene at the scale of 1e-17 (the relative limit would allow 1e-23).
    auto scene = [](const std::string& radius) {
        return R"({"camera": {"position": [0, 0, 1e-17], "look_at": [0, 0, 0]},
                   "shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": )" + radius + "}]}";
    };
    EXPECT_NO_THROW(parse(scene(exact(0x1p-60))));
    std::string e = test::scene_error_of([&] { parse(scene(exact(std::nextafter(0x1p-60f, 0.0f)))); });
    EXPECT_NE(e.find("/shapes/0/radius: expected number >= 8.67362e-19"), std::string::npos) << e;
}

TEST(SceneFloatLimits, SmallestEmissiveSphereRendersFiniteAndUnbiased) {
    // Just inside the limit, the light is tiny: it must neither produce NaN/Inf samples nor
    // change the image beyond noise (the issue saw the mean go from 0.0060 to 0.0109).
    float inside = std::nextafter(float(kCornellLargestCoordinate * 0x1p-20), 1.0f);
    HostScene with = parse(cornell_with_sphere(exact(inside), 1.0f));
    HostScene without = parse(cornell_box());
    for (const char* integrator : {"pt", "lt", "bpt", "vcm"}) {
        RenderResult a = render_small(with, integrator, 16);
        RenderResult b = render_small(without, integrator, 16);
        EXPECT_EQ(a.stats.nonfinite_samples, 0u) << integrator;
        double ma = image_mean(a.image), mb = image_mean(b.image);
        // The sphere's light takes half the light picks, so the noise differs; its power is
        // nil. 24x24 pixels x 16 spp: the means agree to a few percent.
        EXPECT_NEAR(ma, mb, 0.06 * mb) << integrator;
    }
}

// ---- Emissive triangle area ----------------------------------------------------------------

// The smallest emissive triangle area in the Cornell box: that of a sphere of radius
// 2^-20 of its largest coordinate (io/scene_shapes.h, kMinEmissiveTriangleArea).
const double kCornellMinEmissiveArea =
    4.0 * 3.14159265358979323846 * (kCornellLargestCoordinate * 0x1p-20) * (kCornellLargestCoordinate * 0x1p-20);

// Right triangle (0, 1, 0), (a, 1, 0), (0, 1, a) of area a^2 / 2, emitting downwards.
Json emissive_triangle(float a) {
    return Json::parse(R"({"type": "triangle", "emission": 1, "vertices": [[0, 1, 0], [)" + exact(a) +
                       R"(, 1, 0], [0, 1, )" + exact(a) + "]]}");
}

// Smallest float a with a^2 / 2 >= area.
float smallest_side_with_half_square_at_least(double area) {
    float a = float(std::sqrt(2.0 * area));
    while (double(a) * a / 2.0 < area) a = std::nextafter(a, 1.0f);
    while (double(std::nextafter(a, 0.0f)) * std::nextafter(a, 0.0f) / 2.0 >= area) a = std::nextafter(a, 0.0f);
    return a;
}

TEST(SceneFloatLimits, EmissiveTriangleAreaBoundaryIsThatOfTheSmallestSphere) {
    const float inside = smallest_side_with_half_square_at_least(kCornellMinEmissiveArea);
    const float outside = std::nextafter(inside, 0.0f);
    Json doc = cornell_box();
    doc["shapes"].push_back(emissive_triangle(inside));
    EXPECT_NO_THROW(parse(doc));
    doc["shapes"].back() = emissive_triangle(outside);
    std::string e = test::scene_error_of([&] { parse(doc); });
    EXPECT_NE(e.find("inline.json: /shapes/8/vertices: expected emissive triangles of area >= "), std::string::npos)
        << e;
    EXPECT_NE(e.find("got triangle 0 of area "), std::string::npos) << e;
    // The same triangle emitting nothing has no pdf to overflow: only its area must be non-zero.
    doc["shapes"].back().erase("emission");
    EXPECT_NO_THROW(parse(doc));
}

TEST(SceneFloatLimits, EmissiveTriangleAreaHasAnAbsoluteFloorOfTwoToTheMinus61) {
    // A scene at the scale of 1e-9 (the relative limit would allow 1e-29): sides of 2^-30
    // give an area of exactly 2^-61.
    auto scene = [](float side) {
        return R"({"camera": {"position": [0, 0, 1e-9], "look_at": [0, 0, 0]},
                   "shapes": [{"type": "quad", "corner": [0, 0, 0], "edge_u": [)" + exact(side) + R"(, 0, 0],
                               "edge_v": [0, )" + exact(side) + R"(, 0], "emission": 1}]})";
    };
    EXPECT_NO_THROW(parse(scene(0x1p-30f)));  // two triangles of area side^2 / 2 = 2^-61
    std::string e = test::scene_error_of([&] { parse(scene(std::nextafter(0x1p-30f, 0.0f))); });
    EXPECT_NE(e.find("inline.json: /shapes/0: expected emissive triangles of area >= 4.33681e-19"), std::string::npos)
        << e;
}

TEST(SceneFloatLimits, ATinyEmissiveMeshTriangleIsNamedByItsIndexAsWritten) {
    // Triangle 1 has no area (left out of the scene), triangle 2 is too small to emit:
    // the message counts triangles as the file writes them.
    Json doc = cornell_box();
    doc["shapes"].push_back(Json::parse(R"({"type": "mesh", "emission": 1,
        "positions": [[0, 1, 0], [0.5, 1, 0], [0, 1, 0.5], [0.2, 1, 0], [0, 1, 1e-10]],
        "indices": [[0, 1, 2], [0, 1, 3], [0, 3, 4]]})"));
    std::string e = test::scene_error_of([&] { parse(doc); });
    EXPECT_NE(e.find("inline.json: /shapes/8/indices: expected emissive triangles of area >= "), std::string::npos)
        << e;
    EXPECT_NE(e.find("got triangle 2 of area 1e-11"), std::string::npos) << e;
    // A mesh file: the place is the shape's "file", the index the file's.
    const std::string obj = testing::TempDir() + "/wf_tiny_emitter_" + std::to_string(getpid()) + ".obj";
    std::ofstream(obj) << "v 0 1 0\nv 0.5 1 0\nv 0 1 0.5\nv 0 1 1e-10\nf 1 2 3\nf 1 2 4\n";
    doc["shapes"].back() = Json{{"type", "mesh"}, {"file", obj}, {"emission", 1}};
    e = test::scene_error_of([&] { parse(doc); });
    EXPECT_NE(e.find("inline.json: /shapes/8/file: expected emissive triangles of area >= "), std::string::npos) << e;
    EXPECT_NE(e.find("got triangle 1 of area 2.5e-11"), std::string::npos) << e;
    std::remove(obj.c_str());
}

TEST(SceneFloatLimits, SmallestEmissiveTriangleRendersFinite) {
    Json doc = cornell_box();
    doc["shapes"].push_back(emissive_triangle(smallest_side_with_half_square_at_least(kCornellMinEmissiveArea)));
    HostScene scene = parse(doc);
    for (const char* integrator : {"pt", "lt", "bpt", "vcm"}) {
        RenderResult r = render_small(scene, integrator, 16);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << integrator;
        EXPECT_TRUE(std::isfinite(image_mean(r.image))) << integrator;
    }
}

// ---- Phong exponent ----------------------------------------------------------------------

Json cornell_with_phong(const std::string& exponent) {
    Json doc = cornell_box();
    doc["materials"]["white"] =
        Json::parse(R"({"type": "smallvcm", "kd": 0.2, "ks": 0.7, "phong_exponent": )" + exponent + "}");
    return doc;
}

TEST(SceneFloatLimits, PhongExponentBoundaryIsTwoToThe17) {
    EXPECT_NO_THROW(parse(cornell_with_phong("131072")));
    std::string above = exact(std::nextafter(131072.0, 1e300));
    std::string e = test::scene_error_of([&] { parse(cornell_with_phong(above)); });
    EXPECT_NE(e.find("inline.json: /materials/white/phong_exponent: expected number in [0, 131072], got " + above),
              std::string::npos)
        << e;
}

TEST(SceneFloatLimits, LargestPhongExponentRendersFiniteSamples) {
    HostScene scene = parse(cornell_with_phong("131072"));
    for (const char* integrator : {"pt", "bpt"})
        EXPECT_EQ(render_small(scene, integrator).stats.nonfinite_samples, 0u) << integrator;
}

// ---- Light power -------------------------------------------------------------------------

// Largest float x with factor * x <= limit (computed in double, as the loader does).
float largest_with_product_at_most(double factor, double limit) {
    float x = float(limit / factor);
    while (factor * double(x) > limit) x = std::nextafter(x, 0.0f);
    while (factor * double(std::nextafter(x, 1e38f)) <= limit) x = std::nextafter(x, 1e38f);
    return x;
}

TEST(SceneFloatLimits, PointLightIntensityBoundaryAndFiniteRenderJustInside) {
    // One light: 4 pi * intensity <= 2^96.
    float inside = largest_with_product_at_most(4.0 * kPi, 0x1p96);
    auto scene = [](float intensity) {
        Json doc = cornell_box();
        Json shapes = Json::array();  // without the ceiling light: one light in all
        for (const Json& shape : doc["shapes"])
            if (!shape.contains("emission")) shapes.push_back(shape);
        EXPECT_EQ(shapes.size() + 1, doc["shapes"].size());
        doc["shapes"] = shapes;
        doc["lights"] = Json::array();
        doc["lights"].push_back(Json::parse(R"({"type": "point", "position": [0, 1.9, 0], "intensity": )" +
                                            exact(intensity) + "}"));
        return doc;
    };
    HostScene ok = parse(scene(inside));
    ASSERT_EQ(ok.lights.size(), 1u);
    for (const char* integrator : {"pt", "lt", "bpt", "vcm"}) {
        RenderResult r = render_small(ok, integrator);
        EXPECT_EQ(r.stats.nonfinite_samples, 0u) << integrator;
        EXPECT_TRUE(std::isfinite(image_mean(r.image))) << integrator;
    }
    float outside = std::nextafter(inside, 1e38f);
    std::string e = test::scene_error_of([&] { parse(scene(outside)); });
    EXPECT_NE(e.find("inline.json: /lights/0/intensity: expected intensity <= "), std::string::npos) << e;
}

TEST(SceneFloatLimits, AreaLightPowerBoundaryIsTwoToThe65PerLight) {
    // A sphere light of radius 1/2: area pi, power pi^2 * radiance.
    auto scene = [](float radiance) {
        return R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 0.5, "emission": )" +
               exact(radiance) + "}]}";
    };
    double area = 4.0 * kPi * 0.25;
    float inside = largest_with_product_at_most(kPi * area, 0x1p65);
    EXPECT_NO_THROW(parse(scene(inside)));
    std::string e = test::scene_error_of([&] { parse(scene(std::nextafter(inside, 1e38f))); });
    EXPECT_NE(e.find("inline.json: /shapes/0/emission: expected an emission whose power"), std::string::npos) << e;
}

TEST(SceneFloatLimits, DirectionalIrradianceBoundaryScalesWithTheSceneRadius) {
    // Unit sphere: bounding radius sqrt(3) (half the box diagonal), so pi R^2 E <= 2^96.
    auto scene = [](float irradiance) {
        return R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1}],
                   "lights": [{"type": "directional", "direction": [0, -1, 0], "irradiance": )" +
               exact(irradiance) + "}]}";
    };
    double r = parse(scene(1.0f)).bounding_sphere().radius;
    EXPECT_NEAR(r, std::sqrt(3.0), 1e-6);
    float inside = largest_with_product_at_most(kPi * r * r, 0x1p96);
    EXPECT_NO_THROW(parse(scene(inside)));
    std::string e = test::scene_error_of([&] { parse(scene(std::nextafter(inside, 1e38f))); });
    EXPECT_NE(e.find("inline.json: /lights/0/irradiance: expected irradiance <= "), std::string::npos) << e;
}

// ---- Field of view -----------------------------------------------------------------------

std::string with_fov(float fov) { return R"({"camera": {"fov": )" + exact(fov) + "}}"; }

// The camera is upright when the ray through the top row of pixels points up (+y).
bool upright(const HostScene& s) {
    Camera cam = s.camera.build(8, 8);
    return cam.tan_half_fov_y > 0.0f && cam.generate_ray(4.0f, 0.5f, 0.5f, 0.5f).dir.y > 0.0f;
}

TEST(SceneFloatLimits, FovJustBelow180IsUprightAndTheNextFloatIsRefused) {
    // 179.999999 is 180 as a float: pi rounded up, tan of a little more than pi/2 < 0.
    std::string e = test::scene_error_of([&] { parse(R"({"camera": {"fov": 179.999999}})"); });
    EXPECT_NE(e.find("inline.json: /camera/fov: expected number in ["), std::string::npos) << e;
    // Walk down from the largest float below 180 to the first accepted value: it must render
    // upright, and everything between it and 180 must be refused.
    float fov = std::nextafter(180.0f, 0.0f);
    int refused = 0;
    for (; refused < 1000; ++refused, fov = std::nextafter(fov, 0.0f)) {
        try {
            HostScene s = parse(with_fov(fov));
            EXPECT_TRUE(upright(s)) << exact(fov);
            break;
        } catch (const SceneError&) {
        }
    }
    EXPECT_LT(refused, 1000);
    EXPECT_GT(fov, 179.999f);
    // Independently of the loader: the camera built at 180 degrees is upside down.
    CameraDesc at_180;
    at_180.fov_y_degrees = 180.0f;
    EXPECT_LE(at_180.build(8, 8).tan_half_fov_y, 0.0f);
}

TEST(SceneFloatLimits, TinyFovWhoseImportanceWouldOverflowIsRefused) {
    std::string e = test::scene_error_of([&] { parse(with_fov(1e-30f)); });
    EXPECT_NE(e.find("/camera/fov: expected number in ["), std::string::npos) << e;
    HostScene s = parse(with_fov(0.001f));  // a 3.6 arc-second telephoto is fine
    EXPECT_TRUE(upright(s));
}

// ---- Short direction vectors -------------------------------------------------------------

void expect_same_frame(const Camera& a, const Camera& b) {
    for (int i = 0; i < 3; ++i) {
        EXPECT_FLOAT_EQ(a.forward[i], b.forward[i]);
        EXPECT_FLOAT_EQ(a.right[i], b.right[i]);
        EXPECT_FLOAT_EQ(a.up[i], b.up[i]);
    }
}

TEST(SceneFloatLimits, ShortCameraVectorsGiveTheSameFrameAsUnitOnes) {
    // |v|^2 = 9e-46 is a denormal float (below 2^-126): normalising it directly gives a
    // vector of length ~0.8, i.e. a wrong framing.
    Camera unit = parse(R"({"camera": {"forward": [0, -1, -1], "up": [0, 1, 0]}})").camera.build(16, 16);
    Camera tiny = parse(R"({"camera": {"forward": [0, -3e-23, -3e-23], "up": [0, 3e-23, 0]}})").camera.build(16, 16);
    expect_same_frame(unit, tiny);
    EXPECT_NEAR(length(tiny.forward), 1.0f, 1e-6f);
    // Denormal doubles and values below the float range keep their direction too.
    Camera deep = parse(R"({"camera": {"forward": [0, -1e-300, -1e-300], "up": [0, 5e-324, 0]}})").camera.build(16, 16);
    expect_same_frame(unit, deep);
    // The boundary: a largest component of 2^-60 is kept as written (|v|^2 = 2^-120 is a
    // normal float); the next double below is rescaled. Both give the unit camera's frame.
    for (double z : {0x1p-60, std::nextafter(0x1p-60, 0.0)}) {
        HostScene s = parse(R"({"camera": {"forward": [0, 0, )" + exact(-z) + "]}}");
        if (z == 0x1p-60) EXPECT_EQ(s.camera.forward.z, -0x1p-60f);
        else EXPECT_LE(s.camera.forward.z, -1.0f) << "rescaled";
        expect_same_frame(parse(R"({"camera": {"forward": [0, 0, -1]}})").camera.build(16, 16),
                          s.camera.build(16, 16));
    }
    // look_at a point 3e-23 away.
    Camera look =
        parse(R"({"camera": {"position": [0, 0, 0], "look_at": [0, -3e-23, -3e-23]}})").camera.build(16, 16);
    expect_same_frame(unit, look);
}

TEST(SceneFloatLimits, ShortDirectionalLightVectorIsUnitAfterLoading) {
    HostScene s = parse(R"({"lights": [{"type": "directional", "direction": [3e-23, -3e-23, 0]}]})");
    ASSERT_EQ(s.lights.size(), 1u);
    Vec3f d = s.lights[0].direction;
    EXPECT_NEAR(length(d), 1.0f, 1e-6f);
    EXPECT_FLOAT_EQ(d.x, 0.70710677f);
    EXPECT_FLOAT_EQ(d.y, -0.70710677f);
    // Zero stays an error.
    std::string e = test::scene_error_of([&] { parse(R"({"lights": [{"type": "directional", "direction": [0, 0, 0]}]})"); });
    EXPECT_NE(e.find("/lights/0/direction: expected non-zero direction"), std::string::npos) << e;
}

}  // namespace
}  // namespace wf
