// Direction bins for narrow lobes: rings about an axis whose widths grow geometrically in
// t = 1 - cos(angle to the axis), times equal azimuth sectors. A GGX lobe of roughness
// alpha is ~alpha^2 wide in t, so rings starting at t ~ alpha^2 resolve its peak while the
// outer rings cover the rest of the sphere (tests/materials/chi_square.h's equal-area bins
// put a narrow lobe into one bin, and their Simpson rule cannot integrate it).
// Integration is composite Simpson per cell, adaptive where that is unreliable.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "engine/math.h"
#include "tests/materials/chi_square.h"

namespace wf::materials_test {

struct RingBinning {
    Frame frame;
    std::vector<double> t_edges;  // 0 = t_0 < t_1 < ... < t_n = 2
    int res_phi = 24;

    // First ring [0, t_first]; `rings` rings in all.
    RingBinning(Vec3f axis, double t_first, int rings = 32, int phi = 24) : frame(Frame::from_z(axis)), res_phi(phi) {
        t_first = std::min(t_first, 2e-3);
        double q = std::pow(2.0 / t_first, 1.0 / double(rings - 1));
        t_edges.push_back(0.0);
        for (int i = 0; i < rings - 1; ++i) t_edges.push_back(t_first * std::pow(q, double(i)));
        t_edges.push_back(2.0);
    }

    int rings() const { return int(t_edges.size()) - 1; }
    int cells() const { return rings() * res_phi; }

    int bin(Vec3f dir) const {
        Vec3f l = frame.to_local(dir);
        double t = 1.0 - std::clamp(double(l.z), -1.0, 1.0);
        // sin^2 / (1 + cos) keeps t's precision near the axis.
        if (l.z > 0.0f) t = (double(l.x) * l.x + double(l.y) * l.y) / (1.0 + double(l.z));
        int ring = int(std::upper_bound(t_edges.begin(), t_edges.end(), t) - t_edges.begin()) - 1;
        ring = std::clamp(ring, 0, rings() - 1);
        double phi = std::atan2(double(l.y), double(l.x));
        if (phi < 0.0) phi += 2.0 * M_PI;
        int ip = std::min(res_phi - 1, int(phi / (2.0 * M_PI) * res_phi));
        return ring * res_phi + ip;
    }

    Vec3f direction(double t, double phi) const {
        double c = 1.0 - t;
        double s = std::sqrt(std::max(0.0, t * (2.0 - t)));
        return frame.to_world(Vec3f(float(s * std::cos(phi)), float(s * std::sin(phi)), float(c)));
    }

    // Integral of f (per steradian) over each cell: Simpson on a 9 x 9 grid. Where that is
    // unreliable the cell is integrated by adaptive quadrature (quadtree of Simpson cells):
    // where it disagrees with Simpson on every other point (a kink, as Fresnel's at the
    // critical angle, or a barely resolved peak), where f is 0 at some points and not at
    // others (the edge of f's support: a horizon, a rejection region), and where f is 0 at
    // every point next to a cell where it is not (a sliver of support between the points).
    std::vector<double> integrate(const std::function<double(Vec3f)>& f) const {
        std::vector<double> out(size_t(cells()), 0.0);
        std::vector<int> state(size_t(cells()), 0);  // 0: all zero, 1: reliable, 2: refine
        const double dp = 2.0 * M_PI / res_phi;
        for (int ir = 0; ir < rings(); ++ir) {
            double t0 = t_edges[size_t(ir)], dt = t_edges[size_t(ir) + 1] - t0;
            for (int ip = 0; ip < res_phi; ++ip) {
                size_t c = size_t(ir * res_phi + ip);
                Simpson s = simpson(f, t0, dt, dp * ip, dp, 8);
                out[c] = s.fine;
                state[c] = s.zeros == 81 ? 0 : (s.zeros == 0 && s.accurate() ? 1 : 2);
            }
        }
        auto near_support = [&](int ir, int ip) {
            for (int dr = -1; dr <= 1; ++dr) {
                for (int dq = -1; dq <= 1; ++dq) {
                    int r = ir + dr, q = (ip + dq + res_phi) % res_phi;
                    if (r >= 0 && r < rings() && state[size_t(r * res_phi + q)] != 0) return true;
                }
            }
            return false;
        };
        for (int ir = 0; ir < rings(); ++ir) {
            double t0 = t_edges[size_t(ir)], dt = t_edges[size_t(ir) + 1] - t0;
            for (int ip = 0; ip < res_phi; ++ip) {
                size_t c = size_t(ir * res_phi + ip);
                if (state[c] == 1 || (state[c] == 0 && !near_support(ir, ip))) continue;
                out[c] = adaptive(f, t0, dt, dp * ip, dp, 5, 2);
            }
        }
        return out;
    }

    double integrate_total(const std::function<double(Vec3f)>& f) const {
        double total = 0.0;
        for (double v : integrate(f)) total += v;
        return total;
    }

private:
    struct Simpson {
        double fine = 0.0, coarse = 0.0;  // n and n/2 intervals per side
        int zeros = 0;
        // Good enough for a chi-square of ~1e6 samples: an error well below the standard
        // deviation sqrt(N m) of a cell of mass m, at most ~0.2 sqrt(m / N) in mass.
        bool accurate() const { return std::fabs(fine - coarse) <= 2e-4 * std::sqrt(std::fabs(fine)) + 1e-9; }
    };

    // Composite Simpson over [t0, t0 + dt] x [p0, p0 + dp] with n (even) intervals per side.
    Simpson simpson(const std::function<double(Vec3f)>& f, double t0, double dt, double p0, double dp, int n) const {
        auto weight = [](int k, int m) { return (k == 0 || k == m) ? 1.0 : (k % 2 ? 4.0 : 2.0); };
        Simpson s;
        for (int a = 0; a <= n; ++a) {
            for (int b = 0; b <= n; ++b) {
                double v = f(direction(t0 + dt * a / n, p0 + dp * b / n));
                s.zeros += v == 0.0;
                s.fine += weight(a, n) * weight(b, n) * v;
                if (a % 2 == 0 && b % 2 == 0) s.coarse += weight(a / 2, n / 2) * weight(b / 2, n / 2) * v;
            }
        }
        s.fine *= (dt / n) * (dp / n) / 9.0;
        s.coarse *= (2.0 * dt / n) * (2.0 * dp / n) / 9.0;
        return s;
    }

    // Quadtree: split into four while unreliable (as above), at most `depth` times; the
    // first `forced` levels split regardless (to find support between the points).
    double adaptive(const std::function<double(Vec3f)>& f, double t0, double dt, double p0, double dp, int depth,
                    int forced) const {
        Simpson s = simpson(f, t0, dt, p0, dp, 4);
        bool reliable = s.accurate() && (s.zeros == 0 || s.zeros == 25);
        if (depth == 0 || (forced <= 0 && reliable)) return s.fine;
        double h = 0.5 * dt, q = 0.5 * dp;
        return adaptive(f, t0, h, p0, q, depth - 1, forced - 1) + adaptive(f, t0 + h, h, p0, q, depth - 1, forced - 1) +
               adaptive(f, t0, h, p0 + q, q, depth - 1, forced - 1) +
               adaptive(f, t0 + h, h, p0 + q, q, depth - 1, forced - 1);
    }

public:
};

// A change of variables for binning directions: v = forward(w) for a sampled direction
// (nullopt outside the map's domain), and its inverse w = inverse(v, &jacobian), jacobian
// = |dw/dv| (nullopt where no direction of the domain maps to v). A microfacet lobe is a
// smooth bump about the normal in its half-vector space, however stretched it is in
// direction space (grazing reflection); the test then bins half vectors. The maps are the
// geometry of reflection and refraction written here on their own, not the code under test.
struct DirectionMap {
    std::function<std::optional<Vec3f>(Vec3f)> forward;
    std::function<std::optional<Vec3f>(Vec3f, double*)> inverse;
};

inline DirectionMap identity_map() {
    return {[](Vec3f w) -> std::optional<Vec3f> { return w; },
            [](Vec3f v, double* j) -> std::optional<Vec3f> {
                *j = 1.0;
                return v;
            }};
}

// Reflection on wo's side of the normal n: v = normalize(wo + w), w = 2 (wo.v) v - wo,
// |dw/dv| = 4 |wo.v|. With `mirrored`, w is on the other side and its mirror image through
// the surface takes its place (the thin-walled transmission of glTF).
inline DirectionMap reflection_map(Vec3f wo, Vec3f n, bool mirrored = false) {
    auto mirror = [n](Vec3f w) { return w - 2.0f * dot(w, n) * n; };
    float side = dot(wo, n) > 0.0f ? 1.0f : -1.0f;
    return {[=](Vec3f w) -> std::optional<Vec3f> {
                if (mirrored) w = mirror(w);
                if (!(dot(w, n) * side > 0.0f)) return std::nullopt;
                Vec3f h = wo + w;
                if (!(length_squared(h) > 0.0f)) return std::nullopt;
                return normalize(h);
            },
            [=](Vec3f v, double* j) -> std::optional<Vec3f> {
                double c = dot(wo, v);
                if (!(c > 0.0)) return std::nullopt;
                Vec3f w = 2.0f * float(c) * v - wo;
                if (!(dot(w, n) * side > 0.0f)) return std::nullopt;
                *j = 4.0 * c;
                return mirrored ? mirror(w) : w;
            }};
}

// Refraction from wo's side (index eta_o) to the other side (index eta_w) of n: v = the
// generalized half vector eta_o wo + eta_w w, normalised and turned toward wo; w = wo
// refracted by Snell's law about v; |dw/dv| = (eta_o wo.v + eta_w w.v)^2 / (eta_w^2 |w.v|)
// (the inverse of Walter et al. 2007, eq. 17).
inline DirectionMap refraction_map(Vec3f wo, Vec3f n, float eta_o, float eta_w) {
    float side = dot(wo, n) > 0.0f ? 1.0f : -1.0f;
    return {[=](Vec3f w) -> std::optional<Vec3f> {
                if (!(dot(w, n) * side < 0.0f)) return std::nullopt;
                Vec3f h = eta_o * wo + eta_w * w;
                if (!(length_squared(h) > 0.0f)) return std::nullopt;
                h = normalize(h);
                if (dot(h, wo) < 0.0f) h = -h;
                if (!(dot(w, h) < 0.0f)) return std::nullopt;
                return h;
            },
            [=](Vec3f v, double* j) -> std::optional<Vec3f> {
                double c = dot(wo, v);
                if (!(c > 0.0)) return std::nullopt;
                double e = double(eta_o) / eta_w;
                double sin2_t = e * e * std::max(0.0, 1.0 - c * c);
                if (sin2_t >= 1.0) return std::nullopt;
                double cos_t = std::sqrt(1.0 - sin2_t);
                Vec3f w = normalize(float(-e) * wo + float(e * c - cos_t) * v);
                if (!(dot(w, n) * side < 0.0f)) return std::nullopt;
                double wv = dot(w, v);
                double denom = eta_o * c + eta_w * wv;
                *j = denom * denom / (double(eta_w) * eta_w * std::fabs(wv));
                return w;
            }};
}

// Chi-square of sampled directions against a density, binned in the variable of `map`
// over ring bins; refused samples (nullopt) and samples outside the map's domain go to an
// extra cell expecting N (1 - integral of the density over the map's image).
inline ChiSquareResult chi_square_rings(const RingBinning& bins, const std::function<std::optional<Vec3f>()>& sample,
                                        const std::function<double(Vec3f)>& pdf_w, uint64_t num_samples,
                                        const DirectionMap& map = identity_map()) {
    std::vector<double> observed(size_t(bins.cells()) + 1, 0.0);
    for (uint64_t i = 0; i < num_samples; ++i) {
        std::optional<Vec3f> d = sample();
        std::optional<Vec3f> v = d ? map.forward(*d) : std::nullopt;
        if (v) observed[size_t(bins.bin(*v))] += 1.0;
        else observed.back() += 1.0;
    }
    std::vector<double> probabilities = bins.integrate([&](Vec3f v) {
        double j = 0.0;
        std::optional<Vec3f> w = map.inverse(v, &j);
        return w ? double(pdf_w(*w)) * j : 0.0;
    });
    return chi_square_with_refused_cell(observed, std::move(probabilities), num_samples);
}

// Integral of f (per steradian of w) over the image of `map`.
inline double integrate_mapped(const RingBinning& bins, const std::function<double(Vec3f)>& f,
                               const DirectionMap& map) {
    return bins.integrate_total([&](Vec3f v) {
        double j = 0.0;
        std::optional<Vec3f> w = map.inverse(v, &j);
        return w ? f(*w) * j : 0.0;
    });
}

}  // namespace wf::materials_test
