#include "engine/backend/cuda_backend.cuh"
#include "engine/backend/host_algorithms.inl"

namespace wf {
HostAlgorithms cuda_host_algorithms() { return host_algorithms_detail::make<CudaBackend>(); }
}  // namespace wf
