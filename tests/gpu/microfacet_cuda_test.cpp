// CPU vs GPU for the microfacet material types (materials/microfacet_bsdf.h: rough gold,
// rough glass, a thin pane; tests/wavefront/microfacet_scenes.h) on every integrator: the
// dispatching instantiations (SurfaceBsdf for pt, CoverageBsdf for the bidirectional
// family) with the microfacet BSDF on the device. One seed on both backends must give
// nearly the same image (expect_same_seed_agrees), and pt's renders of different seeds
// estimate the same image.
#include <string>

#include "tests/common/bidirectional_checks.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/wavefront/microfacet_scenes.h"

namespace wf {
namespace {

using test::expect_same_seed_agrees;

TEST(MicrofacetCpuGpuAgreement, EveryIntegratorPerSeed) {
    WF_REQUIRE_CUDA_DEVICE();
    test::AgreementOptions opt;
    opt.size = 64;
    opt.max_depth = 6;
    for (bool pane : {false, true}) {
        const HostScene scene = test::microfacet_spheres_scene(pane);
        for (const char* integrator : {"pt", "lt", "bpt", "vcm", "bpm", "ppm"}) {
            if (pane && std::string(integrator) == "lt") continue;  // sees nothing through the pane
            test::EstimatorSpec cpu{integrator, BackendKind::Cpu, 32, 0, 0.01f};
            test::EstimatorSpec gpu{integrator, BackendKind::Cuda, 32, 0, 0.01f};
            expect_same_seed_agrees(scene, cpu, gpu, opt, pane ? "microfacet spheres behind a pane" : "microfacet spheres");
        }
    }
}

TEST(MicrofacetCpuGpuAgreement, PtAgreesStatistically) {
    WF_REQUIRE_CUDA_DEVICE();
    test::AgreementOptions opt;
    opt.size = 64;
    opt.max_depth = 6;
    opt.mean_tolerance = 0.015;
    opt.allowance = 1.5;  // glossy highlights: heavy-tailed pixels (gltf_bidirectional_test.cpp)
    const HostScene scene = test::microfacet_spheres_scene(false);
    test::EstimatorSpec cpu{"pt", BackendKind::Cpu, 128, 0, 0.0f};
    test::EstimatorSpec gpu{"pt", BackendKind::Cuda, 128, 0, 0.0f};
    test::check_estimators_agree(scene, cpu, {gpu}, opt, {}, "microfacet spheres pt CPU vs GPU");
}

}  // namespace
}  // namespace wf
