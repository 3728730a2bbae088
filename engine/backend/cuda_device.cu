// Device discovery for the CUDA backend.
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "engine/backend/cuda_device.h"

namespace wf {

int cuda_device_count(std::string* error) {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorInsufficientDriver) {
        if (error) *error = "no NVIDIA driver found, or it is older than this build's CUDA runtime (cudaErrorInsufficientDriver)";
        return -1;
    }
    if (status == cudaErrorNoDevice) return 0;
    if (status != cudaSuccess) {
        if (error) *error = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
        return -1;
    }
    return count;
}

std::vector<std::string> cuda_device_descriptions() {
    std::vector<std::string> out;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) return out;
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
        size_t free_bytes = 0, total_bytes = 0;
        if (cudaSetDevice(i) == cudaSuccess) cudaMemGetInfo(&free_bytes, &total_bytes);
        char line[512];
        std::snprintf(line, sizeof line,
                      "%d: %s, compute capability %d.%d, %d SMs, %.1f GiB (%.1f GiB free), runtime %d, driver %d", i,
                      p.name, p.major, p.minor, p.multiProcessorCount, double(p.totalGlobalMem) / (1u << 30),
                      double(free_bytes) / (1u << 30), runtime, driver);
        out.push_back(line);
    }
    if (count > 0) cudaSetDevice(0);
    return out;
}

}  // namespace wf
