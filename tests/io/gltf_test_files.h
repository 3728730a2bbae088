// Small glTF files built by the tests themselves: a JSON document with its buffer (and
// images) embedded as base64 `data:` URIs, and PNG images written byte by byte (zlib's
// deflate and CRC-32), so that every texel code is known exactly.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/gltf_scene.h"
#include "tests/io/mesh_test_util.h"
#include "tests/io/scene_test_util.h"

namespace wf::test {

inline std::string base64(const std::string& bytes) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
    }
    if (i + 1 == bytes.size()) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        out += {k[v >> 18], k[(v >> 12) & 63], '=', '='};
    } else if (i + 2 == bytes.size()) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], '='};
    }
    return out;
}

// An 8-bit RGBA PNG (colour type 6) of w x h texels, rows from the top.
inline std::string png_rgba(uint32_t w, uint32_t h, const std::vector<uint8_t>& rgba) {
    auto be32 = [](std::string& s, uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) s += char((v >> shift) & 0xff);
    };
    auto chunk = [&](std::string& out, const char* type, const std::string& data) {
        be32(out, uint32_t(data.size()));
        const std::string typed = std::string(type, 4) + data;
        out += typed;
        be32(out, uint32_t(crc32(0, reinterpret_cast<const Bytef*>(typed.data()), uInt(typed.size()))));
    };
    std::string raw;
    for (uint32_t y = 0; y < h; ++y) {
        raw += '\0';  // filter: none
        raw.append(reinterpret_cast<const char*>(rgba.data()) + size_t(y) * w * 4, size_t(w) * 4);
    }
    uLongf n = compressBound(uLong(raw.size()));
    std::string z(n, '\0');
    compress(reinterpret_cast<Bytef*>(z.data()), &n, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()));
    z.resize(n);
    std::string ihdr;
    be32(ihdr, w);
    be32(ihdr, h);
    ihdr += std::string("\x08\x06\x00\x00\x00", 5);  // 8 bits, RGBA, deflate, no filter set, not interlaced
    std::string out("\x89PNG\r\n\x1a\n", 8);
    chunk(out, "IHDR", ihdr);
    chunk(out, "IDAT", z);
    chunk(out, "IEND", "");
    return out;
}

// A glTF document under construction: by default one node with one mesh, a unit square
// in the plane z = 0 facing +z (corners (0,0,0), (1,0,0), (1,1,0), (0,1,0), two
// triangles), TEXCOORD_0 (0,1), (1,1), (1,0), (0,0): the image upright as seen from +z.
struct GltfDoc {
    nlohmann::json g;
    std::string bin;

    explicit GltfDoc(bool with_square = true) {
        g = {{"asset", {{"version", "2.0"}}},
             {"scene", 0},
             {"scenes", nlohmann::json::array({{{"nodes", {0}}}})},
             {"nodes", nlohmann::json::array({{{"mesh", 0}}})},
             {"meshes", nlohmann::json::array()},
             {"accessors", nlohmann::json::array()},
             {"bufferViews", nlohmann::json::array()}};
        if (!with_square) return;
        const int pos = floats({0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, "VEC3");
        const int uv = floats({0, 1, 1, 1, 1, 0, 0, 0}, "VEC2");
        const int idx = indices({0, 1, 2, 0, 2, 3});
        add_mesh(pos, idx, {{"TEXCOORD_0", uv}});
    }

    nlohmann::json& primitive(size_t mesh = 0) { return g["meshes"][mesh]["primitives"][0]; }

    int add_mesh(int position, int index, nlohmann::json more_attributes = nlohmann::json::object(), int material = -1) {
        nlohmann::json attributes = more_attributes;
        attributes["POSITION"] = position;
        nlohmann::json prim = {{"attributes", attributes}, {"indices", index}};
        if (material >= 0) prim["material"] = material;
        g["meshes"].push_back({{"primitives", nlohmann::json::array({prim})}});
        return int(g["meshes"].size() - 1);
    }

    int view(const std::string& bytes) {
        while (bin.size() % 4) bin += '\0';
        g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes.size()}});
        bin += bytes;
        return int(g["bufferViews"].size() - 1);
    }

    int accessor(const std::string& bytes, int component_type, size_t count, const char* type, bool normalized = false) {
        nlohmann::json a = {{"bufferView", view(bytes)}, {"componentType", component_type}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        g["accessors"].push_back(a);
        return int(g["accessors"].size() - 1);
    }

    static size_t components(const char* type) {
        const std::string t = type;
        return t == "SCALAR" ? 1 : t == "VEC2" ? 2 : t == "VEC3" ? 3 : 4;
    }

    int floats(const std::vector<float>& v, const char* type) {
        return accessor(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4), 5126, v.size() / components(type),
                        type);
    }
    int unsigned_bytes(const std::vector<uint8_t>& v, const char* type, bool normalized) {
        return accessor(std::string(reinterpret_cast<const char*>(v.data()), v.size()), 5121, v.size() / components(type), type,
                        normalized);
    }
    int unsigned_shorts(const std::vector<uint16_t>& v, const char* type, bool normalized) {
        return accessor(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 2), 5123, v.size() / components(type),
                        type, normalized);
    }
    int indices(const std::vector<uint16_t>& v) { return unsigned_shorts(v, "SCALAR", false); }

    // An image given as a data: URI (`mime` as written in it).
    int image(const std::string& bytes, const std::string& mime = "image/png") {
        g["images"].push_back({{"uri", "data:" + mime + ";base64," + base64(bytes)}});
        return int(g["images"].size() - 1);
    }
    int texture(int source, int sampler = -1) {
        nlohmann::json t = {{"source", source}};
        if (sampler >= 0) t["sampler"] = sampler;
        g["textures"].push_back(t);
        return int(g["textures"].size() - 1);
    }
    int material(const nlohmann::json& m) {
        g["materials"].push_back(m);
        return int(g["materials"].size() - 1);
    }

    nlohmann::json document() const {
        nlohmann::json out = g;
        out["buffers"] = nlohmann::json::array(
            {{{"byteLength", bin.size()}, {"uri", "data:application/octet-stream;base64," + base64(bin)}}});
        return out;
    }

    // The document as a binary glTF (.glb): the JSON chunk, then the buffer as the BIN
    // chunk (buffer 0 without a uri). Images stay data: URIs.
    std::string glb() const {
        nlohmann::json j = g;
        std::string data = bin;
        while (data.size() % 4) data += '\0';
        j["buffers"] = nlohmann::json::array({{{"byteLength", bin.size()}}});
        std::string text = j.dump();
        while (text.size() % 4) text += ' ';
        auto le32 = [](std::string& s, uint32_t v) {
            for (int shift = 0; shift < 32; shift += 8) s += char((v >> shift) & 0xff);
        };
        std::string out = "glTF";
        le32(out, 2);
        le32(out, uint32_t(12 + 8 + text.size() + 8 + data.size()));
        le32(out, uint32_t(text.size()));
        out += "JSON";
        out += text;
        le32(out, uint32_t(data.size()));
        out += std::string("BIN\0", 4);
        out += data;
        return out;
    }

    // Writes NAME (.gltf) into the test's own temp folder; returns its path.
    std::string write(const std::string& name, const std::string& folder = "wf_gltf_scene") const {
        return write_file(temp_folder(folder) + "/" + name, document().dump());
    }
};

// A 2 x 2 RGBA image whose four texels differ in every channel (rows from the top).
inline const std::vector<uint8_t> kTexels = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160};
inline std::string texels_png() { return png_rgba(2, 2, kTexels); }

// The SceneError message of reading `d` as NAME; checks that it names the file.
inline std::string read_error(const GltfDoc& d, const std::string& name) {
    const std::string path = d.write(name);
    const std::string e = scene_error_of([&] { read_gltf_scene(path, true); });
    EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << "the message does not start with the file: " << e;
    return e;
}

// A camera node (a child: the parent's translation composes) turned +90 degrees about y
// looks along its node's -z, so along -x, with +y up (glTF 2.0, 3.10.1).
inline GltfDoc camera_doc(double aspect) {
    GltfDoc d;
    const double h = std::sqrt(0.5);
    nlohmann::json persp = {{"yfov", 0.5}, {"znear", 0.01}};
    if (aspect > 0) persp["aspectRatio"] = aspect;
    d.g["cameras"] = nlohmann::json::array({{{"type", "perspective"}, {"perspective", persp}}});
    d.g["nodes"].push_back({{"translation", {10, 0, 0}}, {"children", {2}}});
    d.g["nodes"].push_back({{"camera", 0}, {"translation", {1, 2, 3}}, {"rotation", {0, h, 0, h}}});
    d.g["scenes"][0]["nodes"] = {0, 1};
    return d;
}

}  // namespace wf::test
