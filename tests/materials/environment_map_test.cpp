// Equirectangular environment maps (materials/environment_map.h, environment_map_build.h)
// and the emitters that use them (materials/emitters.h): the direction convention, direction
// sampling against its pdf (chi-square), the pdf's integral over the sphere, and
// illuminate / environment_radiance / emit agreeing with each other and with closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <vector>

#include "engine/backend/cpu_backend.h"
#include "materials/emitters.h"
#include "materials/environment_map_build.h"
#include "tests/common/environment_maps.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/light_estimates.h"

namespace wf {
namespace {

using materials_test::chi_square_test;
using materials_test::ChiSquareResult;
using materials_test::kChiSquareMinPValue;
using materials_test::UniformRng;
using materials_test::nee_irradiance;

constexpr double kPiD = 3.14159265358979323846;

bool same(Vec3f a, Vec3f b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// A map built on the CPU backend, as DeviceScene builds it.
struct BuiltMap {
    CpuBackend backend;
    EnvironmentMap<CpuBackend> map;
    explicit BuiltMap(const HostEnvironmentMap& m) { map.build(backend, m); }
    EnvironmentMapView view() const { return map.view(); }
};

HostEnvironmentMap oriented(HostEnvironmentMap m, Vec3f up, float degrees) {
    m.up = normalize(up);
    m.rotation_degrees = degrees;
    return m;
}

// The frame written out by hand for up = +y: the centre starts at +x, the side at +z, and
// a turn by `degrees` (right-handed about +y) takes +x toward -z.
EnvironmentFrame y_up_frame(double degrees) {
    const double a = degrees * kPiD / 180.0, c = std::cos(a), s = std::sin(a);
    EnvironmentFrame f;
    f.centre = Vec3f(float(c), 0.0f, float(-s));
    f.up = Vec3f(0.0f, 1.0f, 0.0f);
    f.side = Vec3f(float(s), 0.0f, float(c));
    return f;
}

// Cells of bx x by texels in the map's (theta, phi) about `frame`, which the test gives
// independently of the code under test where it can.
struct TexelBinning {
    EnvironmentFrame frame;
    uint32_t width, height, bx, by;

    int cells() const { return int((width / bx) * (height / by)); }

    int bin(Vec3f d) const {
        const double lx = dot(d, frame.centre), ly = dot(d, frame.up), lz = dot(d, frame.side);
        const double u = std::atan2(lz, lx) / (2.0 * kPiD) + 0.5;
        const double v = std::atan2(std::sqrt(lx * lx + lz * lz), ly) / kPiD;
        const uint32_t x = std::min(width - 1, uint32_t(std::max(0.0, u * width)));
        const uint32_t y = std::min(height - 1, uint32_t(std::max(0.0, v * height)));
        return int((y / by) * (width / bx) + x / bx);
    }

    // The integral of pdf_w over each cell: the midpoint rule in (theta, phi) with k x k
    // points per texel and the Jacobian sin(theta). Exact for a pdf that is constant times
    // 1 / sin(theta) in each texel, as the map's is.
    std::vector<double> integrate(const std::function<double(Vec3f)>& pdf_w, int k = 3) const {
        std::vector<double> out(size_t(cells()), 0.0);
        const double dtheta = kPiD / height / k, dphi = 2.0 * kPiD / width / k;
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x) {
                double sum = 0.0;
                for (int i = 0; i < k; ++i)
                    for (int j = 0; j < k; ++j) {
                        const double theta = (y * k + i + 0.5) * dtheta, phi = (x * k + j + 0.5) * dphi - kPiD;
                        sum += pdf_w(test::environment_test_direction(frame, theta, phi)) * std::sin(theta);
                    }
                out[size_t((y / by) * (width / bx) + x / bx)] += sum * dtheta * dphi;
            }
        return out;
    }
};

// As chi_square_directions (tests/materials/chi_square.h), over texel cells.
ChiSquareResult chi_square_texels(const TexelBinning& binning, const std::function<std::optional<Vec3f>()>& sample,
                                  const std::function<double(Vec3f)>& pdf_w, uint64_t n) {
    std::vector<double> observed(size_t(binning.cells()) + 1, 0.0);
    for (uint64_t i = 0; i < n; ++i) {
        std::optional<Vec3f> d = sample();
        if (d) observed[size_t(binning.bin(*d))] += 1.0;
        else observed.back() += 1.0;
    }
    std::vector<double> expected = binning.integrate(pdf_w);
    double total = 0.0;
    for (double& e : expected) total += (e *= double(n));
    if (total > double(n) * (1.0 + 1e-3)) {
        ChiSquareResult r;
        r.message = "pdf integrates to " + std::to_string(total / double(n)) + " > 1";
        return r;
    }
    expected.push_back(std::max(0.0, double(n) - total));
    return chi_square_test(observed, expected);
}

// Integral of the map's pdf over the sphere (midpoint rule per texel, in its own frame).
double pdf_integral(const EnvironmentMapView& view, int k = 4) {
    TexelBinning all{view.frame, view.width, view.height, view.width, view.height};
    return all.integrate([&](Vec3f d) { return double(environment_map_lookup(view, d).pdf_w); }, k)[0];
}

// ---- The mapping --------------------------------------------------------------------------

// Blender's convention: the image centre looks along the centre axis, u = 1/4 along -side,
// u = 3/4 along +side, the top row along up.
TEST(EnvironmentMap, DirectionConventionIsBlenders) {
    const uint32_t w = 16, h = 8;
    HostEnvironmentMap indexed = test::constant_environment_map(w, h, Vec3f(0.0f));
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) indexed.texels[size_t(y) * w + x] = Vec3f(float(x), float(y), 1.0f);
    struct Case {
        Vec3f up;
        float degrees;
        Vec3f dir;
        uint32_t x, y;
    };
    const float e = 0.01f;  // just above the horizon: row h/2 - 1
    const Case cases[] = {
        {{0, 1, 0}, 0.0f, {0, 1, 0}, 0, 0},             // up: the top row (any column; atan2(0, 0) = 0 gives u = 1/2)
        {{0, 1, 0}, 0.0f, {0, -1, 0}, w / 2, h - 1},     // down: the bottom row
        {{0, 1, 0}, 0.0f, {1, e, 0}, w / 2, h / 2 - 1},  // +x: the centre
        {{0, 1, 0}, 0.0f, {0, e, -1}, w / 4, h / 2 - 1},
        {{0, 1, 0}, 0.0f, {0, e, 1}, 3 * w / 4, h / 2 - 1},
        {{0, 1, 0}, 0.0f, {-1, e, -e}, 0, h / 2 - 1},  // -x, a little toward -z: the left edge
        {{0, 1, 0}, 0.0f, {-1, e, e}, w - 1, h / 2 - 1},
        {{0, 1, 0}, 90.0f, {0, e, -1}, w / 2, h / 2 - 1},  // turned 90 degrees: the centre looks along -z
        {{0, 1, 0}, 90.0f, {1, e, 0}, 3 * w / 4, h / 2 - 1},
        {{0, 1, 0}, -90.0f, {0, e, 1}, w / 2, h / 2 - 1},
        {{0, 0, 1}, 0.0f, {1, 0, e}, w / 2, h / 2 - 1},  // z up: Blender's own axes, +x at the centre,
        {{0, 0, 1}, 0.0f, {0, 1, e}, w / 4, h / 2 - 1},  // +y at u = 1/4
        {{0, 0, 1}, 0.0f, {0, 0, 1}, 0, 0},
    };
    for (const Case& c : cases) {
        BuiltMap built(oriented(indexed, c.up, c.degrees));
        Vec3f t = environment_map_lookup(built.view(), normalize(c.dir)).texel;
        if (c.dir.y == 1.0f || c.dir.z == 1.0f) {  // a pole: only the row is defined
            EXPECT_EQ(uint32_t(t.y), c.y) << c.dir.x << " " << c.dir.y << " " << c.dir.z;
            continue;
        }
        EXPECT_EQ(uint32_t(t.x), c.x) << "up " << c.up.z << ", " << c.degrees << " degrees, dir " << c.dir.x << " "
                                      << c.dir.y << " " << c.dir.z;
        EXPECT_EQ(uint32_t(t.y), c.y) << "dir " << c.dir.x << " " << c.dir.y << " " << c.dir.z;
    }
    // The frame is exact at multiples of 90 degrees and right-handed at any angle.
    EnvironmentFrame f = environment_frame(Vec3f(0, 1, 0), 90.0f);
    EXPECT_EQ(f.centre.x, 0.0f);
    EXPECT_EQ(f.centre.z, -1.0f);
    EXPECT_EQ(f.side.x, 1.0f);
    EnvironmentFrame g = environment_frame(normalize(Vec3f(1, 2, -0.5f)), 200.0f);
    EXPECT_NEAR(dot(cross(g.centre, g.up), g.side), 1.0f, 1e-6f);
    EXPECT_NEAR(dot(g.centre, g.up), 0.0f, 1e-6f);
}

// Every sample of a map with one lit texel lands in that texel, whatever the orientation.
TEST(EnvironmentMap, SamplesLandInTheLitTexel) {
    UniformRng rng(3);
    for (Vec3f up : {Vec3f(0, 1, 0), normalize(Vec3f(0.3f, -1.0f, 2.0f))}) {
        BuiltMap built(oriented(test::patch_environment_map(32, 16, 21, 22, 5, 6, Vec3f(1.0f)), up, 33.0f));
        for (int i = 0; i < 2000; ++i) {
            EnvironmentSample s = sample_environment_map(built.view(), rng(), rng());
            ASSERT_GT(s.pdf_w, 0.0f);
            EXPECT_EQ(s.texel.x, 1.0f);
            EnvironmentTexel t = environment_texel_along(built.view(), s.dir);
            EXPECT_EQ(t.x, 21u);
            EXPECT_EQ(t.y, 5u);
        }
    }
}

// ---- Sampling against the pdf ---------------------------------------------------------------

TEST(EnvironmentMap, DirectionSamplingMatchesPdfChiSquare) {
    const HostEnvironmentMap sun = test::sun_and_gradient_map(64, 32);
    struct Orientation {
        Vec3f up;
        float degrees;
        bool frame_by_hand;  // else the binning uses the code's frame (sampling vs pdf only)
    };
    const Orientation orientations[] = {
        {{0, 1, 0}, 0.0f, true}, {{0, 1, 0}, 90.0f, true}, {{0, 1, 0}, 37.0f, true}, {{1, 2, -0.5f}, 200.0f, false}};
    uint64_t seed = 11;
    for (const Orientation& o : orientations) {
        BuiltMap built(oriented(sun, o.up, o.degrees));
        const EnvironmentMapView view = built.view();
        TexelBinning binning{o.frame_by_hand ? y_up_frame(o.degrees) : view.frame, 64, 32, 4, 2};
        UniformRng rng(seed++);
        ChiSquareResult r = chi_square_texels(
            binning,
            [&]() -> std::optional<Vec3f> {
                float u0 = rng(), u1 = rng();
                EnvironmentSample s = sample_environment_map(view, u0, u1);
                if (!(s.pdf_w > 0.0f)) return std::nullopt;
                return s.dir;
            },
            [&](Vec3f d) { return double(environment_map_lookup(view, d).pdf_w); }, 400000);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << o.degrees << " degrees: " << r.message;
    }
}

TEST(EnvironmentMap, PdfIntegratesToOne) {
    // The black map's distribution is uniform in (u, v).
    for (const HostEnvironmentMap& m : {test::sun_and_gradient_map(64, 32), test::sun_and_gradient_map(24, 48),
                                        test::constant_environment_map(8, 4, Vec3f(0.0f))}) {
        for (float degrees : {0.0f, 123.0f}) {
            BuiltMap built(oriented(m, Vec3f(0.2f, 1.0f, 0.4f), degrees));
            EXPECT_NEAR(pdf_integral(built.view()), 1.0, 1e-4) << m.width << "x" << m.height;
        }
    }
}

// A constant map is sampled with pdf 1 / (4 pi) at every texel centre (up to the midpoint
// rule's error in the mean of sin(theta) over the rows, (pi / H)^2 / 24).
TEST(EnvironmentMap, ConstantMapHasTheUniformPdf) {
    BuiltMap built(test::constant_environment_map(64, 32, Vec3f(0.7f, 0.2f, 1.3f)));
    const EnvironmentMapView view = built.view();
    for (uint32_t y = 0; y < 32; ++y)
        for (uint32_t x = 0; x < 64; x += 7) {
            double theta = kPiD * (y + 0.5) / 32, phi = 2.0 * kPiD * ((x + 0.5) / 64 - 0.5);
            float pdf = environment_map_lookup(view, test::environment_test_direction(view.frame, theta, phi)).pdf_w;
            ASSERT_NEAR(pdf, 0.25 / kPiD, 1e-3 * 0.25 / kPiD) << "texel " << x << ", " << y;
        }
}

// ---- Emitters -------------------------------------------------------------------------------

const SceneSphere kSceneSphere{Vec3f(0.1f, -0.2f, 0.3f), 2.0f};

Light environment_light(float scale) {
    Light l;
    l.type = LightType::Environment;
    l.radiance = Vec3f(scale);
    return l;
}

EmitterContext map_context(const EnvironmentMapView& view) {
    EmitterContext ctx{};
    ctx.scene_sphere = kSceneSphere;
    ctx.environment_map = view;
    return ctx;
}

// illuminate's sample, environment_radiance along it and emit with the same numbers
// describe one direction with one radiance and one pdf.
TEST(EnvironmentMapEmitters, IlluminateRadianceAndEmitAgree) {
    BuiltMap built(oriented(test::sun_and_gradient_map(64, 32), Vec3f(0, 0, 1), 75.0f));
    const EmitterContext ctx = map_context(built.view());
    const Light env = environment_light(2.5f);
    UniformRng rng(21);
    int mismatched = 0, samples = 20000;
    for (int i = 0; i < samples; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
        DirectSample ds = illuminate(env, ctx, Vec3f(0.3f, 0.1f, -0.2f), u0, u1);
        ASSERT_GT(ds.pdf_direct_w, 0.0f);
        ASSERT_TRUE(ds.is_infinite);
        ASSERT_FALSE(ds.is_delta);
        ASSERT_EQ(ds.distance, kInfiniteLightDistance);
        ASSERT_NEAR(length(ds.dir_to_light), 1.0f, 1e-5f);
        ASSERT_NEAR(ds.pdf_emission_w, ds.pdf_direct_w * infinite_light_position_pdf_a(ctx), 1e-6f * ds.pdf_emission_w);
        // Along the sampled direction: the same texel, unless it lies within rounding of a texel edge.
        EmitterHit h = environment_radiance(env, ctx, ds.dir_to_light);
        if (!same(h.radiance, ds.radiance) || std::fabs(h.pdf_direct_a - ds.pdf_direct_w) > 1e-3f * ds.pdf_direct_w)
            ++mismatched;
        EXPECT_NEAR(h.pdf_emission_w, h.pdf_direct_a * infinite_light_position_pdf_a(ctx), 1e-6f * h.pdf_emission_w);
        // emit() takes the same direction pair: the particle travels the opposite way.
        EmissionSample es = emit(env, ctx, u0, u1, u2, u3);
        ASSERT_TRUE(same(es.dir, -ds.dir_to_light));
        ASSERT_TRUE(same(es.energy, ds.radiance));
        ASSERT_EQ(es.pdf_direct_a, ds.pdf_direct_w);
        ASSERT_EQ(es.pdf_emission_w, ds.pdf_emission_w);
        Vec3f rel = es.origin - kSceneSphere.center;
        ASSERT_NEAR(dot(rel, es.dir), -kSceneSphere.radius, 1e-4f);
    }
    EXPECT_LT(mismatched, samples / 1000) << mismatched << " of " << samples;
}

// Particles leave along -w for directions w distributed as the map's pdf.
TEST(EnvironmentMapEmitters, EmittedDirectionsFollowThePdfChiSquare) {
    BuiltMap built(oriented(test::sun_and_gradient_map(64, 32), Vec3f(0, 1, 0), 90.0f));
    const EmitterContext ctx = map_context(built.view());
    const Light env = environment_light(1.0f);
    UniformRng rng(22);
    TexelBinning binning{y_up_frame(90.0), 64, 32, 4, 2};
    ChiSquareResult r = chi_square_texels(
        binning,
        [&]() -> std::optional<Vec3f> {
            float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
            EmissionSample es = emit(env, ctx, u0, u1, u2, u3);
            if (!(es.pdf_emission_w > 0.0f)) return std::nullopt;
            return -es.dir;
        },
        [&](Vec3f w) { return double(environment_radiance(env, ctx, w).pdf_direct_a); },
        400000);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
}

// A lit patch of the map over a surface facing up: E = L (phi1 - phi0) / 2 (sin^2 theta1 -
// sin^2 theta0); the sun map over a tilted surface: quadrature.
TEST(EnvironmentMapEmitters, NextEventIrradianceMatchesClosedForm) {
    const Light env = environment_light(3.0f);
    {
        HostEnvironmentMap patch = test::patch_environment_map(64, 32, 10, 30, 4, 11, Vec3f(2.0f));
        BuiltMap built(oriented(patch, Vec3f(0, 1, 0), 45.0f));
        double exact = 3.0 * test::patch_irradiance_facing_up(64, 32, 10, 30, 4, 11, 2.0);
        double est = nee_irradiance(env, map_context(built.view()), Vec3f(0.0f), Vec3f(0, 1, 0), 200000, 31);
        EXPECT_NEAR(est, exact, 0.003 * exact);
    }
    {
        HostEnvironmentMap sun = oriented(test::sun_and_gradient_map(64, 32), Vec3f(0, 1, 0), 30.0f);
        BuiltMap built(sun);
        Vec3f n = normalize(Vec3f(0.6f, 0.5f, -0.4f));
        double exact = test::environment_map_irradiance(sun, built.view().frame, n, 3.0);
        double est = nee_irradiance(env, map_context(built.view()), Vec3f(0.0f), n, 200000, 32);
        EXPECT_NEAR(est, exact, 0.01 * exact);
    }
}

// Light tracing: the flux of emitted particles through a small disc inside the scene sphere,
// per unit area, is the irradiance there.
TEST(EnvironmentMapEmitters, EmittedFluxMatchesIrradiance) {
    HostEnvironmentMap sun = oriented(test::sun_and_gradient_map(64, 32), Vec3f(0, 1, 0), 30.0f);
    BuiltMap built(sun);
    const EmitterContext ctx = map_context(built.view());
    const Light env = environment_light(1.0f);
    const Vec3f c(0.3f, -0.2f, 0.1f), n = normalize(Vec3f(0.6f, 0.5f, -0.4f));
    const float radius = 0.4f;
    UniformRng rng(41);
    const int photons = 1000000;
    double sum = 0;
    for (int i = 0; i < photons; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
        EmissionSample es = emit(env, ctx, u0, u1, u2, u3);
        if (!(es.pdf_emission_w > 0.0f)) continue;
        float denom = dot(es.dir, n);
        if (denom >= 0) continue;
        float t = dot(c - es.origin, n) / denom;
        Vec3f hit = es.origin + t * es.dir;
        if (t > 0 && length_squared(hit - c) < radius * radius) sum += double(es.energy.x) / es.pdf_emission_w;
    }
    double lt = sum / (double(photons) * kPiD * radius * radius);
    double exact = test::environment_map_irradiance(sun, built.view().frame, n, 1.0);
    EXPECT_NEAR(lt, exact, 0.03 * exact);
}

// An all-black map: valid pdfs (uniform in (u, v)), black radiance, nothing non-finite.
TEST(EnvironmentMapEmitters, BlackMapGivesBlackAndFiniteSamples) {
    BuiltMap built(test::constant_environment_map(8, 4, Vec3f(0.0f)));
    const EmitterContext ctx = map_context(built.view());
    const Light env = environment_light(1.0f);
    UniformRng rng(51);
    for (int i = 0; i < 1000; ++i) {
        float u0 = rng(), u1 = rng();
        DirectSample ds = illuminate(env, ctx, Vec3f(0.0f), u0, u1);
        EXPECT_TRUE(is_black(ds.radiance));
        EXPECT_TRUE(std::isfinite(ds.pdf_direct_w));
        EmitterHit h = environment_radiance(env, ctx, ds.dir_to_light);
        EXPECT_TRUE(is_black(h.radiance));
        EXPECT_TRUE(std::isfinite(h.pdf_direct_a));
        EXPECT_TRUE(is_black(emit(env, ctx, u0, u1, 0.5f, 0.5f).energy));
    }
}

}  // namespace
}  // namespace wf
