// The CUDA instantiation of the render session and every integrator: the same
// stage code as render_cpu.cpp, compiled by nvcc with host-device lambdas.
#include "app/backend_entry.h"
#include "app/render_session.h"
#include "engine/backend/cuda_backend.cuh"

namespace wf {

RenderResult render_on_cuda(const HostScene& scene, const RenderOptions& options) {
    CudaBackend backend;
    MemoryCounter::Limit limit(backend.memory(), options.max_memory_bytes);
    return run_render_session(backend, scene, options);
}

}  // namespace wf
