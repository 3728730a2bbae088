// Per-stage statistics: every parallel_for / collective call is named, and the
// name becomes one row here (launch count and total time) and an NVTX range on CUDA.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
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

// Bytes a backend's buffers hold, for the report ("memory use"): one counter
// per backend, raised and lowered by its Buffer type.
struct MemoryCounter {
    std::atomic<uint64_t> current{0}, peak{0};
    void allocated(uint64_t bytes) {
        uint64_t now = current.fetch_add(bytes) + bytes;
        uint64_t p = peak.load();
        while (now > p && !peak.compare_exchange_weak(p, now)) {
        }
    }
    void freed(uint64_t bytes) { current.fetch_sub(bytes); }
    void reset_peak() { peak.store(current.load()); }
};

}  // namespace wf
