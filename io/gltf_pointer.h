// Places in a glTF document for error messages: JSON pointers (RFC 6901) into the file's
// JSON, as the JSON scene loader names its places (io/scene_json.h), e.g.
//   x.gltf: /materials/0/pbrMetallicRoughness/metallicFactor (material "Gold"): 2 is not in [0, 1]
//   x.gltf: /meshes/0/primitives/0/attributes/NORMAL: accessor 3 (/accessors/3): type VEC2, expected VEC3
// A message that follows a reference names the referring member first, then the object
// referred to with its own pointer. Internal to the glTF reader (io/mesh_gltf.cpp,
// io/gltf_materials.cpp, io/gltf_container.cpp).
#pragma once

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

#include "io/scene_json.h"

namespace wf::gltf_io {

// `pointer` with one more reference token, '~' and '/' escaped.
inline std::string child(const std::string& pointer, std::string_view key) { return scene_json::pointer_append(pointer, key); }
inline std::string child(const std::string& pointer, size_t index) { return pointer + "/" + std::to_string(index); }
// "/<table>/<index>": an element of one of the document's top-level arrays.
inline std::string element(std::string_view table, size_t index) { return child(child(std::string(), table), index); }

// `kind index (pointer)`, e.g. "accessor 3 (/accessors/3)": an object a member refers to.
inline std::string referred(std::string_view kind, std::string_view table, size_t index) {
    return std::string(kind) + " " + std::to_string(index) + " (" + element(table, index) + ")";
}

// " (material \"Gold\")" after a place, or "" for an object without a name. Names are not
// pointer tokens: they follow the pointer, quoted on one line.
inline std::string named(std::string_view kind, const std::string& name) {
    return name.empty() ? std::string() : " (" + std::string(kind) + " " + scene_json::in_quotes(name) + ")";
}

// A number as written (shortest round trip: 2, 0.5, 1e-06), not std::to_string's 6 decimals.
inline std::string number_text(double v) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

}  // namespace wf::gltf_io
