// The backend buffers of an environment map and the build of its sampling distribution
// (materials/environment_map.h says what the cdfs hold). Both steps run on the backend, the
// same code on the CPU and CUDA: one thread per row computes the row's weights and its
// conditional cdf, then one thread builds the marginal cdf over the rows. Nothing is read
// back; the texels are the only upload.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/hd.h"
#include "engine/host_environment_map.h"
#include "materials/environment_map.h"

namespace wf {

template <class Backend>
class EnvironmentMap {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    void build(Backend& backend, const HostEnvironmentMap& map) {
        const uint32_t width = map.width, height = map.height;
        if (width == 0 || height == 0 || map.texels.size() != size_t(width) * height)
            throw std::invalid_argument("EnvironmentMap::build: " + map.file + ": " + std::to_string(width) + "x" +
                                        std::to_string(height) + " with " + std::to_string(map.texels.size()) +
                                        " texels");
        texels_.upload(map.texels);
        conditional_cdf_.resize(size_t(width + 1) * height);
        marginal_cdf_.resize(size_t(height) + 1);
        row_sums_.resize(height);
        total_weight_.resize(1);

        const Vec3f* texels = texels_.data();
        float* conditional = conditional_cdf_.data();
        float* marginal = marginal_cdf_.data();
        double* row_sums = row_sums_.data();
        double* total_weight = total_weight_.data();
        // Sums in double, cdfs stored in float: cdf[i] = (sum of the first i weights) / total,
        // [n] exactly 1; a row (or a map) of weight 0 gets the uniform cdf i / n.
        backend.parallel_for("environment_map_rows", height, WF_LAMBDA(uint32_t y) {
            const Vec3f* row = texels + size_t(y) * width;
            float* cdf = conditional + size_t(y) * (width + 1);
            const float sin_theta = environment_row_sin_theta(y, height);
            double total = 0.0;
            for (uint32_t x = 0; x < width; ++x) total += environment_texel_weight(row[x], sin_theta);
            double prefix = 0.0;
            cdf[0] = 0.0f;
            for (uint32_t x = 0; x < width; ++x) {
                prefix += environment_texel_weight(row[x], sin_theta);
                cdf[x + 1] = total > 0.0 ? float(prefix / total) : float(x + 1) / float(width);
            }
            cdf[width] = 1.0f;
            row_sums[y] = total;
        });
        backend.parallel_for("environment_map_marginal", 1, WF_LAMBDA(uint32_t) {
            double total = 0.0;
            for (uint32_t y = 0; y < height; ++y) total += row_sums[y];
            double prefix = 0.0;
            marginal[0] = 0.0f;
            for (uint32_t y = 0; y < height; ++y) {
                prefix += row_sums[y];
                marginal[y + 1] = total > 0.0 ? float(prefix / total) : float(y + 1) / float(height);
            }
            marginal[height] = 1.0f;
            *total_weight = total;
        });

        view_.texels = texels;
        view_.conditional_cdf = conditional;
        view_.marginal_cdf = marginal;
        view_.total_weight = total_weight;
        view_.width = width;
        view_.height = height;
        view_.frame = environment_frame(map.up, map.rotation_degrees);
    }

    // An invalid view (texels null) until build().
    EnvironmentMapView view() const { return view_; }

private:
    Buffer<Vec3f> texels_;
    Buffer<float> conditional_cdf_;  // (width + 1) * height
    Buffer<float> marginal_cdf_;     // height + 1
    Buffer<double> row_sums_;        // height: each row's total weight
    Buffer<double> total_weight_;    // 1: the map's total weight
    EnvironmentMapView view_{};
};

}  // namespace wf
