// glTF emissiveTexture rendered on the CPU backend against closed forms
// (tests/common/emissive_texture_checks.h): an emitter whose four quarters read four texels
// (through TEXCOORD_1 and KHR_texture_transform), seen directly (each pixel exactly its
// texel's radiance; pt, bpt, vcm: lt does not show emitters) and lighting a Lambertian
// floor (each channel's image mean against Lambert's formula summed over the quarters;
// pt, lt, bpt, vcm, bpm: emissive_texture_floor_runs says why those).
// Checked by breaking the code: reading the texture nowhere in next-event samples fails
// pt, bpt and vcm on the floor by 500-800 standard errors (lt and bpm, which never sample
// the light toward a point, pass); nowhere in emitted particles fails lt, bpm, bpt and vcm
// (100-500); nowhere at emitter hits fails the direct view and pt, bpt, vcm on the floor
// (50-95); the barycentrics swapped in the lookup fails every one of them.
#include <gtest/gtest.h>

#include "tests/common/emissive_texture_checks.h"

namespace wf {
namespace {

using test::AnalyticRun;

TEST(GltfEmissiveTexture, SeenDirectlyEachPixelIsFactorTimesItsDecodedTexel) {
    for (const char* integrator : {"pt", "bpt", "vcm"}) test::check_emissive_texture_seen_directly(BackendKind::Cpu, integrator);
}

class GltfEmissiveTextureFloor : public ::testing::TestWithParam<AnalyticRun> {};

TEST_P(GltfEmissiveTextureFloor, LitAsLambertsFormulaOverTheTexels) {
    test::check_emissive_texture_lights_the_floor(BackendKind::Cpu, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Integrators, GltfEmissiveTextureFloor,
                         ::testing::ValuesIn(test::emissive_texture_floor_runs()),
                         [](const ::testing::TestParamInfo<AnalyticRun>& info) { return info.param.integrator; });

}  // namespace
}  // namespace wf
