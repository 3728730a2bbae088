// A smooth dielectric sphere in a white furnace disappears: glass that reflects F and
// refracts 1 - F neither gains nor loses energy, so every pixel on it converges to the
// environment's radiance, 1, on every integrator that can render it (CPU backend). Paths
// through the sphere are chains of delta scatterings, so pt, bpt and vcm all see them
// only through the camera path that leaves the sphere and hits the environment; the MIS
// weights must still give that technique all the weight, and Russian roulette must stay
// unbiased. (The rtiow dielectric, pt only, has its own check in rtiow_render_test.cpp.)
// The same holds for the smooth limits of the microfacet types (materials/microfacet_bsdf.h,
// rendered by the dispatching SurfaceBsdf instantiation): a rough_dielectric of roughness 0,
// a thin_dielectric shell (R' + T' = 1 at each wall) and a white rough_conductor of
// roughness 0 (Schlick's F = 1 everywhere: a perfect mirror).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "tests/common/analytic_checks.h"
#include "tests/common/bidirectional_checks.h"

namespace wf {
namespace {

// The sphere's material, by name.
Material furnace_material(const std::string& name) {
    Material m;
    if (name == "smallvcm_glass") {  // SmallVCM's glass (scene 2's): a mirror lobe of weight F, refraction 1 - F
        m.km = Vec3f(1.0f);
        m.ior = 1.6f;
    } else if (name == "smooth_rough_dielectric") {
        m.type = MaterialType::RoughDielectric;
        m.ior = 1.6f;
    } else if (name == "thin_dielectric") {
        m.type = MaterialType::ThinDielectric;
        m.ior = 1.6f;
    } else {  // white_smooth_conductor
        m.type = MaterialType::RoughConductor;
        m.km = Vec3f(1.0f);
    }
    return m;
}

using FurnaceParam = std::tuple<const char*, const char*>;  // integrator, material
class DielectricFurnace : public ::testing::TestWithParam<FurnaceParam> {};

TEST_P(DielectricFurnace, SmoothSphereShowsTheEnvironment) {
    const uint32_t size = 32;
    HostScene scene = test::white_furnace_scene(0.0f, size);
    scene.materials[0] = furnace_material(std::get<1>(GetParam()));
    test::EstimatorSpec e;
    e.integrator = std::get<0>(GetParam());
    e.spp = 16;
    // Deep enough that the paths still bouncing inside at the limit carry nothing
    // measurable (a ray in a sphere keeps its angle: no total internal reflection).
    const uint32_t max_depth = 48;
    test::AnalyticRun run;
    run.integrator = e.integrator;
    run.max_relative_error = 0.002;
    // The pixels whose centre ray hits the sphere.
    const Camera cam = scene.camera.build(size, size);
    const auto on_sphere = [&](uint32_t x, uint32_t y) {
        return test::furnace_ray_hits_sphere(cam, float(x) + 0.5f, float(y) + 0.5f);
    };
    uint32_t count = 0;
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) count += on_sphere(x, y);
    EXPECT_GT(count, size * size / 8) << "the sphere fills part of the image";
    const std::string what = std::string("smooth ") + std::get<1>(GetParam()) + " sphere in a white furnace";
    test::expect_replicate_mean(what.c_str(), run, test::replicate_image_means(scene, e, size, max_depth, on_sphere), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Integrators, DielectricFurnace,
                         ::testing::Combine(::testing::Values("pt", "bpt", "vcm"),
                                            ::testing::Values("smallvcm_glass", "smooth_rough_dielectric",
                                                              "thin_dielectric", "white_smooth_conductor")),
                         [](const ::testing::TestParamInfo<FurnaceParam>& i) {
                             return std::string(std::get<0>(i.param)) + "_" + std::get<1>(i.param);
                         });

}  // namespace
}  // namespace wf
