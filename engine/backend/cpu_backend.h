// CPU backend: host memory and a thread pool. It runs exactly the same stage
// code as the CUDA backend and is the reference GPU results are checked against.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/backend/profiler.h"
#include "engine/backend/thread_pool.h"

namespace wf {

inline MemoryCounter& cpu_memory() {
    static MemoryCounter counter;
    return counter;
}

template <class T>
class HostBuffer {
public:
    HostBuffer() = default;
    explicit HostBuffer(size_t n) { resize(n); }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    ~HostBuffer() { cpu_memory().freed(data_.size() * sizeof(T)); }
    void resize(size_t n) { replace(n, [&](std::vector<T>& v) { v.assign(n, T{}); }); }
    size_t size() const { return data_.size(); }
    T* data() { return data_.data(); }
    const T* data() const { return data_.data(); }
    void upload(const T* src, size_t n) { replace(n, [&](std::vector<T>& v) { v.assign(src, src + n); }); }
    void upload(const std::vector<T>& src) { upload(src.data(), src.size()); }
    void download(T* dst, size_t n) const { std::copy_n(data_.data(), n, dst); }
    std::vector<T> to_vector() const { return data_; }
    void fill_zero() { std::memset(static_cast<void*>(data_.data()), 0, data_.size() * sizeof(T)); }

private:
    // Replaces the contents by n elements that `fill` writes. Over the memory limit, or
    // when the host has no memory left, it throws OutOfMemoryError and the buffer and
    // the counter keep their old state.
    template <class Fill>
    void replace(size_t n, Fill fill) {
        const AllocationRequest request{uint64_t(n) * sizeof(T), n, type_name<T>()};
        const uint64_t old_bytes = data_.size() * sizeof(T);
        cpu_memory().check_limit(request, old_bytes, "cpu");
        std::vector<T> fresh;
        try {
            fill(fresh);
        } catch (const std::bad_alloc&) {
            throw OutOfMemoryError(cpu_memory().describe_failure(request, "cpu") +
                                   " failed: the host has no memory left");
        } catch (const std::length_error&) {
            throw OutOfMemoryError(cpu_memory().describe_failure(request, "cpu") +
                                   " failed: larger than a vector can hold");
        }
        data_.swap(fresh);
        cpu_memory().freed(old_bytes);
        cpu_memory().allocated(request.bytes);
    }
    std::vector<T> data_;
};

class CpuBackend {
public:
    template <class T>
    using Buffer = HostBuffer<T>;

    static constexpr const char* kName = "cpu";
    // Waves cost the CPU no launches: larger ones would only take more memory.
    static constexpr bool kPrefersLargeWaves = false;
    // Each thread runs its items one by one: no lanes wait for each other.
    static constexpr bool kRunsInWarps = false;

    explicit CpuBackend(ThreadPool& pool = ThreadPool::global()) : pool_(pool) {}

    std::string device_name() const { return std::to_string(pool_.size()) + " CPU threads"; }
    // For sizing checks before big allocations: physical memory of the machine, or
    // what is left under --max-memory if that is less.
    uint64_t available_memory() const {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        uint64_t physical = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : ~uint64_t(0);
        return std::min(physical, cpu_memory().left_under_limit());
    }
    MemoryCounter& memory() const { return cpu_memory(); }

    // The GPU's launch shape for a stage (CudaBackend::parallel_for_sized); here
    // parallel_for.
    template <uint32_t Block, uint32_t MinBlocks, class F>
    void parallel_for_sized(const char* name, uint32_t n, F fn) {
        parallel_for(name, n, fn);
    }

    // Runs fn(i) for i in [0, n). fn must only write state owned by element i
    // (or use wf::atomic_add), exactly as on the GPU.
    template <class F>
    void parallel_for(const char* name, uint32_t n, F fn) {
        if (n == 0) return;  // as the CUDA backend: no launch, no stats row
        auto start = clock_now();
        pool_.run_chunks(n, 2048, [&](uint64_t b, uint64_t e) {
            for (uint64_t i = b; i < e; ++i) fn(uint32_t(i));
        });
        record(name, start);
    }

    // out[i] = sum of in[0..i), T uint32_t or double. In-place is allowed.
    template <class T>
    void exclusive_scan(const char* name, const T* in, T* out, uint32_t n) {
        auto start = clock_now();
        std::exclusive_scan(in, in + n, out, T{});
        record(name, start);
    }

    // Stable sort of (key, value) pairs by the low `key_bits` bits of key.
    void sort_pairs(const char* name, const uint32_t* keys_in, uint32_t* keys_out, const uint32_t* values_in,
                    uint32_t* values_out, uint32_t n, int key_bits = 32) {
        auto start = clock_now();
        const uint32_t mask = key_bits >= 32 ? 0xffffffffu : ((1u << key_bits) - 1u);
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return (keys_in[a] & mask) < (keys_in[b] & mask); });
        std::vector<uint32_t> k(n), v(n);
        for (uint32_t i = 0; i < n; ++i) { k[i] = keys_in[order[i]]; v[i] = values_in[order[i]]; }
        std::copy(k.begin(), k.end(), keys_out);
        std::copy(v.begin(), v.end(), values_out);
        record(name, start);
    }

    // Writes the indices i in [0, n) with flags[i] != 0, in increasing order, to
    // out and their number to *num_selected (backend memory).
    void select_flagged_indices(const char* name, const uint8_t* flags, uint32_t* out, uint32_t* num_selected,
                                uint32_t n) {
        auto start = clock_now();
        uint32_t count = 0;
        for (uint32_t i = 0; i < n; ++i)
            if (flags[i]) out[count++] = i;
        *num_selected = count;
        record(name, start);
    }

    // *out = sum of in[0..n) (backend memory).
    void reduce_sum(const char* name, const float* in, float* out, uint32_t n) {
        auto start = clock_now();
        *out = std::reduce(in, in + n, 0.0f);
        record(name, start);
    }

    // Host-readable copies of device counters (see CudaBackend): on the CPU every
    // counter already is host memory, so the copy is immediate and marks are free.
    class CounterMirror {
    public:
        void resize(size_t n) { values_.assign(n, 0u); }
        uint32_t* data() { return values_.data(); }
    private:
        std::vector<uint32_t> values_;
    };
    void copy_counter_to_host(uint32_t* host_dst, const uint32_t* src) { *host_dst = *src; }
    uint32_t mark() { return 0; }
    void wait_mark(uint32_t) {}

    void synchronize() {}
    void set_profiling(bool on) { profiling_ = on; }
    const StageTable& stages() const { return stages_; }
    void flush_profile() {}

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point clock_now() const { return profiling_ ? Clock::now() : Clock::time_point{}; }
    void record(const char* name, Clock::time_point start) {
        double ms = profiling_ ? std::chrono::duration<double, std::milli>(Clock::now() - start).count() : 0.0;
        stages_.add(name, ms);
    }

    ThreadPool& pool_;
    bool profiling_ = false;
    StageTable stages_;
};

}  // namespace wf
