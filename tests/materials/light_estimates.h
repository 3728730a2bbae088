// Monte Carlo estimates of what a light delivers, through the emitter functions the
// renderer uses (materials/emitters.h), for tests to compare with closed forms.
#pragma once

#include <algorithm>
#include <cstdint>

#include "materials/emitters.h"
#include "tests/materials/chi_square.h"

namespace wf::materials_test {

// Next-event estimate of the irradiance (red channel) at x, normal n: `samples` calls of
// illuminate(), each weighted by cos / pdf.
inline double nee_irradiance(const Light& light, const EmitterContext& ctx, Vec3f x, Vec3f n, int samples,
                             uint64_t seed) {
    UniformRng rng(seed);
    double sum = 0;
    for (int i = 0; i < samples; ++i) {
        float u0 = rng(), u1 = rng();
        DirectSample ds = illuminate(light, ctx, x, u0, u1);
        if (is_black(ds.radiance)) continue;
        sum += double(ds.radiance.x) * std::max(0.0f, dot(n, ds.dir_to_light)) / ds.pdf_direct_w;
    }
    return sum / samples;
}

}  // namespace wf::materials_test
