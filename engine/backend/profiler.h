// Per-stage statistics: every parallel_for / collective call is named, and the
// name becomes one row here (launch count and total time) and an NVTX range on CUDA.
// Also the memory accounting of the backends' buffers, with the --max-memory limit.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wf {

struct StageStat {
    std::string name;
    uint64_t launches = 0;
    double milliseconds = 0.0;  // 0 when timing was off
};

class StageTable {
public:
    void add(const std::string& name, double ms) {
        auto it = index_.find(name);
        if (it == index_.end()) {
            it = index_.emplace(name, rows_.size()).first;
            rows_.push_back({name, 0, 0.0});
        }
        rows_[it->second].launches += 1;
        rows_[it->second].milliseconds += ms;
    }
    const std::vector<StageStat>& rows() const { return rows_; }  // in first-launch order
    void clear() { rows_.clear(); index_.clear(); }

private:
    std::vector<StageStat> rows_;
    std::map<std::string, size_t> index_;
};

// Thrown when an allocation would exceed the memory the engine may use (a limit set
// with --max-memory) or the device has no memory left. The message names what was
// being allocated and how much, and how much was in use.
struct OutOfMemoryError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// "512 bytes", "12.0 MiB", "1.50 GiB": sizes in messages.
inline std::string format_bytes(uint64_t bytes) {
    char text[32];
    if (bytes < 1024) std::snprintf(text, sizeof text, "%llu bytes", (unsigned long long)bytes);
    else if (bytes < (1ull << 30)) std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1ull << 20));
    else std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(1ull << 30));
    return text;
}

// The name of T as the compiler spells it ("wf::Vec3f"), for allocation messages.
template <class T>
std::string type_name() {
    std::string_view f = __PRETTY_FUNCTION__;  // "... [with T = wf::Vec3f; ...]" (g++, nvcc's host pass)
    size_t at = f.find("T = ");
    if (at == std::string_view::npos) return std::to_string(sizeof(T)) + "-byte elements";
    f.remove_prefix(at + 4);
    return std::string(f.substr(0, f.find_first_of(";]")));
}

// What a failed allocation was for: "1048576 x float" and, when set, the phase of the
// render (MemoryCounter::Phase), e.g. "film".
struct AllocationRequest {
    uint64_t bytes = 0;
    uint64_t count = 0;   // elements; 0 when `element` describes the whole allocation
    std::string element;  // type name, or a description (e.g. "temporary storage of stage 'compact'")
};

// Bytes a backend's buffers hold, for the report ("memory use"): one counter
// per backend, raised and lowered by its Buffer type. It also holds the limit on
// those bytes (0: none) that --max-memory sets, so the CPU and CUDA backends fail
// the same way, with the same message, when a render needs more.
struct MemoryCounter {
    std::atomic<uint64_t> current{0}, peak{0};
    std::atomic<uint64_t> limit{0};
    const char* phase = nullptr;  // what the render is allocating now (see Phase), for messages

    void allocated(uint64_t bytes) {
        uint64_t now = current.fetch_add(bytes) + bytes;
        uint64_t p = peak.load();
        while (now > p && !peak.compare_exchange_weak(p, now)) {
        }
    }
    void freed(uint64_t bytes) { current.fetch_sub(bytes); }
    void reset_peak() { peak.store(current.load()); }

    // Bytes that may still be allocated under the limit (all of them without one).
    uint64_t left_under_limit() const {
        uint64_t cap = limit.load(), used = current.load();
        return cap == 0 ? ~uint64_t(0) : (used < cap ? cap - used : 0);
    }

    // Throws OutOfMemoryError, before anything is allocated or counted, when replacing a
    // buffer of `released` bytes by `request` would go over the limit.
    void check_limit(const AllocationRequest& request, uint64_t released, const char* backend) const {
        uint64_t cap = limit.load(), used = current.load();
        uint64_t after = (used > released ? used - released : 0) + request.bytes;
        if (cap == 0 || after <= cap) return;
        throw OutOfMemoryError(describe_failure(request, backend) + " would exceed the memory limit of " +
                               format_bytes(cap) + " (--max-memory), with " + format_bytes(used) +
                               " already in use");
    }

    // "out of memory on the cpu backend: allocating 96.0 MiB (4194304 x wf::Vec3f, film)"
    std::string describe_failure(const AllocationRequest& request, const char* backend) const {
        std::string what = request.count ? std::to_string(request.count) + " x " + request.element : request.element;
        if (phase) what += std::string(", ") + phase;
        return std::string("out of memory on the ") + backend + " backend: allocating " +
               format_bytes(request.bytes) + " (" + what + ")";
    }

    // Names what the render allocates while it lives ("film", "scene upload"), so an
    // out-of-memory message can say so; phases nest.
    class Phase {
    public:
        Phase(MemoryCounter& counter, const char* name) : counter_(counter), outer_(counter.phase) {
            counter.phase = name;
        }
        ~Phase() { counter_.phase = outer_; }
        Phase(const Phase&) = delete;
        Phase& operator=(const Phase&) = delete;

    private:
        MemoryCounter& counter_;
        const char* outer_;
    };

    // Sets the limit for its lifetime (one render); 0 leaves it unlimited.
    class Limit {
    public:
        Limit(MemoryCounter& counter, uint64_t bytes) : counter_(counter), outer_(counter.limit.load()) {
            counter.limit.store(bytes);
        }
        ~Limit() { counter_.limit.store(outer_); }
        Limit(const Limit&) = delete;
        Limit& operator=(const Limit&) = delete;

    private:
        MemoryCounter& counter_;
        uint64_t outer_;
    };
};

}  // namespace wf
