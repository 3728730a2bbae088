// Wavefront OBJ reader: tinyobjloader (Debian libtinyobjloader-dev) parses and
// triangulates; materials (mtllib) are not read.
//
// tinyobjloader turns a number it cannot parse into 0 ("v nan abc 1" becomes
// (0, 0, 1)) and lets indices past the end through, so a scan of our own first checks
// every v, vn, vt and f line, naming the line: what reaches tinyobjloader is well formed.
#include <charconv>
#include <cmath>
#include <istream>
#include <limits>
#include <streambuf>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <tiny_obj_loader.h>

#include "io/mesh.h"

namespace wf {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits a line into words (OBJ separates by spaces and tabs).
void split_words(std::string_view line, std::vector<std::string_view>& words) {
    words.clear();
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_blank(line[i])) ++i;
        size_t start = i;
        while (i < line.size() && !is_blank(line[i])) ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
}

bool finite_number(std::string_view w) {
    if (!w.empty() && w[0] == '+') w.remove_prefix(1);
    double v;
    auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    return ec == std::errc() && p == w.data() + w.size() && std::isfinite(v);
}

std::string quoted(std::string_view s) {
    std::string q = "\"";
    q.append(s.substr(0, 80));
    return q += '"';
}

// Calls fn(line_number, words) for every line with at least one word.
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
    std::vector<std::string_view> words;
    size_t pos = 0, line_number = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        ++line_number;
        split_words(text.substr(pos, eol - pos), words);
        pos = eol + 1;
        if (!words.empty()) fn(line_number, words);
    }
}

struct ObjCounts {
    int64_t v = 0, vt = 0, vn = 0;
};

// Numbers of v, vn and vt lines; every number finite.
ObjCounts check_attributes(const std::string& path, std::string_view text) {
    ObjCounts c;
    for_each_line(text, [&](size_t line, const std::vector<std::string_view>& w) {
        size_t lo, hi;
        if (w[0] == "v") lo = 3, hi = 7, ++c.v;           // x y z [w] or x y z r g b
        else if (w[0] == "vn") lo = 3, hi = 3, ++c.vn;
        else if (w[0] == "vt") lo = 1, hi = 3, ++c.vt;    // u [v [w]]
        else return;
        size_t n = w.size() - 1;
        bool ok = n >= lo && n <= hi;
        for (size_t i = 1; ok && i < w.size(); ++i) ok = finite_number(w[i]);
        if (!ok) {
            std::string got;
            for (size_t i = 1; i < w.size() && i < 9; ++i) {
                if (i > 1) got += ' ';
                got.append(w[i].substr(0, 40));
            }
            std::string count = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
            mesh_io::fail(path, "line " + std::to_string(line) + ": expected " + count + " finite numbers after " +
                                    quoted(w[0]) + ", got " + quoted(got));
        }
    });
    return c;
}

// One index of a face corner: 1-based, or negative counting back from the last defined.
void check_index(const std::string& path, size_t line, std::string_view corner, std::string_view text, int64_t defined,
                 int64_t total, const char* what, const char* what_plural) {
    int64_t k = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
    auto where = "line " + std::to_string(line) + ": face corner " + quoted(corner) + ": ";
    if (ec != std::errc() || p != text.data() + text.size())
        mesh_io::fail(path, where + what + " index " + quoted(text) + " is not an integer");
    if (k == 0) mesh_io::fail(path, where + what + " index 0 (OBJ counts from 1)");
    if (k > total || (k < 0 && -k > defined))
        mesh_io::fail(path, where + what + " index " + std::to_string(k) + " out of range (the file has " +
                                std::to_string(total) + " " + what_plural +
                                (k < 0 ? ", " + std::to_string(defined) + " before this line)" : ")"));
}

// Every face has 3 or more corners v, v/vt, v//vn or v/vt/vn, with indices in range.
void check_faces(const std::string& path, std::string_view text, const ObjCounts& total) {
    ObjCounts seen;
    for_each_line(text, [&](size_t line, const std::vector<std::string_view>& w) {
        if (w[0] == "v") ++seen.v;
        else if (w[0] == "vt") ++seen.vt;
        else if (w[0] == "vn") ++seen.vn;
        if (w[0] != "f") return;
        if (w.size() < 4)
            mesh_io::fail(path, "line " + std::to_string(line) + ": a face of " + std::to_string(w.size() - 1) +
                                    " corners (at least 3)");
        for (size_t i = 1; i < w.size(); ++i) {
            std::string_view corner = w[i];
            size_t s1 = corner.find('/');
            check_index(path, line, corner, corner.substr(0, s1), seen.v, total.v, "vertex", "vertices");
            if (s1 == std::string_view::npos) continue;
            size_t s2 = corner.find('/', s1 + 1);
            std::string_view vt = corner.substr(s1 + 1, s2 == std::string_view::npos ? std::string_view::npos : s2 - s1 - 1);
            if (!vt.empty()) check_index(path, line, corner, vt, seen.vt, total.vt, "texture coordinate", "texture coordinates");
            if (s2 != std::string_view::npos)
                check_index(path, line, corner, corner.substr(s2 + 1), seen.vn, total.vn, "normal", "normals");
        }
    });
}

// A read-only view of the file as a stream, so tinyobjloader reads it without a copy.
struct MemoryStreamBuffer : std::streambuf {
    MemoryStreamBuffer(const std::string& s) {
        char* p = const_cast<char*>(s.data());
        setg(p, p, p + s.size());
    }
};

struct CornerKey {
    int v, vt, vn;
    bool operator==(const CornerKey&) const = default;
};
struct CornerHash {
    size_t operator()(const CornerKey& k) const {
        return std::hash<uint64_t>()((uint64_t(uint32_t(k.v)) << 32) ^ (uint64_t(uint32_t(k.vt)) << 16) ^
                                     uint64_t(uint32_t(k.vn)));
    }
};

}  // namespace

IndexedMesh read_obj(const std::string& path) {
    const std::string text = mesh_io::read_file_bytes(path);
    ObjCounts counts = check_attributes(path, text);
    if (counts.v > int64_t(std::numeric_limits<int>::max()))
        mesh_io::fail(path, std::to_string(counts.v) + " vertices: at most 2^31 - 1 are supported");
    check_faces(path, text, counts);

    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warn, err;
    MemoryStreamBuffer buffer(text);
    std::istream stream(&buffer);
    if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &stream, nullptr, true))
        mesh_io::fail(path, "tinyobjloader: " + (err.empty() ? std::string("cannot parse the file") : err));

    // A corner's normal and UV are kept only when every corner has them.
    bool all_normals = true, all_uvs = true;
    size_t corners = 0;
    for (const tinyobj::shape_t& s : shapes) {
        corners += s.mesh.indices.size();
        for (const tinyobj::index_t& i : s.mesh.indices) {
            all_normals &= i.normal_index >= 0;
            all_uvs &= i.texcoord_index >= 0;
        }
    }
    IndexedMesh mesh;
    mesh.indices.reserve(corners);
    auto position = [&](int i) { return Vec3f(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]); };
    if (!all_normals && !all_uvs) {
        // Positions only: OBJ's own indexing is already ours.
        mesh.positions.resize(attrib.vertices.size() / 3);
        for (size_t i = 0; i < mesh.positions.size(); ++i) mesh.positions[i] = position(int(i));
        for (const tinyobj::shape_t& s : shapes)
            for (const tinyobj::index_t& i : s.mesh.indices) mesh.indices.push_back(uint32_t(i.vertex_index));
    } else {
        // One vertex per distinct (position, uv, normal) corner.
        std::unordered_map<CornerKey, uint32_t, CornerHash> vertex_of;
        for (const tinyobj::shape_t& s : shapes) {
            for (const tinyobj::index_t& i : s.mesh.indices) {
                CornerKey key{i.vertex_index, all_uvs ? i.texcoord_index : -1, all_normals ? i.normal_index : -1};
                auto [it, added] = vertex_of.try_emplace(key, uint32_t(mesh.positions.size()));
                if (added) {
                    mesh.positions.push_back(position(key.v));
                    if (all_normals)
                        mesh.normals.push_back(Vec3f(attrib.normals[3 * key.vn], attrib.normals[3 * key.vn + 1],
                                                     attrib.normals[3 * key.vn + 2]));
                    if (all_uvs) mesh.uvs.push_back(Vec2f{attrib.texcoords[2 * key.vt], attrib.texcoords[2 * key.vt + 1]});
                }
                mesh.indices.push_back(it->second);
            }
        }
    }
    mesh_io::check_mesh(path, "", mesh);
    return mesh;
}

}  // namespace wf
