// Chi-square goodness-of-fit test for direction samplers, in the style of pbrt's and
// Mitsuba's sampling tests: directions are binned in (cos theta, phi) around an axis,
// each bin's expected count is the pdf integrated over it (2D composite Simpson), bins
// with small expectation are pooled, and the statistic's p-value decides.
// Samples a sampler refuses (returns nothing) go to one extra bin whose expectation is
// N * (1 - integral of the pdf), so a sampler that loses mass is caught as well.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/math.h"

namespace wf::materials_test {

// Uniform floats in [0, 1) from 24 random bits (never 1, unlike some
// std::uniform_real_distribution<float> implementations).
struct UniformRng {
    std::mt19937_64 engine;
    explicit UniformRng(uint64_t seed) : engine(seed) {}
    float operator()() { return float(engine() >> 40) * (1.0f / 16777216.0f); }
};

// Regularised upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a):
// power series for x < a + 1, Lentz continued fraction otherwise.
inline double regularized_gamma_q(double a, double x) {
    if (x <= 0.0) return 1.0;
    double log_prefix = a * std::log(x) - x - std::lgamma(a);
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < 10000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
        }
        return 1.0 - sum * std::exp(log_prefix);
    }
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 10000; ++i) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < 1e-15) break;
    }
    return std::exp(log_prefix) * h;
}

struct ChiSquareResult {
    double statistic = 0.0;
    int dof = 0;
    double p_value = 0.0;
    std::string message;  // why it failed, for the assertion output
};

// observed[i] and expected[i] over the same cells (they should have equal sums).
// Cells with expectation below min_expected are pooled (ascending) until each pool
// reaches it; a leftover pool joins the last cell formed.
inline ChiSquareResult chi_square_test(const std::vector<double>& observed, const std::vector<double>& expected,
                                       double min_expected = 5.0) {
    ChiSquareResult r;
    std::vector<size_t> order(observed.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (size_t i : order) {
        if (expected[i] <= 0.0 && observed[i] > 0.0) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "cell %zu: %.0f samples where the pdf integrates to 0", i, observed[i]);
            r.message = buf;
            r.p_value = 0.0;
            return r;
        }
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return expected[a] < expected[b]; });
    std::vector<std::pair<double, double>> cells;  // (observed, expected)
    double pool_o = 0.0, pool_e = 0.0;
    for (size_t i : order) {
        if (expected[i] <= 0.0) continue;
        if (expected[i] < min_expected || pool_e > 0.0) {
            pool_o += observed[i];
            pool_e += expected[i];
            if (pool_e >= min_expected) {
                cells.push_back({pool_o, pool_e});
                pool_o = pool_e = 0.0;
            }
        } else {
            cells.push_back({observed[i], expected[i]});
        }
    }
    if (pool_e > 0.0) {
        if (cells.empty()) {
            cells.push_back({pool_o, pool_e});
        } else {
            cells.back().first += pool_o;
            cells.back().second += pool_e;
        }
    }
    for (auto [o, e] : cells) r.statistic += (o - e) * (o - e) / e;
    r.dof = int(cells.size()) - 1;
    if (r.dof < 1) {
        r.message = "fewer than 2 cells after pooling";
        r.p_value = 0.0;
        return r;
    }
    r.p_value = regularized_gamma_q(0.5 * r.dof, 0.5 * r.statistic);
    char buf[160];
    std::snprintf(buf, sizeof buf, "chi2 = %.2f, dof = %d, p = %.3g", r.statistic, r.dof, r.p_value);
    r.message = buf;
    return r;
}

// Bins of the whole sphere around `axis`: cos theta in [-1, 1] (res_cos bins), phi in
// [0, 2 pi) (res_phi bins); equal solid angle per bin.
struct SphereBinning {
    Frame frame;
    int res_cos = 20, res_phi = 40;

    explicit SphereBinning(Vec3f axis, int rc = 20, int rp = 40) : frame(Frame::from_z(axis)), res_cos(rc), res_phi(rp) {}

    int cells() const { return res_cos * res_phi; }

    int bin(Vec3f dir) const {
        Vec3f l = frame.to_local(dir);
        double c = std::clamp(double(l.z), -1.0, 1.0);
        double phi = std::atan2(double(l.y), double(l.x));
        if (phi < 0.0) phi += 2.0 * M_PI;
        int ic = std::min(res_cos - 1, int((c + 1.0) * 0.5 * res_cos));
        int ip = std::min(res_phi - 1, int(phi / (2.0 * M_PI) * res_phi));
        return ic * res_phi + ip;
    }

    Vec3f direction(double c, double phi) const {
        double s = std::sqrt(std::max(0.0, 1.0 - c * c));
        return frame.to_world(Vec3f(float(s * std::cos(phi)), float(s * std::sin(phi)), float(c)));
    }

    // Integral of pdf_w over each bin (composite Simpson, `sub` even intervals per axis).
    std::vector<double> integrate(const std::function<double(Vec3f)>& pdf_w, int sub = 32) const {
        std::vector<double> out(size_t(cells()), 0.0);
        double dc = 2.0 / res_cos, dp = 2.0 * M_PI / res_phi;
        double hc = dc / sub, hp = dp / sub;
        auto weight = [sub](int k) { return (k == 0 || k == sub) ? 1.0 : (k % 2 ? 4.0 : 2.0); };
        for (int ic = 0; ic < res_cos; ++ic) {
            for (int ip = 0; ip < res_phi; ++ip) {
                double sum = 0.0;
                for (int a = 0; a <= sub; ++a) {
                    double c = -1.0 + ic * dc + a * hc;
                    for (int b = 0; b <= sub; ++b) {
                        double phi = ip * dp + b * hp;
                        sum += weight(a) * weight(b) * pdf_w(direction(c, phi));
                    }
                }
                out[size_t(ic * res_phi + ip)] = sum * hc * hp / 9.0;
            }
        }
        return out;
    }
};

// The test of `observed` counts whose last cell holds the refused samples, against the
// pdf's integral over each other cell (`probabilities`): expectations are those times
// num_samples, and the refused cell expects the rest. A pdf integrating above 1 fails.
inline ChiSquareResult chi_square_with_refused_cell(const std::vector<double>& observed,
                                                   std::vector<double> probabilities, uint64_t num_samples) {
    double total = 0.0;
    for (double& e : probabilities) {
        e *= double(num_samples);
        total += e;
    }
    // The refused-sample cell; an integral above 1 shows up as a negative expectation.
    double refused = double(num_samples) - total;
    if (refused < -1e-3 * double(num_samples)) {
        ChiSquareResult r;
        char buf[160];
        std::snprintf(buf, sizeof buf, "pdf integrates to %.5f > 1", total / double(num_samples));
        r.message = buf;
        return r;
    }
    probabilities.push_back(std::max(0.0, refused));
    return chi_square_test(observed, probabilities);
}

// Runs the test for a sampler returning an optional direction (nullopt: refused sample).
inline ChiSquareResult chi_square_directions(const SphereBinning& binning,
                                             const std::function<std::optional<Vec3f>(uint64_t)>& sample,
                                             const std::function<double(Vec3f)>& pdf_w, uint64_t num_samples) {
    std::vector<double> observed(size_t(binning.cells()) + 1, 0.0);
    for (uint64_t i = 0; i < num_samples; ++i) {
        std::optional<Vec3f> d = sample(i);
        if (d) observed[size_t(binning.bin(*d))] += 1.0;
        else observed.back() += 1.0;
    }
    return chi_square_with_refused_cell(observed, binning.integrate(pdf_w), num_samples);
}

// Is a sampler uniform in solid angle over the cone of directions within angle theta_max
// of `axis`? Uniform in solid angle is uniform in (1 - cos theta) / (1 - cos theta_max)
// and phi, each in [0, 1): the test bins those two (res_cos x res_phi cells, each
// expecting N / cells), so no bin straddles the cone's edge, where a Simpson integral of
// a discontinuous pdf would be inexact. A direction outside the cone (or refused) lands
// in an extra cell that expects nothing and fails the test.
inline ChiSquareResult chi_square_uniform_cone(Vec3f axis, float cos_theta_max,
                                               const std::function<std::optional<Vec3f>(uint64_t)>& sample,
                                               uint64_t num_samples, int res_cos = 20, int res_phi = 40) {
    const Frame frame = Frame::from_z(axis);
    const int cells = res_cos * res_phi;
    std::vector<double> observed(size_t(cells) + 1, 0.0);
    std::vector<double> expected(size_t(cells) + 1, double(num_samples) / cells);
    expected.back() = 0.0;
    const double one_minus_cos_max = 1.0 - double(cos_theta_max);
    for (uint64_t i = 0; i < num_samples; ++i) {
        std::optional<Vec3f> d = sample(i);
        if (!d) { observed.back() += 1.0; continue; }
        const Vec3f l = frame.to_local(*d);
        // 1 - cos theta from sin^2 / (1 + cos): accurate near the axis, where 1 - cos cancels.
        const double sin2 = double(l.x) * l.x + double(l.y) * l.y;
        const double v = (l.z > 0.0f ? sin2 / (1.0 + l.z) : 1.0 - l.z) / one_minus_cos_max;
        double phi = std::atan2(double(l.y), double(l.x));
        if (phi < 0.0) phi += 2.0 * M_PI;
        // A hair beyond the edge (float rounding of the direction) still counts as inside.
        if (!(v <= 1.0 + 1e-4)) { observed.back() += 1.0; continue; }
        const int ic = std::min(res_cos - 1, int(v * res_cos));
        const int ip = std::min(res_phi - 1, int(phi / (2.0 * M_PI) * res_phi));
        observed[size_t(ic * res_phi + ip)] += 1.0;
    }
    return chi_square_test(observed, expected);
}

// Per-test significance; the seeds are fixed, so a passing test stays passing.
inline constexpr double kChiSquareMinPValue = 1e-3;

}  // namespace wf::materials_test
