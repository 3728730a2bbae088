// Stage `accumulate`: adds the radiance each camera path gathered along the way
// (emission it hit) to its pixel. Contributions found by shadow rays went to the
// film directly. NaN/Inf radiance is counted by the film and dropped.
#pragma once

#include "engine/film.h"
#include "wavefront/state/camera_path.h"

namespace wf {

template <class Backend>
void accumulate(Backend& backend, const CameraPathView& paths, uint32_t num_paths, FilmView film) {
    backend.parallel_for("accumulate", num_paths, WF_LAMBDA(uint32_t slot) {
        film.add(paths.pixel[slot], paths.radiance[slot]);
    });
}

}  // namespace wf
