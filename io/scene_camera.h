// The scene file's "camera": a pinhole, thin-lens or orthographic camera
// (docs/scene-format.md, `camera`). Internal to the scene loader.
#pragma once

#include "engine/scene.h"
#include "io/scene_json.h"

namespace wf::scene_json {

void read_camera(const Reader& r, const Node& n, CameraDesc& cam);

}  // namespace wf::scene_json
