// glTF materials in the bidirectional family (lt, bpt, ppm, bpm, vcm) on the CPU backend:
// each must converge to pt's image of the same scene (pt shades glTF materials since they
// were added; its camera paths need no adjoint BSDF). The scenes are built here as glTF
// files: a low-poly sphere with smooth vertex normals (its shading normals are up to
// half a facet away from the geometric ones) on a floor, lit by an emissive square the
// camera does not see (lt does not show emitters seen directly):
//  (a) white diffuse sphere and floor: shading normals on light paths (the adjoint
//      correction of materials/gltf_bsdf.h) and in merging (merge_shading_factor);
//  (b) a floor with a normal map and a base colour texture (textures looked up at light
//      vertices rebuilt from primitive and barycentrics);
//  (c) a rough gold metal sphere, and a rough glass sphere (KHR_materials_transmission
//      with KHR_materials_volume: refraction with the 1/eta^2 of camera paths only).
// Agreement is check_estimators_agree's (tests/common/bidirectional_checks.h): channel
// means within a relative tolerance, per-pixel differences within the two renders' noise.
// Also: what each integrator refuses (alpha, ppm's smooth glTF materials).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/integrators.h"
#include "tests/common/bidirectional_checks.h"
#include "tests/io/gltf_test_files.h"

namespace wf {
namespace {

using nlohmann::json;
using test::AgreementOptions;
using test::EstimatorSpec;

// A UV sphere of radius 1 at the origin: `rings` bands of latitude, `segments` of longitude,
// outward winding, NORMAL = the unit position (smooth), TEXCOORD_0 = (longitude, latitude).
int add_sphere_mesh(test::GltfDoc& d, uint32_t rings, uint32_t segments, int material) {
    std::vector<float> pos, nrm, uv;
    for (uint32_t r = 0; r <= rings; ++r) {
        const float theta = kPi * float(r) / float(rings);
        for (uint32_t s = 0; s <= segments; ++s) {
            const float phi = 2.0f * kPi * float(s) / float(segments);
            const float x = std::sin(theta) * std::cos(phi), y = std::cos(theta), z = -std::sin(theta) * std::sin(phi);
            pos.insert(pos.end(), {x, y, z});
            nrm.insert(nrm.end(), {x, y, z});
            uv.insert(uv.end(), {float(s) / float(segments), float(r) / float(rings)});
        }
    }
    std::vector<uint16_t> idx;
    for (uint32_t r = 0; r < rings; ++r)
        for (uint32_t s = 0; s < segments; ++s) {
            const uint16_t a = uint16_t(r * (segments + 1) + s), b = uint16_t(a + segments + 1);
            // a (top left), b (below it), b + 1, a + 1: counter-clockwise seen from outside.
            if (r > 0) idx.insert(idx.end(), {a, b, uint16_t(a + 1)});
            if (r + 1 < rings) idx.insert(idx.end(), {uint16_t(a + 1), b, uint16_t(b + 1)});
        }
    return d.add_mesh(d.floats(pos, "VEC3"), d.indices(idx),
                      {{"NORMAL", d.floats(nrm, "VEC3")}, {"TEXCOORD_0", d.floats(uv, "VEC2")}}, material);
}

// A horizontal square at height y, half size h, facing +y (up) or -y, UVs 0..uv_scale.
int add_square_mesh(test::GltfDoc& d, float y, float h, bool up, float uv_scale, int material) {
    std::vector<float> pos = {-h, y, -h, -h, y, h, h, y, h, h, y, -h};
    std::vector<float> uv = {0, 0, 0, uv_scale, uv_scale, uv_scale, uv_scale, 0};
    std::vector<uint16_t> idx = up ? std::vector<uint16_t>{0, 1, 2, 0, 2, 3} : std::vector<uint16_t>{0, 2, 1, 0, 3, 2};
    return d.add_mesh(d.floats(pos, "VEC3"), d.indices(idx), {{"TEXCOORD_0", d.floats(uv, "VEC2")}}, material);
}

json diffuse(double r, double g, double b) {
    return {{"pbrMetallicRoughness", {{"baseColorFactor", {r, g, b, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 1}}}};
}

// An 8 x 8 normal map whose texels lean 12 degrees (less than the camera's lowest view
// of the floor, 14 degrees: see away_from_outline for why) toward +-u and +-v in turn, and a 4 x 4
// base colour checker: the shading normal and the albedo change within each pixel.
json textured_floor(test::GltfDoc& d) {
    std::vector<uint8_t> normals, colours;
    const float lean = std::sin(12.0f * kPi / 180.0f), up = std::cos(12.0f * kPi / 180.0f);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            const int k = (x + 3 * y) % 4;
            const float nx = k == 0 ? lean : k == 2 ? -lean : 0.0f, ny = k == 1 ? lean : k == 3 ? -lean : 0.0f;
            for (float c : {nx, ny, up}) normals.push_back(uint8_t(std::lround((c * 0.5f + 0.5f) * 255.0f)));
            normals.push_back(255);
        }
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            const bool light = (x + y) % 2 == 0;
            for (int c : light ? std::vector<int>{230, 220, 200} : std::vector<int>{90, 140, 200}) colours.push_back(uint8_t(c));
            colours.push_back(255);
        }
    const int normal_texture = d.texture(d.image(test::png_rgba(8, 8, normals)));
    const int colour_texture = d.texture(d.image(test::png_rgba(4, 4, colours)));
    json m = diffuse(1, 1, 1);
    m["pbrMetallicRoughness"]["baseColorTexture"] = {{"index", colour_texture}};
    m["normalTexture"] = {{"index", normal_texture}, {"scale", 1.0}};
    return m;
}

// The scene: sphere (material `sphere`), floor at y = -1 (material `floor`, 6 x 6), and an
// emissive 1.5 x 1.5 square at y = 2.5 facing down, out of the camera's view.
// `doc`: a document that already holds the floor's images and textures, or null.
HostScene sphere_scene(const std::string& name, const json& sphere, const json* floor = nullptr,
                       test::GltfDoc* doc = nullptr, uint32_t rings = 6, uint32_t segments = 8) {
    test::GltfDoc fresh(false);
    test::GltfDoc& d = doc ? *doc : fresh;
    const int sphere_material = d.material(sphere);
    const int floor_material = floor ? d.material(*floor) : d.material(diffuse(0.8, 0.8, 0.8));
    const int light_material =
        d.material({{"emissiveFactor", {1, 1, 1}},
                    {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 8.0}}}}},
                    {"pbrMetallicRoughness", {{"baseColorFactor", {0, 0, 0, 1}}, {"metallicFactor", 0}}}});
    d.g["extensionsUsed"] = {"KHR_materials_emissive_strength", "KHR_materials_transmission", "KHR_materials_volume"};
    d.g["meshes"] = json::array();
    add_sphere_mesh(d, rings, segments, sphere_material);
    add_square_mesh(d, -1.0f, 3.0f, true, 3.0f, floor_material);
    add_square_mesh(d, 2.5f, 0.75f, false, 1.0f, light_material);
    d.g["nodes"] = {{{"mesh", 0}}, {{"mesh", 1}}, {{"mesh", 2}}};
    d.g["scenes"][0]["nodes"] = {0, 1, 2};
    HostScene scene = load_scene(d.write(name + ".gltf", "wf_gltf_bidirectional"));
    EXPECT_EQ(scene.lights.size(), 2u) << "the emitter's two triangles, no environment";
    scene.camera.position = Vec3f(0.0f, 0.8f, 4.0f);
    scene.camera.forward = normalize(Vec3f(0.0f, -0.25f, -1.0f));
    scene.camera.up = Vec3f(0.0f, 1.0f, 0.0f);
    scene.camera.fov_y_degrees = 40.0f;
    scene.camera.aperture_radius = 0.0f;
    return scene;
}

// Pixels away from the sphere's outline: 0 where any of 3x3 rays across the pixel passes
// the unit sphere's centre at a distance in [0.75, 1.05] (where the camera sees it at
// grazing angles), 1 elsewhere. There the camera direction can fall below a smooth shading
// normal while above the geometric one, and GltfBsdf falls back to the geometric normal
// for the direction a path arrives from: camera paths decide by the direction to the
// camera, light paths by the one to the light, so the two see a different BSDF there
// (materials/gltf_bsdf.h, "Sides and normals"; measured 1% of the image mean on this
// 6 x 8 sphere). Everything else (the sphere's face, the floor, the shadow) is compared.
test::PixelMask away_from_outline(const HostScene& scene, uint32_t size) {
    Camera cam = scene.camera.build(size, size);
    test::PixelMask mask(size_t(size) * size, 1);
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x)
            for (int k = 0; k < 9; ++k) {
                Ray r = cam.generate_ray(float(x) + 0.5f * float(k % 3), float(y) + 0.5f * float(k / 3), 0.5f, 0.5f);
                const float along = -dot(r.origin, r.dir);
                const float d = length(r.origin + along * r.dir);
                if (d >= 0.75f && d <= 1.05f) mask[y * size + x] = 0;
            }
    return mask;
}

EstimatorSpec spec(const char* integrator, uint32_t spp, uint32_t light_paths = 0, float radius_factor = 0.0f) {
    return EstimatorSpec{integrator, BackendKind::Cpu, spp, light_paths, radius_factor};
}

AgreementOptions options(double mean_tolerance) {
    AgreementOptions opt;
    opt.size = 32;
    opt.max_depth = 6;
    opt.mean_tolerance = mean_tolerance;
    return opt;
}


// pt (seeds 1, 2) against lt, bpt and vcm (channel means within `tolerance`), then against
// bpm with 4 light paths per pixel (merging's noise is heavier: |wi.ns| / |wi.ng| weighs
// photons arriving at grazing angles to a facet; measured spread of its mean over seeds
// about 1.5%, hence 4%).
void check_against_pt(const HostScene& scene, const std::string& label, double tolerance) {
    const test::PixelMask mask = away_from_outline(scene, 32);
    test::check_estimators_agree(scene, spec("pt", 512), {spec("lt", 128), spec("bpt", 64), spec("vcm", 64)},
                                 options(tolerance), mask, label);
    test::check_estimators_agree(scene, spec("pt", 512), {spec("bpm", 64, 4096, 0.01f)}, options(0.04), mask, label);
}

// ---- (a) shading normals -----------------------------------------------------------------------
// Without the adjoint correction (GltfBsdf returning f, not f*, on light paths) lt is 2% off
// and its per-pixel difference 2.3x the noise here.

TEST(GltfBidirectionalCpu, SmoothNormalSphereAllEstimatorsAgreeWithPt) {  // ~10 s
    check_against_pt(sphere_scene("smooth_sphere", diffuse(0.9, 0.9, 0.9)), "smooth-normal sphere", 0.015);
}

// ---- (b) normal map and base colour texture --------------------------------------------------

TEST(GltfBidirectionalCpu, NormalMappedTexturedFloorAllEstimatorsAgreeWithPt) {  // ~10 s
    test::GltfDoc textures(false);
    const json floor = textured_floor(textures);
    check_against_pt(sphere_scene("textured_floor", diffuse(0.9, 0.9, 0.9), &floor, &textures), "normal-mapped floor",
                     0.015);
}

// ---- (c) rough metal and rough glass -----------------------------------------------------------

TEST(GltfBidirectionalCpu, RoughMetalSphereAllEstimatorsAgreeWithPt) {  // ~10 s
    const json gold = {{"pbrMetallicRoughness",
                        {{"baseColorFactor", {1.0, 0.78, 0.34, 1}}, {"metallicFactor", 1}, {"roughnessFactor", 0.35}}}};
    check_against_pt(sphere_scene("metal_sphere", gold), "rough metal sphere", 0.015);
}

TEST(GltfBidirectionalCpu, RoughGlassSphereAllEstimatorsAgreeWithPt) {  // ~10 s
    const json glass = {{"pbrMetallicRoughness",
                         {{"baseColorFactor", {1, 1, 1, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 0.3}}},
                        {"extensions",
                         {{"KHR_materials_transmission", {{"transmissionFactor", 1.0}}},
                          {"KHR_materials_volume", {{"thicknessFactor", 1.0}}}}}};
    check_against_pt(sphere_scene("glass_sphere", glass), "rough glass sphere", 0.015);
}

}  // namespace
}  // namespace wf
