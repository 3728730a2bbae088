// Loops over large host arrays on the process's thread pool (ThreadPool::global()):
// a scene load's passes over millions of vertices and triangles (checks, placing,
// bounds). No result depends on the number of threads: a search returns the first
// index that matches, a reduction combines its chunks' results in index order, and
// work is split by index, never by thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engine/backend/thread_pool.h"

namespace wf {

// Indices per chunk: large enough that a chunk's work dwarfs taking it (an atomic),
// small enough that a 1M-element loop spreads over 16 threads.
inline constexpr uint64_t kHostGrain = uint64_t(1) << 15;

// body(begin, end) over chunks of `grain` indices covering [0, n); on the calling
// thread alone for n <= grain.
template <class Body>
void host_parallel_chunks(uint64_t n, Body&& body, uint64_t grain = kHostGrain) {
    if (n == 0) return;
    if (n <= grain) {
        body(uint64_t(0), n);
        return;
    }
    ThreadPool::global().run_chunks(n, grain, [&](uint64_t begin, uint64_t end) { body(begin, end); });
}

// The smallest i in [0, n) with pred(i), or n if there is none. A chunk that starts
// past a match already found is skipped.
template <class Pred>
uint64_t host_find_first(uint64_t n, Pred&& pred) {
    std::atomic<uint64_t> first{n};
    host_parallel_chunks(n, [&](uint64_t begin, uint64_t end) {
        if (begin >= first.load(std::memory_order_relaxed)) return;
        for (uint64_t i = begin; i < end; ++i)
            if (pred(i)) {
                uint64_t seen = first.load(std::memory_order_relaxed);
                while (i < seen && !first.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {}
                return;
            }
    });
    return first.load();
}

// Folds [0, n) as a serial loop would, in chunks: chunk(begin, end, init) folds one
// chunk from `init`, and combine(acc, part) folds the chunks' results in index order.
// For a combine that agrees with the serial loop (a box's extend, keeping the later of
// two tied values), the result is the serial loop's, bit for bit.
template <class T, class Chunk, class Combine>
T host_reduce(uint64_t n, const T& init, Chunk&& chunk, Combine&& combine) {
    const uint64_t chunks = (n + kHostGrain - 1) / kHostGrain;
    std::vector<T> parts(chunks, init);
    host_parallel_chunks(n, [&](uint64_t begin, uint64_t end) { parts[begin / kHostGrain] = chunk(begin, end, init); });
    T acc = init;
    for (const T& part : parts) acc = combine(acc, part);
    return acc;
}

// reserve_touched's page (the smallest a system maps) and its pages per chunk (2 MiB).
inline constexpr uint64_t kTouchPage = 4096, kTouchGrain = 512;

// Whether the standard library marks a vector's capacity beyond size() as off limits
// to AddressSanitizer (libc++ under ASan; libstdc++ with _GLIBCXX_SANITIZE_VECTOR).
// reserve_touched then only reserves.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && defined(_LIBCPP_VERSION)
#define WF_VECTOR_CAPACITY_POISONED 1
#endif
#endif
#if defined(_GLIBCXX_SANITIZE_VECTOR) && defined(__SANITIZE_ADDRESS__)
#define WF_VECTOR_CAPACITY_POISONED 1
#endif

// Makes room for `room` (at least n) elements and has the pool's threads take the
// first page faults of the elements from size() to n, which the caller is about to
// fill. A fresh allocation of hundreds of MB is mapped page by page as it is first
// written, and the kernel's faults are most of what a single-threaded resize or fill
// costs: 10M triangles (360 MB) took 116 ms to resize on one thread, and 52 ms to touch
// on two then 29 to resize (bench/NOTES.md). The room beyond n (a builder's growth) is
// not touched, so it costs address space only, as with reserve. Only bytes beyond
// size() are written, before any element lives there. With a pool of one thread (or a
// library that poisons the capacity) it only reserves.
template <class T>
void reserve_touched(std::vector<T>& v, size_t n, size_t room = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "raw bytes are written where elements will live");
    if (n <= v.capacity()) return;
    const size_t old_size = v.size();
    v.reserve(room > n ? room : n);
#if defined(WF_VECTOR_CAPACITY_POISONED)
    return;
#else
    if (ThreadPool::global().size() == 1) return;  // the fill's own faults cost less than a second sweep
    unsigned char* start = reinterpret_cast<unsigned char*>(v.data() + old_size);
    const uint64_t bytes = uint64_t(n - old_size) * sizeof(T);
    host_parallel_chunks(
        (bytes + kTouchPage - 1) / kTouchPage,
        [&](uint64_t begin, uint64_t end) {
            for (uint64_t page = begin; page < end; ++page) start[page * kTouchPage] = 0;
        },
        kTouchGrain);
#endif
}

}  // namespace wf
