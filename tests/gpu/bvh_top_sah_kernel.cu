// run_top_pass: bvh_top_sah.cuh's rebuild_top in one block over test-made arrays.
#include "tests/gpu/bvh_top_sah_kernel.h"

#include <cstddef>
#include <stdexcept>

#include "accel/bvh_top_sah.cuh"
#include "engine/backend/cuda_backend.cuh"
#include "engine/backend/cuda_check.h"

namespace wf::test {
namespace {

static_assert(sizeof(TopTestNode) == sizeof(hploc::BuildNode) && sizeof(TopTestMeta) == sizeof(hploc::BuildMeta));
static_assert(offsetof(TopTestNode, left) == offsetof(hploc::BuildNode, left) &&
              offsetof(TopTestNode, hi) == offsetof(hploc::BuildNode, hi) &&
              offsetof(TopTestNode, right) == offsetof(hploc::BuildNode, right));
static_assert(offsetof(TopTestMeta, count) == offsetof(hploc::BuildMeta, count) &&
              offsetof(TopTestMeta, height) == offsetof(hploc::BuildMeta, height) &&
              offsetof(TopTestMeta, leaves) == offsetof(hploc::BuildMeta, leaves));

__global__ void __launch_bounds__(hploc::kTopBlock, 1) top_pass_kernel(hploc::PlocArgs a) {
    hploc::rebuild_top(a, threadIdx.x);
}

}  // namespace

void run_top_pass(uint32_t n, uint32_t root, std::vector<TopTestNode>& nodes, std::vector<TopTestMeta>& meta,
                  std::vector<uint32_t>& parent) {
    if (nodes.size() != 2 * size_t(n) - 1 || meta.size() != nodes.size() || parent.size() != nodes.size())
        throw std::invalid_argument("run_top_pass: nodes, meta and parent need 2n - 1 entries each");
    // (Buffers that free themselves: a failed call throws, and the test goes on.)
    CudaBuffer<hploc::BuildNode> d_nodes;
    CudaBuffer<hploc::BuildMeta> d_meta;
    CudaBuffer<uint32_t> d_parent, d_root, d_unused;
    d_nodes.upload(reinterpret_cast<const hploc::BuildNode*>(nodes.data()), nodes.size());
    d_meta.upload(reinterpret_cast<const hploc::BuildMeta*>(meta.data()), meta.size());
    d_parent.upload(parent);
    d_root.upload(std::vector<uint32_t>{root});
    d_unused.upload(std::vector<uint32_t>{0u});  // the pass reads no clusters or counter
    CudaBuffer<WideTable> d_tables(n - 1);       // all zero: the pass's tables are not what this checks
    top_pass_kernel<<<1, hploc::kTopBlock>>>(hploc::PlocArgs{d_nodes.data(), d_meta.data(), d_parent.data(),
                                                             d_tables.data(), d_unused.data(), d_unused.data(),
                                                             d_root.data(), n});
    WF_CUDA_CHECK(cudaGetLastError());
    WF_CUDA_CHECK(cudaDeviceSynchronize());
    d_nodes.download(reinterpret_cast<hploc::BuildNode*>(nodes.data()), nodes.size());
    d_meta.download(reinterpret_cast<hploc::BuildMeta*>(meta.data()), meta.size());
    d_parent.download(parent.data(), parent.size());
}

}  // namespace wf::test
