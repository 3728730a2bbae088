#include "engine/backend/cuda_backend.cuh"
#include "accel/hash_grid_host.inl"

namespace wf {
namespace {

// CUDA events around each build, all recorded before one synchronisation: the
// device time of a build with the host ahead of the GPU, as in a render loop.
class CudaEventTimer {
public:
    explicit CudaEventTimer(CudaBackend&) {}
    CudaEventTimer(const CudaEventTimer&) = delete;
    CudaEventTimer& operator=(const CudaEventTimer&) = delete;
    ~CudaEventTimer() {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
    }
    void begin() { record(); }
    void end() { record(); }
    std::vector<double> finish() {
        WF_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<double> ms;
        for (size_t i = 0; i + 1 < events_.size(); i += 2) {
            float m = 0.0f;
            WF_CUDA_CHECK(cudaEventElapsedTime(&m, events_[i], events_[i + 1]));
            ms.push_back(m);
        }
        return ms;
    }

private:
    void record() {
        cudaEvent_t e;
        WF_CUDA_CHECK(cudaEventCreate(&e));
        events_.push_back(e);
        WF_CUDA_CHECK(cudaEventRecord(e));
    }
    std::vector<cudaEvent_t> events_;
};

}  // namespace

HashGridHost cuda_hash_grid_host() { return hash_grid_host_detail::make<CudaBackend, CudaEventTimer>("cuda"); }

}  // namespace wf
