// Device discovery for the CUDA backend, and the probe that tells whether a device can
// run this build's kernels. This file is compiled with the same architectures as every
// other kernel, so its probe kernel stands for all of them.
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "engine/backend/cuda_device.h"

#ifndef WF_CUDA_ARCHITECTURES
#error "WF_CUDA_ARCHITECTURES (the CMake CUDA architectures list) must be defined by the build"
#endif

namespace wf {
namespace {

__global__ void kernel_image_probe() {}

// Restores the current device when it goes out of scope.
class DeviceGuard {
public:
    DeviceGuard() { cudaGetDevice(&device_); }
    ~DeviceGuard() { cudaSetDevice(device_); }
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int device_ = 0;
};

std::string error_text(cudaError_t status) {
    return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

}  // namespace

int cuda_device_count(std::string* error) {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorInsufficientDriver) {
        int driver = 0;
        cudaDriverGetVersion(&driver);
        if (driver == 0) {  // no driver at all: a machine without an NVIDIA GPU
            if (error) *error = "no NVIDIA driver found";
            return 0;
        }
        int runtime = 0;
        cudaRuntimeGetVersion(&runtime);
        if (error)
            *error = "the NVIDIA driver (CUDA " + std::to_string(driver / 1000) + "." +
                     std::to_string(driver % 1000 / 10) + ") is older than this build's CUDA runtime (" +
                     std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10) +
                     ", cudaErrorInsufficientDriver)";
        return -1;
    }
    if (status == cudaErrorNoDevice) return 0;
    if (status != cudaSuccess) {
        if (error) *error = error_text(status);
        return -1;
    }
    return count;
}

std::string cuda_build_architectures() {
    // CMake's list, with ',' for ';': "75-real" is machine code (SASS) only, "90-virtual"
    // PTX only, a bare "90" both.
    std::vector<std::string> sass, ptx;
    std::stringstream list(WF_CUDA_ARCHITECTURES);
    for (std::string item; std::getline(list, item, ',');) {
        if (item.empty()) continue;
        const size_t dash = item.find('-');
        const std::string number = item.substr(0, dash), kind = dash == std::string::npos ? "" : item.substr(dash + 1);
        if (kind != "virtual") sass.push_back("sm_" + number);
        if (kind != "real") ptx.push_back("compute_" + number);
    }
    std::string out;
    for (const std::string& s : sass) out += (out.empty() ? "" : ", ") + s;
    if (!ptx.empty()) {
        out += out.empty() ? "" : " and ";
        for (size_t i = 0; i < ptx.size(); ++i) out += (i ? ", " : "") + ptx[i];
        out += " PTX (JIT-compiled for newer GPUs)";
    }
    return out.empty() ? std::string("no GPU code") : out;
}

std::string cuda_kernel_problem(int device) {
    DeviceGuard guard;
    if (device < 0 && cudaGetDevice(&device) != cudaSuccess) device = 0;
    cudaError_t status = cudaSetDevice(device);
    if (status != cudaSuccess) return "device " + std::to_string(device) + ": " + error_text(status);
    cudaFuncAttributes attributes{};
    status = cudaFuncGetAttributes(&attributes, kernel_image_probe);
    if (status == cudaSuccess) return "";
    cudaGetLastError();  // these errors are not sticky: clear the one we provoked
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, device);
    const std::string gpu = std::string(p.name) + " (compute capability " + std::to_string(p.major) + "." +
                            std::to_string(p.minor) + ")";
    const std::string code = "built for " + cuda_build_architectures();
    const std::string sm = std::to_string(p.major) + std::to_string(p.minor);
    if (status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidDeviceFunction)
        return gpu + " cannot run this build's kernels, " + code + " (" + cudaGetErrorName(status) +
               "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + sm + " (or native, on that machine)";
    if (status == cudaErrorUnsupportedPtxVersion || status == cudaErrorInvalidPtx) {
        int runtime = 0, driver = 0;
        cudaRuntimeGetVersion(&runtime);
        cudaDriverGetVersion(&driver);
        return gpu + ": the NVIDIA driver (CUDA " + std::to_string(driver / 1000) + "." +
               std::to_string(driver % 1000 / 10) + ") is too old to compile this build's PTX (CUDA " +
               std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10) + ", " + code + ", " +
               cudaGetErrorName(status) + "); update the driver or rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + sm;
    }
    return gpu + " cannot run this build's kernels (" + error_text(status) + ")";
}

std::vector<std::string> cuda_device_descriptions() {
    std::vector<std::string> out;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) return out;
    DeviceGuard guard;
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
        const std::string problem = cuda_kernel_problem(i);
        out.push_back(std::string(line) + (problem.empty() ? "; runs this build's kernels" : "; " + problem));
    }
    return out;
}

}  // namespace wf
