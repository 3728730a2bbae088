// Emitters (materials/emitters.h): next-event estimates against closed forms, pdf
// agreement between illuminate, radiance_on_hit and emit, and emission that carries the
// right flux (light tracing against next-event estimation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "materials/emitters.h"
#include "tests/common/analytic_scenes.h"
#include "tests/common/polygon_irradiance.h"
#include "tests/materials/chi_square.h"
#include "tests/materials/light_estimates.h"

namespace wf {
namespace {

using materials_test::chi_square_directions;
using materials_test::kChiSquareMinPValue;
using materials_test::SphereBinning;
using materials_test::UniformRng;
using materials_test::light_traced_irradiance;
using materials_test::nee_irradiance;
using test::polygon_irradiance;

// SmallVCM's scene sphere and its ceiling light (one of the two light-box triangles).
const SceneSphere kSceneSphere{Vec3f(0.00973f, 0.02453f, 0.0f), 2.2170597f};
const Triangle kCeilingLight{Vec3f(-0.25f, 0.25f, 1.26002f), Vec3f(0.25f, -0.25f, 1.26002f), Vec3f(-0.25f, -0.25f, 1.26002f)};
constexpr float kCeilingRadiance = 25.03329895614464f;

struct TestScene {
    std::vector<Triangle> triangles{kCeilingLight};
    std::vector<Sphere> spheres{Sphere{Vec3f(0.0f, 0.0f, 2.0f), 0.5f}};
    std::vector<PrimInfo> prims{PrimInfo{0, 0, 0}, PrimInfo{0, 1, 0}};
    EmitterContext ctx() const {
        return EmitterContext{triangles.data(), uint32_t(triangles.size()), spheres.data(), prims.data(), kSceneSphere};
    }
};

Light area_light(uint32_t prim, float radiance) {
    Light l;
    l.type = LightType::Area;
    l.prim = prim;
    l.radiance = Vec3f(radiance);
    return l;
}

TEST(Emitters, PointLightFallsOffAsInverseSquare) {
    Light l;
    l.type = LightType::Point;
    l.position = Vec3f(0.0f, -0.5f, 1.0f);
    l.radiance = Vec3f(70.0f / (4.0f * kPi));  // SmallVCM's point light, power 70
    EmitterContext ctx{};
    Vec3f dir = normalize(Vec3f(0.3f, 0.2f, -1.0f));
    float prev = 0;
    for (float d : {0.5f, 1.0f, 2.0f, 4.0f}) {
        DirectSample ds = illuminate(l, ctx, l.position + d * dir, 0.3f, 0.7f);
        ASSERT_TRUE(ds.is_delta);
        ASSERT_FALSE(ds.is_infinite);
        EXPECT_NEAR(ds.distance, d, 1e-5f * d);
        EXPECT_NEAR(dot(ds.dir_to_light, -dir), 1.0f, 1e-6f);
        float irradiance = ds.radiance.x / ds.pdf_direct_w;  // at normal incidence
        EXPECT_NEAR(irradiance, 70.0f / (4.0f * kPi) / (d * d), 1e-4f * irradiance);
        if (prev > 0) {
            EXPECT_NEAR(prev / irradiance, 4.0f, 1e-4f);
        }
        prev = irradiance;
        EXPECT_NEAR(ds.pdf_emission_w, 1.0f / (4.0f * kPi), 1e-7f);
    }
    EXPECT_TRUE(is_black(illuminate(l, ctx, l.position, 0.5f, 0.5f).radiance));  // no 0/0 at the light
}

TEST(Emitters, TriangleLightIrradianceMatchesLambertFormula) {
    TestScene scene;
    Light l = area_light(0, kCeilingRadiance);
    std::vector<Vec3f> poly{kCeilingLight.p0, kCeilingLight.p1, kCeilingLight.p2};
    struct Receiver { Vec3f x, n; } receivers[] = {
        {Vec3f(0.1f, -0.2f, -1.28002f), Vec3f(0, 0, 1)},                    // on SmallVCM's floor
        {Vec3f(0.7f, 0.3f, 0.2f), normalize(Vec3f(-1.0f, -0.3f, 0.5f))},   // tilted, off to the side
    };
    for (const Receiver& r : receivers) {
        double exact = polygon_irradiance(poly, r.x, r.n, kCeilingRadiance);
        double est = nee_irradiance(l, scene.ctx(), r.x, r.n, 400000, 41);
        EXPECT_NEAR(est, exact, 0.005 * exact) << "receiver " << r.x.x << "," << r.x.y << "," << r.x.z;
    }
}

// A Lambertian sphere of radiance L seen from distance d: E = pi L (r/d)^2. Half the
// uniform-area samples fall on the far side and must come back black.
TEST(Emitters, SphereLightIrradianceMatchesClosedForm) {
    TestScene scene;
    Light l = area_light(1, 3.0f);
    Vec3f x(0.0f, 0.0f, 0.0f);
    double exact = kPi * 3.0 * sqr(0.5f / 2.0f);
    double est = nee_irradiance(l, scene.ctx(), x, Vec3f(0, 0, 1), 400000, 42);
    EXPECT_NEAR(est, exact, 0.01 * exact);
    // Inward-facing sphere: a receiver at its centre sees radiance L over its hemisphere.
    TestScene inward;
    inward.prims[1].flags = kPrimFlipNormal;
    double inside = nee_irradiance(l, inward.ctx(), Vec3f(0, 0, 2), Vec3f(0, 0, 1), 200000, 43);
    EXPECT_NEAR(inside, kPi * 3.0, 0.01 * kPi * 3.0);
    EmitterHit from_inside = radiance_on_hit(l, inward.ctx(), 1, Vec3f(0, 0, 2.5f), 0.0f, 0.0f, Vec3f(0, 0, 1));
    EmitterHit from_outside = radiance_on_hit(l, inward.ctx(), 1, Vec3f(0, 0, 2.5f), 0.0f, 0.0f, Vec3f(0, 0, -1));
    EXPECT_FALSE(is_black(from_inside.radiance));
    EXPECT_TRUE(is_black(from_outside.radiance));
}

TEST(Emitters, AreaLightIsOneSided) {
    TestScene scene;
    Light l = area_light(0, kCeilingRadiance);
    UniformRng rng(44);
    for (int i = 0; i < 1000; ++i) {
        float u0 = rng(), u1 = rng();
        EXPECT_TRUE(is_black(illuminate(l, scene.ctx(), Vec3f(0.1f, 0.0f, 1.5f), u0, u1).radiance));  // above it
        EXPECT_FALSE(is_black(illuminate(l, scene.ctx(), Vec3f(0.1f, 0.0f, 0.5f), u0, u1).radiance));  // below it
    }
    Vec3f on_light(-0.1f, -0.1f, 1.26002f);
    EXPECT_TRUE(is_black(radiance_on_hit(l, scene.ctx(), 0, on_light, 0.0f, 0.0f, Vec3f(0, 0, -1)).radiance));  // from above
    EmitterHit h = radiance_on_hit(l, scene.ctx(), 0, on_light, 0.0f, 0.0f, normalize(Vec3f(0.2f, 0.1f, 1.0f)));  // from below
    EXPECT_FLOAT_EQ(h.radiance.x, kCeilingRadiance);
    EXPECT_NEAR(h.pdf_direct_a, 1.0f / 0.125f, 1e-4f);  // triangle area 0.125 m^2
}

// What illuminate() reports for a sampled point must be what radiance_on_hit() reports
// when a ray finds the same point, converted between area and solid angle.
TEST(Emitters, AreaIlluminatePdfMatchesRadianceOnHit) {
    TestScene scene;
    for (uint32_t prim : {0u, 1u}) {
        Light l = area_light(prim, 5.0f);
        Vec3f x = prim == 0 ? Vec3f(0.3f, -0.4f, -0.5f) : Vec3f(0.4f, -0.3f, 0.5f);
        UniformRng rng(45 + prim);
        int checked = 0;
        for (int i = 0; i < 20000; ++i) {
            float u0 = rng(), u1 = rng();
            DirectSample ds = illuminate(l, scene.ctx(), x, u0, u1);
            if (is_black(ds.radiance)) continue;
            ASSERT_GE(ds.cos_at_light, kEpsCosine);
            // Reconstructing a near-grazing point from (dir, distance) loses its normal in float.
            if (ds.cos_at_light < 1e-2f) continue;
            Vec3f p = x + ds.dir_to_light * ds.distance;
            EmitterHit h = radiance_on_hit(l, scene.ctx(), prim, p, 0.0f, 0.0f, ds.dir_to_light);
            ASSERT_FALSE(is_black(h.radiance));
            ASSERT_FLOAT_EQ(h.radiance.y, ds.radiance.y);
            float pdf_w = pdf_area_to_solid_angle(h.pdf_direct_a, ds.distance, ds.cos_at_light);
            ASSERT_NEAR(pdf_w, ds.pdf_direct_w, 1e-4f * ds.pdf_direct_w);
            ASSERT_NEAR(h.pdf_emission_w, ds.pdf_emission_w, 1e-3f * ds.pdf_emission_w);
            ++checked;
        }
        EXPECT_GT(checked, 5000) << prim;
    }
}

// illuminate<false> (no emitter whose emission varies: the lean stages) is illuminate
// for untextured lights, field for field, on triangles and spheres.
TEST(Emitters, IlluminateWithoutVaryingEmissionIsIlluminateForUntexturedLights) {
    TestScene scene;
    for (uint32_t prim : {0u, 1u}) {
        const Light l = area_light(prim, 5.0f);
        const Vec3f x = prim == 0 ? Vec3f(0.3f, -0.4f, -0.5f) : Vec3f(0.4f, -0.3f, 0.5f);
        UniformRng rng(77 + prim);
        for (int i = 0; i < 2000; ++i) {
            const float u0 = rng(), u1 = rng();
            const DirectSample a = illuminate(l, scene.ctx(), x, u0, u1);
            const DirectSample b = illuminate<false>(l, scene.ctx(), x, u0, u1);
            ASSERT_EQ(a.radiance.x, b.radiance.x);
            ASSERT_EQ(a.radiance.z, b.radiance.z);
            ASSERT_EQ(a.dir_to_light.y, b.dir_to_light.y);
            ASSERT_EQ(a.distance, b.distance);
            ASSERT_EQ(a.pdf_direct_w, b.pdf_direct_w);
            ASSERT_EQ(a.pdf_emission_w, b.pdf_emission_w);
            ASSERT_EQ(a.cos_at_light, b.cos_at_light);
        }
    }
}

// A particle emitted from a point toward a receiver is the reverse of the next-event
// sample that picks that point: same point, direction, cosine and pdfs.
TEST(Emitters, EmitAgreesWithIlluminate) {
    TestScene scene;
    for (uint32_t prim : {0u, 1u}) {
        Light l = area_light(prim, 5.0f);
        UniformRng rng(47 + prim);
        for (int i = 0; i < 20000; ++i) {
            float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
            EmissionSample es = emit(l, scene.ctx(), u0, u1, u2, u3);
            ASSERT_NEAR(length(es.dir), 1.0f, 1e-5f);
            Vec3f n = emitter_normal(scene.ctx(), prim, es.origin);
            ASSERT_NEAR(dot(n, es.dir), es.cos_light, 1e-5f);
            ASSERT_NEAR(es.energy.x, 5.0f * es.cos_light, 1e-5f);
            if (es.cos_light < 1e-2f) continue;
            float dist = 1.7f;
            Vec3f receiver = es.origin + dist * es.dir;
            DirectSample ds = illuminate(l, scene.ctx(), receiver, u2, u3);  // same position numbers
            ASSERT_FALSE(is_black(ds.radiance));
            ASSERT_NEAR(ds.distance, dist, 1e-4f);
            ASSERT_NEAR(dot(ds.dir_to_light, -es.dir), 1.0f, 1e-5f);
            ASSERT_NEAR(ds.cos_at_light, es.cos_light, 1e-4f);
            ASSERT_NEAR(ds.pdf_emission_w, es.pdf_emission_w, 1e-3f * es.pdf_emission_w);
            ASSERT_NEAR(ds.pdf_direct_w, pdf_area_to_solid_angle(es.pdf_direct_a, dist, es.cos_light),
                        1e-3f * ds.pdf_direct_w);
            EmitterHit h = radiance_on_hit(l, scene.ctx(), prim, es.origin, 0.0f, 0.0f, -es.dir);
            ASSERT_NEAR(h.pdf_emission_w, es.pdf_emission_w, 1e-3f * es.pdf_emission_w);
            ASSERT_FLOAT_EQ(h.pdf_direct_a, es.pdf_direct_a);
        }
    }
}

// Emitted directions follow the emission pdf: cosine-weighted about the emitting side
// of the triangle, uniform for the point light.
TEST(Emitters, EmittedDirectionsFollowEmissionPdfChiSquare) {
    TestScene scene;
    Light tri = area_light(0, 1.0f);
    Vec3f n = normalize(cross(kCeilingLight.p1 - kCeilingLight.p0, kCeilingLight.p2 - kCeilingLight.p0));
    {
        UniformRng rng(49);
        auto r = chi_square_directions(
            SphereBinning(Vec3f(0, 0, 1)),
            [&](uint64_t) -> std::optional<Vec3f> {
                float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
                return emit(tri, scene.ctx(), u0, u1, u2, u3).dir;
            },
            [&](Vec3f d) {
                Vec3f p(0.0f, 0.0f, 1.26002f);  // any point of the light: the pdf splits as area x direction
                EmitterHit h = radiance_on_hit(tri, scene.ctx(), 0, p, 0.0f, 0.0f, -d);
                return h.pdf_direct_a > 0 ? double(h.pdf_emission_w) / h.pdf_direct_a : 0.0;
            },
            1000000);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
        EXPECT_LT(n.z, -0.999f);  // the ceiling light faces down
    }
    {
        Light point;
        point.type = LightType::Point;
        point.position = Vec3f(1, 2, 3);
        point.radiance = Vec3f(2.0f);
        UniformRng rng(50);
        auto r = chi_square_directions(
            SphereBinning(normalize(Vec3f(1, 1, 0))),
            [&](uint64_t) -> std::optional<Vec3f> {
                float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
                EmissionSample es = emit(point, scene.ctx(), u0, u1, u2, u3);
                if (!(es.origin.x == 1 && es.origin.y == 2 && es.origin.z == 3)) return std::nullopt;
                return es.dir;
            },
            [&](Vec3f d) { return double(illuminate(point, scene.ctx(), point.position - d, 0, 0).pdf_emission_w); },
            1000000);
        EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
    }
}

TEST(Emitters, DirectionalEmitFluxMatchesIlluminateIrradiance) {
    Light sun;
    sun.type = LightType::Directional;
    sun.direction = normalize(Vec3f(-1.0f, 1.5f, -1.0f));
    sun.radiance = Vec3f(10.0f, 4.0f, 0.0f);
    TestScene scene;
    Vec3f c(0.3f, -0.2f, 0.1f), n = normalize(Vec3f(0.2f, -1.0f, 0.5f));
    DirectSample ds = illuminate(sun, scene.ctx(), c, 0.5f, 0.5f);
    ASSERT_TRUE(ds.is_delta);
    ASSERT_TRUE(ds.is_infinite);
    EXPECT_EQ(ds.distance, kInfiniteLightDistance);
    EXPECT_TRUE(std::isfinite(ds.distance * ds.distance));
    EXPECT_NEAR(dot(ds.dir_to_light, -sun.direction), 1.0f, 1e-6f);
    double nee = ds.radiance.x * dot(n, ds.dir_to_light) / ds.pdf_direct_w;
    double lt = light_traced_irradiance(sun, scene.ctx(), c, n, 0.4f, 1000000, 51);
    EXPECT_NEAR(lt, nee, 0.03 * nee);

    // Particles start on the disc of radius R, a distance R behind the centre.
    UniformRng rng(52);
    float max_r = 0;
    for (int i = 0; i < 20000; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
        EmissionSample es = emit(sun, scene.ctx(), u0, u1, u2, u3);
        Vec3f rel = es.origin - kSceneSphere.center;
        ASSERT_NEAR(dot(rel, sun.direction), -kSceneSphere.radius, 1e-4f);
        float perp = length(rel + kSceneSphere.radius * sun.direction);
        ASSERT_LE(perp, kSceneSphere.radius * (1 + 1e-5f));
        max_r = std::max(max_r, perp);
        ASSERT_NEAR(es.pdf_emission_w, ds.pdf_emission_w, 1e-6f * ds.pdf_emission_w);
        ASSERT_NEAR(es.pdf_emission_w, 1.0f / (kPi * sqr(kSceneSphere.radius)), 1e-6f);
    }
    EXPECT_GT(max_r, 0.99f * kSceneSphere.radius);
}

// ---- Spot lights -------------------------------------------------------------------------

// Intensity 4 W/sr along a tilted axis, inner cone 15 degrees, outer 40.
Light test_spot() {
    Light l;
    l.type = LightType::Spot;
    l.position = Vec3f(0.1f, -0.2f, 1.0f);
    l.direction = normalize(Vec3f(0.3f, 0.2f, -1.0f));
    l.radiance = Vec3f(4.0f, 2.0f, 1.0f);
    l.cos_inner = std::cos(15.0f * kPi / 180.0f);
    l.cos_outer = std::cos(40.0f * kPi / 180.0f);
    return l;
}

// A receiver at `degrees` from the spot's axis, `dist` away.
Vec3f off_axis(const Light& l, float degrees, float dist) {
    Frame f = Frame::from_z(l.direction);
    float a = degrees * kPi / 180.0f;
    return l.position + dist * f.to_world(Vec3f(std::sin(a), 0.0f, std::cos(a)));
}

// The spec's falloff at `degrees` from the axis.
double gltf_falloff(double degrees, double inner, double outer) {
    return test::gltf_spot_falloff(std::cos(degrees * M_PI / 180.0), inner, outer);
}

TEST(Emitters, SpotLightIsAPointLightTimesTheGltfFalloff) {
    Light l = test_spot();
    EmitterContext ctx{};
    EXPECT_TRUE(light_is_delta(l));
    EXPECT_FALSE(light_is_infinite(l));
    for (float degrees : {0.0f, 10.0f, 15.0f, 20.0f, 27.5f, 35.0f, 39.0f, 40.5f, 60.0f, 120.0f, 180.0f})
        for (float d : {0.5f, 2.0f}) {
            DirectSample ds = illuminate(l, ctx, off_axis(l, degrees, d), 0.3f, 0.7f);
            const double falloff = gltf_falloff(degrees, 15.0, 40.0);
            if (falloff == 0.0) {
                EXPECT_TRUE(is_black(ds.radiance)) << degrees;
                continue;
            }
            ASSERT_TRUE(ds.is_delta);
            EXPECT_NEAR(ds.distance, d, 1e-5f * d);
            const double irradiance = ds.radiance.x / ds.pdf_direct_w;  // at normal incidence
            const double expected = 4.0 * falloff / (d * d);
            EXPECT_NEAR(irradiance, expected, 2e-4 * expected + 1e-6) << degrees << " degrees";
            EXPECT_NEAR(ds.radiance.y / ds.radiance.x, 0.5f, 1e-6f);
            // The emission pdf: uniform over the outer cone's solid angle.
            EXPECT_NEAR(ds.pdf_emission_w, 1.0 / (2.0 * M_PI * (1.0 - std::cos(40.0 * M_PI / 180.0))), 1e-4);
        }
    EXPECT_TRUE(is_black(illuminate(l, ctx, l.position, 0.5f, 0.5f).radiance));  // no 0/0 at the light
    // An inner cone as wide as the outer one is a (nearly) hard edge: full up to it.
    l.cos_inner = l.cos_outer;
    EXPECT_NEAR(illuminate(l, ctx, off_axis(l, 39.0f, 1.0f), 0, 0).radiance.x, 4.0f, 1e-5f);
    EXPECT_TRUE(is_black(illuminate(l, ctx, off_axis(l, 40.1f, 1.0f), 0, 0).radiance));
}

// Particles leave uniformly inside the outer cone, from the light's position, with the
// falloff in their energy and the pdf illuminate() reports for the reverse direction.
TEST(Emitters, SpotEmitIsUniformInTheOuterConeAndAgreesWithIlluminate) {
    Light l = test_spot();
    TestScene scene;
    UniformRng rng(55);
    auto r = materials_test::chi_square_uniform_cone(
        l.direction, l.cos_outer,
        [&](uint64_t) -> std::optional<Vec3f> {
            float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
            EmissionSample es = emit(l, scene.ctx(), u0, u1, u2, u3);
            if (!(es.origin.x == l.position.x && es.origin.y == l.position.y && es.origin.z == l.position.z))
                return std::nullopt;
            return es.dir;
        },
        1000000);
    EXPECT_GT(r.p_value, kChiSquareMinPValue) << r.message;
    for (int i = 0; i < 20000; ++i) {
        float u0 = rng(), u1 = rng(), u2 = rng(), u3 = rng();
        EmissionSample es = emit(l, scene.ctx(), u0, u1, u2, u3);
        ASSERT_NEAR(length(es.dir), 1.0f, 1e-5f);
        ASSERT_EQ(es.pdf_direct_a, 1.0f);
        ASSERT_EQ(es.cos_light, 1.0f);
        const double degrees = std::acos(std::clamp(double(dot(es.dir, l.direction)), -1.0, 1.0)) * 180.0 / M_PI;
        ASSERT_NEAR(es.energy.x, 4.0 * gltf_falloff(degrees, 15.0, 40.0), 2e-3) << degrees;
        DirectSample ds = illuminate(l, scene.ctx(), es.origin + 1.3f * es.dir, u2, u3);
        if (es.energy.x < 1e-3f) continue;  // at the edge: the two may round to either side
        ASSERT_NEAR(ds.radiance.x, es.energy.x, 1e-3f * es.energy.x + 1e-6f);
        ASSERT_NEAR(ds.pdf_emission_w, es.pdf_emission_w, 1e-5f * es.pdf_emission_w);
    }
}

// Light tracing carries the spot's flux: photons crossing a patch inside the inner cone, one
// in the falloff ring and one straddling the outer edge give the irradiance next-event
// estimation computes there.
TEST(Emitters, SpotEmitFluxMatchesIlluminateIrradiance) {
    Light l = test_spot();
    TestScene scene;
    for (float degrees : {5.0f, 28.0f, 38.0f}) {
        Vec3f c = off_axis(l, degrees, 1.5f), n = normalize(Vec3f(0.2f, -0.3f, 1.0f));
        double nee = materials_test::nee_irradiance(l, scene.ctx(), c, n, 1, 56);
        // Averaged over the patch, since the irradiance varies across it in the ring.
        double patch = 0;
        const int k = 64;
        Frame f = Frame::from_z(n);
        for (int i = 0; i < k * k; ++i) {
            Vec2f xy = sample_concentric_disk((i % k + 0.5f) / k, (i / k + 0.5f) / k);
            patch += materials_test::nee_irradiance(l, scene.ctx(), c + 0.1f * (f.x * xy.x + f.y * xy.y), n, 1, 57);
        }
        patch /= k * k;
        double lt = light_traced_irradiance(l, scene.ctx(), c, n, 0.1f, 2000000, 58);
        EXPECT_NEAR(lt, patch, 0.03 * patch) << degrees << " degrees (irradiance at the centre " << nee << ")";
    }
}

TEST(Emitters, EnvironmentEmitFluxMatchesIlluminateIrradiance) {
    Light sky;
    sky.type = LightType::Environment;
    sky.radiance = Vec3f(135.0f / 255.0f, 206.0f / 255.0f, 250.0f / 255.0f);
    TestScene scene;
    Vec3f c(0.3f, -0.2f, 0.1f), n = normalize(Vec3f(0.2f, -1.0f, 0.5f));
    double exact = kPi * sky.radiance.x;  // a full hemisphere of constant radiance
    EXPECT_NEAR(nee_irradiance(sky, scene.ctx(), c, n, 400000, 53), exact, 0.01 * exact);
    EXPECT_NEAR(light_traced_irradiance(sky, scene.ctx(), c, n, 0.4f, 2000000, 54), exact, 0.03 * exact);
}

TEST(Emitters, EnvironmentPdfsAgree) {
    Light sky;
    sky.type = LightType::Environment;
    sky.radiance = Vec3f(0.5f);
    TestScene scene;
    DirectSample ds = illuminate(sky, scene.ctx(), Vec3f(0.1f, 0.2f, 0.3f), 0.2f, 0.9f);
    EXPECT_FALSE(ds.is_delta);
    EXPECT_TRUE(ds.is_infinite);
    EXPECT_NEAR(length(ds.dir_to_light), 1.0f, 1e-6f);
    EmitterHit h = environment_radiance(sky, scene.ctx(), -ds.dir_to_light);
    EXPECT_FLOAT_EQ(h.pdf_direct_a, ds.pdf_direct_w);
    EXPECT_FLOAT_EQ(h.pdf_direct_a, 1.0f / (4.0f * kPi));
    EXPECT_FLOAT_EQ(h.pdf_emission_w, ds.pdf_emission_w);
    EmissionSample es = emit(sky, scene.ctx(), 0.2f, 0.9f, 0.4f, 0.6f);
    EXPECT_FLOAT_EQ(es.pdf_emission_w, ds.pdf_emission_w);
    EXPECT_FLOAT_EQ(es.pdf_direct_a, ds.pdf_direct_w);
    EXPECT_NEAR(es.pdf_emission_w, 1.0f / (4.0f * kPi) / (kPi * sqr(kSceneSphere.radius)), 1e-7f);
    // An environment lookup on another light type, or a surface lookup on the sky, is black.
    EXPECT_TRUE(is_black(environment_radiance(area_light(0, 1.0f), scene.ctx(), Vec3f(0, 0, 1)).radiance));
    EXPECT_TRUE(is_black(radiance_on_hit(sky, scene.ctx(), 0, Vec3f(0, 0, 1.26002f), 0.0f, 0.0f, Vec3f(0, 0, 1)).radiance));
}

}  // namespace
}  // namespace wf
