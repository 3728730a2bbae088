// Bad, truncated and lying mesh files: each is rejected with one line that starts
// with the file's path and says what is wrong where. The files are written here, from
// text, so each case shows its whole input.
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/mesh.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"
#include "tests/io/mesh_test_util.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

// Writes `bytes` as `name` in a temp folder, reads it as a mesh and returns the error.
std::string mesh_error(const std::string& name, const std::string& bytes, std::string* path_out = nullptr) {
    std::string path = test::write_file(test::temp_folder("wf_mesh_bad") + "/" + name, bytes);
    if (path_out) *path_out = path;
    std::string e = test::scene_error_of([&] { read_mesh_file(path); });
    EXPECT_EQ(e.rfind(path + ": ", 0), 0u) << "the message must start with the file: " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    return e;
}


const std::string kPlyTriangleHeader =
    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 1\nproperty list uchar int vertex_indices\nend_header\n";

std::string binary_ply(uint32_t vertices_declared, const std::vector<float>& xyz, uint32_t faces_declared,
                       const std::string& face_bytes) {
    std::string s = "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(vertices_declared) +
                    "\nproperty float x\nproperty float y\nproperty float z\nelement face " +
                    std::to_string(faces_declared) + "\nproperty list uchar int vertex_indices\nend_header\n";
    s.append(reinterpret_cast<const char*>(xyz.data()), xyz.size() * sizeof(float));
    return s + face_bytes;
}

std::string binary_face(std::vector<int32_t> idx) {
    std::string s(1, char(uint8_t(idx.size())));
    s.append(reinterpret_cast<const char*>(idx.data()), idx.size() * 4);
    return s;
}

const std::vector<float> kTriangleXyz = {0, 0, 0, 1, 0, 0, 0, 1, 0};

// ---- PLY ----------------------------------------------------------------------------

TEST(MeshBadPly, NotAPlyFile) {
    EXPECT_CONTAINS(mesh_error("a.ply", "solid cube\nfacet normal 0 0 1\n"), "not a PLY file");
    EXPECT_CONTAINS(mesh_error("b.ply", ""), "empty file");
}

TEST(MeshBadPly, HeaderProblemsNameTheHeaderLine) {
    EXPECT_CONTAINS(mesh_error("a.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float33 x\nend_header\n"),
                    "header line 4: unknown property type \"float33\"");
    EXPECT_CONTAINS(mesh_error("b.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"),
                    "no end_header line");
    EXPECT_CONTAINS(mesh_error("c.ply", "ply\nformat ascii 1.0\nelement vertex -3\nend_header\n"),
                    "header line 3: element vertex: count \"-3\" is not a non-negative integer");
    EXPECT_CONTAINS(mesh_error("d.ply", "ply\nformat binary_middle_endian 1.0\nend_header\n"), "unknown format");
    EXPECT_CONTAINS(mesh_error("e.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
                                        "element face 0\nproperty list uchar int vertex_indices\nend_header\n0 0\n"),
                    "element vertex has no x, y and z properties");
    EXPECT_CONTAINS(mesh_error("f.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
                                        "property float z\nend_header\n0 0 0\n"),
                    "no \"face\" element (a point cloud");
}

TEST(MeshBadPly, CountsLargerThanTheDataAreCaughtBeforeAllocating) {
    // 2^32 - 1 vertices of 12 bytes would be 48 GiB; the file has 36 bytes of them.
    EXPECT_CONTAINS(mesh_error("a.ply", binary_ply(4294967295u, kTriangleXyz, 1, binary_face({0, 1, 2}))),
                    "the header promises 4294967295 \"vertex\" elements, more than the 49 bytes of data can hold");
    EXPECT_CONTAINS(mesh_error("b.ply", binary_ply(3, kTriangleXyz, 1000000, binary_face({0, 1, 2}))),
                    "promises 1000000 \"face\" elements");
    EXPECT_CONTAINS(mesh_error("c.ply", "ply\nformat ascii 1.0\nelement vertex 99999999999999999999\nend_header\n"),
                    "is not a non-negative integer");  // beyond 64 bits
    std::string header_of_300 = kPlyTriangleHeader;
    header_of_300.replace(header_of_300.find("vertex 3"), 8, "vertex 300");
    EXPECT_CONTAINS(mesh_error("d.ply", header_of_300 + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
                    "promises 300 \"vertex\" elements");
}

TEST(MeshBadPly, TruncatedDataNamesTheElement) {
    // A face claims 200 indices; the file ends after 3.
    EXPECT_CONTAINS(mesh_error("a.ply", binary_ply(3, kTriangleXyz, 1, std::string(1, char(200)) +
                                                                             binary_face({0, 1, 2}).substr(1))),
                    "face 0: vertex_indices: the data ends early (truncated file)");
    // Long numbers pass the size check; the third vertex is missing.
    EXPECT_CONTAINS(mesh_error("b.ply", kPlyTriangleHeader + "0.000000000 0.000000000 0.000000000\n"
                                                             "1.000000000 0.000000000 0.000000000\n"),
                    "line 12: vertex 2: x: the data ends early (truncated file)");
}

TEST(MeshBadPly, IndicesOutOfRange) {
    EXPECT_CONTAINS(mesh_error("a.ply", kPlyTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"),
                    "line 13: face 0: vertex index 3 out of range [0, 2] (the file has 3 vertices)");
    EXPECT_CONTAINS(mesh_error("b.ply", binary_ply(3, kTriangleXyz, 1, binary_face({0, -1, 2}))),
                    "face 0: vertex index -1 out of range [0, 2]");
    EXPECT_CONTAINS(mesh_error("c.ply", kPlyTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 1.5\n"),
                    "vertex index 1.5 out of range");
    EXPECT_CONTAINS(mesh_error("d.ply", kPlyTriangleHeader + "0.00 0.00 0.00\n1.00 0.00 0.00\n0.00 1.00 0.00\n2 0 1\n"),
                    "face 0: a face of 2 vertices (at least 3)");
}

TEST(MeshBadPly, NonFiniteAndUnparsableNumbers) {
    EXPECT_CONTAINS(mesh_error("a.ply", kPlyTriangleHeader + "0 0 0\nnan 0 0\n0 1 0\n3 0 1 2\n"),
                    "vertex 1: position (nan, 0, 0) is not finite");
    std::vector<float> xyz = kTriangleXyz;
    xyz[7] = std::numeric_limits<float>::infinity();
    EXPECT_CONTAINS(mesh_error("b.ply", binary_ply(3, xyz, 1, binary_face({0, 1, 2}))),
                    "vertex 2: position (0, inf, 0) is not finite");
    EXPECT_CONTAINS(mesh_error("c.ply", kPlyTriangleHeader + "0 0 0\n1 zero 0\n0 1 0\n3 0 1 2\n"),
                    "line 11: vertex 1: y: expected a number, got \"zero\"");
}

// ---- OBJ ----------------------------------------------------------------------------

TEST(MeshBadObj, NumbersTinyobjloaderWouldTurnIntoZero) {
    EXPECT_CONTAINS(mesh_error("a.obj", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n"),
                    "line 2: expected 3 to 7 finite numbers after \"v\", got \"nan 0 0\"");
    EXPECT_CONTAINS(mesh_error("b.obj", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n"), "line 2: expected 3 to 7 finite numbers");
    EXPECT_CONTAINS(mesh_error("c.obj", "v 0 0 0\nv 1 0 0\nv 0 1e999 0\nf 1 2 3\n"), "line 3:");
    EXPECT_CONTAINS(mesh_error("d.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 x\nf 1//1 2//1 3//1\n"),
                    "line 4: expected 3 finite numbers after \"vn\", got \"0 0 x\"");
}

TEST(MeshBadObj, FaceIndicesOutOfRange) {
    const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    EXPECT_CONTAINS(mesh_error("a.obj", tri + "f 1 2 9\n"),
                    "line 4: face corner \"9\": vertex index 9 out of range (the file has 3 vertices)");
    EXPECT_CONTAINS(mesh_error("b.obj", tri + "f 0 1 2\n"), "vertex index 0 (OBJ counts from 1)");
    EXPECT_CONTAINS(mesh_error("c.obj", tri + "f -4 -2 -1\n"),
                    "vertex index -4 out of range (the file has 3 vertices, 3 before this line)");
    EXPECT_CONTAINS(mesh_error("d.obj", tri + "vt 0 0\nf 1/1 2/2 3/1\n"),
                    "face corner \"2/2\": texture coordinate index 2 out of range (the file has 1 texture coordinates)");
    EXPECT_CONTAINS(mesh_error("e.obj", tri + "f 1 2\n"), "line 4: a face of 2 corners (at least 3)");
    EXPECT_CONTAINS(mesh_error("f.obj", tri), "no triangles");
}

// ---- glTF ---------------------------------------------------------------------------

// tests/data/meshes/triangle.gltf with its buffer moved to `bin` (written next to it)
// and `edit` applied.
std::string gltf_error(const std::string& name, const std::string& bin,
                       const std::function<void(nlohmann::json&)>& edit) {
    std::ifstream f(test::source_dir() + "/tests/data/meshes/triangle.gltf");
    nlohmann::json g = nlohmann::json::parse(f);
    g["buffers"][0]["uri"] = name + ".bin";
    g["buffers"][0]["byteLength"] = bin.size();
    edit(g);
    test::write_file(test::temp_folder("wf_mesh_bad") + "/" + name + ".bin", bin);
    return mesh_error(name + ".gltf", g.dump());
}

// The buffer of triangle.gltf: 3 ushort indices (+ 2 bytes padding), positions,
// normals (+z), UVs.
std::string triangle_buffer(std::vector<uint16_t> idx = {0, 1, 2}, std::vector<float> xyz = kTriangleXyz) {
    std::string b(reinterpret_cast<const char*>(idx.data()), 6);
    b += std::string(2, '\0');
    b.append(reinterpret_cast<const char*>(xyz.data()), 36);
    std::vector<float> rest = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    b.append(reinterpret_cast<const char*>(rest.data()), rest.size() * 4);
    return b;
}

TEST(MeshBadGltf, ExternalBufferReadsLikeTheEmbeddedOne) {  // the harness of the cases below works
    std::string path = test::write_file(test::temp_folder("wf_mesh_bad") + "/ok.bin", triangle_buffer());
    std::ifstream f(test::source_dir() + "/tests/data/meshes/triangle.gltf");
    nlohmann::json g = nlohmann::json::parse(f);
    g["buffers"][0]["uri"] = "ok.bin";
    std::string gltf = test::write_file(test::temp_folder("wf_mesh_bad") + "/ok.gltf", g.dump());
    EXPECT_EQ(read_gltf(gltf).size(), 2u);
}

TEST(MeshBadGltf, MalformedJsonAndMissingBuffer) {
    EXPECT_CONTAINS(mesh_error("a.gltf", "{\"asset\": {\"version\": \"2.0\"}, "), "tinygltf: ");
    std::string e = gltf_error("b", triangle_buffer(), [](nlohmann::json& g) { g["buffers"][0]["uri"] = "missing.bin"; });
    EXPECT_CONTAINS(e, ": /buffers/0/uri \"missing.bin\": no such file (looked for ");
    e = gltf_error("c", triangle_buffer().substr(0, 52), [](nlohmann::json& g) { g["buffers"][0]["byteLength"] = 104; });
    EXPECT_CONTAINS(e, ": /buffers/0/uri \"c.bin\": 52 bytes, but its byteLength is 104");
    // Escapes in a URI are decoded before the file is looked for.
    test::write_file(test::temp_folder("wf_mesh_bad") + "/d e.bin", triangle_buffer());
    std::ifstream f(test::source_dir() + "/tests/data/meshes/triangle.gltf");
    nlohmann::json g = nlohmann::json::parse(f);
    g["buffers"][0]["uri"] = "d%20e.bin";
    EXPECT_EQ(read_gltf(test::write_file(test::temp_folder("wf_mesh_bad") + "/d.gltf", g.dump())).size(), 2u);
}

// triangle.gltf as a GLB: the JSON chunk, then triangle_buffer() as the BIN chunk.
std::string triangle_glb() {
    std::ifstream f(test::source_dir() + "/tests/data/meshes/triangle.gltf");
    nlohmann::json g = nlohmann::json::parse(f);
    const std::string bin = triangle_buffer();
    g["buffers"] = nlohmann::json::array({{{"byteLength", bin.size()}}});
    std::string text = g.dump();
    while (text.size() % 4) text += ' ';
    auto le32 = [](uint32_t v) {
        std::string s;
        for (int shift = 0; shift < 32; shift += 8) s += char((v >> shift) & 0xff);
        return s;
    };
    return "glTF" + le32(2) + le32(uint32_t(12 + 8 + text.size() + 8 + bin.size())) + le32(uint32_t(text.size())) +
           "JSON" + text + le32(uint32_t(bin.size())) + std::string("BIN\0", 4) + bin;
}

// A GLB whose header, chunks or BIN buffer do not fit the file says which, with the sizes.
TEST(MeshBadGltf, TruncatedAndInconsistentGlbAreNamed) {
    const std::string glb = triangle_glb();
    std::string path = test::write_file(test::temp_folder("wf_mesh_bad") + "/whole.glb", glb);
    EXPECT_EQ(read_gltf(path).size(), 2u) << "the harness's GLB reads";
    EXPECT_CONTAINS(mesh_error("a.glb", std::string("glTF\x02\0\0\0", 8)), "truncated GLB: 8 bytes, less than the 12-byte header");
    EXPECT_CONTAINS(mesh_error("b.glb", glb.substr(0, glb.size() - 30)),
                    "truncated GLB: the header says " + std::to_string(glb.size()) + " bytes, the file has " +
                        std::to_string(glb.size() - 30));
    EXPECT_CONTAINS(mesh_error("c.glb", "gltf" + glb.substr(4)), "not a binary glTF: the file does not start with \"glTF\"");
    std::string v1 = glb;
    v1[4] = 1;
    EXPECT_CONTAINS(mesh_error("d.glb", v1), "GLB version 1: only version 2 is read");
    // The BIN chunk declares fewer bytes than buffer 0's byteLength (the header still fits).
    std::string short_bin = glb;
    const size_t bin_header = glb.size() - triangle_buffer().size() - 8;
    short_bin[bin_header] = char(uint8_t(short_bin[bin_header]) - 8);
    EXPECT_CONTAINS(mesh_error("e.glb", short_bin), ": /buffers/0/byteLength: 104, but the GLB's BIN chunk holds 96 bytes");
    // A JSON chunk longer than the file.
    std::string long_json = glb;
    long_json[13] = char(0x7f);
    EXPECT_CONTAINS(mesh_error("f.glb", long_json), "GLB: the JSON chunk of ");
}

TEST(MeshBadGltf, AccessorCountsLargerThanTheData) {
    std::string e = gltf_error("a", triangle_buffer(), [](nlohmann::json& g) { g["accessors"][1]["count"] = 1000; });
    EXPECT_CONTAINS(e, ": /meshes/0/primitives/0/attributes/POSITION: accessor 1 (/accessors/1/count): 1000 elements from byte 0 "
                       "do not fit in buffer view 1 of 36 bytes");
    e = gltf_error("b", triangle_buffer(), [](nlohmann::json& g) { g["bufferViews"][1]["byteLength"] = 4000; });
    EXPECT_CONTAINS(e, ": /meshes/0/primitives/0/attributes/POSITION: accessor 1 (/accessors/1/bufferView): buffer view 1 "
                       "(/bufferViews/1): bytes 8 + 4000 lie outside its buffer of 104 bytes");
}

TEST(MeshBadGltf, IndicesOutOfRangeAndNaNPositions) {
    EXPECT_CONTAINS(gltf_error("a", triangle_buffer({0, 1, 7}), [](nlohmann::json&) {}),
                    ": /meshes/0/primitives/0: triangle 0: vertex index 7 out of range [0, 2] (3 vertices)");
    std::vector<float> xyz = kTriangleXyz;
    xyz[3] = std::nanf("");
    EXPECT_CONTAINS(gltf_error("b", triangle_buffer({0, 1, 2}, xyz), [](nlohmann::json&) {}),
                    ": /meshes/0/primitives/0: vertex 1: position (nan, 0, 0) is not finite");
}

TEST(MeshBadGltf, UnsupportedFeaturesAreNamed) {
    EXPECT_CONTAINS(gltf_error("a", triangle_buffer(),
                               [](nlohmann::json& g) { g["extensionsRequired"] = {"KHR_draco_mesh_compression"}; g["extensionsUsed"] = {"KHR_draco_mesh_compression"}; }),
                    ": /extensionsRequired/0: requires the extension KHR_draco_mesh_compression, which is not supported");
    EXPECT_CONTAINS(gltf_error("b", triangle_buffer(), [](nlohmann::json& g) { g["nodes"][1]["children"] = {0}; }),
                    ": /nodes/1/children/0: node 0 (/nodes/0) is its own ancestor (a cycle)");
    EXPECT_CONTAINS(gltf_error("c", triangle_buffer(), [](nlohmann::json& g) { g["accessors"][1]["type"] = "VEC2"; }),
                    ": /meshes/0/primitives/0/attributes/POSITION: accessor 1 (/accessors/1/type): type VEC2, expected VEC3");
}

// ---- Through the scene loader: the exit-2 error --------------------------------------

TEST(MeshBadFiles, LoadSceneOfABadMeshThrowsSceneErrorNamingTheFile) {
    std::string path;
    mesh_error("direct.ply", kPlyTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 5\n", &path);
    std::string e = test::scene_error_of([&] { load_scene(path); });
    EXPECT_EQ(e.rfind(path + ": line 13: face 0: vertex index 5 out of range", 0), 0u) << e;
}

}  // namespace
}  // namespace wf
