// Image statistics for tests and convergence checks against reference renders.
// All sums are accumulated in double. Mismatched sizes and bad arguments throw ImageError.
#pragma once

#include <cstdint>

#include "engine/math.h"
#include "io/image.h"

namespace wf {

// Per-channel mean over all pixels. Non-finite pixels propagate (check count_nonfinite first).
Vec3f channel_mean(const Image& image);

// Root mean square difference over all pixels and all three channels.
double rmse(const Image& a, const Image& b);

// Peak signal-to-noise ratio in dB, 20 log10(peak / rmse); +infinity for identical images.
// `peak` is the signal range: 1 for display-referred images, the reference's maximum for HDR.
double psnr(const Image& a, const Image& b, double peak = 1.0);

// Averages factor x factor blocks: pixel (x, y) of the result is the mean of the source block
// at (x * factor, y * factor). Width and height must be divisible by factor (factor >= 1).
Image box_downsample(const Image& image, uint32_t factor);

// Number of pixels with at least one NaN or infinite component.
uint64_t count_nonfinite(const Image& image);

}  // namespace wf
