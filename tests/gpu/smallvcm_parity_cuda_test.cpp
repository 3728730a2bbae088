#include "tests/common/smallvcm_parity.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {

TEST(SmallVcmParityCuda, AreaLightSceneS1MatchesReference) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_smallvcm_parity("s1-area.json", "s1_pt_i1000_128.exr", BackendKind::Cuda, 1024);
}
TEST(SmallVcmParityCuda, BackgroundSceneS3MatchesReference) {
    WF_REQUIRE_CUDA_DEVICE();
    test::check_smallvcm_parity("s3-background.json", "s3_pt_i1000_128.exr", BackendKind::Cuda, 1024);
}

}  // namespace wf
