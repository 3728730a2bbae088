#include "io/image_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "io/tonemap.h"

namespace wf {
namespace {

std::string dims(const Image& image) { return std::to_string(image.width) + "x" + std::to_string(image.height); }

void require_consistent(const char* op, const Image& image) {
    if (image.pixels.size() != image.pixel_count())
        throw ImageError(std::string(op) + ": pixel count " + std::to_string(image.pixels.size()) +
                         " does not match " + dims(image));
}

void require_nonempty(const char* op, const Image& image) {
    require_consistent(op, image);
    if (image.empty()) throw ImageError(std::string(op) + ": image is empty (" + dims(image) + ")");
}

void require_same_size(const char* op, const Image& a, const Image& b) {
    require_nonempty(op, a);
    require_nonempty(op, b);
    if (a.width != b.width || a.height != b.height)
        throw ImageError(std::string(op) + ": image sizes differ (" + dims(a) + " vs " + dims(b) + ")");
}

struct BlockMoments {
    double mean[3] = {0, 0, 0}, var_of_mean[3] = {0, 0, 0};
};

BlockMoments block_moments(const Image& img, uint32_t bx, uint32_t by, uint32_t block) {
    BlockMoments m;
    double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0};
    for (uint32_t y = by * block; y < (by + 1) * block; ++y)
        for (uint32_t x = bx * block; x < (bx + 1) * block; ++x)
            for (int c = 0; c < 3; ++c) {
                const double v = img.at(x, y)[c];
                sum[c] += v;
                sum2[c] += v * v;
            }
    const double n = double(block) * block;
    for (int c = 0; c < 3; ++c) {
        m.mean[c] = sum[c] / n;
        m.var_of_mean[c] = std::max(0.0, sum2[c] / n - m.mean[c] * m.mean[c]) / (n - 1.0);
    }
    return m;
}

}  // namespace

Image decode_gamma_codes(const Image& srgb_decoded, double gamma) {
    require_consistent("decode_gamma_codes", srgb_decoded);
    if (!(gamma > 0.0)) throw ImageError("decode_gamma_codes: gamma must be positive, got " + std::to_string(gamma));
    Image out = srgb_decoded;
    for (Vec3f& p : out.pixels)
        for (int c = 0; c < 3; ++c) {
            const double code = std::floor(double(srgb_encode(p[c])) * 255.0 + 0.5);
            p[c] = float(std::pow((code + 0.5) / 255.99, gamma));
        }
    return out;
}

BlockComparison compare_block_means(const Image& test, const Image& reference, uint32_t block,
                                    double reference_code_gamma, double z_limit) {
    require_same_size("compare_block_means", test, reference);
    if (block < 2 || test.width % block != 0 || test.height % block != 0)
        throw ImageError("compare_block_means: " + dims(test) + " is not divisible into blocks of " +
                         std::to_string(block) + " (>= 2) pixels");
    BlockComparison r;
    r.test_mean = channel_mean(test);
    r.reference_mean = channel_mean(reference);
    r.blocks_x = test.width / block;
    r.blocks_y = test.height / block;
    uint64_t beyond = 0, total = 0;
    double sum_z2 = 0.0;
    for (uint32_t by = 0; by < r.blocks_y; ++by)
        for (uint32_t bx = 0; bx < r.blocks_x; ++bx) {
            const BlockMoments a = block_moments(test, bx, by, block), b = block_moments(reference, bx, by, block);
            for (uint32_t c = 0; c < 3; ++c) {
                double quant = 0.0;  // half a code step at this block's mean
                if (reference_code_gamma > 0.0)
                    quant = 0.5 * reference_code_gamma *
                            std::pow(std::max(b.mean[c], 0.0), (reference_code_gamma - 1.0) / reference_code_gamma) /
                            255.99;
                const double sigma = std::sqrt(a.var_of_mean[c] + b.var_of_mean[c] + quant * quant) + 1e-9;
                const double z = (a.mean[c] - b.mean[c]) / sigma;
                ++total;
                sum_z2 += z * z;
                r.max_abs_z = std::max(r.max_abs_z, std::fabs(z));
                if (std::fabs(z) > z_limit) {
                    ++beyond;
                    if (r.outliers.size() < 20) r.outliers.push_back({bx, by, c, a.mean[c], b.mean[c], z});
                }
            }
        }
    r.rms_z = std::sqrt(sum_z2 / double(total));
    r.fraction_beyond = double(beyond) / double(total);
    r.agree = r.fraction_beyond <= 0.01;
    for (int c = 0; c < 3; ++c)
        r.agree = r.agree && std::fabs(double(r.test_mean[c]) / double(r.reference_mean[c]) - 1.0) <= 0.01;
    return r;
}

Vec3f channel_mean(const Image& image) {
    require_nonempty("channel_mean", image);
    double sum[3] = {0, 0, 0};
    for (const Vec3f& p : image.pixels)
        for (int c = 0; c < 3; ++c) sum[c] += p[c];
    const double n = double(image.pixels.size());
    return Vec3f(float(sum[0] / n), float(sum[1] / n), float(sum[2] / n));
}

double rmse(const Image& a, const Image& b) {
    require_same_size("rmse", a, b);
    double sum = 0.0;
    for (size_t i = 0; i < a.pixels.size(); ++i)
        for (int c = 0; c < 3; ++c) {
            const double d = double(a.pixels[i][c]) - double(b.pixels[i][c]);
            sum += d * d;
        }
    return std::sqrt(sum / (3.0 * double(a.pixels.size())));
}

double psnr(const Image& a, const Image& b, double peak) {
    if (!(peak > 0.0)) throw ImageError("psnr: peak must be positive, got " + std::to_string(peak));
    const double error = rmse(a, b);
    if (error == 0.0) return std::numeric_limits<double>::infinity();
    return 20.0 * std::log10(peak / error);
}

Image box_downsample(const Image& image, uint32_t factor) {
    require_nonempty("box_downsample", image);
    if (factor == 0) throw ImageError("box_downsample: factor must be at least 1");
    if (image.width % factor != 0 || image.height % factor != 0)
        throw ImageError("box_downsample: " + dims(image) + " is not divisible by factor " + std::to_string(factor));
    Image out(image.width / factor, image.height / factor);
    const double inv_area = 1.0 / (double(factor) * double(factor));
    for (uint32_t y = 0; y < out.height; ++y)
        for (uint32_t x = 0; x < out.width; ++x) {
            double sum[3] = {0, 0, 0};
            for (uint32_t dy = 0; dy < factor; ++dy)
                for (uint32_t dx = 0; dx < factor; ++dx) {
                    const Vec3f p = image.at(x * factor + dx, y * factor + dy);
                    for (int c = 0; c < 3; ++c) sum[c] += p[c];
                }
            out.at(x, y) = Vec3f(float(sum[0] * inv_area), float(sum[1] * inv_area), float(sum[2] * inv_area));
        }
    return out;
}

uint64_t count_nonfinite(const Image& image) {
    require_consistent("count_nonfinite", image);
    uint64_t count = 0;
    for (const Vec3f& p : image.pixels) count += is_finite(p) ? 0 : 1;
    return count;
}

}  // namespace wf
