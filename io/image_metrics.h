// Image statistics for tests and convergence checks against reference renders.
// All sums are accumulated in double. Mismatched sizes and bad arguments throw ImageError.
#pragma once

#include <cstdint>
#include <vector>

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

// An image read from 8-bit codes value = floor(255.99 * linear^(1/gamma)) (a PNG that
// read_image decoded as sRGB), decoded instead as linear = ((value + 0.5) / 255.99)^gamma,
// the +0.5 undoing the floor on average. "Ray Tracing in One Weekend" writes gamma 2.
Image decode_gamma_codes(const Image& srgb_decoded, double gamma);

// Two renders of one scene compared block by block: both are averaged over block x block
// pixels, and each block-channel difference is divided by the noise of the two block means
// (estimated from the spread of the pixels inside each block: an upper bound, since it
// includes the image's own detail) to give z.
struct BlockComparison {
    Vec3f test_mean, reference_mean;  // per-channel means of the whole images
    uint32_t blocks_x = 0, blocks_y = 0;
    double rms_z = 0.0, max_abs_z = 0.0;
    double fraction_beyond = 0.0;  // of block-channels with |z| > z_limit
    struct Outlier {
        uint32_t x, y, channel;
        double test, reference, z;
    };
    std::vector<Outlier> outliers;  // the first 20 beyond z_limit
    // The images agree: fraction_beyond <= 1% and every channel mean within 1%.
    bool agree = false;
};

// reference_code_gamma > 0: the reference came from 8-bit codes (decode_gamma_codes), so
// each block may also be off by half a code step, the same in every pixel of a smooth
// block (a sky), which does not average out; that step joins the noise.
// Throws ImageError unless the sizes are equal and divisible by block >= 2.
BlockComparison compare_block_means(const Image& test, const Image& reference, uint32_t block,
                                    double reference_code_gamma = 0.0, double z_limit = 4.0);

}  // namespace wf
