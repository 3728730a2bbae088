// The film: per-pixel radiance sums that any path may add to (splat), from any
// thread. Camera paths add to their own pixel, light paths to the pixel they
// project to, so two threads can write one pixel: additions are atomic, on the
// GPU (atomicAdd) and on the CPU thread pool (__atomic compare-exchange) alike.
//
// Sums are double precision: a float sum of a million samples loses the small
// contributions (and a compensated sum cannot be updated atomically). Each add
// of a double rounds to about 1e-16 relative, so the resolved float image is
// the same whatever the order of the additions, except on a rounding tie.
// A NaN or Inf contribution is counted and dropped, never added.
//
// AOVs (engine/aov.h says what each holds) have sums of their own, allocated only for
// the AOVs a render asks for: double and atomic like the beauty's, since the samples of
// one pixel may be in one wave on different threads. Their values are finite by
// construction (clamped albedo, unit normal, a hit distance), so no NaN check.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/aov.h"
#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

WF_HD_INLINE void atomic_add_double(double* p, double v) {
#if WF_DEVICE_CODE
    atomicAdd(p, v);
#else
    double old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    double desired = old + v;
    while (!__atomic_compare_exchange(p, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) desired = old + v;
#endif
}

struct FilmView {
    double* sums;                // 3 per pixel (r, g, b), pixel index y * width + x
    uint32_t* nonfinite_count;   // one counter: contributions dropped as NaN/Inf
    uint32_t width, height;
    // AOV sums, null when the render does not ask for that AOV: 3 (albedo, normal) or 1
    // (depth) doubles per pixel.
    double* albedo_sums = nullptr;
    double* normal_sums = nullptr;
    double* depth_sums = nullptr;

    // True when some AOV is asked for: integrators launch the AOV stage only then.
    WF_HD bool has_aovs() const { return albedo_sums || normal_sums || depth_sums; }

    // One sample's first-hit values (engine/aov.h). Escaped samples add nothing (0).
    WF_HD void add_first_hit(uint32_t pixel, Vec3f albedo, Vec3f normal, float depth) const {
        if (albedo_sums) add3(albedo_sums + 3 * size_t(pixel), albedo);
        if (normal_sums) add3(normal_sums + 3 * size_t(pixel), normal);
        if (depth_sums) atomic_add_double(depth_sums + pixel, depth);
    }

    WF_HD static void add3(double* s, Vec3f c) {
        atomic_add_double(s + 0, c.x);
        atomic_add_double(s + 1, c.y);
        atomic_add_double(s + 2, c.z);
    }

    WF_HD void add(uint32_t pixel, Vec3f c) const {
        if (!is_finite(c)) {
            atomic_add(nonfinite_count, 1u);
            return;
        }
        if (is_black(c)) return;
        add3(sums + 3 * size_t(pixel), c);
    }
    // Raster point (x right, y down, in pixels) to its pixel; false outside the film.
    WF_HD bool pixel_at(float x, float y, uint32_t* pixel) const {
        if (!(x >= 0.0f && y >= 0.0f && x < float(width) && y < float(height))) return false;
        uint32_t px = uint32_t(x), py = uint32_t(y);
        if (px >= width || py >= height) return false;  // x just below width may round up
        *pixel = py * width + px;
        return true;
    }
};

template <class Backend>
class Film {
public:
    // `aovs`: the AOVs to keep sums for (engine/aov.h); the others take no memory.
    void allocate(uint32_t width, uint32_t height, AovSet aovs = 0) {
        width_ = width;
        height_ = height;
        aovs_ = aovs;
        const size_t pixels = size_t(width) * height;
        sums_.resize(pixels * 3);
        nonfinite_.resize(1);
        for (const AovInfo& info : kAovs)
            if (has_aov(aovs, info.aov)) aov_sums_[uint32_t(info.aov)].resize(pixels * info.components);
    }
    FilmView view() {
        FilmView v{sums_.data(), nonfinite_.data(), width_, height_};
        v.albedo_sums = aov_data(Aov::Albedo);
        v.normal_sums = aov_data(Aov::Normal);
        v.depth_sums = aov_data(Aov::Depth);
        return v;
    }
    AovSet aovs() const { return aovs_; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }

    // Per-pixel sums times `scale` (1 / iterations: the estimate of each pixel).
    std::vector<Vec3f> resolve(double scale) const { return resolve_sums(sums_, scale); }
    // AOV `a`'s per-pixel sums times `scale` (as resolve); a one-component AOV (depth)
    // fills x, y and z alike. Empty when `a` was not allocated.
    std::vector<Vec3f> resolve_aov(Aov a, double scale) const {
        if (!has_aov(aovs_, a)) return {};
        return resolve_sums(aov_sums_[uint32_t(a)], scale);
    }
    uint64_t nonfinite_count() const {
        uint32_t n = 0;
        nonfinite_.download(&n, 1);
        return n;
    }

private:
    // Sums of 3 (or 1, filling x, y and z alike) doubles per pixel times `scale`, as floats.
    std::vector<Vec3f> resolve_sums(const typename Backend::template Buffer<double>& sums, double scale) const {
        const std::vector<double> s = sums.to_vector();
        std::vector<Vec3f> out(size_t(width_) * height_);
        if (out.empty()) return out;
        const size_t k = s.size() / out.size();  // components: 3 or 1
        for (size_t i = 0; i < out.size(); ++i) {
            const double* p = s.data() + k * i;
            out[i] = Vec3f(float(p[0] * scale), float(p[k == 3 ? 1 : 0] * scale), float(p[k == 3 ? 2 : 0] * scale));
        }
        return out;
    }

    double* aov_data(Aov a) { return has_aov(aovs_, a) ? aov_sums_[uint32_t(a)].data() : nullptr; }

    uint32_t width_ = 0, height_ = 0;
    AovSet aovs_ = 0;
    typename Backend::template Buffer<double> sums_;
    typename Backend::template Buffer<double> aov_sums_[kNumAovs];
    typename Backend::template Buffer<uint32_t> nonfinite_;
};

}  // namespace wf
