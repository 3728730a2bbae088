// Stage `accumulate`: adds each finished path's radiance to its pixel and counts
// the sample. The sum is a compensated (Kahan) float sum, so a million-sample
// pixel keeps the small contributions a plain float sum would round away. One path per pixel per wave, so no two threads write one pixel.
// NaN/Inf radiance is counted (in total, for the report) and dropped: the pixel
// then averages over its finite samples only.
#pragma once

#include "wavefront/pt_context.h"

namespace wf {

template <class Backend>
void integrator_accumulate(Backend& backend, const PtContext& ctx, Vec3f* film, Vec3f* film_compensation,
                           uint32_t* film_samples, uint32_t* nonfinite_count) {
    backend.parallel_for("accumulate", ctx.num_paths, WF_LAMBDA(uint32_t slot) {
        Vec3f c = ctx.paths.radiance[slot];
        if (!is_finite(c)) {
            atomic_add(nonfinite_count, 1u);
            return;
        }
        uint32_t pixel = ctx.paths.pixel[slot];
        Vec3f sum = film[pixel];
        Vec3f y = c - film_compensation[pixel];
        Vec3f t = sum + y;
        film_compensation[pixel] = (t - sum) - y;
        film[pixel] = t;
        film_samples[pixel] += 1;
    });
}

}  // namespace wf
