#include "io/image_metrics.h"

#include <cmath>
#include <limits>
#include <string>

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

}  // namespace

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
