// glTF alpha coverage scales emission (materials/emitters.h, area_radiance): a point of
// coverage a is the mixture a (surface) + (1 - a) (nothing), and only the surface
// emits, so an emissive square of coverage a lights the floor under it exactly a times
// as much as the same square fully covered. Its base colour is black and its specular
// factor 0, so it reflects nothing, and nothing lies beyond it: the ratio of the two floors is a for every
// estimator, whatever the geometry. Before coverage scaled emission, pt's hits saw a Le
// (they pass through with probability 1 - a) while its light samples saw Le, so pt's
// MIS mixed two emitters; the bidirectional family saw Le everywhere (ratio 1).
// Checked by breaking it: the code before emission took coverage (area_radiance
// without it, pt counting emission after its pass-through decision) gives 1.0000 for
// pt, lt, bpt and vcm.
// The floor under the fully covered square also has a closed form, which every
// estimator must reach. Checked by breaking it: with the black square's BSDF invalid (as
// GltfBsdf had it, so hits on it counted no emission and pt lost the BSDF-sampling share
// of its MIS weight), pt gives 0.1358, bpt 0.1395, vcm 0.1397 against 0.15986.
#include <gtest/gtest.h>

#include "tests/wavefront/gltf_emission_coverage_scene.h"

namespace wf {
namespace {

TEST(GltfEmissionCoverage, AnEmitterOfCoverageALightsAFloorATimesAsMuch) {  // ~2 s
    test::expect_floor_ratio_is_coverage_for_every_estimator(BackendKind::Cpu);
}

TEST(GltfEmissionCoverage, TheFloorUnderAnOpaqueEmitterHasItsClosedFormRadiance) {  // ~2 s
    test::expect_floor_radiance_is_analytic_for_every_estimator(BackendKind::Cpu);
}

}  // namespace
}  // namespace wf
