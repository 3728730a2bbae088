// Which light a next-event sample or a light sub-path starts from: picked from a
// discrete distribution over the scene's lights, in proportion to an estimate of each
// light's emitted power (or uniformly, SmallVCM's choice, with --light-selection uniform).
// Every estimator and every MIS weight that involves a light's pick probability reads it
// from LightSelectionView::prob, so sampling and weighting agree by construction.
//
// The distribution is a float cdf over the lights (built on the backend by
// materials/light_selection_build.h): light i is picked for u in [cdf[i], cdf[i+1]), and
// its probability is stored as exactly that step, cdf[i+1] - cdf[i], the probability
// the search gives it, not the (slightly different) ratio of powers. A light whose step
// rounds to 0 is never picked and has probability 0: a path that hits it keeps the full
// MIS weight of BSDF sampling, so the estimate stays unbiased.
//
// Power (W, materials' luminance of the RGB), an estimate that only shapes the
// distribution; any positive value keeps every estimator unbiased:
//   area (one-sided)   pi * area * L   (with an emissive texture: L's luminance averaged
//                      over the triangle, textured_area_mean_luminance)
//   point              4 pi * I
//   spot               2 pi * I * ((1 - cos_inner) + (cos_inner - cos_outer) / 3)   (the
//                      integral of glTF's falloff t^2, t linear in cos, over the sphere)
//   directional        pi R^2 * E              (R: the scene's bounding-sphere radius,
//   environment        pi R^2 * integral of L over the sphere   the disc particles start on)
// With an environment image, its integral is the luminance integral of the texels (the
// sampling distribution's total) times the mean of the light's RGB scale.
#pragma once

#include <cstdint>

#include "engine/hd.h"
#include "engine/math.h"
#include "engine/scene_types.h"
#include "materials/emitters.h"

namespace wf {

struct LightSelectionView {
    const float* cdf = nullptr;  // num_lights + 1: cdf[0] = 0, cdf[num_lights] = 1, non-decreasing
    const float* pmf = nullptr;  // num_lights: cdf[i + 1] - cdf[i]
    uint32_t num_lights = 0;

    WF_HD float prob(uint32_t light) const { return pmf[light]; }

    // The light whose cdf step holds u in [0, 1): cdf[i] <= u < cdf[i + 1], so a light of
    // probability 0 is never returned. num_lights must be > 0.
    WF_HD uint32_t pick(float u) const {
        uint32_t lo = 0, hi = num_lights;  // cdf[lo] <= u < cdf[hi]
        while (hi - lo > 1) {
            const uint32_t mid = lo + (hi - lo) / 2;
            if (cdf[mid] <= u) lo = mid;
            else hi = mid;
        }
        return lo;
    }
};

// Integral over the sphere of the luminance of an environment image's texels: the sum
// of the sampling weights (luminance x sin theta at row centres) times the texel's
// (theta, phi) extent. Needs the build's total (EnvironmentMapView::total_weight).
WF_HD_INLINE double environment_map_luminance_integral(const EnvironmentMapView& map) {
    const double pi = 3.14159265358979323846;
    return *map.total_weight * (pi / double(map.height)) * (2.0 * pi / double(map.width));
}

// An emissive texture's mean over a triangle light is estimated at the centroids of the
// n^2 congruent triangles that cutting each edge into n makes (the midpoint rule: exact
// for a texture linear over each of them), at most a few lookups per light however large
// the image. It is floored at kEmissiveTextureMeanFloor x the factor's luminance, the
// darkest texel that is not black (sRGB code 1), because the n^2 points may all fall on
// black texels of a texture bright elsewhere on the triangle, and a light of power 0
// would never be picked: its light would be lost from every estimate.
inline constexpr uint32_t kEmissiveTextureMeanSubdivisions = 4;
inline constexpr double kEmissiveTextureMeanFloor = 1.0 / (255.0 * 12.92);

// Luminance of a textured triangle light's radiance averaged over its area (see above).
WF_HD_INLINE double textured_area_mean_luminance(const Light& light, const EmitterContext& ctx) {
    const uint32_t n = kEmissiveTextureMeanSubdivisions;
    const float inv_n = 1.0f / float(n);
    double sum = 0.0;
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; i + j < n; ++j) {
            // Cell (i, j) of the barycentric grid: its lower triangle, and its upper one when
            // the cell lies wholly inside the triangle.
            sum += luminance(area_radiance(light, ctx, light.prim, (float(i) + 1.0f / 3.0f) * inv_n, (float(j) + 1.0f / 3.0f) * inv_n));
            if (i + j + 1 < n)
                sum += luminance(area_radiance(light, ctx, light.prim, (float(i) + 2.0f / 3.0f) * inv_n, (float(j) + 2.0f / 3.0f) * inv_n));
        }
    const double floor = kEmissiveTextureMeanFloor * fmax(double(luminance(light.radiance)), 0.0);
    return fmax(sum / double(n * n), floor);
}

// The power estimate of the top of this file; >= 0 and finite for valid lights.
WF_HD_INLINE double light_power(const Light& light, const EmitterContext& ctx) {
    const double pi = 3.14159265358979323846;
    double lum = fmax(double(luminance(light.radiance)), 0.0);
    if (light.type == LightType::Area && area_emission_varies(light, ctx, light.prim))
        lum = textured_area_mean_luminance(light, ctx);
    const double r = double(ctx.scene_sphere.radius);
    switch (light.type) {
    case LightType::Area: return pi * lum / double(emitter_inv_area(ctx, light.prim));
    case LightType::Point: return 4.0 * pi * lum;
    case LightType::Spot: {
        const double ci = double(light.cos_inner), co = double(light.cos_outer);
        return 2.0 * pi * lum * ((1.0 - ci) + fmax(ci - co, 0.0) / 3.0);
    }
    case LightType::Directional: return pi * r * r * lum;
    case LightType::Environment: {
        // A gradient's mean over the sphere is its radiance (the slope term averages out).
        double integral = 4.0 * pi * lum;
        if (ctx.environment_map.valid()) {
            const Vec3f& s = light.radiance;
            integral = fmax(double(s.x + s.y + s.z) / 3.0, 0.0) * environment_map_luminance_integral(ctx.environment_map);
        }
        return pi * r * r * integral;
    }
    }
    return 0.0;
}

}  // namespace wf
