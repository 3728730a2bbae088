// The CUDA instantiation of the integrators: the same stage code as pt_cpu.cpp,
// compiled by nvcc with host-device lambdas.
#include "engine/backend/cuda_backend.cuh"
#include "wavefront/backend_entry.h"
#include "wavefront/run_integrator.h"

namespace wf {

RenderResult render_on_cuda(const HostScene& scene, const RenderOptions& options) {
    CudaBackend backend;
    return run_integrator(backend, scene, options);
}

}  // namespace wf
