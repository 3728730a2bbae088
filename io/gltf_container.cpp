#include "io/gltf_container.h"

#include <cstdint>
#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/gltf_pointer.h"
#include "io/mesh.h"

namespace wf::gltf_io {
namespace {

constexpr size_t kGlbHeader = 12, kChunkHeader = 8;
constexpr uint32_t kChunkJson = 0x4E4F534Au, kChunkBin = 0x004E4942u;

uint32_t le32(const std::string& b, size_t at) {
    return uint32_t(uint8_t(b[at])) | uint32_t(uint8_t(b[at + 1])) << 8 | uint32_t(uint8_t(b[at + 2])) << 16 |
           uint32_t(uint8_t(b[at + 3])) << 24;
}

// A URI's percent-escapes decoded (glTF URIs are RFC 3986: "my%20mesh.bin").
std::string decode_uri(std::string_view uri) {
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        const auto hex = [](char c) {
            return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        };
        if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
            out += char(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

struct Glb {
    std::string json;
    bool has_bin = false;
    uint64_t bin_bytes = 0;
};

Glb split_glb(const std::string& path, const std::string& b) {
    const uint64_t size = b.size();
    if (size < kGlbHeader)
        mesh_io::fail(path, "truncated GLB: " + std::to_string(size) + " bytes, less than the 12-byte header");
    if (b.compare(0, 4, "glTF") != 0) mesh_io::fail(path, "not a binary glTF: the file does not start with \"glTF\"");
    if (const uint32_t version = le32(b, 4); version != 2)
        mesh_io::fail(path, "GLB version " + std::to_string(version) + ": only version 2 is read");
    const uint64_t length = le32(b, 8);
    if (length > size)
        mesh_io::fail(path, "truncated GLB: the header says " + std::to_string(length) + " bytes, the file has " +
                                std::to_string(size));
    if (length < kGlbHeader + kChunkHeader || le32(b, 16) != kChunkJson)
        mesh_io::fail(path, "GLB: the first chunk is not the JSON chunk the format requires");
    const uint64_t json_bytes = le32(b, 12);
    const uint64_t json_end = kGlbHeader + kChunkHeader + json_bytes;
    if (json_end > length)
        mesh_io::fail(path, "GLB: the JSON chunk of " + std::to_string(json_bytes) + " bytes runs past the file's " +
                                std::to_string(length));
    Glb glb;
    glb.json = b.substr(kGlbHeader + kChunkHeader, json_bytes);
    if (json_end + kChunkHeader <= length && le32(b, json_end + 4) == kChunkBin) {
        glb.has_bin = true;
        glb.bin_bytes = le32(b, json_end);
        if (json_end + kChunkHeader + glb.bin_bytes > length)
            mesh_io::fail(path, "GLB: the BIN chunk of " + std::to_string(glb.bin_bytes) + " bytes runs past the file's " +
                                    std::to_string(length));
    }
    return glb;
}

}  // namespace

void check_gltf_container(const std::string& path, const std::string& bytes, bool binary, const std::string& base_dir) {
    Glb glb;
    if (binary) glb = split_glb(path, bytes);
    const nlohmann::json doc = nlohmann::json::parse(binary ? glb.json : bytes, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return;  // tinygltf names the parse error's place
    const auto buffers = doc.find("buffers");
    if (buffers == doc.end() || !buffers->is_array()) return;
    for (size_t i = 0; i < buffers->size(); ++i) {
        const nlohmann::json& buffer = (*buffers)[i];
        const std::string at = element("buffers", i);  // "/buffers/0"
        if (!buffer.is_object()) continue;
        const auto length_field = buffer.find("byteLength");
        if (length_field == buffer.end() || !length_field->is_number_unsigned()) continue;  // tinygltf's to name
        const uint64_t byte_length = length_field->get<uint64_t>();
        const auto uri = buffer.find("uri");
        if (uri == buffer.end()) {  // a GLB's buffer 0 is its BIN chunk
            if (!binary || i != 0) continue;
            if (!glb.has_bin)
                mesh_io::fail(path, at + ": no uri, and the GLB has no BIN chunk to hold its " +
                                        std::to_string(byte_length) + " bytes");
            if (glb.bin_bytes < byte_length)
                mesh_io::fail(path, child(at, "byteLength") + ": " + std::to_string(byte_length) +
                                        ", but the GLB's BIN chunk holds " + std::to_string(glb.bin_bytes) + " bytes");
            continue;
        }
        if (!uri->is_string()) continue;
        const std::string name = uri->get<std::string>();
        if (name.rfind("data:", 0) == 0) continue;  // embedded: tinygltf decodes and sizes it
        const std::filesystem::path file = std::filesystem::path(base_dir) / decode_uri(name);
        std::error_code ec;
        const uint64_t size = std::filesystem::file_size(file, ec);
        const std::string uri_at = child(at, "uri") + " \"" + name + "\"";
        if (ec) mesh_io::fail(path, uri_at + ": no such file (looked for " + file.string() + ")");
        if (size < byte_length)
            mesh_io::fail(path, uri_at + ": " + std::to_string(size) + " bytes, but its byteLength is " + std::to_string(byte_length));
    }
}

}  // namespace wf::gltf_io
