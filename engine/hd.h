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

// Claims `count` consecutive slots (any count per thread, 0 included): returns the
// first and adds count to *size. On the GPU the active lanes of a warp take
// consecutive ranges, in lane order, with one atomic for the warp.
WF_HD_INLINE uint32_t atomic_push_range(uint32_t* size, uint32_t count) {
#if WF_DEVICE_CODE
    const unsigned mask = __activemask();
    const int lane = int(threadIdx.x & 31u);
    const int leader = __ffs(int(mask)) - 1;
    uint32_t before = 0, total = 0;  // the counts of the lanes below this one, of all
    for (unsigned m = mask; m != 0u; m &= m - 1u) {
        const int from = __ffs(int(m)) - 1;
        const uint32_t c = __shfl_sync(mask, count, from);
        if (from < lane) before += c;
        total += c;
    }
    uint32_t base = 0;
    if (lane == leader && total > 0u) base = atomicAdd(size, total);
    return __shfl_sync(mask, base, leader) + before;
#else
    return __atomic_fetch_add(size, count, __ATOMIC_RELAXED);
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
