// The "Ray Tracing in One Weekend" materials (materials/rtiow_lobes.h through Bsdf):
// their densities against the book's own scattering procedure, written here again the way
// the book writes it (rejection sampling in the cube, unnormalised sums), and sample()
// against evaluate().
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "materials/bsdf.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/smallvcm_materials.h"

namespace wf {
namespace {

using namespace materials_test;

constexpr uint64_t kSamples = 1000000;

// The book's random_in_unit_sphere: rejection from the cube [-1, 1]^3.
Vec3f book_random_in_unit_ball(UniformRng& rng) {
    for (;;) {
        Vec3f p(2.0f * rng() - 1.0f, 2.0f * rng() - 1.0f, 2.0f * rng() - 1.0f);
        if (length_squared(p) < 1.0f) return p;
    }
}

Vec3f book_reflect(Vec3f v, Vec3f n) { return v - 2.0f * dot(v, n) * n; }

ChiSquareResult chi_square(const SphereBinning& bins, const std::function<std::optional<Vec3f>()>& sample,
                           const Bsdf& b) {
    return chi_square_directions(
        bins, [&](uint64_t) { return sample(); }, [&](Vec3f wi) { return double(b.evaluate(wi).pdf_fwd_w); },
        kSamples);
}

TEST(RtiowLobes, LambertianDensityIsTheBooksNormalPlusBall) {
    Vec3f n = normalize(Vec3f(0.2f, 0.5f, -0.8f));
    for (float deg : {0.0f, 50.0f, 85.0f}) {
        Bsdf b = Bsdf::make(rtiow_lambertian_material(Vec3f(0.5f)), arriving_ray(n, degrees(deg)), n, true);
        ASSERT_TRUE(b.is_valid());
        UniformRng rng(10 + uint64_t(deg));
        auto book = [&]() -> std::optional<Vec3f> { return normalize(n + book_random_in_unit_ball(rng)); };
        ChiSquareResult r = chi_square(SphereBinning(n), book, b);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << deg << " degrees: " << r.message;
        UniformRng rng2(20 + uint64_t(deg));
        auto ours = [&]() -> std::optional<Vec3f> {
            BsdfSample s = b.sample(rng2(), rng2(), rng2());
            if (is_black(s.factor)) return std::nullopt;
            return s.wi_world;
        };
        r = chi_square(SphereBinning(n), ours, b);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << deg << " degrees: " << r.message;
    }
}

// Lambert's cos lobe is a different density: the test must see it.
TEST(RtiowLobes, ChiSquareTellsTheBooksLambertianFromLambert) {
    Vec3f n(0, 0, 1);
    Material lambert;
    lambert.kd = Vec3f(0.5f);
    Bsdf b = Bsdf::make(lambert, arriving_ray(n, degrees(30)), n, true);
    UniformRng rng(31);
    auto book = [&]() -> std::optional<Vec3f> { return normalize(n + book_random_in_unit_ball(rng)); };
    EXPECT_LT(chi_square(SphereBinning(n), book, b).p_value, 1e-6);
}

TEST(RtiowLobes, MetalDensityIsTheBooksMirrorPlusFuzzBall) {
    Vec3f n = normalize(Vec3f(-0.3f, 0.1f, 1.0f));
    for (float fuzz : {0.3f, 0.6f, 1.0f}) {
        for (float deg : {10.0f, 70.0f}) {
            Vec3f ray = arriving_ray(n, degrees(deg), 1.3f);
            Bsdf b = Bsdf::make(rtiow_metal_material(Vec3f(0.9f, 0.6f, 0.4f), fuzz), ray, n, true);
            ASSERT_TRUE(b.is_valid());
            Vec3f r = book_reflect(ray, n);
            UniformRng rng(40 + uint64_t(10 * fuzz + deg));
            // The book absorbs what points below the surface: the refused cell.
            auto book = [&]() -> std::optional<Vec3f> {
                Vec3f d = r + fuzz * book_random_in_unit_ball(rng);
                if (!(dot(d, n) > 0.0f)) return std::nullopt;
                return normalize(d);
            };
            SphereBinning bins(r, 60, 40);
            ChiSquareResult c = chi_square(bins, book, b);
            EXPECT_GT(c.p_value, kChiSquareMinPValue) << "fuzz " << fuzz << ", " << deg << " degrees: " << c.message;
            UniformRng rng2(60 + uint64_t(10 * fuzz + deg));
            auto ours = [&]() -> std::optional<Vec3f> {
                BsdfSample s = b.sample(rng2(), rng2(), rng2());
                if (is_black(s.factor)) return std::nullopt;
                return s.wi_world;
            };
            c = chi_square(bins, ours, b);
            EXPECT_GT(c.p_value, kChiSquareMinPValue) << "fuzz " << fuzz << ", " << deg << " degrees: " << c.message;
        }
    }
}

// Whatever direction comes out, the book's weight is the albedo: factor cos / pdf = albedo.
TEST(RtiowLobes, SampleWeightIsTheAlbedo) {
    Vec3f n(0, 0, 1);
    const Vec3f albedo(0.9f, 0.6f, 0.4f);
    for (const Material& m : {rtiow_lambertian_material(albedo), rtiow_metal_material(albedo, 0.01f), rtiow_metal_material(albedo, 0.5f)}) {
        Bsdf b = Bsdf::make(m, arriving_ray(n, degrees(40)), n, true);
        UniformRng rng(7);
        int taken = 0;
        for (int i = 0; i < 10000; ++i) {
            BsdfSample s = b.sample(rng(), rng(), rng());
            if (is_black(s.factor)) continue;
            ++taken;
            Vec3f w = s.factor * (s.cos_out / s.pdf_w);
            ASSERT_NEAR(w.x, albedo.x, 2e-4f * albedo.x) << int(m.type);
            ASSERT_NEAR(w.z, albedo.z, 2e-4f * albedo.z) << int(m.type);
            BsdfEval e = b.evaluate(s.wi_world);  // the same density for MIS
            ASSERT_NEAR(e.pdf_fwd_w, s.pdf_w, 1e-4f * s.pdf_w);
        }
        EXPECT_GT(taken, 9000);
    }
}

// Narrow lobes are too narrow for the bins above; their density still integrates to the
// share of the ball above the surface (all of it at normal incidence).
TEST(RtiowLobes, NarrowMetalDensityIntegratesToOne) {
    Vec3f n(0, 0, 1);
    for (float fuzz : {kMinRtiowFuzz, 0.003f, 0.05f}) {
        Bsdf b = Bsdf::make(rtiow_metal_material(Vec3f(1.0f), fuzz), Vec3f(0, 0, -1), n, true);
        // Bins in cos theta over [1 - fuzz^2, 1] around the axis hold the whole lobe.
        const int rings = 400;
        double lo = 1.0 - double(fuzz) * fuzz, total = 0.0;
        for (int i = 0; i < rings; ++i) {
            double c = lo + (1.0 - lo) * (i + 0.5) / rings;
            double s = std::sqrt(1.0 - c * c);
            total += double(b.evaluate(Vec3f(float(s), 0.0f, float(c))).pdf_fwd_w) * 2.0 * M_PI * (1.0 - lo) / rings;
        }
        EXPECT_NEAR(total, 1.0, 0.02) << "fuzz " << fuzz;
    }
}

// Schlick's reflectance as the book computes it, against the Bsdf's lobe probability.
TEST(RtiowLobes, DielectricReflectsWithTheBooksSchlickProbability) {
    Vec3f n(0, 0, 1);
    float ior = 1.5f;
    auto book_reflect_prob = [&](Vec3f dir) {  // dir: unit, the ray's direction
        float cosine;
        Vec3f outward;
        float ni_over_nt;
        if (dot(dir, n) > 0.0f) {
            outward = -n;
            ni_over_nt = ior;
            cosine = dot(dir, n);
            cosine = std::sqrt(1.0f - ior * ior * (1.0f - cosine * cosine));
        } else {
            outward = n;
            ni_over_nt = 1.0f / ior;
            cosine = -dot(dir, n);
        }
        float dt = dot(dir, outward);
        float disc = 1.0f - ni_over_nt * ni_over_nt * (1.0f - dt * dt);
        if (!(disc > 0.0f)) return 1.0f;
        float r0 = (1.0f - ior) / (1.0f + ior);
        r0 *= r0;
        return r0 + (1.0f - r0) * std::pow(1.0f - cosine, 5.0f);
    };
    // 1/1.5: an air bubble, totally reflecting from outside beyond 41.8 degrees.
    for (float index : {1.5f, 1.0f / 1.5f}) {
        ior = index;
        for (float deg : {0.0f, 30.0f, 60.0f, 80.0f, 89.0f}) {
            for (bool inside : {false, true}) {
                Vec3f ray = arriving_ray(inside ? -n : n, degrees(deg));
                Bsdf b = Bsdf::make(rtiow_dielectric_material(ior), ray, n, true);
                EXPECT_NEAR(b.fresnel(), book_reflect_prob(ray), 1e-5f)
                    << "ior " << ior << ", " << deg << (inside ? " inside" : " outside");
            }
        }
    }
}

}  // namespace
}  // namespace wf
