// H-PLOC on the CUDA backend; see bvh_build_gpu.h for the outline and
// bvh_ploc.cuh for the clustering. This file holds the stages around it:
// primitive bounds and Morton codes before; after, the flat layout of
// bvh_node.h (for tests and tools, on request). The wide traversal layout is
// written by bvh_wide_gpu.cu.
#include "accel/bvh_build_gpu.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "accel/bvh_build_gpu_buffers.cuh"
#include "accel/bvh_pairs.cuh"

namespace wf {
namespace {

using namespace gpu_bvh;

constexpr int kMortonBits = 30;
// A primitive is large when its box spans more than this fraction of the
// centroids' largest extent along some axis (see morton_code).
constexpr float kLargeFraction = 0.25f;

__device__ __forceinline__ uint32_t spread_bits(uint32_t x) {  // 10 bits -> every third bit
    x = (x | (x << 16)) & 0x030000ffu;
    x = (x | (x << 8)) & 0x0300f00fu;
    x = (x | (x << 4)) & 0x030c30c3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

__device__ __forceinline__ BvhNode prim_box(const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                                            uint32_t i) {
    if (i < num_triangles) {
        const Triangle& t = triangles[i];
        return BvhNode{min(t.p0, min(t.p1, t.p2)), 0u, max(t.p0, max(t.p1, t.p2)), 0u};
    }
    const Sphere& s = spheres[i - num_triangles];
    const Vec3f r(fabsf(s.radius));
    return BvhNode{s.center - r, 0u, s.center + r, 0u};
}

// The Morton code of a box's centroid within the centroids' bounds (six
// ordered bits: lo, then hi), bit kMortonBits set for a large box.
__device__ __forceinline__ uint32_t morton_code(const BvhNode& box, const uint32_t* scene_box) {
    const Vec3f c = (box.lo + box.hi) * 0.5f;
    const Vec3f lo(from_ordered_bits(scene_box[0]), from_ordered_bits(scene_box[1]), from_ordered_bits(scene_box[2]));
    const Vec3f hi(from_ordered_bits(scene_box[3]), from_ordered_bits(scene_box[4]), from_ordered_bits(scene_box[5]));
    // One cell size on every axis (a cube around the centroids): per-axis
    // scaling would give a flat scene's thin axis as many code bits as the
    // wide ones, and every third LBVH split would then sort by that thin
    // coordinate (sphere size, on a field of spheres) instead of by place.
    const float extent = fmaxf(hi.x - lo.x, fmaxf(hi.y - lo.y, hi.z - lo.z));
    const float scale = extent > 0.0f ? 1024.0f / extent : 0.0f;
    uint32_t code = 0;
    bool large = false;
    for (int a = 0; a < 3; ++a) {
        float f = (c[a] - lo[a]) * scale;  // NaN (bad input) clamps to 0 below
        uint32_t q = uint32_t(fminf(fmaxf(f, 0.0f), 1023.0f));
        code |= spread_bits(q) << (2 - a);
        large |= box.hi[a] - box.lo[a] > kLargeFraction * extent;
    }
    // Large primitives (a ground plane under a field of spheres) sort after
    // all others: the top bit makes the LBVH's root split between the two
    // groups, so PLOC meets them only at the root and places them near the top
    // instead of inflating every box on the path up from where their
    // centroid falls (measured: SAH 4.7x the CPU builder's, without this).
    return large ? code | (1u << kMortonBits) : code;
}

}  // namespace


const char* gpu_bvh_method_name(GpuBvhMethod method) { return method == GpuBvhMethod::kSah ? "gpu-sah" : "gpu"; }

GpuBvhBuilder::GpuBvhBuilder(GpuBvhMethod method) : buf_(std::make_unique<Buffers>()), method_(method) {}
GpuBvhBuilder::~GpuBvhBuilder() = default;

void GpuBvhBuilder::build(CudaBackend& be, const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
                          uint32_t num_spheres) {
    const uint64_t n64 = uint64_t(num_triangles) + num_spheres;
    if (n64 > kMaxGpuBvhPrimitives)
        throw std::length_error("GPU BVH builder: " + std::to_string(n64) + " primitives; at most " +
                                std::to_string(kMaxGpuBvhPrimitives));
    Buffers& b = *buf_;
    b.reserve(uint32_t(n64));
    b.triangles = triangles;
    b.spheres = spheres;
    b.num_triangles = num_triangles;
    const uint32_t n = b.n;
    BvhNode* out_nodes = b.out_nodes.data();
    uint32_t* info = b.info.data();
    if (n == 0) {  // one empty root, which every ray misses
        be.parallel_for("bvh_empty", 1, [=] __device__(uint32_t) {
            out_nodes[0] = BvhNode{Vec3f(kInfinity), 0u, Vec3f(-kInfinity), 0u};
            info[kInfoRoot] = kInvalid;
        });
        return;
    }

    BuildNode* nodes = b.nodes.data();
    BuildMeta* meta = b.meta.data();
    uint32_t* parent = b.parent.data();
    uint32_t* scene_box = b.scene_box.data();
    uint32_t* codes = b.codes.data();
    uint32_t* ids = b.ids.data();

    be.parallel_for("bvh_init", 7, [=] __device__(uint32_t i) {
        if (i < 3) scene_box[i] = ~0u;            // min of ordered bits
        else if (i < 6) scene_box[i] = 0u;        // max
        else {
            info[kInfoCounter] = 0;               // the node counter
            info[kInfoRoot] = kInvalid;           // until the build reaches it
        }
    });

    // Primitive boxes, by primitive id, and the bounds of their centroids
    // (reduced per warp first). The output nodes are free until the layout pass,
    // so they hold the boxes until the leaves take them in Morton order.
    BvhNode* staging = out_nodes;
    BvhNode* warp_boxes = b.warp_boxes.data();
    const uint32_t padded = (n + 31) & ~31u;
    be.parallel_for("bvh_prim_bounds", padded, [=] __device__(uint32_t i) {
        Vec3f cmin(kInfinity), cmax(-kInfinity);
        if (i < n) {
            const BvhNode box = prim_box(triangles, num_triangles, spheres, i);
            staging[i] = box;
            cmin = cmax = (box.lo + box.hi) * 0.5f;
        }
        warp_union(&cmin, &cmax);
        if ((i & 31) == 0) warp_boxes[i / 32] = BvhNode{cmin, 0u, cmax, 0u};
    });
    // Second level: one atomic per warp of warp boxes (atomics on the same six
    // words from every warp of the first level took 0.15 ms for 1M primitives).
    const uint32_t num_warp_boxes = padded / 32, padded_boxes = (num_warp_boxes + 31) & ~31u;
    be.parallel_for("bvh_scene_bounds", padded_boxes, [=] __device__(uint32_t i) {
        Vec3f cmin(kInfinity), cmax(-kInfinity);
        if (i < num_warp_boxes) {
            cmin = warp_boxes[i].lo;
            cmax = warp_boxes[i].hi;
        }
        warp_union(&cmin, &cmax);
        if ((i & 31) == 0) {
            for (int a = 0; a < 3; ++a) {
                atomicMin(&scene_box[a], ordered_bits(cmin[a]));
                atomicMax(&scene_box[3 + a], ordered_bits(cmax[a]));
            }
        }
    });

    uint32_t* merge_slot = b.merge_slot.data();
    be.parallel_for("bvh_morton", n, [=] __device__(uint32_t i) {
        codes[i] = morton_code(staging[i], scene_box);
        ids[i] = i;
        if (i + 1 < n) merge_slot[i] = kInvalid;  // no thread has reached LBVH node i yet
    });
    be.sort_pairs("bvh_sort", b.codes.data(), b.codes_sorted.data(), b.ids.data(), b.ids_sorted.data(), n,
                  kMortonBits + 1);

    const PlocArgs args{nodes, meta, parent, b.tables.data(), b.clusters.data(), info + kInfoCounter,
                        info + kInfoRoot, n};
    const SortedPrims sorted{staging, b.ids_sorted.data(), b.codes_sorted.data(), 1u << kMortonBits, n};
    if (n == 1) {
        be.parallel_for("bvh_single", 1, [=] __device__(uint32_t) {
            const BvhNode box = sorted.box(0);
            nodes[0] = BuildNode{box.lo, sorted.ids[0], box.hi, kInvalid};
            meta[0] = BuildMeta{half_area(box.lo, box.hi), 1u, 0u, 1u};
            parent[0] = kInvalid;
            info[kInfoRoot] = 0;
        });
    } else if (method_ == GpuBvhMethod::kSah) {
        split_by_sah(be);
    } else {
        // The leaves (build node i is the i-th primitive of the sort), the sorted
        // neighbours that pair, and the clusters they make listed in Morton order
        // with their codes (bvh_pairs.cuh). The sort's inputs are free now, and the
        // layout's scratch until write_traversal.
        uint32_t* starts = b.ids.data();
        uint32_t* start_rank = b.leaf_first.data();
        uint32_t* cluster_codes = b.codes.data();
        uint32_t* num_clusters = info + kInfoClusters;
        be.parallel_for("bvh_pair_flags", padded,
                        [=] __device__(uint32_t i) { pair_flags(args, sorted, starts, i); });
        be.exclusive_scan("bvh_scan_clusters", starts, start_rank, n);
        be.parallel_for("bvh_clusters", n, [=] __device__(uint32_t i) {
            list_cluster(args, sorted, starts, start_rank[i], cluster_codes, num_clusters, i);
        });
        // One warp per block: a warp's lanes stop at different heights, and warps
        // stop far apart; blocks of 128 held three finished warps' room for the
        // fourth. An SM holds at most 32 blocks, so 32 warps, which a cap of 64
        // registers allows. H100, bench_bvh: 0.876 -> 0.846 ms at 1M, 6.74 ->
        // 6.43 ms at 10M; lower caps spill and are slower (bench/NOTES.md). The
        // host knows only that there are at most n clusters: blocks past the
        // clusters end at once.
        be.parallel_for_sized<kHplocBlockSize, 32>("bvh_hploc", padded, [=] __device__(uint32_t i) {
            const uint32_t count = *num_clusters;
            if (count < 2) return;  // two primitives, paired: the tree
            climb(args, cluster_codes, count, merge_slot, i);
        });
        // The top rebuilt by binned SAH over the subtrees below it (bvh_top_sah.cuh).
        if (n > top_cut(n))
            be.parallel_for_sized<kTopBlock, 1>("bvh_top_sah", kTopBlock,
                                                [=] __device__(uint32_t i) { rebuild_top(args, i); });
    }
}

void GpuBvhBuilder::write_flat(CudaBackend& be) {
    Buffers& b = *buf_;
    const uint32_t n = b.n;
    if (n == 0) return;  // build() wrote the empty root
    const BuildNode* nodes = b.nodes.data();
    const BuildMeta* meta = b.meta.data();
    const uint32_t* parent = b.parent.data();
    // Which build nodes the flat tree keeps: a node under an ancestor that chose
    // to be a leaf is inside that leaf. Only nodes of at most kBvhMaxLeafSize
    // primitives choose that, so the walk up stops at the first larger one.
    uint32_t* interior = b.interior.data();
    uint32_t* leaf_prims = b.leaf_prims.data();
    const uint32_t all = 2 * n - 1;
    be.parallel_for("bvh_classify", all, [=] __device__(uint32_t x) {
        bool inside_leaf = false;
        for (uint32_t link = parent[x]; link != kInvalid; link = parent[parent_id(link)]) {
            const uint32_t count = meta[parent_id(link)].count;
            if ((count & ~kLeafFlag) > kBvhMaxLeafSize) break;
            if (count & kLeafFlag) { inside_leaf = true; break; }
        }
        const BuildMeta m = meta[x];
        const bool is_interior = !inside_leaf && m.height > 0;
        if (x >= n) interior[x - n] = is_interior;
        leaf_prims[x] = !inside_leaf && m.height == 0 ? (m.count & ~kLeafFlag) : 0u;
    });
    if (n > 1) be.exclusive_scan("bvh_scan_interior", interior, b.interior_rank.data(), n - 1);
    be.exclusive_scan("bvh_scan_leaves", leaf_prims, b.leaf_first.data(), all);
    // The flat layout: children of the interior node ranked k go to slots 2k + 1
    // and 2k + 2; a leaf's primitives go to its range of prim_index.
    const uint32_t* interior_rank = b.interior_rank.data();
    const uint32_t* leaf_first = b.leaf_first.data();
    uint32_t* out_prims = b.out_prims.data();
    BvhNode* out_nodes = b.out_nodes.data();
    be.parallel_for("bvh_layout", 2 * n - 1, [=] __device__(uint32_t x) {
        const bool is_interior = x >= n && interior[x - n];
        const uint32_t prims = leaf_prims[x];
        if (!is_interior && prims == 0) return;
        const uint32_t link = parent[x];
        const uint32_t slot =
            link == kInvalid ? 0u : 2 * interior_rank[parent_id(link) - n] + 1 + (is_right_child(link) ? 1u : 0u);
        const BuildNode node = nodes[x];
        if (is_interior) {
            out_nodes[slot] = BvhNode{node.lo, 2 * interior_rank[x - n] + 1, node.hi, 0u};
            return;
        }
        out_nodes[slot] = BvhNode{node.lo, leaf_first[x], node.hi, prims};
        for_each_leaf_prim(nodes, n, x, leaf_first[x], [&](uint32_t k, uint32_t prim) { out_prims[k] = prim; });
    });
}

GpuBvhInfo GpuBvhBuilder::info(CudaBackend& be) const {
    const Buffers& b = *buf_;
    GpuBvhInfo out;
    out.num_prims = b.n;
    be.synchronize();
    out.num_nodes = out.max_traversal_nodes = 1;
    if (b.n == 0) return out;
    uint32_t values[kInfoSize];
    b.info.download(values, kInfoSize);
    // The SAH from the root's bookkeeping, normalised as measure_bvh does.
    const uint32_t root = values[kInfoRoot];
    out.clusters = b.n == 1 ? 1u : values[kInfoClusters];
    if (root >= 2 * b.n - 1) throw std::logic_error("GPU BVH builder: the build did not reach a root");
    BuildNode node;
    BuildMeta meta;
    WF_CUDA_CHECK(cudaMemcpy(&node, b.nodes.data() + root, sizeof node, cudaMemcpyDeviceToHost));
    WF_CUDA_CHECK(cudaMemcpy(&meta, b.meta.data() + root, sizeof meta, cudaMemcpyDeviceToHost));
    double dx = double(node.hi.x) - node.lo.x, dy = double(node.hi.y) - node.lo.y, dz = double(node.hi.z) - node.lo.z;
    double area = dx * dy + dy * dz + dz * dx;
    out.sah = area > 0.0 ? double(meta.cost) / area : double(b.n);
    out.depth = meta.height;
    if (meta.height > 0) {  // the collapse's cost: wide nodes a ray enters, on average over the SAH's rays
        WideTable table;
        WF_CUDA_CHECK(cudaMemcpy(&table, b.tables.data() + (root - b.n), sizeof table, cudaMemcpyDeviceToHost));
        out.wide_node_visits = area > 0.0 ? double(table.cost[0]) / area : 0.0;
    } else {
        out.wide_node_visits = 1.0;  // the root alone, which holds the one leaf
    }
    out.num_nodes = 2 * meta.leaves - 1;
    // A wide node has two children or more, so there are fewer than leaves.
    out.max_traversal_nodes = std::max(meta.leaves - 1, 1u);
    return out;
}

Bvh GpuBvhBuilder::download(CudaBackend& be) {
    write_flat(be);
    const GpuBvhInfo figures = info(be);
    const Buffers& b = *buf_;
    Bvh bvh;
    bvh.nodes.resize(figures.num_nodes);
    b.out_nodes.download(bvh.nodes.data(), bvh.nodes.size());
    bvh.prim_index = b.out_prims.to_vector();
    return bvh;
}

}  // namespace wf
