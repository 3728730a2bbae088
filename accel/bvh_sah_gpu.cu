// The GPU builder's binned-SAH method (GpuBvhMethod::kSah): the binary tree split
// top down by binned SAH over every primitive, as the CPU builder splits it
// (bvh_build.cpp), where H-PLOC clusters bottom up within Morton order. It is
// slower to build and traces faster: on a 1M-triangle terrain the CPU builder's
// tree, 8% below H-PLOC's SAH, traced diffuse rays 8-9% faster (bench/NOTES.md).
//
// Positions: the primitives in Morton order at first (the sort of build()), then
// each task's range partitioned stably, so the tree's leaves keep Morton order
// within their bins. A task of m primitives at [b, e) that splits at s (its right
// child starts at s) is build node n + s - 1: each of the n - 1 boundaries between
// neighbouring positions is the split of exactly one interior node, so ids need
// no counter and a build is deterministic. Primitive leaf p is build node p, as in
// H-PLOC's tree, and ids_sorted[p] its primitive.
//
// Large tasks (more than kSmall primitives), a level at a time, in blocks of
// kChunk positions: bins (each block's in shared memory, merged into the task's
// with atomics; its counts per bin kept for the partition); a split by SAH over
// the bins (one warp per task, which also gives each of the task's chunks its
// offset among the positions going left); and a stable scatter into the other
// level's order that also merges each child's centroid bounds. The host reads
// the next level's task count back after each level. Small tasks: one warp each,
// in shared memory, down to single primitives: ranges of up to 32 primitives by a
// full SAH sweep over their sorted centroids, larger ones by bins. Then every node's box, meta and wide table
// bottom up (merged_cluster and write_merge, as H-PLOC writes its merges, so the
// leaves are decided by the same SAH), by one climbing thread per primitive where
// the second child to finish goes on.
//
// On an H200, 1M triangles take 3.2-3.9 ms and 10M 26 ms (bench_bvh --method
// gpu-sah), against 0.82-0.87 and 5.4 ms for H-PLOC and 0.6-1 s for the CPU
// builder; the SAH is the CPU builder's to 0.4% (bench/NOTES.md).
#include "accel/bvh_sah_small.cuh"  // and through it bvh_sah_bins.cuh

namespace wf {
namespace {

using namespace gpu_bvh;
using namespace sah;

constexpr uint32_t kSahNext = 0, kSahSmallCount = 1, kSahChunks = 2;  // sah_counts[]
constexpr uint32_t kSmallWarps = 4;  // small tasks: warps per block

// ---- bottom up ---------------------------------------------------------------

__device__ __forceinline__ WideTable built_table(const PlocArgs& a, const Cluster& c) {
    WideTable t{};
    if (c.height == 0) return t;
    const uint4* from = reinterpret_cast<const uint4*>(&a.tables[c.id - a.n]);
#pragma unroll
    for (uint32_t q = 0; q < sizeof(WideTable) / 16; ++q) reinterpret_cast<uint4*>(&t)[q] = __ldcg(from + q);
    return t;
}

}  // namespace

void GpuBvhBuilder::split_by_sah(CudaBackend& be) {
    Buffers& b = *buf_;
    const uint32_t n = b.n;  // at least 2 (build() makes a single primitive's tree itself)
    b.reserve_sah();
    uint32_t* info = b.info.data();
    SahArgs s;
    s.tree = PlocArgs{b.nodes.data(), b.meta.data(), b.parent.data(), b.tables.data(), b.clusters.data(),
                      info + kInfoCounter, info + kInfoRoot, n};
    s.order[0] = b.ids_sorted.data();
    s.order[1] = b.sah_order.data();
    for (int p = 0; p < 2; ++p) {
        s.boxes[p] = b.sah_boxes[p].data();
        s.tasks[p] = b.sah_tasks[p].data();
    }
    s.bins[0] = b.sah_bins[0].data();
    s.bins[1] = b.sah_bins[1].data();
    s.hist = b.sah_hist.data();
    s.left_before = b.sah_left_before.data();
    s.chunk_task = b.sah_chunk_task.data();
    s.small = b.sah_small.data();
    s.counts = b.sah_counts.data();
    const BvhNode* staging = b.out_nodes.data();  // boxes by primitive id (build())
    const uint32_t* scene_box = b.scene_box.data();

    constexpr uint32_t kTaskBins = 3 * kBins;
    be.parallel_for("bvh_sah_gather", n, [=] __device__(uint32_t p) {
        s.boxes[0][p] = staging[s.order[0][p]];
        for (uint32_t j = p; j < kTaskBins; j += n) empty_bin(s.bins[0][j]);  // the root task's
        if (p == 0) {
            s.counts[kSahNext] = 0;
            s.counts[kSahSmallCount] = 0;
            info[kInfoClusters] = n;
            if (n <= kSmall) {
                s.small[0] = SmallTask{0, n, kInvalid, 0};
                s.counts[kSahSmallCount] = 1;
            } else {
                Task t{};
                t.begin = 0;
                t.end = n;
                t.link = kInvalid;
                for (int a = 0; a < 3; ++a) {
                    t.clo[a] = scene_box[a];
                    t.chi[a] = scene_box[3 + a];
                }
                s.tasks[0][0] = t;
                s.counts[kSahNext] = 1;
            }
        }
    });

    uint32_t num_tasks = n > kSmall ? 1u : 0u;
    for (uint32_t level = 0; num_tasks > 0; ++level) {
        const uint32_t par = level & 1u;
        Task* tasks = s.tasks[par];
        Task* next = s.tasks[1 - par];
        const uint32_t tasks_here = num_tasks;
        // Chunks: each task's first, in task order, and each chunk's task.
        be.parallel_for_sized<1024, 1>("bvh_sah_plan", 1024, [=] __device__(uint32_t t) {
            __shared__ uint32_t warp_sums[32];
            __shared__ uint32_t carry;
            if (t == 0) carry = 0;
            for (uint32_t base = 0; base < tasks_here; base += 1024) {
                const uint32_t i = base + t;
                const uint32_t chunks = i < tasks_here ? (tasks[i].end - tasks[i].begin + kChunk - 1) / kChunk : 0u;
                uint32_t x = chunks;
                for (uint32_t d = 1; d < 32; d <<= 1) {
                    const uint32_t y = __shfl_up_sync(kFullMask, x, d);
                    if (t % 32 >= d) x += y;
                }
                if (t % 32 == 31) warp_sums[t / 32] = x;
                __syncthreads();
                uint32_t before = carry + x - chunks;
                for (uint32_t w = 0; w < t / 32; ++w) before += warp_sums[w];
                if (i < tasks_here) tasks[i].chunk_first = before;
                for (uint32_t c = 0; c < chunks; ++c) s.chunk_task[before + c] = i;
                __syncthreads();
                if (t == 1023) carry = before + chunks;
                __syncthreads();
            }
            if (t == 0) {
                s.counts[kSahChunks] = carry;
                s.counts[kSahNext] = 0;
            }
        });
        const uint32_t max_chunks = n / kChunk + tasks_here + 1;
        const uint32_t chunk_threads = max_chunks * kChunkBlock;
        // Bins: each chunk's into shared memory, then into its task's.
        be.parallel_for_sized<kChunkBlock, 1>("bvh_sah_bin", chunk_threads, [=] __device__(uint32_t i) {
            __shared__ Bin bins[3 * kBins];
            const uint32_t c = i / kChunkBlock, tid = i % kChunkBlock;
            if (c >= s.counts[kSahChunks]) return;  // the whole block
            const uint32_t ti = s.chunk_task[c];
            const Task& t = tasks[ti];
            const Vec3f lo(from_ordered_bits(t.clo[0]), from_ordered_bits(t.clo[1]), from_ordered_bits(t.clo[2]));
            const Vec3f hi(from_ordered_bits(t.chi[0]), from_ordered_bits(t.chi[1]), from_ordered_bits(t.chi[2]));
            const Vec3f scale(bin_scale(lo.x, hi.x), bin_scale(lo.y, hi.y), bin_scale(lo.z, hi.z));
            if (tid < 3 * kBins) empty_bin(bins[tid]);
            __syncthreads();
            const uint32_t start = t.begin + (c - t.chunk_first) * kChunk;
            for (uint32_t k = 0; k < kChunk / kChunkBlock; ++k) {
                const uint32_t p = start + k * kChunkBlock + tid;
                const BvhNode box = p < t.end ? s.boxes[par][p] : BvhNode{};
                add_to_bins(bins, p < t.end ? pack_bins(centroid(box), lo, scale) : kNoBin, box, tid % 32);
            }
            __syncthreads();
            if (tid < 3 * kBins) {
                s.hist[size_t(c) * 3 * kBins + tid] = bins[tid].count;
                merge_bin(s.bins[par][size_t(ti) * kTaskBins + tid], bins[tid]);
            }
        });
        // Splits, one warp per task: the best split, the children listed as next
        // level's tasks (their bins emptied) or small ones, and each chunk's offset
        // among the task's positions that go left. (Bins merged into one of four
        // copies per task, against the atomics' queue on a task of many chunks, were
        // no faster: bench/NOTES.md.)
        be.parallel_for("bvh_sah_split", tasks_here * 32, [=] __device__(uint32_t i) {
            const uint32_t ti = i / 32, lane = i % 32;
            Task& t = tasks[ti];
            const uint32_t m = t.end - t.begin;
            uint32_t best_left;
            const uint64_t best = best_bin_split(s.bins[par] + size_t(ti) * kTaskBins, m, lane, &best_left);
            const uint32_t axis = best == kNoSplit ? kByPosition : uint32_t(best >> 8) & 3u;
            const uint32_t last = uint32_t(best) & 255u, split = t.begin + best_left;
            uint32_t child[2] = {kNoTask, kNoTask};
            if (lane == 0) {
                t.axis = axis;
                t.bin = last;
                t.split = split;
                const uint32_t id = n + split - 1;
                attach(s.tree, t.link, id);
                for (uint32_t side = 0; side < 2; ++side) {
                    const uint32_t cb = side ? split : t.begin, ce = side ? t.end : split;
                    const uint32_t link = side ? (id | kRightChild) : id;
                    if (ce - cb > kSmall) {
                        const uint32_t k = atomicAdd(&s.counts[kSahNext], 1u);
                        Task c{};
                        c.begin = cb;
                        c.end = ce;
                        c.link = link;
                        for (int a = 0; a < 3; ++a) {
                            c.clo[a] = ~0u;
                            c.chi[a] = 0u;
                        }
                        next[k] = c;
                        child[side] = k;
                    } else {
                        s.small[atomicAdd(&s.counts[kSahSmallCount], 1u)] = SmallTask{cb, ce, link, 1u - par};
                    }
                    t.child[side] = child[side];
                }
            }
            for (uint32_t side = 0; side < 2; ++side) {
                const uint32_t k = __shfl_sync(kFullMask, child[side], 0);
                if (k == kNoTask) continue;
                for (uint32_t j = lane; j < kTaskBins; j += 32) empty_bin(s.bins[1 - par][size_t(k) * kTaskBins + j]);
            }
            // Each chunk's lefts: from its counts per bin, or by position.
            const uint32_t chunks = (m + kChunk - 1) / kChunk;
            uint32_t before = 0;
            for (uint32_t base = 0; base < chunks; base += 32) {
                const uint32_t c = t.chunk_first + base + lane;
                uint32_t left = 0;
                if (base + lane < chunks) {
                    const uint32_t start = t.begin + (base + lane) * kChunk;
                    if (axis == kByPosition)
                        left = split <= start ? 0u : ::min(split - start, kChunk);
                    else
                        for (uint32_t j = 0; j <= last; ++j) left += s.hist[size_t(c) * 3 * kBins + axis * kBins + j];
                }
                uint32_t x = left;
                for (uint32_t d = 1; d < 32; d <<= 1) {
                    const uint32_t y = __shfl_up_sync(kFullMask, x, d);
                    if (lane >= d) x += y;
                }
                if (base + lane < chunks) s.left_before[c] = before + x - left;
                before += __shfl_sync(kFullMask, x, 31);
            }
        });
        // The stable scatter into the next level's order, merging each large
        // child's centroid bounds.
        be.parallel_for_sized<kChunkBlock, 1>("bvh_sah_scatter", chunk_threads, [=] __device__(uint32_t i) {
            __shared__ uint32_t warp_sums[kChunkBlock / 32];
            __shared__ uint32_t bounds[2][6];
            const uint32_t c = i / kChunkBlock, tid = i % kChunkBlock;
            if (c >= s.counts[kSahChunks]) return;  // the whole block
            const Task& t = tasks[s.chunk_task[c]];
            const Vec3f lo(from_ordered_bits(t.clo[0]), from_ordered_bits(t.clo[1]), from_ordered_bits(t.clo[2]));
            const Vec3f hi(from_ordered_bits(t.chi[0]), from_ordered_bits(t.chi[1]), from_ordered_bits(t.chi[2]));
            const uint32_t axis = t.axis;
            const float scale = axis == kByPosition ? 0.0f : bin_scale(lo[axis], hi[axis]);
            const float axis_lo = axis == kByPosition ? 0.0f : lo[axis];
            if (tid < 12) bounds[tid / 6][tid % 6] = tid % 6 < 3 ? ~0u : 0u;
            const uint32_t start = t.begin + (c - t.chunk_first) * kChunk;
            const uint32_t chunk_lefts = s.left_before[c];
            const uint32_t chunk_rights = (c - t.chunk_first) * kChunk - chunk_lefts;
            // Four rounds of kChunkBlock consecutive positions, each ranked by a
            // block-wide count of the lefts before it: loads and stores coalesce.
            uint32_t to_left = t.begin + chunk_lefts, to_right = t.split + chunk_rights;
            const uint32_t lane = tid % 32, warp = tid / 32;
            Vec3f clo[2] = {Vec3f(kInfinity), Vec3f(kInfinity)}, chi[2] = {Vec3f(-kInfinity), Vec3f(-kInfinity)};
            for (uint32_t k = 0; k < kChunk / kChunkBlock; ++k) {
                const uint32_t p = start + k * kChunkBlock + tid;
                const bool valid = p < t.end;
                BvhNode box{};
                uint32_t prim = 0;
                bool left = false;
                if (valid) {
                    box = s.boxes[par][p];
                    prim = s.order[par][p];
                    left = axis == kByPosition ? p < t.split : bin_of(centroid(box)[axis], axis_lo, scale) <= t.bin;
                }
                const uint32_t lefts = __ballot_sync(kFullMask, left);
                if (lane == 0) warp_sums[warp] = __popc(lefts);
                __syncthreads();
                uint32_t before = __popc(lefts & ((1u << lane) - 1u)), total = 0;
                for (uint32_t w = 0; w < kChunkBlock / 32; ++w) {
                    before += w < warp ? warp_sums[w] : 0u;
                    total += warp_sums[w];
                }
                __syncthreads();  // warp_sums is the next round's
                if (valid) {
                    const uint32_t to = left ? to_left + before : to_right + (tid - before);
                    s.boxes[1 - par][to] = box;
                    s.order[1 - par][to] = prim;
                    const Vec3f cen = centroid(box);
                    const uint32_t side = left ? 0u : 1u;
                    clo[side] = min(clo[side], cen);
                    chi[side] = max(chi[side], cen);
                }
                to_left += total;
                to_right += kChunkBlock - total;  // (past the task's end only in its last round)
            }
            for (uint32_t side = 0; side < 2; ++side) {
                warp_union(&clo[side], &chi[side]);
                if (tid % 32 == 0 && t.child[side] != kNoTask)
                    for (int a = 0; a < 3; ++a) {
                        atomicMin(&bounds[side][a], ordered_bits(clo[side][a]));
                        atomicMax(&bounds[side][3 + a], ordered_bits(chi[side][a]));
                    }
            }
            __syncthreads();
            if (tid < 12) {
                const uint32_t side = tid / 6, k = tid % 6;
                if (t.child[side] != kNoTask) {
                    Task& child = next[t.child[side]];
                    if (k < 3) atomicMin(&child.clo[k], bounds[side][k]);
                    else atomicMax(&child.chi[k - 3], bounds[side][k]);
                }
            }
        });
        b.sah_counts.download(&num_tasks, 1);  // kSahNext: the next level's tasks
    }

    uint32_t num_small = 0;
    WF_CUDA_CHECK(cudaMemcpy(&num_small, s.counts + kSahSmallCount, sizeof num_small, cudaMemcpyDeviceToHost));
    // Room for 8 blocks of 4 warps per SM (64 registers, a few bytes spilled): with
    // no cap (94 registers, 20 warps) the warps' chains of shuffles overlapped less,
    // 1.09 against 0.96 ms at 1M primitives (H200).
    // (In launches of at most 2^26 tasks, as a launch counts its threads in 32 bits.)
    for (uint32_t first = 0; first < num_small; first += 1u << 26) {
        const uint32_t count = ::min(num_small - first, 1u << 26);
        be.parallel_for_sized<32 * kSmallWarps, 8>("bvh_sah_small", count * 32, [=] __device__(uint32_t i) {
            __shared__ SmallShared shared[kSmallWarps];
            split_small_task(s, s.small[first + i / 32], i % 32, shared[(i / 32) % kSmallWarps]);
        });
    }

    // Boxes, meta and tables bottom up: merge_slot (kInvalid since bvh_morton)
    // tells the first child to finish from the second.
    uint32_t* visits = b.merge_slot.data();
    be.parallel_for("bvh_sah_refit", n, [=] __device__(uint32_t i) {
        const PlocArgs& a = s.tree;
        uint32_t link = __ldcg(&a.parent[i]);
        while (link != kInvalid) {
            const uint32_t p = parent_id(link);
            __threadfence();  // this subtree's writes before the hand-over
            if (atomicExch(&visits[p - n], 1u) == kInvalid) return;  // the sibling's thread goes on
            __threadfence();
            const BuildNode node = a.nodes[p];  // children's ids: written before this launch
            const Cluster l = load_cluster(a.nodes, a.meta, node.left, 0u);
            const Cluster r = load_cluster(a.nodes, a.meta, node.right, 0u);
            bool leaf;
            Cluster m = merged_cluster(l, r, &leaf);
            m.id = p;
            const WideTable table =
                leaf ? WideTable{}
                     : make_wide_table(built_table(a, l), built_table(a, r), collapse_area(m.lo, m.hi), m.height);
            write_merge(a, m, leaf, node.left, node.right, table);
            link = __ldcg(&a.parent[p]);
        }
    });
}

}  // namespace wf
