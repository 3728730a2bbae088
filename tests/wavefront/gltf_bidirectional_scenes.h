// glTF scenes for the bidirectional family's tests (tests/wavefront/gltf_bidirectional_test.cpp
// on the CPU, tests/gpu/gltf_bidirectional_cuda_test.cpp CPU vs GPU), written as glTF files:
// a low-poly sphere with smooth vertex normals on a floor, lit by an emissive square the
// camera does not see.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/scene.h"
#include "io/scene_loader.h"
#include "tests/io/gltf_test_files.h"

namespace wf::test {

using nlohmann::json;

// A UV sphere of radius 1 at the origin: `rings` bands of latitude, `segments` of longitude,
// outward winding, NORMAL = the unit position (smooth), TEXCOORD_0 = (longitude, latitude).
inline int add_sphere_mesh(GltfDoc& d, uint32_t rings, uint32_t segments, int material) {
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
inline int add_square_mesh(GltfDoc& d, float y, float h, bool up, float uv_scale, int material) {
    std::vector<float> pos = {-h, y, -h, -h, y, h, h, y, h, h, y, -h};
    std::vector<float> uv = {0, 0, 0, uv_scale, uv_scale, uv_scale, uv_scale, 0};
    std::vector<uint16_t> idx = up ? std::vector<uint16_t>{0, 1, 2, 0, 2, 3} : std::vector<uint16_t>{0, 2, 1, 0, 3, 2};
    return d.add_mesh(d.floats(pos, "VEC3"), d.indices(idx), {{"TEXCOORD_0", d.floats(uv, "VEC2")}}, material);
}

inline json diffuse(double r, double g, double b) {
    return {{"pbrMetallicRoughness", {{"baseColorFactor", {r, g, b, 1}}, {"metallicFactor", 0}, {"roughnessFactor", 1}}}};
}

// An 8 x 8 normal map whose texels lean 12 degrees (less than the camera's lowest view
// of the floor, 14 degrees: see away_from_outline for why) toward +-u and +-v in turn, and a 4 x 4
// base colour checker: the shading normal and the albedo change within each pixel.
inline json textured_floor(GltfDoc& d) {
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
    const int normal_texture = d.texture(d.image(png_rgba(8, 8, normals)));
    const int colour_texture = d.texture(d.image(png_rgba(4, 4, colours)));
    json m = diffuse(1, 1, 1);
    m["pbrMetallicRoughness"]["baseColorTexture"] = {{"index", colour_texture}};
    m["normalTexture"] = {{"index", normal_texture}, {"scale", 1.0}};
    return m;
}

// A white diffuse material cut out by glTF alpha MASK (cutoff 0.5) in a 4 x 4 checker of
// its base colour texture's alpha (0 or 1), double-sided: on the UV sphere, a ball with
// holes through which paths pass.
inline json masked_checker(GltfDoc& d) {
    std::vector<uint8_t> texels;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) texels.insert(texels.end(), {230, 230, 230, uint8_t((x + y) % 2 ? 255 : 0)});
    const int checker = d.texture(d.image(png_rgba(4, 4, texels)));
    json m = diffuse(1, 1, 1);
    m["pbrMetallicRoughness"]["baseColorTexture"] = {{"index", checker}};
    m["alphaMode"] = "MASK";
    m["alphaCutoff"] = 0.5;
    m["doubleSided"] = true;
    return m;
}

// A white diffuse material that glTF alpha BLEND covers with `alpha` (the base colour
// factor's), double-sided: on the UV sphere, a ball that lets a share 1 - alpha of the
// paths through at every point.
inline json blended(double alpha) {
    json m = diffuse(0.9, 0.9, 0.9);
    m["pbrMetallicRoughness"]["baseColorFactor"] = {0.9, 0.9, 0.9, alpha};
    m["alphaMode"] = "BLEND";
    m["doubleSided"] = true;
    return m;
}

// As blended(), the coverage from a 4 x 4 base colour texture whose alpha runs over
// 0.16 .. 0.86 in diagonal stripes (filtered bilinearly, it varies within every texel),
// and single-sided: inside the ball its BSDF is black, so paths reaching the inner side
// pass through with probability 1 - alpha and end otherwise.
inline json blended_stripes(GltfDoc& d) {
    std::vector<uint8_t> texels;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) texels.insert(texels.end(), {230, 230, 230, uint8_t(40 + 60 * ((x + 2 * y) % 4))});
    const int stripes = d.texture(d.image(png_rgba(4, 4, texels)));
    json m = blended(1.0);
    m["pbrMetallicRoughness"]["baseColorFactor"] = {1, 1, 1, 1};
    m["pbrMetallicRoughness"]["baseColorTexture"] = {{"index", stripes}};
    m["doubleSided"] = false;
    return m;
}

// The scene: sphere (material `sphere`), floor at y = -1 (material `floor`, 6 x 6), and an
// emissive 1.5 x 1.5 square at y = 2.5 facing down, out of the camera's view.
// `doc`: a document that already holds the floor's images and textures, or null.
inline HostScene sphere_scene(const std::string& name, const json& sphere, const json* floor = nullptr,
                       GltfDoc* doc = nullptr, uint32_t rings = 6, uint32_t segments = 8) {
    GltfDoc fresh(false);
    GltfDoc& d = doc ? *doc : fresh;
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

}  // namespace wf::test
