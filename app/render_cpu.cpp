// The CPU instantiation of the render session and every integrator.
#include <optional>

#include "app/backend_entry.h"
#include "app/render_session.h"
#include "engine/backend/cpu_backend.h"

namespace wf {

RenderResult render_on_cpu(const HostScene& scene, const RenderOptions& options) {
    // A thread count of its own gets a pool of its own, for this render only; otherwise
    // the process's pool of every hardware thread, started once.
    std::optional<ThreadPool> own_pool;
    if (options.cpu_threads) own_pool.emplace(options.cpu_threads);
    CpuBackend backend(own_pool ? *own_pool : ThreadPool::global());
    MemoryCounter::Limit limit(backend.memory(), options.max_memory_bytes);
    return run_render_session(backend, scene, options);
}

}  // namespace wf
