// Host/device portability macros. Every per-element routine of the engine is
// written once and compiled by g++ for the CPU backend and by nvcc for CUDA.
#pragma once

#if defined(__CUDACC__)
#define WF_HD __host__ __device__
#define WF_HD_INLINE __host__ __device__ __forceinline__
#define WF_LAMBDA [=] __host__ __device__
#else
#define WF_HD
#define WF_HD_INLINE inline
#define WF_LAMBDA [=]
#endif

#if defined(__CUDA_ARCH__)
#define WF_DEVICE_CODE 1
#else
#define WF_DEVICE_CODE 0
#endif

#include <cstdint>

namespace wf {

// Atomic add usable from both backends: atomicAdd on the GPU, a relaxed
// __atomic builtin on the CPU thread pool. Returns the old value.
WF_HD_INLINE uint32_t atomic_add(uint32_t* p, uint32_t v) {
#if WF_DEVICE_CODE
    return atomicAdd(p, v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

#if WF_DEVICE_CODE
// The lanes of `group` (all active, this one among them) take consecutive slots of
// *size, in lane order, with one atomic by the group's lowest lane; `active` is the
// warp's active mask, every lane of which calls this.
__device__ inline uint32_t push_index_in_group(uint32_t* size, unsigned active, unsigned group) {
    const int lane = int(threadIdx.x & 31u);
    const int leader = __ffs(int(group)) - 1;
    uint32_t base = 0;
    if (lane == leader) base = atomicAdd(size, uint32_t(__popc(int(group))));
    base = __shfl_sync(active, base, leader);
    return base + uint32_t(__popc(int(group & ((1u << lane) - 1u))));
}
#endif

// Claims one slot of a queue: returns the old *size and adds 1. On the GPU the
// active lanes of a warp take consecutive slots with one atomic for the warp, so
// a queue every thread pushes to is not serialised on its one counter.
WF_HD_INLINE uint32_t atomic_push_index(uint32_t* size) {
#if WF_DEVICE_CODE
    const unsigned mask = __activemask();
    return push_index_in_group(size, mask, mask);
#else
    return __atomic_fetch_add(size, 1u, __ATOMIC_RELAXED);
#endif
}

// atomic_push_index for lanes of one warp that may push to different counters (a
// queue per key): the lanes sharing a counter take consecutive slots with one atomic.
WF_HD_INLINE uint32_t atomic_push_index_keyed(uint32_t* size) {
#if WF_DEVICE_CODE
    const unsigned mask = __activemask();
    return push_index_in_group(size, mask, __match_any_sync(mask, reinterpret_cast<unsigned long long>(size)));
#else
    return __atomic_fetch_add(size, 1u, __ATOMIC_RELAXED);
#endif
}

// Claims one slot for each set bit j < kMaxItems of `items` (this thread's item j) and
// calls fn(j, slot) for each. On the GPU the active lanes of a warp (the whole warp where
// it is converged) take one block of slots with one atomic, in the order a loop of
// atomic_push_index over j would give them: item j of every lane before item j + 1 of
// any, lanes in order (neighbouring threads' items j stay neighbours, so the stage
// reading them stays coalesced), without a memory round trip between the items. On the
// CPU a thread's items take consecutive slots.
template <uint32_t kMaxItems, class F>
WF_HD_INLINE void atomic_push_items(uint32_t* size, uint32_t items, F&& fn) {
    static_assert(kMaxItems >= 1 && kMaxItems <= 32, "items are the bits of one 32-bit mask");
#if WF_DEVICE_CODE
    const unsigned active = __activemask();
    const int lane = int(threadIdx.x & 31u);
    const unsigned below = (1u << lane) - 1u;
    uint32_t offset[kMaxItems];
    uint32_t total = 0;
#pragma unroll
    for (uint32_t j = 0; j < kMaxItems; ++j) {
        const unsigned voted = __ballot_sync(active, (items >> j) & 1u);
        offset[j] = total + uint32_t(__popc(int(voted & below)));
        total += uint32_t(__popc(int(voted)));
    }
    const int leader = __ffs(int(active)) - 1;
    uint32_t base = 0;
    if (lane == leader && total > 0u) base = atomicAdd(size, total);
    base = __shfl_sync(active, base, leader);
#pragma unroll
    for (uint32_t j = 0; j < kMaxItems; ++j)
        if ((items >> j) & 1u) fn(j, base + offset[j]);
#else
    const uint32_t marked = items & (kMaxItems == 32 ? ~0u : (1u << kMaxItems) - 1u);
    if (marked == 0) return;
    uint32_t slot = __atomic_fetch_add(size, uint32_t(__builtin_popcount(marked)), __ATOMIC_RELAXED);
    for (uint32_t j = 0; j < kMaxItems; ++j)
        if ((items >> j) & 1u) fn(j, slot++);
#endif
}

// The same, for counters many threads bump at once (statistics): on the GPU the
// active lanes of a warp sum their values first and one of them adds the total,
// so a counter hit by every thread costs one atomic per warp.
WF_HD_INLINE void atomic_add_aggregated(uint32_t* p, uint32_t v) {
#if WF_DEVICE_CODE && __CUDA_ARCH__ >= 800
    unsigned mask = __activemask();
    uint32_t total = __reduce_add_sync(mask, v);
    if (int(threadIdx.x & 31u) == __ffs(int(mask)) - 1 && total) atomicAdd(p, total);
#else
    if (v) atomic_add(p, v);
#endif
}

}  // namespace wf
