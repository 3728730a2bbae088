// glTF files for the tests of JSON scenes that include them ("gltf" shapes): squares
// with a material of their own, written by the tests (tests/io/gltf_test_files.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/io/gltf_test_files.h"

namespace wf::test {

// GltfDoc's unit square (z = 0, facing +z) with one dielectric material (metallic 0,
// roughness 1) whose base colour is a texture of one texel, `rgb` as sRGB codes, and
// whose other members are `more` (e.g. an emissiveFactor).
inline GltfDoc textured_square(std::vector<uint8_t> rgb, const nlohmann::json& more = nlohmann::json::object()) {
    GltfDoc d;
    const int tex = d.texture(d.image(png_rgba(1, 1, {rgb[0], rgb[1], rgb[2], 255})));
    nlohmann::json m = more;
    m["pbrMetallicRoughness"] = {{"baseColorTexture", {{"index", tex}}}, {"metallicFactor", 0.0}, {"roughnessFactor", 1.0}};
    d.primitive()["material"] = d.material(m);
    return d;
}

// Adds a KHR_lights_punctual spot light (colour 1, `intensity` cd, outer cone 0.6 rad)
// on a node at `position` looking along its -z, to the default scene.
inline void add_spot_light(GltfDoc& d, std::vector<double> position, double intensity) {
    d.g["extensionsUsed"].push_back("KHR_lights_punctual");
    d.g["extensions"]["KHR_lights_punctual"]["lights"].push_back(
        {{"type", "spot"}, {"intensity", intensity}, {"spot", {{"outerConeAngle", 0.6}}}});
    const int light = int(d.g["extensions"]["KHR_lights_punctual"]["lights"].size() - 1);
    d.g["nodes"].push_back({{"translation", position}, {"extensions", {{"KHR_lights_punctual", {{"light", light}}}}}});
    d.g["scenes"][0]["nodes"].push_back(int(d.g["nodes"].size() - 1));
}

}  // namespace wf::test
