// A scene file that reads mesh files, written into a folder for the output-safety tests:
// every file here is an input of the render that no output may replace.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace wf::test {

struct MeshSceneFiles {
    std::string scene, obj, gltf, bin, texture;
};

// In `dir`: scene.json with a triangle from model.obj (used twice) and a square from
// square.gltf, whose vertices are in square.bin and which names an image, texture.png
// (read by the glTF reader, never decoded).
inline MeshSceneFiles write_mesh_scene(const std::string& dir) {
    MeshSceneFiles f{dir + "/scene.json", dir + "/model.obj", dir + "/square.gltf", dir + "/square.bin",
                     dir + "/texture.png"};
    std::ofstream(f.obj) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    const std::vector<float> strip = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};  // a unit square as a triangle strip
    std::ofstream(f.bin, std::ios::binary).write(reinterpret_cast<const char*>(strip.data()), 48);
    std::ofstream(f.texture) << "an image the renderer does not decode";
    std::ofstream(f.gltf) << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 5}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"}],
        "bufferViews": [{"buffer": 0, "byteLength": 48}], "buffers": [{"byteLength": 48, "uri": "square.bin"}],
        "images": [{"uri": "texture.png"}]})";
    std::ofstream(f.scene) << R"({"camera": {"position": [0.5, 0.5, 4], "look_at": [0.5, 0.5, 0]},
        "shapes": [{"type": "mesh", "file": "model.obj"},
                   {"type": "mesh", "file": "model.obj", "transform": {"translate": [2, 0, 0]}},
                   {"type": "mesh", "file": "square.gltf", "transform": {"translate": [-2, 0, 0]}}],
        "lights": [{"type": "environment"}]})";
    return f;
}

}  // namespace wf::test
