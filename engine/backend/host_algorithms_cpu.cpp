#include "engine/backend/cpu_backend.h"
#include "engine/backend/host_algorithms.inl"

namespace wf {
HostAlgorithms cpu_host_algorithms() { return host_algorithms_detail::make<CpuBackend>(); }
}  // namespace wf
