#include "io/mesh.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/backend/host_parallel.h"

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

namespace {

// The checks before reading a file whole: not a folder, and within the size limit.
void check_file_size(const std::string& path, uintmax_t bytes) {
    if (bytes > kMaxMeshFileBytes)
        fail(path, "cannot open: file of " + std::to_string(bytes) + " bytes exceeds the " +
                       std::to_string(kMaxMeshFileBytes >> 30) + " GiB limit");
}
void check_not_directory(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) fail(path, "cannot open: is a directory");
}

}  // namespace

std::string read_file_bytes(const std::string& path) {
    namespace fs = std::filesystem;
    check_not_directory(path);
    std::ifstream file(path, std::ios::binary);
    if (!file) fail(path, std::string("cannot open: ") + std::strerror(errno));
    std::error_code ec;
    uintmax_t bytes = fs::file_size(path, ec);
    if (ec) fail(path, "cannot open: " + ec.message());
    check_file_size(path, bytes);
    std::string data(size_t(bytes), '\0');
    file.read(data.data(), std::streamsize(bytes));
    if (file.bad() || size_t(file.gcount()) != bytes) fail(path, "cannot open: read error");
    return data;
}

FileBytes read_file_in_parallel(const std::string& path) {
    check_not_directory(path);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(path, "cannot open: not a regular file");
    check_file_size(path, uintmax_t(st.st_size));
    FileBytes out;
    out.size = size_t(st.st_size);
    out.data = std::make_unique_for_overwrite<char[]>(std::max<size_t>(out.size, 1));
    // Slices of 4 MiB: each thread copies from the page cache and takes the page faults
    // of the memory it fills. A short read (the file shrank while read) is an error.
    constexpr uint64_t kSlice = uint64_t(4) << 20;
    std::atomic<int> error{0};
    ThreadPool::global().run_chunks((out.size + kSlice - 1) / kSlice, 1, [&](uint64_t begin, uint64_t end) {
        for (uint64_t slice = begin; slice < end; ++slice) {
            uint64_t at = slice * kSlice;
            const uint64_t stop = std::min<uint64_t>(out.size, at + kSlice);
            while (at < stop) {
                const ssize_t got = ::pread(fd, out.data.get() + at, size_t(stop - at), off_t(at));
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) {  // -1 for an error in errno; 0 for a file that ended early
                    int none = 0;
                    error.compare_exchange_strong(none, got < 0 ? errno : -1);
                    return;
                }
                at += uint64_t(got);
            }
        }
    });
    if (error == -1) fail(path, "cannot open: read error (the file ended before its size; did it change?)");
    if (error) fail(path, std::string("cannot open: read error: ") + std::strerror(error));
    return out;
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
    // Each check runs on the thread pool and reports its first offending vertex or index,
    // as a serial pass would; the checks run in this order.
    const auto first = [](size_t count, auto&& bad) { return size_t(host_find_first(count, bad)); };
    if (size_t i = first(n, [&](uint64_t i) { return !is_finite(mesh.positions[i]); }); i < n)
        fail(path, at + "vertex " + std::to_string(i) + ": position " + triple(mesh.positions[i]) + " is not finite");
    const auto bad_normal = [&](uint64_t i) {
        const Vec3f nrm = mesh.normals[i];
        const float len = length(nrm);
        return !is_finite(nrm) || !(len > 0.0f) || !std::isfinite(len);
    };
    if (size_t i = first(mesh.normals.size(), bad_normal); i < mesh.normals.size())
        fail(path, at + "vertex " + std::to_string(i) + ": normal " + triple(mesh.normals[i]) + " is not a finite non-zero vector");
    for (const std::vector<Vec2f>* set : {&mesh.uvs, &mesh.uvs1}) {
        const std::vector<Vec2f>& uvs = *set;
        if (size_t i = first(uvs.size(), [&](uint64_t i) { return !std::isfinite(uvs[i].x) || !std::isfinite(uvs[i].y); });
            i < uvs.size())
            fail(path, at + "vertex " + std::to_string(i) + ": texture coordinate (" + number(uvs[i].x) + ", " +
                           number(uvs[i].y) + ") is not finite");
    }
    // Tangents: a finite non-zero xyz, renormalised, and a sign; a zero tangent (some
    // exporters write them where UVs are degenerate) is kept as zero and ignored in shading.
    const auto bad_tangent = [&](uint64_t i) {
        const Vec4f& t = mesh.tangents[i];
        const Vec3f xyz{t.x, t.y, t.z};
        return !is_finite(xyz) || !std::isfinite(length(xyz)) || !std::isfinite(t.w);
    };
    if (size_t i = first(mesh.tangents.size(), bad_tangent); i < mesh.tangents.size()) {
        const Vec4f& t = mesh.tangents[i];
        fail(path, at + "vertex " + std::to_string(i) + ": tangent " + triple(Vec3f{t.x, t.y, t.z}) + " is not finite");
    }
    const auto bad_colour = [&](uint64_t i) {
        const Vec4f& c = mesh.colors[i];
        return !(c.x >= 0.0f && c.y >= 0.0f && c.z >= 0.0f && c.w >= 0.0f) || !is_finite(Vec3f(c.x, c.y, c.z)) ||
               !std::isfinite(c.w);
    };
    if (size_t i = first(mesh.colors.size(), bad_colour); i < mesh.colors.size()) {
        const Vec4f& c = mesh.colors[i];
        fail(path, at + "vertex " + std::to_string(i) + ": colour (" + number(c.x) + ", " + number(c.y) + ", " +
                       number(c.z) + ", " + number(c.w) + ") is not finite and non-negative");
    }
    const std::vector<uint32_t>& indices = mesh.indices;
    if (size_t k = first(indices.size(), [&](uint64_t k) { return indices[k] >= n; }); k < indices.size())
        fail(path, at + "triangle " + std::to_string(k / 3) + ": vertex index " + std::to_string(indices[k]) +
                       " out of range [0, " + std::to_string(n == 0 ? 0 : n - 1) + "] (" + std::to_string(n) +
                       " vertices)");
    // All checked: the normals and tangents to unit length.
    host_parallel_chunks(mesh.normals.size(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) mesh.normals[i] = mesh.normals[i] / length(mesh.normals[i]);
    });
    host_parallel_chunks(mesh.tangents.size(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
            Vec4f& t = mesh.tangents[i];
            Vec3f xyz{t.x, t.y, t.z};
            const float len = length(xyz);
            if (len > 0.0f) xyz = xyz / len;
            t = Vec4f{xyz.x, xyz.y, xyz.z, t.w < 0.0f ? -1.0f : 1.0f};
        }
    });
}

}  // namespace mesh_io
}  // namespace wf
