// Mesh files: OBJ (tinyobjloader), PLY (ascii and binary, our own reader) and glTF 2.0
// geometry (.gltf, .glb; tinygltf), read into IndexedMesh (engine/scene.h) in the
// file's own coordinates. One reader per format: io/mesh_obj.cpp, io/mesh_ply.cpp,
// io/mesh_gltf.cpp; this file holds what they share.
//
// Every problem throws SceneError with one line naming the file and the place:
//   model.ply: face 7: vertex index 12 out of range [0, 7] (the file has 8 vertices)
//   model.obj: line 3: expected 3 finite numbers after "v", got "1 nan 0"
// A mesh that comes back has: indices in range, at least one triangle, finite
// positions, and normals (unit length) and UVs (finite) either one per position or none.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scene.h"

namespace wf {

enum class MeshFormat { Obj, Ply, Gltf, Glb };

// The mesh format of a file name's extension (case-insensitive), or none.
std::optional<MeshFormat> mesh_format_of(std::string_view path);

// Reads any of the formats, chosen by the extension. glTF gives one mesh per
// triangle primitive of each node of its default scene, with the node transforms
// applied; OBJ and PLY give one mesh. `files_read`, when given, gets `path` and every
// other file the reader opened (a glTF's external buffers and images) appended.
std::vector<IndexedMesh> read_mesh_file(const std::string& path, std::vector<std::string>* files_read = nullptr);

IndexedMesh read_obj(const std::string& path);
IndexedMesh read_ply(const std::string& path);
// `also_read`, when given, gets the files read besides `path` (external buffers, images).
std::vector<IndexedMesh> read_gltf(const std::string& path, std::vector<std::string>* also_read = nullptr);

// Largest mesh file read: the whole file is held in memory while it is parsed.
inline constexpr uint64_t kMaxMeshFileBytes = uint64_t(4) << 30;
// Indices are 32-bit.
inline constexpr uint64_t kMaxMeshVertices = 0xffffffffull;

namespace mesh_io {

// The whole file, or SceneError "<path>: cannot open: ..." (missing, a folder, too large).
std::string read_file_bytes(const std::string& path);

// The same, read by the thread pool's threads in slices into memory that nothing wrote
// before (std::string zeroes its bytes on one thread first): for large binary files.
struct FileBytes {
    std::unique_ptr<char[]> data;
    size_t size = 0;
    std::string_view view() const { return {data.get(), size}; }
};
FileBytes read_file_in_parallel(const std::string& path);

// Checks what every reader promises (header comment above) and normalises the
// normals; `where` prefixes messages ("mesh 0, primitive 1: "). Throws SceneError.
void check_mesh(const std::string& path, std::string_view where, IndexedMesh& mesh);

// "<path>: <what>" as a SceneError, on one line.
[[noreturn]] void fail(const std::string& path, std::string_view what);

}  // namespace mesh_io
}  // namespace wf
