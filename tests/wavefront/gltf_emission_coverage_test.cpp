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
// The floors of the fully covered square differ between estimators (pt 0.1330, bpt
// 0.1364, vcm 0.1366, lt 0.1546, each +- < 0.1%), before and after this change: not
// what this test is about (it compares each estimator with itself), and an open
// question (docs/architecture.md, section 11).
#include <gtest/gtest.h>

#include "tests/wavefront/gltf_emission_coverage_scene.h"

namespace wf {
namespace {

TEST(GltfEmissionCoverage, AnEmitterOfCoverageALightsAFloorATimesAsMuch) {  // ~2 s
    test::expect_floor_ratio_is_coverage_for_every_estimator(BackendKind::Cpu);
}

}  // namespace
}  // namespace wf
