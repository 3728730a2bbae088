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
#pragma once

#include <cstdint>
#include <vector>

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

    WF_HD void add(uint32_t pixel, Vec3f c) const {
        if (!is_finite(c)) {
            atomic_add(nonfinite_count, 1u);
            return;
        }
        if (is_black(c)) return;
        double* s = sums + 3 * size_t(pixel);
        atomic_add_double(s + 0, c.x);
        atomic_add_double(s + 1, c.y);
        atomic_add_double(s + 2, c.z);
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
    void allocate(uint32_t width, uint32_t height) {
        width_ = width;
        height_ = height;
        sums_.resize(size_t(width) * height * 3);
        nonfinite_.resize(1);
    }
    FilmView view() { return {sums_.data(), nonfinite_.data(), width_, height_}; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }

    // Per-pixel sums times `scale` (1 / iterations: the estimate of each pixel).
    std::vector<Vec3f> resolve(double scale) const {
        std::vector<double> s = sums_.to_vector();
        std::vector<Vec3f> out(size_t(width_) * height_);
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = Vec3f(float(s[3 * i] * scale), float(s[3 * i + 1] * scale), float(s[3 * i + 2] * scale));
        return out;
    }
    uint64_t nonfinite_count() const {
        uint32_t n = 0;
        nonfinite_.download(&n, 1);
        return n;
    }

private:
    uint32_t width_ = 0, height_ = 0;
    typename Backend::template Buffer<double> sums_;
    typename Backend::template Buffer<uint32_t> nonfinite_;
};

}  // namespace wf
