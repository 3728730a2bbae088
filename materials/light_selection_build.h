// The backend buffers of the light-selection distribution (materials/light_selection.h)
// and its build, on the backend with nothing read back: one thread per light computes
// its power (double), an exclusive scan of the n + 1 entries (the last one 0) gives every
// prefix and the total, and one thread per light turns two neighbouring prefixes into its
// float cdf entry and cdf step. Should the total be 0 or not finite (all lights black),
// the distribution is uniform.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/hd.h"
#include "engine/scene_types.h"
#include "materials/emitters.h"
#include "materials/light_selection.h"

namespace wf {

// The float cdf entry i of n lights from the exclusive prefix sums (prefix[n] = total).
// Every thread that needs entry i computes it with this one function, so the two threads
// that share an entry agree on it bit for bit.
WF_HD_INLINE float light_cdf_entry(const double* prefix, uint32_t i, uint32_t n, bool uniform) {
    if (i >= n) return 1.0f;
    if (uniform) return float(i) / float(n);
    return float(prefix[i] / prefix[n]);
}

template <class Backend>
class LightSelection {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    // LightSelectionMode::Uniform: every light gets the same probability (SmallVCM).
    void build(Backend& backend, const Light* lights, uint32_t num_lights, const EmitterContext& emitters,
               LightSelectionMode mode) {
        view_ = LightSelectionView{};
        if (num_lights == 0) return;
        const uint32_t n = num_lights;
        prefix_.resize(size_t(n) + 1);
        cdf_.resize(size_t(n) + 1);
        pmf_.resize(n);
        double* prefix = prefix_.data();
        float* cdf = cdf_.data();
        float* pmf = pmf_.data();
        const bool by_power = mode == LightSelectionMode::Power;
        backend.parallel_for("light_power", n + 1, WF_LAMBDA(uint32_t i) {
            double p = i < n && by_power ? light_power(lights[i], emitters) : 0.0;
            prefix[i] = (p >= 0.0 && p < 1e300) ? p : 0.0;  // NaN, Inf or negative: never picked
        });
        backend.exclusive_scan("light_power_scan", prefix, prefix, n + 1);
        backend.parallel_for("light_cdf", n, WF_LAMBDA(uint32_t i) {
            const double total = prefix[n];
            const bool uniform = !(total > 0.0 && total < 1e300);
            const float lo = light_cdf_entry(prefix, i, n, uniform);
            const float hi = light_cdf_entry(prefix, i + 1, n, uniform);
            cdf[i] = lo;
            pmf[i] = hi - lo;
            if (i + 1 == n) cdf[n] = 1.0f;
        });
        view_ = LightSelectionView{cdf, pmf, n};
    }

    LightSelectionView view() const { return view_; }

private:
    Buffer<double> prefix_;  // n + 1: powers, then their exclusive prefix sums in place
    Buffer<float> cdf_;      // n + 1
    Buffer<float> pmf_;      // n
    LightSelectionView view_{};
};

}  // namespace wf
