// CUDA device discovery (engine/backend/cuda_device.cu). Declared for every build;
// defined only when the CUDA backend is built (WF_HAVE_CUDA).
#pragma once

#include <string>
#include <vector>

namespace wf {

// Number of CUDA devices, or -1 with *error set when the runtime reports a failure.
int cuda_device_count(std::string* error);
// One line per device: name, compute capability, SMs, memory, runtime/driver versions.
std::vector<std::string> cuda_device_descriptions();

}  // namespace wf
