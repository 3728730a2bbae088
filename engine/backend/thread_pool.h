// A fixed pool of worker threads for the CPU backend. run_chunks splits
// [0, n) into chunks that the workers and the calling thread take from an
// atomic counter; it returns when every worker has finished with the job, so
// no worker can still touch a job (or its body) after the call.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
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

    // Calls body(begin, end) over chunks covering [0, n). Calls from several
    // threads are serialised; a call from inside one of this pool's jobs (a body
    // that calls back into its pool, say by writing a PNG) runs on the calling
    // thread alone. An exception thrown by body is rethrown here (the first one;
    // the remaining chunks are skipped).
    void run_chunks(uint64_t n, uint64_t chunk, const std::function<void(uint64_t, uint64_t)>& body);

    // The process's pool, made at its first use with set_global_threads' count
    // (0, the default: every hardware thread; --threads sets it before any use).
    static ThreadPool& global();
    static void set_global_threads(unsigned num_threads);

private:
    struct Job {
        const std::function<void(uint64_t, uint64_t)>* body;
        uint64_t n, chunk;
        std::atomic<uint64_t> next{0};
        std::atomic<bool> failed{false};
        std::exception_ptr error;  // written once, by the thread that sets `failed`
    };

    void worker_loop();
    static void drain(Job& job);

    std::vector<std::thread> workers_;
    std::mutex run_mutex_;  // one job at a time
    std::mutex mutex_;      // guards the fields below
    std::condition_variable wake_, done_;
    bool stop_ = false;
    uint64_t job_id_ = 0;
    Job* job_ = nullptr;
    unsigned workers_pending_ = 0;  // workers that have not yet finished the current job
};

}  // namespace wf
