// The collapse of the GPU builder's binary tree into the 8-wide traversal
// layout, on the device: a work queue walked by one kernel (the pattern of
// GPU wide-BVH converters). Task i makes traversal node i; a task that makes a
// node with k interior children reserves k consecutive task slots with an
// atomic counter, writes them, and marks each ready. Each thread takes task
// indices from a second counter, in increasing order, and waits until its
// task is ready or the whole tree is done. A task's producer always holds a
// smaller index and is already running, so the wait always ends.
// The three counters are single addresses every task touches: their atomics are
// aggregated over the threads of a warp that reach them together (engine/hd.h:
// atomic_push_index, atomic_push_range, atomic_add_aggregated), and waiting
// threads poll their own task's flag, looking at the counters only every
// kPollsPerCounterCheck polls, so that the counters' L2 slice serves the atomics
// rather than the polls.
#include "accel/traversal_bvh_build.h"

#include <algorithm>

#include "engine/backend/cuda_backend.cuh"

namespace wf {

namespace {

enum Counter : uint32_t { kNextTask = 0, kAllocated = 1, kFinished = 2 };

constexpr uint32_t kPollsPerCounterCheck = 16;

__device__ uint32_t load_volatile(const uint32_t* p) { return *static_cast<const volatile uint32_t*>(p); }

}  // namespace

void collapse_on_device(CudaBackend& be, const BvhNode* nodes, uint32_t num_nodes, TraversalNode* out,
                        CollapseTask* tasks, uint32_t* counters, uint32_t generation) {
    const uint32_t capacity = traversal_node_capacity(num_nodes);
    be.parallel_for("bvh_collapse_setup", 1, [=] __device__(uint32_t) {
        counters[kNextTask] = 0;
        if (flat_root_is_leaf(nodes)) {
            out[0] = make_leaf_root(nodes);
            counters[kAllocated] = counters[kFinished] = 1;  // done: every worker leaves at once
        } else {
            counters[kAllocated] = 1;
            counters[kFinished] = 0;
            tasks[0] = CollapseTask{0, 0, 0, generation};
        }
    });
    // Enough workers to fill the GPU; each loops over tasks.
    const uint32_t workers =
        std::min<uint32_t>(capacity, uint32_t(be.properties().multiProcessorCount) * 256u);
    be.parallel_for("bvh_collapse", workers, [=] __device__(uint32_t) {
        for (;;) {
            const uint32_t i = atomic_push_index(&counters[kNextTask]);
            if (i >= capacity) return;
            volatile CollapseTask* slot = tasks + i;
            // Task i is coming while it is allocated and unfinished; none comes
            // once every allocated task has finished (finished is read before
            // allocated: equal values mean nothing was in flight at the first
            // read, so task i, which this thread alone would make, was never
            // allocated). A root that is a leaf starts finished.
            for (uint32_t polls = 1;; ++polls) {
                if (slot->ready == generation) break;
                if (polls % kPollsPerCounterCheck == 0) {
                    const uint32_t finished = load_volatile(&counters[kFinished]);
                    __threadfence();
                    const uint32_t allocated = load_volatile(&counters[kAllocated]);
                    if (finished == allocated) return;
                }
                __nanosleep(100);
            }
            __threadfence();
            const CollapseTask t{slot->flat, slot->depth, slot->pushes, 0u};
            const CollapsedChildren c = collect_children(nodes, t.flat, t.depth, t.pushes);
            const uint32_t k = count_interior(nodes, c);
            const uint32_t reserved = atomic_push_range(&counters[kAllocated], k);  // every thread calls it
            const uint32_t first = k > 0 ? reserved : 0u;
            CollapseTask kids[kTraversalWidth];
            out[i] = make_collapsed_node(nodes, t, c, first, kids);
            for (uint32_t j = 0; j < k; ++j) {
                volatile CollapseTask* kid = tasks + first + j;
                kid->flat = kids[j].flat;
                kid->depth = kids[j].depth;
                kid->pushes = kids[j].pushes;
            }
            __threadfence();
            for (uint32_t j = 0; j < k; ++j) static_cast<volatile CollapseTask*>(tasks + first + j)->ready = generation;
            __threadfence();
            atomic_add_aggregated(&counters[kFinished], 1u);
        }
    });
}

}  // namespace wf
