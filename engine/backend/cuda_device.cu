// Device discovery for the CUDA backend.
#include <string>

#include <cuda_runtime.h>

#include "wavefront/backend_entry.h"

namespace wf {

int cuda_device_count(std::string* error) {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        if (error) *error = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
        return -1;
    }
    return count;
}

}  // namespace wf
