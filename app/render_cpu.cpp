// The CPU instantiation of the render session and every integrator.
#include "app/backend_entry.h"
#include "app/render_session.h"
#include "engine/backend/cpu_backend.h"

namespace wf {

RenderResult render_on_cpu(const HostScene& scene, const RenderOptions& options) {
    CpuBackend backend;
    MemoryCounter::Limit limit(backend.memory(), options.max_memory_bytes);
    return run_render_session(backend, scene, options);
}

}  // namespace wf
