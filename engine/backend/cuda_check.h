// Error checking for every CUDA runtime call and kernel launch: a failure
// throws CudaError naming the call, the file and the line.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace wf {

struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
    if (status != cudaSuccess) {
        throw CudaError(std::string("CUDA error: ") + call + " failed at " + file + ":" + std::to_string(line) +
                        ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
    }
}

}  // namespace wf

#define WF_CUDA_CHECK(call) ::wf::cuda_check((call), #call, __FILE__, __LINE__)
