// The GPU builder's binned-SAH method (GpuBvhMethod::kSah, bvh_sah_gpu.cu): the
// records its passes keep in device memory. Included by bvh_build_gpu_buffers.cuh.
#pragma once

#include <cstdint>

namespace wf::sah {

inline constexpr uint32_t kBins = 16;        // per axis, as the CPU builder's quality with fewer passes
inline constexpr uint32_t kSmall = 128;      // tasks of at most this many primitives: one warp each
inline constexpr uint32_t kChunk = 1024;    // positions per block in the large tasks' passes
inline constexpr uint32_t kChunkBlock = 256; // threads of those blocks, a position each per round
static_assert(kChunk % kChunkBlock == 0, "whole rounds");

// One bin of one axis: the boxes of the primitives whose centroids fall in it
// (floats as ordered bits, for integer atomicMin/Max) and their count.
struct Bin {
    uint32_t lo[3], hi[3];
    uint32_t count;
};

// A task of the large pass: the primitives at positions [begin, end) of the
// level's order, more than kSmall of them, under the parent link `link`.
struct Task {
    uint32_t begin, end, link;
    uint32_t clo[3], chi[3];  // the centroids' bounds, ordered bits (merged by the parent's scatter)
    uint32_t split;           // where the right child starts
    uint32_t axis;            // the axis binned, or kByPosition
    uint32_t bin;             // the left child's last bin
    uint32_t child[2];        // the children's tasks on the next level, or kNoTask (small children)
    uint32_t chunk_first;     // the task's first chunk on its level
};
inline constexpr uint32_t kByPosition = 3;  // no bin separates the centroids: split in the middle
inline constexpr uint32_t kNoTask = 0xffffffffu;

// A task of at most kSmall primitives, split down to single primitives by one
// warp; its positions lie in the order of level parity `parity`.
struct SmallTask {
    uint32_t begin, end, link, parity;
};

}  // namespace wf::sah
