// Stage `accumulate`: adds each finished path's radiance to its pixel. One path
// per pixel per wave, so no two threads write one pixel. NaN/Inf radiance is
// counted and dropped, never accumulated.
#pragma once

#include "wavefront/pt_context.h"

namespace wf {

template <class Backend>
void integrator_accumulate(Backend& backend, const PtContext& ctx, Vec3f* film, uint32_t* nonfinite_count) {
    backend.parallel_for("accumulate", ctx.num_paths, WF_LAMBDA(uint32_t slot) {
        Vec3f c = ctx.paths.radiance[slot];
        if (!is_finite(c)) {
            atomic_add(nonfinite_count, 1u);
            return;
        }
        film[ctx.paths.pixel[slot]] += c;
    });
}

}  // namespace wf
