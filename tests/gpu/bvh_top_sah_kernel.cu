// run_top_pass: bvh_top_sah.cuh's rebuild_top in one block over test-made arrays.
#include "tests/gpu/bvh_top_sah_kernel.h"

#include "accel/bvh_top_sah.cuh"
#include "engine/backend/cuda_check.h"

namespace wf::test {
namespace {

static_assert(sizeof(TopTestNode) == sizeof(hploc::BuildNode) && sizeof(TopTestMeta) == sizeof(hploc::BuildMeta));

__global__ void __launch_bounds__(hploc::kTopBlock, 1) top_pass_kernel(hploc::PlocArgs a) {
    hploc::rebuild_top(a, threadIdx.x);
}

template <class T>
T* upload(const std::vector<T>& v) {
    T* d = nullptr;
    WF_CUDA_CHECK(cudaMalloc(&d, v.size() * sizeof(T)));
    WF_CUDA_CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <class T>
void download(std::vector<T>& v, T* d) {
    WF_CUDA_CHECK(cudaMemcpy(v.data(), d, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
    WF_CUDA_CHECK(cudaFree(d));
}

}  // namespace

void run_top_pass(uint32_t n, uint32_t root, std::vector<TopTestNode>& nodes, std::vector<TopTestMeta>& meta,
                  std::vector<uint32_t>& parent) {
    auto* d_nodes = reinterpret_cast<hploc::BuildNode*>(upload(nodes));
    auto* d_meta = reinterpret_cast<hploc::BuildMeta*>(upload(meta));
    uint32_t* d_parent = upload(parent);
    uint32_t* d_root = upload(std::vector<uint32_t>{root});
    uint32_t* d_unused = upload(std::vector<uint32_t>{0u});  // the pass reads no clusters or counter
    WideTable* d_tables = nullptr;  // all zero: the pass's tables are not what this checks
    WF_CUDA_CHECK(cudaMalloc(&d_tables, size_t(n - 1) * sizeof(WideTable)));
    WF_CUDA_CHECK(cudaMemset(d_tables, 0, size_t(n - 1) * sizeof(WideTable)));
    top_pass_kernel<<<1, hploc::kTopBlock>>>(
        hploc::PlocArgs{d_nodes, d_meta, d_parent, d_tables, d_unused, d_unused, d_root, n});
    WF_CUDA_CHECK(cudaGetLastError());
    WF_CUDA_CHECK(cudaDeviceSynchronize());
    download(nodes, reinterpret_cast<TopTestNode*>(d_nodes));
    download(meta, reinterpret_cast<TopTestMeta*>(d_meta));
    download(parent, d_parent);
    WF_CUDA_CHECK(cudaFree(d_root));
    WF_CUDA_CHECK(cudaFree(d_unused));
    WF_CUDA_CHECK(cudaFree(d_tables));
}

}  // namespace wf::test
