// CUDA backend: device memory, one kernel per parallel_for, CUB for the
// collectives. Include only from .cu files (needs nvcc --extended-lambda).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <nvtx3/nvToolsExt.h>
#include <thrust/iterator/counting_iterator.h>

#include "engine/backend/cuda_check.h"
#include "engine/backend/profiler.h"

namespace wf {

inline MemoryCounter& cuda_memory() {
    static MemoryCounter counter;
    return counter;
}

// cudaMalloc that reports running out of device memory as OutOfMemoryError naming
// the request, the device's free memory and what wavefront's buffers hold, never as a
// crash.
// (The caller checks the --max-memory limit, before it frees what the request replaces.)
inline void* cuda_allocate(const AllocationRequest& request) {
    void* ptr = nullptr;
    cudaError_t status = cudaMalloc(&ptr, request.bytes);
    if (status == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // not sticky: clear it so the device stays usable
        size_t free_bytes = 0, total_bytes = 0;
        cudaMemGetInfo(&free_bytes, &total_bytes);
        throw OutOfMemoryError(cuda_memory().describe_failure(request, "cuda") + " failed: the GPU has " +
                               format_bytes(free_bytes) + " free of " + format_bytes(total_bytes) +
                               "; wavefront's buffers hold " + format_bytes(cuda_memory().current.load()));
    }
    WF_CUDA_CHECK(status);
    return ptr;
}

template <class T>
class CudaBuffer {
public:
    CudaBuffer() = default;
    explicit CudaBuffer(size_t n) { resize(n); }
    ~CudaBuffer() { release(); }
    CudaBuffer(const CudaBuffer&) = delete;
    CudaBuffer& operator=(const CudaBuffer&) = delete;
    CudaBuffer(CudaBuffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_) { o.ptr_ = nullptr; o.size_ = 0; }

    void resize(size_t n) {
        const AllocationRequest request{uint64_t(n) * sizeof(T), n, type_name<T>()};
        cuda_memory().check_limit(request, size_ * sizeof(T), "cuda");  // before the old buffer goes
        release();
        if (n == 0) return;
        ptr_ = static_cast<T*>(cuda_allocate(request));
        size_ = n;
        cuda_memory().allocated(request.bytes);
        fill_zero();
    }
    size_t size() const { return size_; }
    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    void upload(const T* src, size_t n) {
        if (n != size_) resize(n);
        if (n) WF_CUDA_CHECK(cudaMemcpy(ptr_, src, n * sizeof(T), cudaMemcpyHostToDevice));
    }
    void upload(const std::vector<T>& src) { upload(src.data(), src.size()); }
    void download(T* dst, size_t n) const {
        if (n) WF_CUDA_CHECK(cudaMemcpy(dst, ptr_, n * sizeof(T), cudaMemcpyDeviceToHost));
    }
    std::vector<T> to_vector() const {
        std::vector<T> v(size_);
        download(v.data(), size_);
        return v;
    }
    void fill_zero() {
        if (size_) WF_CUDA_CHECK(cudaMemsetAsync(ptr_, 0, size_ * sizeof(T)));
    }

private:
    void release() {
        if (ptr_) {
            cudaFree(ptr_);  // no check: may run during unwinding after a device error
            cuda_memory().freed(size_ * sizeof(T));
        }
        ptr_ = nullptr;
        size_ = 0;
    }
    T* ptr_ = nullptr;
    size_t size_ = 0;
};

// Threads per block of every parallel_for, and blocks per SM the compiler must leave
// room for, which caps registers per thread: 65536 / (128 x 6) = 85, the cap measured
// best with blocks of 256 x 3 (bench_pt on an H200, 500 passes: 2-4% faster than no cap,
// where shade_surface takes 89 registers; a cap of 64 spills and is slower, as is every
// per-stage cap tried for the bidirectional stages, bench/NOTES.md). Blocks of 128
// rather than 256 (H100, one call): a block holds its SM's room until its slowest warp
// ends, and the stages' warps end far apart; vcm -1 to -2.5%, pt -1 to -1.5%, primary
// and bounce rays +5 to +7% (bench_traversal); blocks of 64 were slower.
// WF_CUDA_BLOCK_SIZE changes the block size and keeps the cap (768 threads per SM);
// WF_LAUNCH_MIN_BLOCKS changes the cap. Either way the blocks asked for are clamped to
// what one SM of the architecture holds (WF_MAX_BLOCKS_PER_SM), as for every launch.
#ifndef WF_CUDA_BLOCK_SIZE
#define WF_CUDA_BLOCK_SIZE 128
#endif
inline constexpr uint32_t kCudaBlockSize = WF_CUDA_BLOCK_SIZE;
static_assert(kCudaBlockSize % 32 == 0 && kCudaBlockSize <= 768,
              "whole warps per block (the warp-aggregated atomics count lanes as threadIdx.x % 32)");
#ifndef WF_LAUNCH_MIN_BLOCKS
#define WF_LAUNCH_MIN_BLOCKS (768 / WF_CUDA_BLOCK_SIZE)
#endif

// The most blocks one SM holds, by the architecture being compiled (ptxas ignores,
// with a warning, a launch bound asking for more): 16 on sm_75, sm_86 and sm_87,
// 24 on sm_89, sm_110 and sm_12x, 32 elsewhere.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750 || __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870)
#define WF_MAX_BLOCKS_PER_SM 16u
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 890 || (__CUDA_ARCH__ >= 1100 && __CUDA_ARCH__ < 1300))
#define WF_MAX_BLOCKS_PER_SM 24u
#else
#define WF_MAX_BLOCKS_PER_SM 32u
#endif

// The kernel of every parallel_for: blocks of Block threads, with room for
// MinBlocks of them per SM (the default: kCudaBlockSize and WF_LAUNCH_MIN_BLOCKS).
template <uint32_t Block, uint32_t MinBlocks, class F>
__global__ void __launch_bounds__(Block, (MinBlocks < WF_MAX_BLOCKS_PER_SM ? MinBlocks : WF_MAX_BLOCKS_PER_SM))
    parallel_for_kernel(F fn, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) fn(i);
}

class CudaBackend {
public:
    template <class T>
    using Buffer = CudaBuffer<T>;

    static constexpr const char* kName = "cuda";
    // Every bounce of a wave costs a few launches, however few paths are left in it.
    static constexpr bool kPrefersLargeWaves = true;
    // A kernel's threads run in warps of 32 lanes that wait for each other.
    static constexpr bool kRunsInWarps = true;
    static constexpr uint32_t kBlockSize = kCudaBlockSize;

    CudaBackend() {
        WF_CUDA_CHECK(cudaGetDevice(&device_));
        WF_CUDA_CHECK(cudaGetDeviceProperties(&props_, device_));
        const char* sync = std::getenv("WF_CUDA_SYNC_CHECK");
        sync_check_ = sync && *sync && *sync != '0';
    }
    ~CudaBackend() {
        for (auto& e : events_) { cudaEventDestroy(e.start); cudaEventDestroy(e.stop); }
        for (auto& e : marks_) cudaEventDestroy(e);
        if (temp_) {
            cudaFree(temp_);
            cuda_memory().freed(temp_bytes_);
        }
    }
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    std::string device_name() const { return props_.name; }
    // Bytes the device can still allocate, or what is left under --max-memory if that is
    // less (for sizing checks before big allocations).
    uint64_t available_memory() const {
        size_t free_bytes = 0, total_bytes = 0;
        WF_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        return std::min<uint64_t>(free_bytes, cuda_memory().left_under_limit());
    }
    MemoryCounter& memory() const { return cuda_memory(); }
    const cudaDeviceProp& properties() const { return props_; }

    template <class F>
    void parallel_for(const char* name, uint32_t n, F fn) {
        parallel_for_sized<kBlockSize, WF_LAUNCH_MIN_BLOCKS>(name, n, fn);
    }
    // Two counters in device memory, zero until a stage uses them; a stage that counts
    // on them puts them back to zero before the next stage's launch.
    uint32_t* work_counter() {
        if (work_counter_.size() == 0) work_counter_.resize(2);
        return work_counter_.data();
    }
    // The threads of blocks_per_sm blocks of kBlockSize on every SM.
    uint32_t resident_threads(uint32_t blocks_per_sm) const {
        return uint32_t(props_.multiProcessorCount) * blocks_per_sm * kBlockSize;
    }

    // parallel_for in blocks of Block threads (0: kBlockSize), with room for
    // MinBlocks of them per SM (a cap of 65536 / (Block x MinBlocks) registers per
    // thread): for a stage whose threads end far apart (a block holds its room
    // until its last warp ends), or one that runs faster with more warps resident
    // than the default cap leaves.
    template <uint32_t Block, uint32_t MinBlocks, class F>
    void parallel_for_sized(const char* name, uint32_t n, F fn) {
        constexpr uint32_t B = Block != 0 ? Block : kBlockSize;
        static_assert(B % 32 == 0 && B <= 1024, "whole warps per block");
        if (n == 0) return;
        begin(name);
        parallel_for_kernel<B, MinBlocks><<<(n + B - 1) / B, B>>>(fn, n);
        check_launch(name);
        end(name);
    }

    // out[i] = sum of in[0..i), T uint32_t or double (CUB's scan of doubles may associate
    // differently from run to run; callers that need bit-stable results round to float).
    template <class T>
    void exclusive_scan(const char* name, const T* in, T* out, uint32_t n) {
        begin(name);
        size_t bytes = 0;
        WF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n));
        WF_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp(bytes, name), bytes, in, out, n));
        end(name);
    }

    void sort_pairs(const char* name, const uint32_t* keys_in, uint32_t* keys_out, const uint32_t* values_in,
                    uint32_t* values_out, uint32_t n, int key_bits = 32) {
        begin(name);
        size_t bytes = 0;
        WF_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, values_in, values_out, n, 0,
                                                      key_bits));
        WF_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp(bytes, name), bytes, keys_in, keys_out, values_in,
                                                      values_out, n, 0, key_bits));
        end(name);
    }

    void select_flagged_indices(const char* name, const uint8_t* flags, uint32_t* out, uint32_t* num_selected,
                                uint32_t n) {
        begin(name);
        thrust::counting_iterator<uint32_t> indices(0);
        size_t bytes = 0;
        WF_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, indices, flags, out, num_selected, n));
        WF_CUDA_CHECK(cub::DeviceSelect::Flagged(temp(bytes, name), bytes, indices, flags, out, num_selected, n));
        end(name);
    }

    void reduce_sum(const char* name, const float* in, float* out, uint32_t n) {
        begin(name);
        size_t bytes = 0;
        WF_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in, out, n));
        WF_CUDA_CHECK(cub::DeviceReduce::Sum(temp(bytes, name), bytes, in, out, n));
        end(name);
    }

    // Host-readable copies of device counters, so the host can stop issuing work
    // once a queue runs dry without a synchronising readback: the copy goes into
    // pinned memory asynchronously, and mark()/wait_mark() tell when it has landed.
    class CounterMirror {
    public:
        CounterMirror() = default;
        CounterMirror(const CounterMirror&) = delete;
        CounterMirror& operator=(const CounterMirror&) = delete;
        ~CounterMirror() { if (values_) cudaFreeHost(values_); }
        void resize(size_t n) {
            if (values_) { cudaFreeHost(values_); values_ = nullptr; }
            WF_CUDA_CHECK(cudaMallocHost(&values_, n * sizeof(uint32_t)));
            for (size_t i = 0; i < n; ++i) values_[i] = 0;
        }
        uint32_t* data() { return values_; }
    private:
        uint32_t* values_ = nullptr;
    };
    void copy_counter_to_host(uint32_t* host_dst, const uint32_t* src) {
        WF_CUDA_CHECK(cudaMemcpyAsync(host_dst, src, sizeof(uint32_t), cudaMemcpyDeviceToHost));
    }
    // Records a point in the stream; marks are reused round-robin (kMarks in flight).
    uint32_t mark() {
        if (marks_.empty()) {
            marks_.resize(kMarks);
            for (auto& e : marks_) WF_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        }
        uint32_t m = next_mark_++ % kMarks;
        WF_CUDA_CHECK(cudaEventRecord(marks_[m]));
        return m;
    }
    void wait_mark(uint32_t m) { WF_CUDA_CHECK(cudaEventSynchronize(marks_[m])); }

    void synchronize() { WF_CUDA_CHECK(cudaDeviceSynchronize()); }

    // With profiling on, every launch is bracketed by CUDA events; flush_profile()
    // synchronises and turns them into per-stage milliseconds.
    void set_profiling(bool on) { profiling_ = on; }
    const StageTable& stages() const { return stages_; }
    void flush_profile() {
        if (pending_.empty()) return;
        synchronize();
        for (size_t i = 0; i < pending_.size(); ++i) {
            float ms = 0.0f;
            WF_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i].start, events_[i].stop));
            stages_.add(pending_[i], ms);
        }
        pending_.clear();
    }

private:
    struct EventPair { cudaEvent_t start, stop; };

    // Launch errors show at once; a fault inside a kernel only at a later call. With
    // WF_CUDA_SYNC_CHECK=1 every launch is followed by a synchronisation, so a fault is
    // reported with the name of the stage that caused it (slow: for debugging).
    void check_launch(const char* name) {
        cudaError_t status = cudaGetLastError();
        if (status == cudaSuccess && sync_check_) status = cudaDeviceSynchronize();
        if (status != cudaSuccess)
            throw CudaError(std::string("CUDA error in stage '") + name + "': " + cudaGetErrorName(status) + " (" +
                            cudaGetErrorString(status) + ")");
    }

    void begin(const char* name) {
        nvtxRangePushA(name);
        if (!profiling_) return;
        if (pending_.size() == events_.size()) {
            EventPair e;
            WF_CUDA_CHECK(cudaEventCreate(&e.start));
            WF_CUDA_CHECK(cudaEventCreate(&e.stop));
            events_.push_back(e);
        }
        WF_CUDA_CHECK(cudaEventRecord(events_[pending_.size()].start));
    }
    void end(const char* name) {
        nvtxRangePop();
        if (!profiling_) { stages_.add(name, 0.0); return; }
        WF_CUDA_CHECK(cudaEventRecord(events_[pending_.size()].stop));
        pending_.push_back(name);
    }
    void* temp(size_t bytes, const char* stage) {
        if (bytes > temp_bytes_) {
            const AllocationRequest request{bytes, 0, std::string("CUB temporary storage of stage '") + stage + "'"};
            cuda_memory().check_limit(request, temp_bytes_, "cuda");
            if (temp_) {
                void* old = temp_;
                cuda_memory().freed(temp_bytes_);
                temp_ = nullptr;  // never left dangling if the free or the malloc throws
                temp_bytes_ = 0;
                WF_CUDA_CHECK(cudaFree(old));
            }
            temp_ = cuda_allocate(request);
            temp_bytes_ = bytes;
            cuda_memory().allocated(bytes);
        }
        return temp_;
    }

    int device_ = 0;
    cudaDeviceProp props_{};
    bool profiling_ = false;
    bool sync_check_ = false;
    StageTable stages_;
    std::vector<EventPair> events_;
    std::vector<std::string> pending_;
    void* temp_ = nullptr;
    size_t temp_bytes_ = 0;
    static constexpr uint32_t kMarks = 8;
    std::vector<cudaEvent_t> marks_;
    uint32_t next_mark_ = 0;
    CudaBuffer<uint32_t> work_counter_;
};

}  // namespace wf
