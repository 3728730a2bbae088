// A glTF volume whose Lambert base reflects inside it (gltf_inside_volume_scenes.h: clear
// rough glass, transmission 0.5, a point light inside; camera inside and outside), CPU:
//  - at max path length 3, pt and every estimator of the bidirectional family against a
//    reference written from GltfBsdf::evaluate() alone (no integrator's sampling or MIS);
//  - at the usual depth (6), lt, bpt, vcm, bpm and ppm against pt (images and means).
// Measured (CPU): max length 3 within 1.5 standard errors of the reference for all six,
// camera inside and outside; at depth 6 within 2.1 of pt. Checked by breaking the code:
// with the Lambert pdf counted only where its value is nonzero (GltfBsdf's bug, fixed in
// eval_local), sample() overweighted grazing reflections inside, and, at max length 3,
// camera inside: pt +15% (+42.5 standard errors), lt +15% (+28.2), ppm +15% (+16.1), bpt
// +3.2% (+13.9), vcm +3.3% (+15.4), bpm +3.3% (+8.0); camera outside: lt +41% (+19.0),
// ppm +38% (+11.6), pt, bpt, vcm and bpm within 0.5 (they sample only outside there at
// that length). At depth 6 against pt: inside bpt, vcm and bpm -23% (-16), outside lt
// +65% (+10.7), ppm +61% (+7.5), bpt -6.8% (-11.5), vcm -7.1% (-12.0), bpm -4.7% (-3.2).
#include <gtest/gtest.h>

#include "tests/wavefront/gltf_inside_volume_scenes.h"

namespace wf {
namespace {

TEST(GltfInsideVolume, CameraInsideShortPathsMatchEvaluateReference) {
    test::expect_short_paths_match_reference(test::half_lambert_cube_scene(true), BackendKind::Cpu,
                                             "camera and light in half-Lambert cube");
}

TEST(GltfInsideVolume, CameraOutsideShortPathsMatchEvaluateReference) {
    test::expect_short_paths_match_reference(test::half_lambert_cube_scene(false), BackendKind::Cpu,
                                             "light in half-Lambert cube, camera outside");
}

TEST(GltfInsideVolume, CameraInsideAllEstimatorsAgreeWithPt) {
    test::expect_estimators_agree_with_pt(test::half_lambert_cube_scene(true), BackendKind::Cpu,
                                          "camera and light in half-Lambert cube");
}

TEST(GltfInsideVolume, CameraOutsideAllEstimatorsAgreeWithPt) {
    test::expect_estimators_agree_with_pt(test::half_lambert_cube_scene(false), BackendKind::Cpu,
                                          "light in half-Lambert cube, camera outside");
}

}  // namespace
}  // namespace wf
