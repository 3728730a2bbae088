// The GPU BVH builder's device memory and what its translation units share
// (bvh_build_gpu.cu: the build and the flat layout; bvh_sah_gpu.cu: the binned-SAH
// method, with bvh_sah_bins.cuh and bvh_sah_small.cuh; bvh_wide_gpu.cu: the wide
// traversal layout). Included by those only.
#pragma once

#include <cstdint>

#include "accel/bvh_build_gpu.h"
#include "accel/bvh_ploc.cuh"
#include "accel/bvh_sah_gpu.cuh"
#include "accel/bvh_top_sah.cuh"
#include "engine/backend/cuda_backend.cuh"

namespace wf {
namespace gpu_bvh {

using namespace hploc;

// info[]: the root's build node, the counter of build nodes created, and the
// clusters H-PLOC starts from (bvh_pairs.cuh).
inline constexpr uint32_t kInfoRoot = 0, kInfoCounter = 1, kInfoClusters = 2, kInfoSize = 3;

// Floats as unsigned integers in the same order, for integer atomicMin/Max.
__device__ __forceinline__ uint32_t ordered_bits(float f) {
    uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float from_ordered_bits(uint32_t u) {
    return __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}

// Calls f(k, primitive id) for the primitives of a leaf's build subtree (at
// most kBvhMaxLeafSize, so a short stack), k counting from `first`.
template <class F>
__device__ __forceinline__ void for_each_leaf_prim(const BuildNode* nodes, uint32_t n, uint32_t x, uint32_t first,
                                                   F&& f) {
    uint32_t stack[kBvhMaxLeafSize];
    uint32_t sp = 0, k = first, y = x;
    for (;;) {
        if (y < n) {
            f(k++, nodes[y].left);
            if (sp == 0) return;
            y = stack[--sp];
        } else {
            stack[sp++] = nodes[y].right;
            y = nodes[y].left;
        }
    }
}

}  // namespace gpu_bvh

struct GpuBvhBuilder::Buffers {
    template <class T>
    using Buf = CudaBuffer<T>;
    uint32_t n = 0;
    Buf<hploc::BuildNode> nodes;  // 2n - 1
    Buf<hploc::BuildMeta> meta;   // 2n - 1
    Buf<uint32_t> parent;       // 2n - 1
    Buf<uint32_t> codes, codes_sorted, ids, ids_sorted;  // n
    Buf<uint32_t> clusters;     // n
    Buf<uint32_t> merge_slot;   // n - 1: who reached an LBVH node first
    Buf<WideTable> tables;      // n - 1: the interior nodes' tables
    // n - 1: the node is an interior node of the flat tree (or makes a wide node);
    // its rank among those
    Buf<uint32_t> interior, interior_rank;
    Buf<uint32_t> leaf_prims, leaf_first;   // 2n - 1: a kept leaf's primitive count; its first slot
    Buf<unsigned long long> links;  // n - 1: an ancestor and the map of budgets from it (bvh_wide_gpu.cu)
    Buf<uint32_t> node_count;   // the wide nodes the last write_traversal wrote
    Buf<uint32_t> wide_list;    // the build nodes that make them, in their order
    Buf<uint32_t> refs;         // 2n - 1: a kept node's reference in the wide layout
    Buf<uint32_t> scene_box;    // 6 ordered bits: the centroids' bounds
    Buf<uint32_t> info;         // kInfoSize values (kInfoRoot, ...)
    Buf<BvhNode> out_nodes;     // 2n - 1 (an empty scene: 1)
    Buf<BvhNode> warp_boxes;    // one centroid box per warp of primitives
    Buf<uint32_t> out_prims;    // n
    // The binned-SAH method's (bvh_sah_gpu.cu), allocated on its first build: the
    // second order (the first is ids_sorted) and both levels' boxes by position;
    // each level's large tasks, their bins and chunks; the small tasks; counters.
    Buf<uint32_t> sah_order;
    Buf<BvhNode> sah_boxes[2];
    Buf<sah::Task> sah_tasks[2];
    Buf<sah::Bin> sah_bins[2];    // by level parity: 3 x kBins per task
    Buf<uint32_t> sah_hist;       // 3 x kBins counts per chunk
    Buf<uint32_t> sah_left_before;  // per chunk: its task's positions going left in chunks before it
    Buf<uint32_t> sah_chunk_task;   // per chunk: its task
    Buf<sah::SmallTask> sah_small;
    Buf<uint32_t> sah_counts;     // kSahNext, kSahSmallCount, kSahChunks
    // The primitives of the last build.
    const Triangle* triangles = nullptr;
    const Sphere* spheres = nullptr;
    uint32_t num_triangles = 0;

    template <class T>
    static void ensure(Buf<T>& b, size_t size) {
        if (b.size() != size) b.resize(size);
    }
    void reserve(uint32_t count) {
        n = count;
        const size_t all = count ? 2 * size_t(count) - 1 : 0, inner = count ? count - 1 : 0;
        ensure(nodes, all);
        ensure(meta, all);
        ensure(parent, all);
        for (Buf<uint32_t>* b : {&codes, &codes_sorted, &ids, &ids_sorted, &clusters}) ensure(*b, count);
        ensure(merge_slot, inner);
        ensure(tables, inner);
        for (Buf<uint32_t>* b : {&interior, &interior_rank}) ensure(*b, inner);
        ensure(leaf_prims, all);
        ensure(leaf_first, all);
        ensure(scene_box, 6);
        ensure(info, gpu_bvh::kInfoSize);
        ensure(out_nodes, std::max<size_t>(all, 1));
        ensure(out_prims, count);
        ensure(warp_boxes, (size_t(count) + 31) / 32);
    }
    // A level holds at most count / (kSmall + 1) large tasks, and as many chunks as
    // count / kChunk plus one partial chunk per task.
    uint32_t sah_max_tasks() const { return n / (sah::kSmall + 1) + 1; }
    uint32_t sah_max_chunks() const { return n / sah::kChunk + sah_max_tasks() + 1; }
    void reserve_sah() {
        ensure(sah_order, n);
        for (Buf<BvhNode>& b : sah_boxes) ensure(b, n);
        for (Buf<sah::Task>& t : sah_tasks) ensure(t, sah_max_tasks());
        for (Buf<sah::Bin>& b : sah_bins) ensure(b, size_t(3) * sah::kBins * sah_max_tasks());
        ensure(sah_hist, size_t(3) * sah::kBins * sah_max_chunks());
        ensure(sah_left_before, sah_max_chunks());
        ensure(sah_chunk_task, sah_max_chunks());
        ensure(sah_small, n);
        ensure(sah_counts, 3);
    }
};

}  // namespace wf
