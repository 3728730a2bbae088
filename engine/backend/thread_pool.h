// A fixed pool of worker threads for the CPU backend. parallel_for splits
// [0, n) into chunks that workers (and the calling thread) take from an atomic
// counter; it returns when every chunk is done.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace wf {

class ThreadPool {
public:
    explicit ThreadPool(unsigned num_threads = 0);  // 0: all hardware threads
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return unsigned(workers_.size()) + 1; }

    // Calls body(begin, end) over chunks covering [0, n).
    void run_chunks(uint64_t n, uint64_t chunk, const std::function<void(uint64_t, uint64_t)>& body);

    static ThreadPool& global();

private:
    void worker_loop();
    void drain_current_job();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    bool stop_ = false;
    uint64_t job_id_ = 0;
    // The job in flight (one at a time: parallel_for calls are serialised by the caller).
    const std::function<void(uint64_t, uint64_t)>* body_ = nullptr;
    uint64_t n_ = 0, chunk_ = 1;
    std::atomic<uint64_t> next_{0};
    std::atomic<unsigned> busy_{0};
};

}  // namespace wf
