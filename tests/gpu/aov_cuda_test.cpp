// AOVs (engine/aov.h) on the GPU: the same first hits as on the CPU (same camera rays,
// same BSDF code), the closed forms of the AOV plane, and a beauty that does not change
// when AOVs are asked for.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tests/common/analytic_checks.h"
#include "tests/common/aov_scenes.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

RenderResult render_on(const HostScene& scene, BackendKind backend, AovSet aovs, const char* integrator) {
    RenderOptions o = test::options_for(scene, backend, 8);
    o.settings.aovs = aovs;
    o.settings.integrator = integrator;
    o.settings.max_depth = 3;
    return render(scene, o);
}

// CPU and GPU AOVs agree: the first hit is one intersection and one BSDF set-up, where
// nvcc's fused multiply-adds move the values by float rounding only; a silhouette pixel
// may see one sample hit on one backend and miss on the other (one sample of 8 of the
// pixel's depth of about 4), so at most 2% of the pixels may differ beyond 1e-4.
void expect_aovs_agree(const HostScene& scene, const char* integrator, const std::string& label) {
    const RenderResult cpu = render_on(scene, BackendKind::Cpu, test::kAllAovs, integrator);
    const RenderResult gpu = render_on(scene, BackendKind::Cuda, test::kAllAovs, integrator);
    ASSERT_EQ(cpu.aovs.size(), 3u);
    ASSERT_EQ(gpu.aovs.size(), 3u);
    for (size_t k = 0; k < 3; ++k) {
        const Image& a = cpu.aovs[k].image;
        const Image& b = gpu.aovs[k].image;
        ASSERT_EQ(a.pixels.size(), b.pixels.size());
        size_t differing = 0;
        for (size_t i = 0; i < a.pixels.size(); ++i)
            for (int c = 0; c < 3; ++c)
                if (std::fabs(a.pixels[i][c] - b.pixels[i][c]) > 1e-4f * std::fmax(1.0f, std::fabs(a.pixels[i][c]))) {
                    ++differing;
                    break;
                }
        EXPECT_LE(double(differing), 0.02 * double(a.pixels.size()))
            << label << " " << cpu.aovs[k].name << ": " << differing << " pixels differ";
    }
}

TEST(AovCuda, CpuAndGpuAovsAgree) {
    WF_REQUIRE_CUDA_DEVICE();
    expect_aovs_agree(test::aov_sphere_scene(Vec3f(0.9f, 0.4f, 0.1f), 32), "pt", "sphere pt");
    expect_aovs_agree(test::aov_sphere_scene(Vec3f(0.9f, 0.4f, 0.1f), 32), "bpt", "sphere bpt");
    expect_aovs_agree(test::aov_plane_scene(Vec3f(0.2f, 0.5f, 0.8f), 24, false), "pt", "plane from behind");
    expect_aovs_agree(test::aov_gltf_plane_scene(Vec3f(0.3f, 0.6f, 0.9f), 24, false, false), "pt",
                      "glTF single-sided plane from behind");
}

TEST(AovCuda, PlaneAovsMatchTheClosedForm) {
    WF_REQUIRE_CUDA_DEVICE();
    const uint32_t size = 24;
    const Vec3f kd(0.2f, 0.5f, 0.8f);
    const RenderResult r = render_on(test::aov_plane_scene(kd, size, true), BackendKind::Cuda, test::kAllAovs, "pt");
    const Image& albedo = test::aov_layer(r, "albedo");
    const Image& normal = test::aov_layer(r, "normal");
    const Image& depth = test::aov_layer(r, "depth");
    for (uint32_t py = 0; py < size; ++py)
        for (uint32_t px = 0; px < size; ++px) {
            test::AovRange d, n[3];
            ASSERT_TRUE(test::aov_pixel_ranges(
                px, py, [&](double x, double y) { return std::optional(test::aov_plane_hit(x, y, size)); }, &d, n));
            EXPECT_TRUE(d.contains(depth.at(px, py).x, 1e-4)) << px << "," << py << ": " << depth.at(px, py).x;
            for (int c = 0; c < 3; ++c) {
                EXPECT_NEAR(albedo.at(px, py)[c], kd[c], 1e-6);
                EXPECT_NEAR(normal.at(px, py)[c], c == 2 ? 1.0f : 0.0f, 1e-6);
            }
        }
}

TEST(AovCuda, BeautyIsBitIdenticalWithAndWithoutAovs) {
    WF_REQUIRE_CUDA_DEVICE();
    const HostScene scene = test::aov_sphere_scene(Vec3f(0.6f), 32);
    for (const char* integrator : {"pt", "vcm"}) {
        const Image plain = render_on(scene, BackendKind::Cuda, 0, integrator).image;
        const Image with = render_on(scene, BackendKind::Cuda, test::kAllAovs, integrator).image;
        ASSERT_EQ(plain.pixels.size(), with.pixels.size());
        EXPECT_EQ(0, std::memcmp(plain.pixels.data(), with.pixels.data(), plain.pixels.size() * sizeof(Vec3f)))
            << integrator;
    }
}

}  // namespace
}  // namespace wf
