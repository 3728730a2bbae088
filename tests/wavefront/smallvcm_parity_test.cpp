#include "tests/common/smallvcm_parity.h"

namespace wf {

TEST(SmallVcmParityCpu, AreaLightSceneS1MatchesReference) {
    test::check_smallvcm_parity("s1-area.json", "s1_pt_i1000_128.exr", BackendKind::Cpu, 64);
}
TEST(SmallVcmParityCpu, BackgroundSceneS3MatchesReference) {
    test::check_smallvcm_parity("s3-background.json", "s3_pt_i1000_128.exr", BackendKind::Cpu, 64);
}

}  // namespace wf
