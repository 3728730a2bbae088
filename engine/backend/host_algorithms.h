// Host-callable wrappers around a backend's collectives (copy in, run, copy
// out). Tests use them to check each backend against the standard library;
// engine code calls the backend directly.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>



namespace wf {

struct HostAlgorithms {
    std::vector<uint32_t> (*exclusive_scan)(const std::vector<uint32_t>&);
    // Returns (sorted keys, values permuted alongside), stable.
    std::pair<std::vector<uint32_t>, std::vector<uint32_t>> (*sort_pairs)(const std::vector<uint32_t>& keys,
                                                                          const std::vector<uint32_t>& values);
    std::vector<uint32_t> (*select_flagged_indices)(const std::vector<uint8_t>& flags);
    float (*reduce_sum)(const std::vector<float>&);
    // out[i] = f(in[i]) through parallel_for; also counts every i with one atomic_add.
    std::pair<std::vector<uint32_t>, uint32_t> (*parallel_square)(const std::vector<uint32_t>&);
    // Thread i pushes its items j marked in masks[i] (bits 0..7) with atomic_push_items;
    // returns, per claimed slot, the item written there as i * 32 + j.
    std::vector<uint32_t> (*push_items)(const std::vector<uint32_t>& masks);
};

HostAlgorithms cpu_host_algorithms();
#if defined(WF_HAVE_CUDA)
HostAlgorithms cuda_host_algorithms();
#endif

}  // namespace wf
