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
#include "accel/bvh_build_gpu_buffers.cuh"

namespace wf {
namespace {

using namespace gpu_bvh;
using namespace sah;

constexpr uint32_t kSahNext = 0, kSahSmallCount = 1, kSahChunks = 2;  // sah_counts[]
constexpr uint32_t kSmallWarps = 4;  // small tasks: warps per block
constexpr uint64_t kNoSplit = ~0ull;

// The bin of coordinate x among kBins over [lo, lo + extent]: the same float
// arithmetic wherever it is asked (binning, partition), so both agree; the
// intrinsics keep the compiler from fusing the subtraction with the centroid's
// multiplication at one call site and not at another. NaN goes to 0.
__device__ __forceinline__ uint32_t bin_of(float x, float lo, float scale) {
    const float f = __fmul_rn(__fsub_rn(x, lo), scale);
    return f >= 0.0f ? uint32_t(fminf(f, float(kBins - 1))) : 0u;
}
__device__ __forceinline__ float bin_scale(float lo, float hi) {
    const float extent = hi - lo;
    return extent > 0.0f ? float(kBins) / extent : 0.0f;
}
__device__ __forceinline__ Vec3f centroid(const BvhNode& box) { return (box.lo + box.hi) * 0.5f; }

__device__ __forceinline__ void empty_bin(Bin& b) {
    for (int a = 0; a < 3; ++a) {
        b.lo[a] = ~0u;
        b.hi[a] = 0u;
    }
    b.count = 0;
}
__device__ __forceinline__ void merge_bin(Bin& to, const Bin& from) {
    if (from.count == 0) return;
    for (int a = 0; a < 3; ++a) {
        atomicMin(&to.lo[a], from.lo[a]);
        atomicMax(&to.hi[a], from.hi[a]);
    }
    atomicAdd(&to.count, from.count);
}
// Whole warp: each lane's box into its bins (3 x kBins: one per axis, `which`
// packing the three bins' indices 8 bits apart; kNoBin: none). On sm_80 and newer,
// lanes of the same three bins are reduced first, so that such a group takes one
// lane's atomics: neighbours in Morton order mostly share their bins, and their
// atomics would queue on the same addresses.
constexpr uint32_t kNoBin = 0xffffffffu;
__device__ __forceinline__ uint32_t pack_bins(const Vec3f& c, const Vec3f& lo, const Vec3f& scale) {
    return bin_of(c.x, lo.x, scale.x) | bin_of(c.y, lo.y, scale.y) << 8 | bin_of(c.z, lo.z, scale.z) << 16;
}
__device__ __forceinline__ void add_to_bins(Bin* bins, uint32_t which, const BvhNode& box, uint32_t lane) {
    uint32_t lo[3], hi[3], count = 1;
    for (int a = 0; a < 3; ++a) {
        lo[a] = ordered_bits(box.lo[a]);
        hi[a] = ordered_bits(box.hi[a]);
    }
#if __CUDA_ARCH__ >= 800
    const uint32_t group = __match_any_sync(kFullMask, which);
    for (int a = 0; a < 3; ++a) {
        lo[a] = __reduce_min_sync(group, lo[a]);
        hi[a] = __reduce_max_sync(group, hi[a]);
    }
    count = __popc(group);
    if (lane != uint32_t(__ffs(group) - 1)) return;
#else
    (void)lane;
#endif
    if (which == kNoBin) return;
    for (uint32_t axis = 0; axis < 3; ++axis) {
        Bin& b = bins[axis * kBins + ((which >> (8 * axis)) & 255u)];
        for (int a = 0; a < 3; ++a) {
            atomicMin(&b.lo[a], lo[a]);
            atomicMax(&b.hi[a], hi[a]);
        }
        atomicAdd(&b.count, count);
    }
}
__device__ __forceinline__ Vec3f bin_lo(const Bin& b) {
    return Vec3f(from_ordered_bits(b.lo[0]), from_ordered_bits(b.lo[1]), from_ordered_bits(b.lo[2]));
}
__device__ __forceinline__ Vec3f bin_hi(const Bin& b) {
    return Vec3f(from_ordered_bits(b.hi[0]), from_ordered_bits(b.hi[1]), from_ordered_bits(b.hi[2]));
}

// A split's key: cost first (not negative, so its bits order as the floats do; a
// NaN cost, from NaN boxes, counts as infinite), then axis and place (bits 8-9 and
// 0-7; the sweep puts its balance in bits 16-21 before them), so that every tie
// breaks the same way.
__device__ __forceinline__ uint64_t split_key(float cost, uint32_t axis, uint32_t place) {
    const float key = cost == cost ? fmaxf(cost, 0.0f) : kInfinity;
    return (uint64_t(__float_as_uint(key)) << 32) | (axis << 8) | place;
}

// The parent's child field for link (left or right), set to id; the root's link
// names no parent and sets the root.
__device__ __forceinline__ void attach(const PlocArgs& a, uint32_t link, uint32_t id) {
    a.parent[id] = link;
    if (link == kInvalid) {
        *a.root = id;
        return;
    }
    BuildNode& p = a.nodes[parent_id(link)];
    if (is_right_child(link)) p.right = id;
    else p.left = id;
}

// What every pass of the method reads and writes.
struct SahArgs {
    PlocArgs tree;
    uint32_t* order[2];  // by level parity: position -> primitive id (order[0] is ids_sorted)
    BvhNode* boxes[2];   // by level parity: position -> box
    Task* tasks[2];      // by level parity
    Bin* bins[2];        // by level parity: 3 x kBins per task
    uint32_t* hist;      // 3 x kBins counts per chunk of the level
    uint32_t* left_before;  // per chunk: its task's positions going left in the chunks before it
    uint32_t* chunk_task;   // per chunk: its task on the level
    SmallTask* small;
    uint32_t* counts;
};

// ---- small tasks: one warp each ----------------------------------------------

// Positions [base, ...) of boxes and order: a small task's in its warp's shared
// memory, or a level's whole arrays (base 0).
struct Positions {
    BvhNode* boxes;
    uint32_t* order;
    uint32_t base;
    __device__ __forceinline__ BvhNode& box(uint32_t p) const { return boxes[p - base]; }
    __device__ __forceinline__ uint32_t& prim(uint32_t p) const { return order[p - base]; }
};
struct SmallShared {  // one warp's
    BvhNode boxes[kSmall];
    uint32_t order[kSmall];
    Bin bins[3 * kBins];
};

__device__ __forceinline__ uint64_t warp_min(uint64_t v) {
    for (int d = 16; d > 0; d >>= 1) {
        const uint64_t o = __shfl_xor_sync(kFullMask, v, d);
        v = o < v ? o : v;
    }
    return v;
}

// Primitive p's leaf (build node p), from the box and primitive at position p.
__device__ __forceinline__ void write_leaf(const SahArgs& s, uint32_t p, Vec3f lo, Vec3f hi, uint32_t prim,
                                          uint32_t link) {
    s.tree.nodes[p] = BuildNode{lo, prim, hi, kInvalid};
    s.tree.meta[p] = BuildMeta{half_area(lo, hi), 1u, 0u, 1u};
    s.order[0][p] = prim;
    attach(s.tree, link, p);
}

// Lane `lane` of a range starting at b holds position b + lane (lo, hi, prim); a
// child [cb, ce) of at most two primitives under `link` is finished here: its
// leaves, and for two, the node over them (id n + cb). Returns whether it was.
__device__ __forceinline__ bool finish_child(const SahArgs& s, uint32_t b, uint32_t cb, uint32_t ce, uint32_t link,
                                             uint32_t lane, Vec3f lo, Vec3f hi, uint32_t prim) {
    if (ce - cb > 2) return false;
    const uint32_t p = b + lane;
    if (ce - cb == 1) {
        if (p == cb) write_leaf(s, p, lo, hi, prim, link);
        return true;
    }
    const uint32_t pair = s.tree.n + cb;
    if (p == cb) {
        attach(s.tree, link, pair);
        write_leaf(s, p, lo, hi, prim, pair);
    } else if (p == cb + 1) {
        write_leaf(s, p, lo, hi, prim, pair | kRightChild);
    }
    return true;
}

// Whole warp: the range [b, e) of 3..32 primitives under `link` split by a full
// SAH sweep along the best axis: its node attached, its positions rewritten in
// that axis' order (ties by position), and children of one or two primitives
// finished (finish_child). Returns the split and, in *done, which children were
// finished (bit 0 left, bit 1 right). The sort and the scans span only the lanes
// the range needs (the next power of two): most ranges hold 4 or 8.
__device__ uint32_t sweep_split(const SahArgs& s, const Positions& at, uint32_t b, uint32_t e, uint32_t link,
                                uint32_t lane, uint32_t* done) {
    const uint32_t m = e - b;
    const uint32_t width = m <= 4 ? 4u : (m <= 8 ? 8u : (m <= 16 ? 16u : 32u));
    const bool valid = lane < m;
    const BvhNode box = valid ? at.box(b + lane) : BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
    const uint32_t prim = valid ? at.prim(b + lane) : 0u;
    const Vec3f c = centroid(box);
    // The three axes in lockstep, so that their chains of shuffles overlap. Sort
    // keys: the centroid's ordered bits above, the lane in the low 5 bits (ties, and
    // centroids within 2^-18 of each other, in lane order); the lanes past the
    // range sort last.
    uint32_t key[3];
#pragma unroll
    for (uint32_t a = 0; a < 3; ++a) key[a] = valid ? (::min(ordered_bits(c[a]), 0xffffffc0u) & ~31u) | lane : ~0u;
    for (uint32_t k = 2; k <= width; k <<= 1)
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            const bool keep_min = ((lane & j) == 0) == ((lane & k) == 0);
#pragma unroll
            for (uint32_t a = 0; a < 3; ++a) {
                const uint32_t o = __shfl_xor_sync(kFullMask, key[a], j);
                key[a] = keep_min ? ::min(key[a], o) : ::max(key[a], o);
            }
        }
    // Lane k holds the k-th box along each axis; the unions of boxes 0..k and k..31.
    uint32_t source[3];
    Vec3f llo[3], lhi[3], rlo[3], rhi[3];
#pragma unroll
    for (uint32_t a = 0; a < 3; ++a) {
        source[a] = key[a] & 31u;
        llo[a] = shfl(box.lo, int(source[a]));
        lhi[a] = shfl(box.hi, int(source[a]));
        if (!valid) llo[a] = Vec3f(kInfinity), lhi[a] = Vec3f(-kInfinity);
        rlo[a] = llo[a];
        rhi[a] = lhi[a];
    }
    for (uint32_t d = 1; d < width; d <<= 1) {
#pragma unroll
        for (uint32_t a = 0; a < 3; ++a) {
            const Vec3f plo = shfl_up(llo[a], d), phi = shfl_up(lhi[a], d);
            if (lane >= d) llo[a] = min(llo[a], plo), lhi[a] = max(lhi[a], phi);
            const Vec3f slo = shfl_down(rlo[a], d), shi = shfl_down(rhi[a], d);
            if (lane + d < 32) rlo[a] = min(rlo[a], slo), rhi[a] = max(rhi[a], shi);
        }
    }
    uint64_t best = kNoSplit;
#pragma unroll
    for (uint32_t a = 0; a < 3; ++a) {
        const Vec3f nlo = shfl_down(rlo[a], 1), nhi = shfl_down(rhi[a], 1);  // boxes k + 1 ..
        if (lane + 1 < m) {
            const float cost =
                float(lane + 1) * half_area(llo[a], lhi[a]) + float(m - lane - 1) * half_area(nlo, nhi);
            // Equal costs (equal boxes) split as evenly as they can, not one off the end.
            const uint32_t imbalance = uint32_t(::abs(int(2 * (lane + 1)) - int(m)));
            const uint64_t k = split_key(cost, a, lane) | (uint64_t(imbalance) << 16);
            best = k < best ? k : best;
        }
    }
    best = warp_min(best);
    const uint32_t axis = uint32_t(best >> 8) & 3u, split = b + (uint32_t(best) & 255u) + 1;
    const uint32_t src = axis == 0 ? source[0] : (axis == 1 ? source[1] : source[2]);
    const Vec3f lo = shfl(box.lo, int(src)), hi = shfl(box.hi, int(src));
    const uint32_t p = __shfl_sync(kFullMask, prim, int(src));
    __syncwarp();
    if (valid) {
        at.box(b + lane) = BvhNode{lo, 0u, hi, 0u};
        at.prim(b + lane) = p;
    }
    const uint32_t id = s.tree.n + split - 1;
    if (lane == 0) attach(s.tree, link, id);
    *done = (finish_child(s, b, b, split, id, lane, lo, hi, p) ? 1u : 0u) |
            (finish_child(s, b, split, e, id | kRightChild, lane, lo, hi, p) ? 2u : 0u);
    __syncwarp();
    return split;
}

// Whole warp: the best split of m primitives by their bins (3 x kBins, in shared
// or global memory), as a split key (kNoSplit where no bin boundary separates
// them), and the primitives it puts left (m / 2 for kNoSplit: split in the middle).
__device__ uint64_t best_bin_split(const Bin* bins, uint32_t m, uint32_t lane, uint32_t* left) {
    uint64_t best = kNoSplit;
    uint32_t left_count[3];
    for (uint32_t a = 0; a < 3; ++a) {
        // Lane j < kBins holds bin j; prefix unions and counts up, suffix unions down.
        const Bin& bin = bins[a * kBins + (lane % kBins)];
        const bool has = lane < kBins && bin.count > 0;
        Vec3f llo = has ? bin_lo(bin) : Vec3f(kInfinity), lhi = has ? bin_hi(bin) : Vec3f(-kInfinity);
        uint32_t count = has ? bin.count : 0u;
        Vec3f rlo = llo, rhi = lhi;
        for (uint32_t d = 1; d < kBins; d <<= 1) {
            const Vec3f plo = shfl_up(llo, d), phi = shfl_up(lhi, d);
            const uint32_t pc = __shfl_up_sync(kFullMask, count, d);
            if (lane >= d) llo = min(llo, plo), lhi = max(lhi, phi), count += pc;
            const Vec3f slo = shfl_down(rlo, d), shi = shfl_down(rhi, d);
            if (lane + d < kBins) rlo = min(rlo, slo), rhi = max(rhi, shi);
        }
        const Vec3f nlo = shfl_down(rlo, 1), nhi = shfl_down(rhi, 1);
        left_count[a] = count;  // lane j: primitives in bins 0..j
        if (lane + 1 < kBins && count > 0 && count < m) {
            const float cost = float(count) * half_area(llo, lhi) + float(m - count) * half_area(nlo, nhi);
            const uint64_t k = split_key(cost, a, lane);
            best = k < best ? k : best;
        }
    }
    best = warp_min(best);
    if (best == kNoSplit) {
        *left = m / 2;
        return best;
    }
    const uint32_t axis = uint32_t(best >> 8) & 3u;
    const uint32_t lc = axis == 0 ? left_count[0] : (axis == 1 ? left_count[1] : left_count[2]);
    *left = __shfl_sync(kFullMask, lc, int(best & 255u));
    return best;
}

// Whole warp: the range [b, e) of more than 32 primitives split by binned SAH
// (bins: the warp's 3 x kBins in shared memory), partitioned stably through the
// other level's arrays (tmp_*) and copied back. Returns the split; a range whose
// centroids no bin separates splits in the middle, unmoved.
__device__ uint32_t binned_split(const Positions& at, const Positions& tmp, uint32_t b, uint32_t e, uint32_t lane,
                                 Bin* bins) {
    const uint32_t m = e - b;
    Vec3f clo(kInfinity), chi(-kInfinity);
    for (uint32_t p = b + lane; p < e; p += 32) {
        const Vec3f c = centroid(at.box(p));
        clo = min(clo, c);
        chi = max(chi, c);
    }
    warp_union(&clo, &chi);
    const Vec3f scale(bin_scale(clo.x, chi.x), bin_scale(clo.y, chi.y), bin_scale(clo.z, chi.z));
    for (uint32_t i = lane; i < 3 * kBins; i += 32) empty_bin(bins[i]);
    __syncwarp();
    for (uint32_t base = b; base < e; base += 32) {
        const uint32_t p = base + lane;
        const BvhNode box = p < e ? at.box(p) : BvhNode{};
        add_to_bins(bins, p < e ? pack_bins(centroid(box), clo, scale) : kNoBin, box, lane);
    }
    __syncwarp();
    uint32_t nl;
    const uint64_t best = best_bin_split(bins, m, lane, &nl);
    __syncwarp();  // the bins are the next range's
    if (best == kNoSplit) return b + nl;
    const uint32_t axis = uint32_t(best >> 8) & 3u, last = uint32_t(best) & 255u;
    uint32_t lefts = 0, rights = 0;
    for (uint32_t base = b; base < e; base += 32) {
        const uint32_t p = base + lane;
        const bool valid = p < e;
        BvhNode box{};
        uint32_t prim = 0;
        bool goes_left = false;
        if (valid) {
            box = at.box(p);
            prim = at.prim(p);
            goes_left = bin_of(centroid(box)[axis], clo[axis], scale[axis]) <= last;
        }
        const uint32_t below = (1u << lane) - 1u;
        const uint32_t left_mask = __ballot_sync(kFullMask, valid && goes_left);
        const uint32_t right_mask = __ballot_sync(kFullMask, valid && !goes_left);
        if (valid) {
            const uint32_t to = goes_left ? b + lefts + __popc(left_mask & below)
                                          : b + nl + rights + __popc(right_mask & below);
            tmp.box(to) = box;
            tmp.prim(to) = prim;
        }
        lefts += __popc(left_mask);
        rights += __popc(right_mask);
    }
    __syncwarp();
    for (uint32_t p = b + lane; p < e; p += 32) {
        at.box(p) = tmp.box(p);
        at.prim(p) = tmp.prim(p);
    }
    __syncwarp();
    return b + nl;
}

// Whole warp: small task t split down to single primitives (the larger child of
// each split waits on a stack, so it holds at most log2(kSmall) + 1 ranges), each
// primitive's leaf written and its primitive id put in ids_sorted.
__device__ void split_small_task(const SahArgs& s, const SmallTask& t, uint32_t lane, SmallShared& sh) {
    const uint32_t n = s.tree.n;
    // The task's positions into shared memory: every split below reads and writes
    // them a few times. The binned splits' partitions go through the other level's
    // arrays, free over the task's range.
    const Positions at{sh.boxes, sh.order, t.begin}, tmp{s.boxes[1 - t.parity], s.order[1 - t.parity], 0u};
    for (uint32_t p = t.begin + lane; p < t.end; p += 32) {
        at.box(p) = s.boxes[t.parity][p];
        at.prim(p) = s.order[t.parity][p];
    }
    __syncwarp();
    uint32_t stack_b[12], stack_e[12], stack_link[12];
    uint32_t sp = 0;
    auto push = [&](uint32_t b, uint32_t e, uint32_t link) {
        stack_b[sp] = b;
        stack_e[sp] = e;
        stack_link[sp] = link;
        ++sp;
    };
    push(t.begin, t.end, t.link);
    while (sp > 0) {
        --sp;
        const uint32_t b = stack_b[sp], e = stack_e[sp], link = stack_link[sp], m = e - b;
        if (m <= 2) {  // a task of one or two primitives (a sweep finishes its own)
            const bool valid = lane < m;
            const BvhNode box = valid ? at.box(b + lane) : BvhNode{};
            const uint32_t prim = valid ? at.prim(b + lane) : 0u;
            finish_child(s, b, b, e, link, lane, box.lo, box.hi, prim);
            continue;
        }
        uint32_t done = 0, split;
        if (m <= 32) {
            split = sweep_split(s, at, b, e, link, lane, &done);
        } else {
            split = binned_split(at, tmp, b, e, lane, sh.bins);
            if (lane == 0) attach(s.tree, link, n + split - 1);
        }
        // The larger child below the smaller on the stack, so the smaller goes first.
        const uint32_t id = n + split - 1;
        const bool left_larger = split - b > e - split;
        for (uint32_t k = 0; k < 2; ++k) {
            const bool left = (k == 0) == left_larger;
            if (done & (left ? 1u : 2u)) continue;
            if (left) push(b, split, id);
            else push(split, e, id | kRightChild);
        }
    }
}

// ---- bottom up ---------------------------------------------------------------

__device__ __forceinline__ Cluster built_cluster(const PlocArgs& a, uint32_t id) {
    const float4* p = reinterpret_cast<const float4*>(&a.nodes[id]);
    const float4 x = __ldcg(p), y = __ldcg(p + 1);
    BuildMeta m;
    reinterpret_cast<uint4&>(m) = __ldcg(reinterpret_cast<const uint4*>(&a.meta[id]));
    return Cluster{Vec3f(x.x, x.y, x.z), Vec3f(y.x, y.y, y.z), m.cost, m.count & ~kLeafFlag, m.height, id,
                   m.leaves, 0u};
}
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
            const Cluster l = built_cluster(a, node.left), r = built_cluster(a, node.right);
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
