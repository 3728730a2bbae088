// What tinygltf reports only vaguely ("Invalid glTF binary", "File size mismatch"),
// checked before it parses, each problem named by the file and the JSON path: a GLB's
// header and chunks against the file's size, and every buffer's bytes against its
// byteLength (the GLB's BIN chunk, or a file next to the glTF). Before, not after a
// refusal: tinygltf accepts some of these (a GLB of version 1 among them, measured: the
// tests' files refused here loaded when the check ran only after a refusal), so the check
// parses the JSON once more on every load.
#pragma once

#include <string>

namespace wf::gltf_io {

// bytes: the whole file at path; binary: a .glb; base_dir: where relative URIs resolve.
// Throws (mesh_io::fail) on the first problem; a document that is not valid JSON is left
// to tinygltf, whose parse error names the line and column.
void check_gltf_container(const std::string& path, const std::string& bytes, bool binary, const std::string& base_dir);

}  // namespace wf::gltf_io
