// CUDA device discovery (engine/backend/cuda_device.cu). Declared for every build;
// defined only when the CUDA backend is built (WF_HAVE_CUDA).
#pragma once

#include <string>
#include <vector>

namespace wf {

// Number of CUDA devices, or -1 with *error set when the runtime reports a failure
// (e.g. a driver older than the runtime). 0 with *error set when there is no driver.
int cuda_device_count(std::string* error);
// One line per device: name, compute capability, SMs, memory, runtime/driver versions,
// and whether it can run this build's kernels.
std::vector<std::string> cuda_device_descriptions();
// The GPU code this build carries, from the architectures recorded at configure time:
// "sm_75, sm_80, sm_90 and compute_90 PTX (JIT-compiled for newer GPUs)".
std::string cuda_build_architectures();
// Why `device` cannot run this build's kernels, or "" when it can. Probes one of our
// kernels, so a GPU the build has no code for (cudaErrorNoKernelImageForDevice) or a
// driver too old for its PTX is found before a render, not in its first launch.
// device -1: the current device, the one a render uses.
std::string cuda_kernel_problem(int device = -1);

}  // namespace wf
