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

namespace {

std::atomic<unsigned> g_global_threads{0};

// The pool whose job this thread is running (its worker, or the caller of run_chunks
// while it drains), so that a nested call into that pool runs serially instead of
// waiting for the run mutex its own job holds.
thread_local const ThreadPool* t_job_pool = nullptr;

struct InJob {
    const ThreadPool* outer;
    explicit InJob(const ThreadPool* pool) : outer(t_job_pool) { t_job_pool = pool; }
    ~InJob() { t_job_pool = outer; }
};

}  // namespace

void ThreadPool::set_global_threads(unsigned num_threads) { g_global_threads = num_threads; }

ThreadPool& ThreadPool::global() {
    static ThreadPool pool(g_global_threads.load());
    return pool;
}

void ThreadPool::drain(Job& job) {
    while (!job.failed.load(std::memory_order_relaxed)) {
        uint64_t begin = job.next.fetch_add(job.chunk);
        if (begin >= job.n) break;
        try {
            (*job.body)(begin, std::min(job.n, begin + job.chunk));
        } catch (...) {
            if (!job.failed.exchange(true)) job.error = std::current_exception();
        }
    }
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        Job* job = nullptr;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || job_id_ != seen; });
            if (stop_) return;
            seen = job_id_;
            job = job_;
        }
        {
            InJob in_job(this);
            drain(*job);
        }
        std::lock_guard<std::mutex> lock(mutex_);
        if (--workers_pending_ == 0) done_.notify_all();
    }
}

void ThreadPool::run_chunks(uint64_t n, uint64_t chunk, const std::function<void(uint64_t, uint64_t)>& body) {
    if (n == 0) return;
    chunk = std::max<uint64_t>(1, chunk);
    Job job;
    job.body = &body;
    job.n = n;
    job.chunk = chunk;
    if (t_job_pool == this) {  // nested: this pool's threads are busy with the outer job
        drain(job);
        if (job.failed) std::rethrow_exception(job.error);
        return;
    }
    std::lock_guard<std::mutex> serial(run_mutex_);
    InJob in_job(this);
    if (workers_.empty() || n <= chunk) {
        drain(job);
    } else {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            workers_pending_ = unsigned(workers_.size());
            ++job_id_;
        }
        wake_.notify_all();
        drain(job);
        // Every worker takes part in every job (it may find nothing left to do), so once
        // the count reaches zero none of them can still read `job` or `body`.
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return workers_pending_ == 0; });
        job_ = nullptr;
    }
    if (job.failed) std::rethrow_exception(job.error);
}

}  // namespace wf
