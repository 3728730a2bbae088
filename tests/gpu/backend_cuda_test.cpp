#include "tests/common/backend_checks.h"
#include "tests/gpu/gpu_test_support.h"

namespace wf {

#if defined(WF_HAVE_CUDA)
TEST(CudaBackend, ExclusiveScanMatchesStd) { WF_REQUIRE_CUDA_DEVICE(); test::check_exclusive_scan(cuda_host_algorithms()); }
TEST(CudaBackend, SortPairsIsStableAndMatchesStd) { WF_REQUIRE_CUDA_DEVICE(); test::check_sort_pairs(cuda_host_algorithms()); }
TEST(CudaBackend, SelectFlaggedMatchesStd) { WF_REQUIRE_CUDA_DEVICE(); test::check_select_flagged(cuda_host_algorithms()); }
TEST(CudaBackend, ReduceSumMatchesDoubleSum) { WF_REQUIRE_CUDA_DEVICE(); test::check_reduce_sum(cuda_host_algorithms()); }
TEST(CudaBackend, ParallelForVisitsEveryIndexOnce) { WF_REQUIRE_CUDA_DEVICE(); test::check_parallel_for(cuda_host_algorithms()); }
TEST(CudaBackend, PushItemsClaimsOneSlotPerItemInWarpOrder) { WF_REQUIRE_CUDA_DEVICE(); test::check_push_items(cuda_host_algorithms(), true); }
#else
TEST(CudaBackend, Unavailable) { GTEST_SKIP() << "this build has no CUDA backend"; }
#endif

}  // namespace wf
