// Entry points of the two backend translation units (pt_cpu.cpp, pt_cuda.cu).
#pragma once

#include <string>
#include <vector>

#include "engine/render.h"

namespace wf {

RenderResult render_on_cpu(const HostScene& scene, const RenderOptions& options);
#if defined(WF_HAVE_CUDA)
RenderResult render_on_cuda(const HostScene& scene, const RenderOptions& options);
// Number of CUDA devices, or -1 with *error set when the runtime reports a failure.
int cuda_device_count(std::string* error);
// One line per device: name, compute capability, SMs, memory, runtime/driver versions.
std::vector<std::string> cuda_device_descriptions();
#endif

}  // namespace wf
