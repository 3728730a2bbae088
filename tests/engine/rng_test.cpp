#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/rng.h"

namespace wf {

TEST(Rng, SameKeyGivesSameValue) {
    PathRng a{42, 1234, 7, 3};
    PathRng b{42, 1234, 7, 3};
    for (uint32_t d = 0; d < 32; ++d) EXPECT_EQ(a.at(d), b.at(d));
}

TEST(Rng, EveryKeyComponentChangesTheValue) {
    PathRng base{1, 100, 5, 2};
    float v = base.at(3);
    EXPECT_NE(v, (PathRng{2, 100, 5, 2}.at(3)));
    EXPECT_NE(v, (PathRng{1, 101, 5, 2}.at(3)));
    EXPECT_NE(v, (PathRng{1, 100, 6, 2}.at(3)));
    EXPECT_NE(v, (PathRng{1, 100, 5, 3}.at(3)));
    EXPECT_NE(v, base.at(4));
}

TEST(Rng, ValuesLieInHalfOpenUnitInterval) {
    EXPECT_EQ(u32_to_unit_float(0u), 0.0f);
    EXPECT_LT(u32_to_unit_float(0xffffffffu), 1.0f);
}

// Chi-square test of uniformity over 64 bins for values keyed by consecutive
// pixels (the access pattern of a wave), for several dimensions.
TEST(Rng, UniformAcrossPixelsChiSquare) {
    const int bins = 64, n = 640000;
    for (uint32_t dim : {0u, 1u, 9u}) {
        std::vector<int> hist(bins, 0);
        for (int i = 0; i < n; ++i) hist[int(PathRng{0, uint32_t(i), 0, 1}.at(dim) * bins)]++;
        double expected = double(n) / bins, chi2 = 0.0;
        for (int h : hist) chi2 += (h - expected) * (h - expected) / expected;
        // 63 degrees of freedom: the 99.9% quantile is about 103.4.
        EXPECT_LT(chi2, 103.4) << "dimension " << dim;
    }
}

// Neighbouring dimensions of one vertex, and the same dimension of neighbouring
// samples, must be uncorrelated (2D stratification would show up here).
TEST(Rng, DimensionsAndSamplesAreUncorrelated) {
    const int n = 200000;
    auto correlation = [&](auto&& pair_at) {
        double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
        for (int i = 0; i < n; ++i) {
            auto [x, y] = pair_at(uint32_t(i));
            sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y;
        }
        double cov = sxy / n - sx / n * sy / n;
        return cov / std::sqrt((sxx / n - sx / n * sx / n) * (syy / n - sy / n * sy / n));
    };
    double c_dims = correlation([](uint32_t i) {
        PathRng r{0, i, 0, 1};
        return std::pair<double, double>{r.at(7), r.at(8)};
    });
    double c_samples = correlation([](uint32_t i) {
        return std::pair<double, double>{PathRng{0, i, 0, 1}.at(7), PathRng{0, i, 1, 1}.at(7)};
    });
    double c_bounces = correlation([](uint32_t i) {
        return std::pair<double, double>{PathRng{0, i, 0, 1}.at(7), PathRng{0, i, 0, 2}.at(7)};
    });
    // Standard error of a correlation estimate is 1/sqrt(n) ~ 0.0022.
    EXPECT_LT(std::fabs(c_dims), 0.01);
    EXPECT_LT(std::fabs(c_samples), 0.01);
    EXPECT_LT(std::fabs(c_bounces), 0.01);
}

}  // namespace wf
