// The CPU instantiation of the integrators.
#include "engine/backend/cpu_backend.h"
#include "wavefront/backend_entry.h"
#include "wavefront/run_integrator.h"

namespace wf {

RenderResult render_on_cpu(const HostScene& scene, const RenderOptions& options) {
    CpuBackend backend;
    return run_integrator(backend, scene, options);
}

}  // namespace wf
