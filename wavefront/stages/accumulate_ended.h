// Stage `accumulate_ended` (bidirectional family): adds the radiance each camera path
// gathered along the way (emission it hit, merging) to its pixel once the path has
// ended: after each bounce for the paths that do not go on, and for all of them after
// the last bounce. The camera paths that go on move to other slots
// (compact_moving_paths.h), so a path's radiance cannot wait in its slot for the end of
// the wave, as pt's `accumulate` lets it. NaN/Inf radiance is counted by the film and
// dropped.
#pragma once

#include "engine/film.h"
#include "wavefront/queues.h"
#include "wavefront/state/camera_path.h"

namespace wf {

template <class Backend>
void accumulate_ended(Backend& backend, const CameraPathView& paths, SlotQueue<CameraPathView> active,
                      bool last_bounce, FilmView film) {
    for_all_queued(backend, "accumulate_ended", active, WF_LAMBDA(uint32_t slot) {
        if (last_bounce || !paths.alive[slot]) film.add(paths.pixel[slot], paths.radiance[slot]);
    });
}

}  // namespace wf
