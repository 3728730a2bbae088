#include "io/mesh.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "io/scene_json.h"
#include "io/scene_loader.h"

namespace wf {

using scene_json::one_line;

std::optional<MeshFormat> mesh_format_of(std::string_view path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".obj") return MeshFormat::Obj;
    if (ext == ".ply") return MeshFormat::Ply;
    if (ext == ".gltf") return MeshFormat::Gltf;
    if (ext == ".glb") return MeshFormat::Glb;
    return std::nullopt;
}

std::vector<IndexedMesh> read_mesh_file(const std::string& path, std::vector<std::string>* files_read) {
    std::optional<MeshFormat> format = mesh_format_of(path);
    if (!format) mesh_io::fail(path, "not a mesh file: expected the extension .obj, .ply, .gltf or .glb");
    if (files_read) files_read->push_back(path);
    switch (*format) {
        case MeshFormat::Obj: { std::vector<IndexedMesh> m; m.push_back(read_obj(path)); return m; }
        case MeshFormat::Ply: { std::vector<IndexedMesh> m; m.push_back(read_ply(path)); return m; }
        case MeshFormat::Gltf:
        case MeshFormat::Glb: return read_gltf(path, files_read);
    }
    return {};
}

namespace mesh_io {
namespace {

std::string number(double v) {
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string triple(Vec3f v) {
    std::string s = "(";
    s += number(v.x) + ", " + number(v.y) + ", " + number(v.z) + ")";
    return s;
}

}  // namespace

void fail(const std::string& path, std::string_view what) {
    throw SceneError(one_line(path.empty() ? std::string("(empty path)") : path) + ": " + one_line(what));
}

std::string read_file_bytes(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) fail(path, "cannot open: is a directory");
    std::ifstream file(path, std::ios::binary);
    if (!file) fail(path, std::string("cannot open: ") + std::strerror(errno));
    uintmax_t bytes = fs::file_size(path, ec);
    if (ec) fail(path, "cannot open: " + ec.message());
    if (bytes > kMaxMeshFileBytes)
        fail(path, "cannot open: file of " + std::to_string(bytes) + " bytes exceeds the " +
                       std::to_string(kMaxMeshFileBytes >> 30) + " GiB limit");
    std::string data(size_t(bytes), '\0');
    file.read(data.data(), std::streamsize(bytes));
    if (file.bad() || size_t(file.gcount()) != bytes) fail(path, "cannot open: read error");
    return data;
}

void check_mesh(const std::string& path, std::string_view where, IndexedMesh& mesh) {
    const std::string at(where);
    const size_t n = mesh.positions.size();
    if (n > kMaxMeshVertices) fail(path, at + std::to_string(n) + " vertices: at most 2^32 - 1 are supported");
    if (!mesh.normals.empty() && mesh.normals.size() != n)
        fail(path, at + std::to_string(mesh.normals.size()) + " normals for " + std::to_string(n) + " vertices");
    if (!mesh.uvs.empty() && mesh.uvs.size() != n)
        fail(path, at + std::to_string(mesh.uvs.size()) + " texture coordinates for " + std::to_string(n) + " vertices");
    if (mesh.indices.size() % 3 != 0) fail(path, at + "index count " + std::to_string(mesh.indices.size()) + " is not a multiple of 3");
    if (mesh.indices.empty()) fail(path, at + "no triangles");
    for (size_t i = 0; i < n; ++i) {
        if (!is_finite(mesh.positions[i]))
            fail(path, at + "vertex " + std::to_string(i) + ": position " + triple(mesh.positions[i]) + " is not finite");
    }
    for (size_t i = 0; i < mesh.normals.size(); ++i) {
        Vec3f nrm = mesh.normals[i];
        float len = length(nrm);
        if (!is_finite(nrm) || !(len > 0.0f) || !std::isfinite(len))
            fail(path, at + "vertex " + std::to_string(i) + ": normal " + triple(nrm) + " is not a finite non-zero vector");
        mesh.normals[i] = nrm / len;
    }
    for (size_t i = 0; i < mesh.uvs.size(); ++i) {
        Vec2f uv = mesh.uvs[i];
        if (!std::isfinite(uv.x) || !std::isfinite(uv.y))
            fail(path, at + "vertex " + std::to_string(i) + ": texture coordinate (" + number(uv.x) + ", " +
                           number(uv.y) + ") is not finite");
    }
    for (size_t k = 0; k < mesh.indices.size(); ++k) {
        if (mesh.indices[k] >= n)
            fail(path, at + "triangle " + std::to_string(k / 3) + ": vertex index " + std::to_string(mesh.indices[k]) +
                           " out of range [0, " + std::to_string(n == 0 ? 0 : n - 1) + "] (" + std::to_string(n) +
                           " vertices)");
    }
}

}  // namespace mesh_io
}  // namespace wf
