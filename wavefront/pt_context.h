// What every path-tracing stage receives: the scene, the path state and the
// numbers of the current wave.
#pragma once

#include <cstdint>

#include "engine/device_scene.h"
#include "engine/rng.h"
#include "materials/sampling.h"
#include "wavefront/path_state.h"
#include "wavefront/queues.h"

namespace wf {

struct PtContext {
    SceneView scene;
    PathStateView paths;
    uint32_t width, height;
    uint32_t max_path_length;  // segments
    uint32_t seed;
    uint32_t sample_index;     // which sample of each pixel this wave traces
    uint32_t pixel_offset;     // first pixel of this wave
    uint32_t num_paths;        // paths (= slots) in this wave
    float light_pick_prob;     // 1 / number of lights (uniform choice, as SmallVCM)

    WF_HD PathRng rng(uint32_t slot, uint32_t vertex) const {
        return PathRng{seed, paths.pixel[slot], sample_index, vertex};
    }
};

}  // namespace wf
