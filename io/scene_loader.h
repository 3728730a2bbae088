// JSON scene loader: reads a scene file (format: docs/scene-format.md) into a HostScene.
//
// Bad input never crashes and is never silently ignored: every problem throws a
// SceneError whose message is one line naming the file and the JSON pointer of the
// offending value, e.g.
//   scenes/x.json: /shapes/3/radius: expected number > 0, got -1
//   scenes/x.json:12:7: malformed JSON: syntax error while parsing object - ...
//   scenes/x.json: cannot open: No such file or directory
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/integrators.h"
#include "engine/scene.h"

namespace wf {

struct SceneError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What the loader did beyond building the scene, for callers that report it.
struct SceneLoadStats {
    uint32_t dropped_degenerate_triangles = 0;  // zero-area mesh triangles left out
    std::vector<std::string> warnings;          // what was read but is not rendered ("<file>: ..."), for stderr
};

// Loads and validates the scene file at `path`. Relative paths inside the scene
// resolve from the directory of `path`.
HostScene load_scene(const std::string& path, SceneLoadStats* stats = nullptr);

// Parses scene text. `source_name` is used in error messages and stored as
// HostScene::source_path; `base_dir` is where relative paths inside the scene resolve.
HostScene parse_scene(const std::string& json_text, const std::string& source_name,
                      const std::string& base_dir, SceneLoadStats* stats = nullptr);

// The command line's --env: the scene's environment light becomes the equirectangular map
// `path` (.hdr or .exr; intensity 1, rotation 0, up +y). It replaces the environment light
// (constant, gradient or image) where the scene has one, else it is added after the other
// lights; `path` joins input_files. Throws SceneError ("--env: PATH: problem").
void set_environment_map(HostScene& scene, const std::string& path);

// Makes file camera `index` (HostScene::file_cameras, a glTF file's cameras) the
// scene's camera; its aspect ratio, when given, sets the film height from the width.
void use_file_camera(HostScene& scene, uint32_t index);

// Resolves a path written in a scene file: absolute paths are kept, relative ones
// are taken from `base_dir` (the scene file's directory). Lexically normalised.
std::string resolve_scene_path(const std::string& base_dir, const std::string& path);

}  // namespace wf
