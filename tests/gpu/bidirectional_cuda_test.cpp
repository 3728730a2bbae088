// The statistical checks of tests/wavefront/bidirectional_test.cpp on the CUDA backend,
// with the larger budgets a GPU affords (SmallVCM's radius, more iterations), and CPU vs
// GPU agreement of the bidirectional family. They skip without a device.
#include "tests/common/bidirectional_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {
namespace {

using test::AgreementOptions;
using test::AnalyticRun;
using test::EstimatorSpec;
using test::ParityOptions;

// ---- Many lights: analytic answers (as on the CPU, 8x the iterations) ------------------------

TEST(ClosedEmissiveMeshSphereCuda, EveryIntegratorConvergesToTruncatedLeOverOneMinusRho) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_closed_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"pt", 256, 32, 0, 0.0f, 0.001});
    test::check_closed_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"bpt", 128, 32, 0, 0.0f, 0.001});
    test::check_closed_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"vcm", 128, 32, 4096, 0.01f, 0.001});
    test::check_closed_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"bpm", 256, 32, 4096, 0.01f, 0.0015});
    test::check_closed_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"ppm", 256, 32, 4096, 0.01f, 0.0015});
    test::check_closed_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"lt", 512, 32, 0, 0.0f, 0.0015});
}

TEST(FurnaceEmissiveMeshSphereCuda, PtBptVcmShowLePlusRhoTimesEnvironment) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_furnace_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"pt", 256, 32, 0, 0.0f, 0.001});
    test::check_furnace_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"bpt", 256, 32, 0, 0.0f, 0.001});
    test::check_furnace_emissive_mesh_sphere(BackendKind::Cuda, AnalyticRun{"vcm", 256, 32, 4096, 0.01f, 0.001});
}

// ---- SmallVCM parity (SmallVCM's radius; the emitter's own pixels out of the per-pixel
// criterion, as on the CPU) ------------------------------------------------------------------

ParityOptions bidirectional_parity() {
    ParityOptions opt;
    opt.exclude_above = 1.0f;
    return opt;
}

TEST(BidirectionalParityCuda, VcmBptBpmPpmS1AreaLightMatchSmallVcm) {
    WF_REQUIRE_CUDA_DEVICE();
    for (const char* integrator : {"vcm", "bpt", "bpm", "ppm"})
        test::check_smallvcm_parity("s1-area.json", "s1_vcm_i1000_128.exr", BackendKind::Cuda, 512, integrator,
                                    bidirectional_parity());
}
// Scene 3 with ppm and bpm needs many light paths (only ~1 in 10 enters the box; see the
// CPU file): 16 per pixel and 256 iterations, 67M light paths per render.
TEST(BidirectionalParityCuda, VcmBptBpmPpmS3BackgroundMatchSmallVcm) {
    WF_REQUIRE_CUDA_DEVICE();
    for (const char* integrator : {"vcm", "bpt"})
        test::check_smallvcm_parity("s3-background.json", "s3_vcm_i1000_128.exr", BackendKind::Cuda, 512, integrator,
                                    bidirectional_parity());
    ParityOptions opt = bidirectional_parity();
    opt.light_paths = 16 * 128 * 128;
    for (const char* integrator : {"bpm", "ppm"})
        test::check_smallvcm_parity("s3-background.json", "s3_vcm_i1000_128.exr", BackendKind::Cuda, 256, integrator,
                                    opt);
}
// An orthographic camera (no light-tracing technique in bpt and vcm): the CPU test's scene
// (tests/wavefront/orthographic_camera_test.cpp), GPU against pt on the CPU.
TEST(OrthographicCameraCuda, BptVcmBpmAgreeWithPt) {
    WF_REQUIRE_CUDA_DEVICE();
    HostScene scene = test::without_specular_materials(test::load_smallvcm_scene("s1-area.json"));
    scene.camera.ortho_height = 2.0f;
    AgreementOptions opt;
    opt.size = 64;
    opt.mean_tolerance = 0.01;
    test::check_estimators_agree(scene, EstimatorSpec{"pt", BackendKind::Cpu, 512, 0, 0.012f},
                                 {EstimatorSpec{"bpt", BackendKind::Cuda, 256, 0, 0.012f},
                                  EstimatorSpec{"vcm", BackendKind::Cuda, 256, 0, 0.012f},
                                  EstimatorSpec{"bpm", BackendKind::Cuda, 512, 4 * 64 * 64, 0.012f}},
                                 opt, {}, "orthographic s1 on the GPU");
}

// lt and SmallVCM's 100-iteration lt render: 160 iterations here, a tenth of the
// reference's equivalent 1600, whose variance enters the allowance.
TEST(BidirectionalParityCuda, LtS1MatchesSmallVcmLightTracing) {
    WF_REQUIRE_CUDA_DEVICE();
    ParityOptions opt;
    opt.reference_iterations = 1600;
    test::check_smallvcm_parity("s1-area.json", "s1_lt_i100_128.exr", BackendKind::Cuda, 160, "lt", opt);
}

// ---- Delta lights (see the CPU file for which pairs must agree) ------------------------------

EstimatorSpec cuda(const char* integrator, uint32_t spp, uint32_t light_paths, float radius_factor = 0.0f) {
    return EstimatorSpec{integrator, BackendKind::Cuda, spp, light_paths, radius_factor};
}

// With SmallVCM's radius and 16x the CPU's iterations the kernel bias that keeps the CPU
// test off the ball pixels is small enough to compare the whole image: vcm, bpm and ppm
// capture every caustic, also those seen through a ball.
TEST(EstimatorAgreementCuda, SunS0AndPointS2VcmBpmPpmAgreeOnTheWholeImage) {
    WF_REQUIRE_CUDA_DEVICE();
    AgreementOptions opt;
    opt.size = 128;
    opt.mean_tolerance = 0.01;
    for (const char* file : {"s0-sun.json", "s2-point.json"}) {
        HostScene scene = test::load_smallvcm_scene(file);
        test::check_estimators_agree(scene, cuda("vcm", 512, 0), {cuda("bpm", 1024, 0), cuda("ppm", 1024, 0)}, opt, {},
                                     file);
    }
}
TEST(EstimatorAgreementCuda, SunS0AndPointS2BptLtAgreeWithVcmWhereTheCameraSeesNoBall) {
    WF_REQUIRE_CUDA_DEVICE();
    AgreementOptions opt;
    opt.size = 128;
    opt.mean_tolerance = 0.01;
    for (const char* file : {"s0-sun.json", "s2-point.json"}) {
        HostScene scene = test::load_smallvcm_scene(file);
        test::check_estimators_agree(scene, cuda("vcm", 256, 0), {cuda("bpt", 256, 0), cuda("lt", 512, 0)}, opt,
                                     test::non_specular_first_hit_mask(scene, opt.size), file);
    }
}
TEST(EstimatorAgreementCuda, SunS0AndPointS2WithDiffuseBallsPtAgreesWithVcm) {
    WF_REQUIRE_CUDA_DEVICE();
    AgreementOptions opt;
    opt.size = 128;
    opt.mean_tolerance = 0.01;
    for (const char* file : {"s0-sun.json", "s2-point.json"}) {
        HostScene scene = test::without_specular_materials(test::load_smallvcm_scene(file));
        test::check_estimators_agree(scene, cuda("vcm", 256, 0), {cuda("pt", 1024, 0)}, opt, {}, file);
    }
}

// ---- CPU vs GPU ------------------------------------------------------------------------------
// vcm on scene 1 at 64x64. The GPU splats light tracing and connections with atomics, so
// even one seed cannot give bit-equal images; the two backends are compared as two
// estimators of one image: CPU seeds 1 and 2, GPU seeds 3 and 4, channel means within 1%
// (16 iterations of 4096 light and camera paths: channel means spread by ~0.3% over
// seeds) and the per-pixel difference consistent with the noise of both; and one seed on
// both backends gives nearly the same image.
TEST(BidirectionalCpuGpuAgreement, VcmS1AgreesStatistically) {
    WF_REQUIRE_CUDA_DEVICE();
    HostScene scene = test::load_smallvcm_scene("s1-area.json");
    AgreementOptions opt;
    opt.size = 64;
    opt.mean_tolerance = 0.01;
    EstimatorSpec cpu{"vcm", BackendKind::Cpu, 64, 0, 0.0f};
    EstimatorSpec gpu{"vcm", BackendKind::Cuda, 64, 0, 0.0f};
    test::check_estimators_agree(scene, cpu, {gpu}, opt, {}, "s1 CPU vs GPU");
    // With one seed both backends draw the same random numbers: the images differ only by
    // float rounding (atomic splat order, fused multiply-adds) and the rare discrete
    // decision it flips, far below the noise.
    Image c1 = test::render_estimator(scene, cpu, opt.size, opt.max_depth, 1).image;
    Image c2 = test::render_estimator(scene, cpu, opt.size, opt.max_depth, 2).image;
    Image g1 = test::render_estimator(scene, gpu, opt.size, opt.max_depth, 1).image;
    double noise = test::masked_mse(c1, c2, {}) / 2.0, same_seed = test::masked_mse(c1, g1, {});
    std::printf("s1 vcm, seed 1 on CPU and GPU: mean squared difference %.3g, noise variance %.3g\n", same_seed, noise);
    EXPECT_LT(same_seed, 0.05 * noise);
}

// merge's long queries (more than one chunk of 32 candidates, wavefront/stages/merge.h):
// scene 2 with 512 x 512 light paths per iteration, as in the benchmark, puts more than 32
// candidates in 4% of the queries and hundreds near the point light. One seed on both
// backends: the same number of merges (up to the rare decision float rounding flips) and
// nearly the same image. Both compile the same merge (tests/wavefront/merge_scan_test.cpp
// checks its scan against brute force); this guards what differs between them at this
// density: contraction, atomics, and warp-level code (a merge that dropped what lanes
// 1-31 of a warp found in long queries gave a difference 100 times the bound).
TEST(BidirectionalCpuGpuAgreement, VcmS2LongMergeQueriesAgree) {
    WF_REQUIRE_CUDA_DEVICE();
    HostScene scene = test::load_smallvcm_scene("s2-point.json");
    const auto run = [&](BackendKind backend, uint32_t seed) {
        return test::render_estimator(scene, EstimatorSpec{"vcm", backend, 4, 512 * 512}, 64, 10, seed, true);
    };
    const auto merges = [](const RenderResult& r) { return test::counter_value(r, "light vertices merged"); };
    const RenderResult c1 = run(BackendKind::Cpu, 1), c2 = run(BackendKind::Cpu, 2), g1 = run(BackendKind::Cuda, 1);
    std::printf("s2 vcm, 512^2 light paths: merges CPU %.0f, GPU %.0f\n", merges(c1), merges(g1));
    EXPECT_NEAR(merges(g1), merges(c1), 1e-3 * merges(c1));
    double noise = test::masked_mse(c1.image, c2.image, {}) / 2.0, same_seed = test::masked_mse(c1.image, g1.image, {});
    std::printf("s2 vcm, seed 1 on CPU and GPU: mean squared difference %.3g, noise variance %.3g\n", same_seed, noise);
    EXPECT_LT(same_seed, 0.05 * noise);
}

}  // namespace
}  // namespace wf
