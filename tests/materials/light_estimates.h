// Monte Carlo estimates of what a light delivers, through the emitter functions the
// renderer uses (materials/emitters.h), for tests to compare with closed forms.
#pragma once

#include <algorithm>
#include <cstdint>

#include "materials/emitters.h"
#include "tests/materials/chi_square.h"

namespace wf::materials_test {

// Next-event estimate of the irradiance (colour channel `channel`, red by default) at x,
// normal n: `samples` calls of illuminate(), each weighted by cos / pdf.
inline double nee_irradiance(const Light& light, const EmitterContext& ctx, Vec3f x, Vec3f n, int samples,
                             uint64_t seed, int channel = 0) {
    UniformRng rng(seed);
    double sum = 0;
    for (int i = 0; i < samples; ++i) {
        float u0 = rng(), u1 = rng();
        DirectSample ds = illuminate(light, ctx, x, u0, u1);
        if (is_black(ds.radiance)) continue;
        sum += double(ds.radiance[channel]) * std::max(0.0f, dot(n, ds.dir_to_light)) / ds.pdf_direct_w;
    }
    return sum / samples;
}

// Light tracing estimate of the irradiance (channel `channel`) on a small disc patch of
// centre c, normal n and radius `radius` inside the scene: the flux of the emit()ted
// photons that cross it, divided by its area.
inline double light_traced_irradiance(const Light& l, const EmitterContext& ctx, Vec3f c, Vec3f n, float radius,
                                      int photons, uint64_t seed, int channel = 0) {
    UniformRng rng(seed);
    double sum = 0;
    for (int i = 0; i < photons; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
        EmissionSample es = emit(l, ctx, u0, u1, u2, u3);
        float denom = dot(es.dir, n);
        if (denom >= 0) continue;  // only light arriving on the side n faces
        float t = dot(c - es.origin, n) / denom;
        if (t <= 0) continue;
        Vec3f hit = es.origin + t * es.dir;
        if (length_squared(hit - c) < radius * radius) sum += double(es.energy[channel]) / es.pdf_emission_w;
    }
    return sum / (double(photons) * kPi * radius * radius);
}

}  // namespace wf::materials_test
