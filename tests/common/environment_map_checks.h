// Renders lit by environment maps with known answers, run on a given backend and integrator
// (shared by the CPU and GPU test binaries). Tolerances come from the spread of the
// pixel estimates, as in analytic_checks.h.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/render.h"
#include "tests/common/analytic_checks.h"
#include "tests/common/environment_maps.h"

namespace wf::test {

// The mean over every pixel and channel of the environment-lit square, rendered with
// `integrator` at `spp`.
inline SampleMean environment_lit_square_mean(const HostScene& scene, BackendKind backend, const char* integrator,
                                              uint32_t spp, uint32_t seed = 3) {
    RenderOptions o = options_for(scene, backend, spp);
    o.settings.integrator = integrator;
    o.settings.max_depth = 4;
    o.settings.seed = seed;
    RenderResult r = render(scene, o);
    std::vector<double> values;
    for (const Vec3f& p : r.image.pixels)
        for (int c = 0; c < 3; ++c) values.push_back(p[c]);
    return sample_mean(values);
}

// A diffuse square under an environment whose image is black except a bright patch of
// rows 4..10 and columns 10..29 of 64 x 32 (turned 45 degrees about up, which leaves the
// irradiance of an upward-facing surface unchanged): every pixel converges to
// rho / pi * E with E = L (phi1 - phi0) / 2 (sin^2 theta1 - sin^2 theta0).
inline void check_bright_patch_lights_square(BackendKind backend, const char* integrator, uint32_t spp) {
    const float rho = 0.8f, scale = 1.5f, patch = 2.0f;
    HostEnvironmentMap map = patch_environment_map(64, 32, 10, 30, 4, 11, Vec3f(patch));
    map.rotation_degrees = 45.0f;
    HostScene scene = environment_lit_square_scene(map, scale, rho, 24);
    const double irradiance = scale * patch_irradiance_facing_up(64, 32, 10, 30, 4, 11, patch);
    const double expected = rho / 3.14159265358979323846 * irradiance;
    SampleMean m = environment_lit_square_mean(scene, backend, integrator, spp);
    EXPECT_NEAR(m.mean, expected, 5.0 * m.standard_error + 1e-3 * expected)
        << integrator << ": standard error " << m.standard_error;
}

}  // namespace wf::test
