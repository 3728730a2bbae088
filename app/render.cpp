#include "app/render.h"

#include <stdexcept>

#include "app/backend_entry.h"
#include "engine/backend/cuda_device.h"

namespace wf {

const char* backend_kind_name(BackendKind kind) {
    switch (kind) {
        case BackendKind::Cpu: return "cpu";
        case BackendKind::Cuda: return "cuda";
        default: return "auto";
    }
}

bool cuda_backend_available(std::string* why_not) {
#if defined(WF_HAVE_CUDA)
    std::string error;
    int count = cuda_device_count(&error);
    if (count > 0) return true;
    if (why_not) *why_not = count == 0 ? "no CUDA device found" : "CUDA runtime: " + error;
    return false;
#else
    if (why_not) *why_not = "this build has no CUDA backend (nvcc was not found at configure time)";
    return false;
#endif
}

std::vector<std::string> cuda_device_descriptions_or_empty() {
#if defined(WF_HAVE_CUDA)
    return cuda_device_descriptions();
#else
    return {};
#endif
}

RenderResult render(const HostScene& scene, const RenderOptions& options) {
    BackendKind kind = options.backend;
    if (kind == BackendKind::Auto) kind = cuda_backend_available() ? BackendKind::Cuda : BackendKind::Cpu;
    if (kind == BackendKind::Cuda) {
        std::string why;
        if (!cuda_backend_available(&why)) throw std::runtime_error("--backend cuda: " + why);
#if defined(WF_HAVE_CUDA)
        return render_on_cuda(scene, options);
#endif
    }
    return render_on_cpu(scene, options);
}

}  // namespace wf
