#include "engine/backend/thread_pool.h"

#include <algorithm>

namespace wf {

ThreadPool::ThreadPool(unsigned num_threads) {
    if (num_threads == 0) num_threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < num_threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

ThreadPool& ThreadPool::global() {
    static ThreadPool pool;
    return pool;
}

void ThreadPool::drain_current_job() {
    for (;;) {
        uint64_t begin = next_.fetch_add(chunk_);
        if (begin >= n_) break;
        (*body_)(begin, std::min(n_, begin + chunk_));
    }
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || job_id_ != seen; });
            if (stop_) return;
            seen = job_id_;
            busy_.fetch_add(1);
        }
        drain_current_job();
        if (busy_.fetch_sub(1) == 1) {
            std::lock_guard<std::mutex> lock(mutex_);
            done_.notify_all();
        }
    }
}

void ThreadPool::run_chunks(uint64_t n, uint64_t chunk, const std::function<void(uint64_t, uint64_t)>& body) {
    if (n == 0) return;
    chunk = std::max<uint64_t>(1, chunk);
    if (workers_.empty() || n <= chunk) {
        for (uint64_t b = 0; b < n; b += chunk) body(b, std::min(n, b + chunk));
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        body_ = &body;
        n_ = n;
        chunk_ = chunk;
        next_.store(0);
        ++job_id_;
    }
    wake_.notify_all();
    drain_current_job();
    // Wait until no worker still runs a chunk of this job. A worker that wakes
    // late finds next_ >= n_ and leaves at once.
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_.load() == 0; });
    body_ = nullptr;
}

}  // namespace wf
