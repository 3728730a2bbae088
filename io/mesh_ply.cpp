// PLY reader (ascii, binary little and big endian). No Debian package reads PLY, so
// this is our own, after Greg Turk's format description: a text header of elements
// and their properties, then the element instances in header order.
//
// Read: element "vertex" (x, y, z; optional nx, ny, nz; optional u, v or s, t or
// texture_u, texture_v), element "face" (list vertex_indices or vertex_index; polygons
// are split into fans). Other elements and properties are read past and ignored.
// The whole file is in memory and the arrays are sized from the header once its
// counts are known to fit in the data, so a large mesh costs no per-face allocation.
#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/backend/host_parallel.h"
#include "io/mesh.h"

namespace wf {
namespace {

enum class Scalar : uint8_t { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

size_t size_of(Scalar s) {
    switch (s) {
        case Scalar::Int8: case Scalar::UInt8: return 1;
        case Scalar::Int16: case Scalar::UInt16: return 2;
        case Scalar::Int32: case Scalar::UInt32: case Scalar::Float32: return 4;
        case Scalar::Float64: return 8;
    }
    return 0;
}

bool is_integer(Scalar s) { return s != Scalar::Float32 && s != Scalar::Float64; }

std::optional<Scalar> scalar_named(std::string_view n) {
    if (n == "char" || n == "int8") return Scalar::Int8;
    if (n == "uchar" || n == "uint8") return Scalar::UInt8;
    if (n == "short" || n == "int16") return Scalar::Int16;
    if (n == "ushort" || n == "uint16") return Scalar::UInt16;
    if (n == "int" || n == "int32") return Scalar::Int32;
    if (n == "uint" || n == "uint32") return Scalar::UInt32;
    if (n == "float" || n == "float32") return Scalar::Float32;
    if (n == "double" || n == "float64") return Scalar::Float64;
    return std::nullopt;
}

// Where a property's values go.
enum class Slot : uint8_t { Ignore, X, Y, Z, NX, NY, NZ, U, V, FaceIndices };

struct Property {
    std::string name;
    Scalar type = Scalar::Float32;
    bool is_list = false;
    Scalar count_type = Scalar::UInt8;  // lists only
    Slot slot = Slot::Ignore;
};

struct Element {
    std::string name;
    uint64_t count = 0;
    std::vector<Property> properties;
};

enum class Encoding { Ascii, BinaryLittleEndian, BinaryBigEndian };

struct Header {
    Encoding encoding = Encoding::Ascii;
    std::vector<Element> elements;
    size_t data_offset = 0;   // first byte after end_header's line
    size_t lines = 0;         // header lines, so ascii data starts on line lines + 1
};

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

std::string number(double v) {
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string quoted(std::string_view s) {
    std::string q = "\"";
    q.append(s.substr(0, 80));
    return q += '"';
}

Header parse_header(const std::string& path, std::string_view data) {
    Header h;
    size_t pos = 0;
    bool format_seen = false;
    auto fail_line = [&](std::string_view what) -> void {
        mesh_io::fail(path, "header line " + std::to_string(h.lines) + ": " + std::string(what));
    };
    while (true) {
        if (pos >= data.size())
            mesh_io::fail(path, h.lines == 0 ? "empty file: not a PLY file"
                                             : "the header has no end_header line: not a complete PLY file");
        size_t eol = data.find('\n', pos);
        if (eol == std::string_view::npos) eol = data.size();
        std::string_view line = data.substr(pos, eol - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = eol + 1;
        ++h.lines;
        if (h.lines == 1) {
            if (line != "ply") mesh_io::fail(path, "not a PLY file: the first line is not \"ply\"");
            continue;
        }
        std::vector<std::string_view> w = split_words(line);
        if (w.empty()) continue;
        if (w[0] == "comment" || w[0] == "obj_info") continue;
        if (w[0] == "end_header") break;
        if (w[0] == "format") {
            if (w.size() != 3 || w[2] != "1.0") fail_line("expected \"format ascii|binary_little_endian|binary_big_endian 1.0\"");
            if (w[1] == "ascii") h.encoding = Encoding::Ascii;
            else if (w[1] == "binary_little_endian") h.encoding = Encoding::BinaryLittleEndian;
            else if (w[1] == "binary_big_endian") h.encoding = Encoding::BinaryBigEndian;
            else fail_line("unknown format " + quoted(w[1]));
            format_seen = true;
        } else if (w[0] == "element") {
            if (w.size() != 3) fail_line("expected \"element NAME COUNT\"");
            Element e;
            e.name = std::string(w[1]);
            auto [p, ec] = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
            if (ec != std::errc() || p != w[2].data() + w[2].size())
                fail_line("element " + e.name + ": count " + quoted(w[2]) + " is not a non-negative integer");
            h.elements.push_back(std::move(e));
        } else if (w[0] == "property") {
            if (h.elements.empty()) fail_line("a property before any element");
            Property prop;
            if (w.size() == 5 && w[1] == "list") {
                auto count_type = scalar_named(w[2]), item_type = scalar_named(w[3]);
                if (!count_type || !item_type) fail_line("unknown type in " + quoted(line));
                if (!is_integer(*count_type)) fail_line("a list count of floating-point type " + quoted(w[2]));
                prop.is_list = true;
                prop.count_type = *count_type;
                prop.type = *item_type;
                prop.name = std::string(w[4]);
            } else if (w.size() == 3 && w[1] != "list") {
                auto type = scalar_named(w[1]);
                if (!type) fail_line("unknown property type " + quoted(w[1]));
                prop.type = *type;
                prop.name = std::string(w[2]);
            } else {
                fail_line("expected \"property TYPE NAME\" or \"property list COUNT_TYPE ITEM_TYPE NAME\"");
            }
            h.elements.back().properties.push_back(std::move(prop));
        } else {
            fail_line("unknown keyword " + quoted(w[0]));
        }
    }
    if (!format_seen) mesh_io::fail(path, "the header has no format line");
    h.data_offset = pos > data.size() ? data.size() : pos;
    return h;
}

// Assigns slots; returns the indices of the vertex and face elements.
void assign_slots(const std::string& path, Header& h, size_t& vertex_element, size_t& face_element, bool& has_normals,
                  bool& has_uvs) {
    vertex_element = face_element = SIZE_MAX;
    for (size_t i = 0; i < h.elements.size(); ++i) {
        if (h.elements[i].name == "vertex" && vertex_element == SIZE_MAX) vertex_element = i;
        if (h.elements[i].name == "face" && face_element == SIZE_MAX) face_element = i;
    }
    if (vertex_element == SIZE_MAX) mesh_io::fail(path, "the header has no \"vertex\" element");
    if (face_element == SIZE_MAX)
        mesh_io::fail(path, "the header has no \"face\" element (a point cloud has no surface to render)");
    Element& v = h.elements[vertex_element];
    if (v.count > kMaxMeshVertices)
        mesh_io::fail(path, "element vertex: " + std::to_string(v.count) + " vertices: at most 2^32 - 1 are supported");
    int found[9] = {};
    for (Property& p : v.properties) {
        static const std::pair<const char*, Slot> kNames[] = {
            {"x", Slot::X}, {"y", Slot::Y}, {"z", Slot::Z}, {"nx", Slot::NX}, {"ny", Slot::NY}, {"nz", Slot::NZ},
            {"u", Slot::U}, {"v", Slot::V}, {"s", Slot::U}, {"t", Slot::V}, {"texture_u", Slot::U},
            {"texture_v", Slot::V}, {"texture_s", Slot::U}, {"texture_t", Slot::V}};
        for (const auto& [name, slot] : kNames) {
            if (p.name != name) continue;
            if (p.is_list) mesh_io::fail(path, "vertex property " + quoted(p.name) + " is a list, expected a number");
            if (found[int(slot)]++) mesh_io::fail(path, "vertex property " + quoted(p.name) + " given twice");
            p.slot = slot;
        }
    }
    for (Slot s : {Slot::X, Slot::Y, Slot::Z})
        if (!found[int(s)]) mesh_io::fail(path, "element vertex has no x, y and z properties");
    has_normals = found[int(Slot::NX)] && found[int(Slot::NY)] && found[int(Slot::NZ)];
    has_uvs = found[int(Slot::U)] && found[int(Slot::V)];
    if (!has_normals)  // a partial normal is no normal
        for (Property& p : v.properties)
            if (p.slot == Slot::NX || p.slot == Slot::NY || p.slot == Slot::NZ) p.slot = Slot::Ignore;
    if (!has_uvs)
        for (Property& p : v.properties)
            if (p.slot == Slot::U || p.slot == Slot::V) p.slot = Slot::Ignore;

    Element& f = h.elements[face_element];
    for (Property& p : f.properties) {
        if (p.name != "vertex_indices" && p.name != "vertex_index") continue;
        if (!p.is_list) mesh_io::fail(path, "face property " + quoted(p.name) + " is not a list");
        if (!is_integer(p.type)) mesh_io::fail(path, "face property " + quoted(p.name) + " holds floating-point numbers, expected integers");
        p.slot = Slot::FaceIndices;
        break;
    }
    bool indices_found = false;
    for (const Property& p : f.properties) indices_found |= p.slot == Slot::FaceIndices;
    if (!indices_found) mesh_io::fail(path, "element face has no list property vertex_indices (or vertex_index)");
}

// The least data an instance of `e` takes: a face needs 3 indices; other lists may be empty.
uint64_t min_instance_bytes(const Element& e, Encoding enc) {
    uint64_t bytes = 0;
    for (const Property& p : e.properties) {
        uint64_t items = p.slot == Slot::FaceIndices ? 3 : 0;
        if (enc == Encoding::Ascii) bytes += 2 * (p.is_list ? 1 + items : 1);  // a digit and a separator each
        else bytes += p.is_list ? size_of(p.count_type) + items * size_of(p.type) : size_of(p.type);
    }
    return bytes;
}

// Reads values one at a time from binary data; `where` describes the current place
// for messages.
class BinarySource {
public:
    BinarySource(std::string_view data, bool big_endian) : p_(data.data()), end_(data.data() + data.size()),
          swap_(big_endian != (std::endian::native == std::endian::big)) {}

    bool read(Scalar t, double& out) {
        size_t n = size_of(t);
        if (size_t(end_ - p_) < n) return false;
        unsigned char b[8];
        std::memcpy(b, p_, n);
        p_ += n;
        if (swap_) for (size_t i = 0; i < n / 2; ++i) std::swap(b[i], b[n - 1 - i]);
        switch (t) {
            case Scalar::Int8: { int8_t v; std::memcpy(&v, b, 1); out = v; break; }
            case Scalar::UInt8: { uint8_t v; std::memcpy(&v, b, 1); out = v; break; }
            case Scalar::Int16: { int16_t v; std::memcpy(&v, b, 2); out = v; break; }
            case Scalar::UInt16: { uint16_t v; std::memcpy(&v, b, 2); out = v; break; }
            case Scalar::Int32: { int32_t v; std::memcpy(&v, b, 4); out = v; break; }
            case Scalar::UInt32: { uint32_t v; std::memcpy(&v, b, 4); out = v; break; }
            case Scalar::Float32: { float v; std::memcpy(&v, b, 4); out = v; break; }
            case Scalar::Float64: { double v; std::memcpy(&v, b, 8); out = v; break; }
        }
        return true;
    }
    std::string place() const { return {}; }
    // What a failed read found: the end of the data.
    std::string problem() const { return "the data ends early (truncated file)"; }

private:
    const char* p_;
    const char* end_;
    bool swap_;
};

// Reads whitespace-separated numbers, counting lines for messages.
class AsciiSource {
public:
    AsciiSource(std::string_view data, size_t first_line) : p_(data.data()), end_(data.data() + data.size()),
          line_(first_line) {}

    bool read(Scalar, double& out) {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == '\n')) {
            if (*p_ == '\n') ++line_;
            ++p_;
        }
        if (p_ == end_) { problem_ = "the data ends early (truncated file)"; return false; }
        const char* start = p_;
        while (p_ < end_ && *p_ != ' ' && *p_ != '\t' && *p_ != '\r' && *p_ != '\n') ++p_;
        const char* s = start;
        if (s < p_ && *s == '+') ++s;  // from_chars takes no leading '+'
        auto [q, ec] = std::from_chars(s, p_, out);
        if (ec != std::errc() || q != p_) {
            problem_ = "expected a number, got " + quoted(std::string_view(start, size_t(p_ - start)));
            return false;
        }
        return true;
    }
    std::string place() const { return "line " + std::to_string(line_) + ": "; }
    std::string problem() const { return problem_; }

private:
    const char* p_;
    const char* end_;
    size_t line_;
    std::string problem_;
};

template <typename Source>
void read_data(const std::string& path, const Header& h, Source& src, size_t vertex_element, IndexedMesh& mesh,
               bool has_normals, bool has_uvs) {
    const uint64_t num_vertices = h.elements[vertex_element].count;
    std::vector<uint32_t> polygon;
    for (const Element& e : h.elements) {
        const bool is_vertex = &e == &h.elements[vertex_element];
        for (uint64_t i = 0; i < e.count; ++i) {
            auto fail_at = [&](const std::string& what) {
                mesh_io::fail(path, src.place() + e.name + " " + std::to_string(i) + ": " + what);
            };
            Vec3f position, normal;
            Vec2f uv;
            for (const Property& p : e.properties) {
                double value = 0.0;
                if (!p.is_list) {
                    if (!src.read(p.type, value)) fail_at(p.name + ": " + src.problem());
                    switch (p.slot) {
                        case Slot::X: position.x = float(value); break;
                        case Slot::Y: position.y = float(value); break;
                        case Slot::Z: position.z = float(value); break;
                        case Slot::NX: normal.x = float(value); break;
                        case Slot::NY: normal.y = float(value); break;
                        case Slot::NZ: normal.z = float(value); break;
                        case Slot::U: uv.x = float(value); break;
                        case Slot::V: uv.y = float(value); break;
                        default: break;
                    }
                    continue;
                }
                double count = 0.0;
                if (!src.read(p.count_type, count)) fail_at(p.name + ": " + src.problem());
                if (!(count >= 0) || count != std::floor(count))
                    fail_at(p.name + ": list length " + number(count) + " is not a count");
                const bool indices = p.slot == Slot::FaceIndices;
                if (indices) {
                    if (count < 3) fail_at("a face of " + std::to_string(uint64_t(count)) + " vertices (at least 3)");
                    polygon.clear();
                }
                for (uint64_t k = 0; k < uint64_t(count); ++k) {
                    if (!src.read(p.type, value)) fail_at(p.name + ": " + src.problem());
                    if (!indices) continue;
                    if (!(value >= 0 && value < double(num_vertices)) || value != std::floor(value))
                        fail_at("vertex index " + number(value) + " out of range [0, " +
                                std::to_string(num_vertices ? num_vertices - 1 : 0) + "] (the file has " +
                                std::to_string(num_vertices) + " vertices)");
                    polygon.push_back(uint32_t(value));
                }
                if (indices) {
                    for (size_t k = 1; k + 1 < polygon.size(); ++k) {
                        mesh.indices.push_back(polygon[0]);
                        mesh.indices.push_back(polygon[k]);
                        mesh.indices.push_back(polygon[k + 1]);
                    }
                }
            }
            if (is_vertex) {
                mesh.positions.push_back(position);
                if (has_normals) mesh.normals.push_back(normal);
                if (has_uvs) mesh.uvs.push_back(uv);
            }
        }
    }
}

// The layout most binary PLYs have, read without the per-value switch of read_data
// (which took 230 of the 400 ms that loading a 2M-triangle grid takes, bench/NOTES.md):
// little endian; a vertex element of exactly float x, y, z, then a face element of
// exactly one list of uchar counts and int or uint indices. Returns false where the
// file is laid out otherwise, or where anything in its data would be an error or need
// read_data's general handling (a face that is not a triangle, an index out of range,
// data ending early): read_data then reads the file from the start, with its messages.
bool read_plain_binary_triangles(const Header& h, std::string_view body, IndexedMesh& mesh) {
    static_assert(sizeof(Vec3f) == 12, "positions are read as packed float triples");
    if (h.encoding != Encoding::BinaryLittleEndian || std::endian::native != std::endian::little) return false;
    if (h.elements.size() != 2) return false;
    const Element& v = h.elements[0];
    const Element& f = h.elements[1];
    if (v.properties.size() != 3 || f.properties.size() != 1) return false;
    const Slot xyz[3] = {Slot::X, Slot::Y, Slot::Z};
    for (int k = 0; k < 3; ++k)
        if (v.properties[k].is_list || v.properties[k].type != Scalar::Float32 || v.properties[k].slot != xyz[k])
            return false;
    const Property& list = f.properties[0];
    if (!list.is_list || list.slot != Slot::FaceIndices || list.count_type != Scalar::UInt8 ||
        (list.type != Scalar::Int32 && list.type != Scalar::UInt32))
        return false;
    const uint64_t num_vertices = v.count;
    if (num_vertices == 0 || num_vertices > body.size() / 12 || f.count > (body.size() - 12 * num_vertices) / 13)
        return false;
    // Every face is 13 bytes here, so face i lies at 13 i: the faces are read on the
    // thread pool, and any that is not such a triangle sends the file back.
    mesh.positions.resize(num_vertices);
    mesh.indices.resize(3 * f.count);
    Vec3f* positions = mesh.positions.data();
    host_parallel_chunks(num_vertices, [&](uint64_t begin, uint64_t end) {
        std::memcpy(positions + begin, body.data() + 12 * begin, 12 * (end - begin));
    });
    const char* faces = body.data() + 12 * num_vertices;
    uint32_t* indices = mesh.indices.data();
    const bool signed_indices = list.type == Scalar::Int32;
    std::atomic<bool> plain{true};
    host_parallel_chunks(f.count, [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end && plain.load(std::memory_order_relaxed); ++i) {
            const char* p = faces + 13 * i;
            uint32_t tri[3];
            std::memcpy(tri, p + 1, 12);
            bool ok = uint8_t(p[0]) == 3;
            for (int k = 0; k < 3; ++k) {
                ok = ok && tri[k] < num_vertices && !(signed_indices && int32_t(tri[k]) < 0);
                indices[3 * i + k] = tri[k];
            }
            if (!ok) plain.store(false, std::memory_order_relaxed);
        }
    });
    return plain.load();
}

}  // namespace

IndexedMesh read_ply(const std::string& path) {
    const mesh_io::FileBytes file = mesh_io::read_file_in_parallel(path);
    const std::string_view data = file.view();
    Header h = parse_header(path, data);
    size_t vertex_element, face_element;
    bool has_normals, has_uvs;
    assign_slots(path, h, vertex_element, face_element, has_normals, has_uvs);

    // Counts larger than the data are caught before anything is sized by them.
    const uint64_t data_bytes = data.size() - h.data_offset;
    uint64_t needed = 0;
    for (const Element& e : h.elements) {
        uint64_t per = min_instance_bytes(e, h.encoding);
        if (per == 0) continue;
        if (e.count > (data_bytes + 1) / per || needed + e.count * per > data_bytes + 1)  // + 1: no final separator
            mesh_io::fail(path, "the header promises " + std::to_string(e.count) + " " + quoted(e.name) + " elements, more than the " +
                                    std::to_string(data_bytes) + " bytes of data can hold (truncated file or wrong count)");
        needed += e.count * per;
    }

    IndexedMesh mesh;
    const uint64_t num_vertices = h.elements[vertex_element].count;
    reserve_touched(mesh.positions, num_vertices);  // (see host_parallel.h)
    if (has_normals) mesh.normals.reserve(num_vertices);
    if (has_uvs) mesh.uvs.reserve(num_vertices);
    reserve_touched(mesh.indices, 3 * h.elements[face_element].count);

    std::string_view body = data.substr(h.data_offset);
    if (read_plain_binary_triangles(h, body, mesh)) {
        mesh_io::check_mesh(path, "", mesh);
        return mesh;
    }
    mesh.positions.clear();  // read again, the general way
    mesh.indices.clear();
    if (h.encoding == Encoding::Ascii) {
        AsciiSource src(body, h.lines + 1);
        read_data(path, h, src, vertex_element, mesh, has_normals, has_uvs);
    } else {
        BinarySource src(body, h.encoding == Encoding::BinaryBigEndian);
        read_data(path, h, src, vertex_element, mesh, has_normals, has_uvs);
    }
    mesh_io::check_mesh(path, "", mesh);
    return mesh;
}

}  // namespace wf
