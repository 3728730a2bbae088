#include "tests/common/backend_checks.h"

namespace wf {

TEST(CpuBackend, ExclusiveScanMatchesStd) { test::check_exclusive_scan(cpu_host_algorithms()); }
TEST(CpuBackend, SortPairsIsStableAndMatchesStd) { test::check_sort_pairs(cpu_host_algorithms()); }
TEST(CpuBackend, SelectFlaggedMatchesStd) { test::check_select_flagged(cpu_host_algorithms()); }
TEST(CpuBackend, ReduceSumMatchesDoubleSum) { test::check_reduce_sum(cpu_host_algorithms()); }
TEST(CpuBackend, ParallelForVisitsEveryIndexOnce) { test::check_parallel_for(cpu_host_algorithms()); }
TEST(CpuBackend, PushItemsClaimsOneSlotPerItem) { test::check_push_items(cpu_host_algorithms(), false); }

}  // namespace wf
