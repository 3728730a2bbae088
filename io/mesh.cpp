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
    auto check_count = [&](size_t count, const char* what) {
        if (count != 0 && count != n)
            fail(path, at + std::to_string(count) + " " + what + " for " + std::to_string(n) + " vertices");
    };
    check_count(mesh.uvs.size(), "texture coordinates");
    check_count(mesh.uvs1.size(), "texture coordinates (set 1)");
    check_count(mesh.tangents.size(), "tangents");
    check_count(mesh.colors.size(), "colours");
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
    for (const std::vector<Vec2f>* set : {&mesh.uvs, &mesh.uvs1}) {
        for (size_t i = 0; i < set->size(); ++i) {
            Vec2f uv = (*set)[i];
            if (!std::isfinite(uv.x) || !std::isfinite(uv.y))
                fail(path, at + "vertex " + std::to_string(i) + ": texture coordinate (" + number(uv.x) + ", " +
                               number(uv.y) + ") is not finite");
        }
    }
    // Tangents: a finite non-zero xyz, renormalised, and a sign; a zero tangent (some
    // exporters write them where UVs are degenerate) is kept as zero and ignored in shading.
    for (size_t i = 0; i < mesh.tangents.size(); ++i) {
        Vec4f& t = mesh.tangents[i];
        Vec3f xyz{t.x, t.y, t.z};
        float len = length(xyz);
        if (!is_finite(xyz) || !std::isfinite(len) || !std::isfinite(t.w))
            fail(path, at + "vertex " + std::to_string(i) + ": tangent " + triple(xyz) + " is not finite");
        if (len > 0.0f) xyz = xyz / len;
        t = Vec4f{xyz.x, xyz.y, xyz.z, t.w < 0.0f ? -1.0f : 1.0f};
    }
    for (size_t i = 0; i < mesh.colors.size(); ++i) {
        const Vec4f& c = mesh.colors[i];
        if (!(c.x >= 0.0f && c.y >= 0.0f && c.z >= 0.0f && c.w >= 0.0f) || !is_finite(Vec3f(c.x, c.y, c.z)) ||
            !std::isfinite(c.w))
            fail(path, at + "vertex " + std::to_string(i) + ": colour (" + number(c.x) + ", " + number(c.y) + ", " +
                           number(c.z) + ", " + number(c.w) + ") is not finite and non-negative");
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
