#include <chrono>

#include "engine/backend/cpu_backend.h"
#include "accel/hash_grid_host.inl"

namespace wf {
namespace {

// The CPU backend runs synchronously: the host clock around a build is its time.
class HostClockTimer {
public:
    explicit HostClockTimer(CpuBackend&) {}
    void begin() { start_ = Clock::now(); }
    void end() { ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start_).count()); }
    std::vector<double> finish() { return ms_; }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_;
    std::vector<double> ms_;
};

}  // namespace

HashGridHost cpu_hash_grid_host() { return hash_grid_host_detail::make<CpuBackend, HostClockTimer>("cpu"); }

}  // namespace wf
