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

namespace {

// Absent: no GPU to speak of (no driver, no device, no CUDA in this build): the CPU
// is the plan, not a fallback. Unusable: a GPU is there but cannot run our kernels.
enum class CudaState { Usable, Absent, Unusable };

CudaState cuda_state(std::string* why) {
#if defined(WF_HAVE_CUDA)
    std::string error;
    const int count = cuda_device_count(&error);
    if (count == 0) {
        *why = error.empty() ? "no CUDA device found" : error;
        return CudaState::Absent;
    }
    if (count < 0) {
        *why = "CUDA runtime: " + error;
        return CudaState::Unusable;
    }
    *why = cuda_kernel_problem();
    return why->empty() ? CudaState::Usable : CudaState::Unusable;
#else
    *why = "this build has no CUDA backend (nvcc was not found at configure time)";
    return CudaState::Absent;
#endif
}

}  // namespace

bool cuda_backend_available(std::string* why_not) {
    std::string why;
    const bool usable = cuda_state(&why) == CudaState::Usable;
    if (why_not) *why_not = why;
    return usable;
}

BackendChoice choose_backend(BackendKind requested) {
    if (requested == BackendKind::Cpu) return {BackendKind::Cpu, ""};
    std::string why;
    const CudaState state = cuda_state(&why);
    if (state == CudaState::Usable) return {BackendKind::Cuda, ""};
    if (requested == BackendKind::Cuda) throw std::runtime_error("--backend cuda: " + why);
    if (state == CudaState::Unusable) return {BackendKind::Cpu, "warning: " + why + "; rendering on the CPU"};
    return {BackendKind::Cpu, ""};
}

std::vector<std::string> cuda_device_descriptions_or_empty() {
#if defined(WF_HAVE_CUDA)
    return cuda_device_descriptions();
#else
    return {};
#endif
}

std::string cuda_architectures_or_empty() {
#if defined(WF_HAVE_CUDA)
    return cuda_build_architectures();
#else
    return "";
#endif
}

RenderResult render(const HostScene& scene, const RenderOptions& options) {
    const BackendChoice choice = choose_backend(options.backend);
#if defined(WF_HAVE_CUDA)
    RenderResult result =
        choice.kind == BackendKind::Cuda ? render_on_cuda(scene, options) : render_on_cpu(scene, options);
#else
    RenderResult result = render_on_cpu(scene, options);
#endif
    if (!choice.warning.empty()) result.warnings.insert(result.warnings.begin(), choice.warning);
    if (result.stats.nonfinite_samples)  // the image is darker than it should be: say so
        result.warnings.push_back("warning: " + std::to_string(result.stats.nonfinite_samples) +
                                  " samples had NaN/Inf radiance and were dropped");
    return result;
}

}  // namespace wf
