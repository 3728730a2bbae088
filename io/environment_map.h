// Reading equirectangular environment maps (.hdr or .exr) for the scene loader's
// environment lights and the command line's --env. The mapping and the sampling are
// materials/environment_map.h's; the format is in docs/scene-format.md.
#pragma once

#include <string>

#include "engine/host_environment_map.h"

namespace wf {

// Reads `path` (.hdr: Radiance, .exr: OpenEXR of any compression) as linear radiance and
// checks it: every texel finite and >= 0, except that negative values down to -1/16 of the
// map's mean channel value (the ringing of lossy compression) are read as 0. `up` and
// `rotation_degrees` keep their defaults.
// Throws SceneError (io/scene_loader.h) with one line that names `path`:
//   sky.exr: cannot open: No such file or directory
//   sky.exr: texel (3, 7) is negative (-1, 0, 0): an environment map holds radiance, finite and >= 0
HostEnvironmentMap read_environment_map(const std::string& path);

// The largest channel of any texel: with the light's intensity, it bounds the map's power.
float max_texel_value(const HostEnvironmentMap& map);

}  // namespace wf
