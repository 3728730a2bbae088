// An equirectangular environment map as the loader produced it, before it is uploaded
// (app/device_scene.h builds its sampling distribution on the backend:
// materials/environment_map.h). The mapping between texels and directions, and the meaning
// of `up` and `rotation_degrees`, are defined in materials/environment_map.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/math.h"

namespace wf {

struct HostEnvironmentMap {
    std::string file;  // where it came from, for messages
    uint32_t width = 0, height = 0;
    // Linear RGB radiance (W/sr/m^2), finite and >= 0, before the light's intensity scale;
    // row-major, row 0 at the top of the image (toward `up`), width * height entries.
    std::vector<Vec3f> texels;
    Vec3f up{0.0f, 1.0f, 0.0f};     // unit
    float rotation_degrees = 0.0f;  // about `up`, right-handed

    bool empty() const { return texels.empty(); }
};

}  // namespace wf
