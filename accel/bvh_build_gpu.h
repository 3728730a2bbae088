// GPU BVH builder (CUDA backend): H-PLOC (Benthin et al. 2024, "H-PLOC:
// Hierarchical Parallel Locally-Ordered Clustering for Bounding Volume Hierarchy
// Construction"). Primitive bounds -> 30-bit Morton codes -> CUB radix sort ->
// sorted neighbours that are each other's nearest paired (bvh_pairs.cuh: most of
// a mesh's primitives, so H-PLOC starts from far fewer clusters) -> one
// bottom-up kernel that walks the implicit LBVH of the clusters' codes and, in
// every subtree holding more than 16 clusters, merges them with PLOC inside one
// warp, deciding leaf collapsing by SAH and filling each node's table for the
// wide layout as it creates it (make_wide_table); then one block rebuilds the
// tree's top, above the subtrees of at most max(4096, n / 256) primitives, by
// binned SAH (bvh_top_sah.cuh), as H-PLOC's merges never cross an LBVH node
// and that costs large meshes most near the root. Then the wide traversal
// layout (traversal_bvh.h) is written straight from the build nodes' tables
// (write_traversal: every node's budget of slots by links followed up to the
// root, two scans, one thread per wide node). Nothing goes back to the host
// during a build but the figures of info(). Triangles and spheres share one tree.
//
// The binary tree has the leaf-size limit of the CPU builder (bvh_build.h), and
// its wide layout is the one the host's collapse of the same binary tree makes
// (collapse_on_host, traversal_bvh_build.h); tests compare the two through
// download(), which writes the binary tree in the flat layout of bvh_node.h.
// Its depth is not bounded by construction, and callers check it
// (GpuBvhInfo::depth) against kBvhMaxDepth.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "accel/bvh_build.h"
#include "accel/traversal_bvh_build.h"
#include "engine/backend/profiler.h"
#include "engine/scene_types.h"

namespace wf {

class CudaBackend;

// The most primitives one GPU build takes (its LBVH keys pack the index in 28 bits).
inline constexpr uint32_t kMaxGpuBvhPrimitives = 1u << 28;

// Figures of one build, read back after it (one synchronisation).
struct GpuBvhInfo {
    uint32_t num_prims = 0;
    uint32_t num_nodes = 0;            // of the binary tree in the flat layout
    uint32_t max_traversal_nodes = 0;  // room write_traversal needs
    uint32_t clusters = 0;  // H-PLOC's start: primitives and pairs of them (bvh_pairs.cuh)
    uint32_t depth = 0;   // deepest leaf, root = 0
    double sah = 0.0;     // SAH cost of the tree, as measure_bvh computes it (bvh_quality.h)
    // The wide layout's wide nodes entered per ray of the SAH's model (its
    // nodes' surface areas over the root's; the collapse minimises it).
    double wide_node_visits = 0.0;
};

// The order in which write_traversal takes the interior nodes for their budgets:
// ancestors first (the fast order: a node mostly finds its parent's link final),
// or descendants first, where links are rarely ready and are made from the tree
// (for the tests of that path).
enum class BudgetOrder { kAncestorsFirst, kDescendantsFirst };

// How the binary tree is made. kHploc (the default): H-PLOC as above, the fast
// build. kSah: split top down by binned SAH over every primitive, as the CPU
// builder does (bvh_sah_gpu.cu): several times slower to build, a tree of about
// the CPU builder's SAH, which traces faster; for renders long enough to repay it.
// Both go on to the same leaves, tables and layouts.
enum class GpuBvhMethod { kHploc, kSah };
const char* gpu_bvh_method_name(GpuBvhMethod method);  // "gpu", "gpu-sah"

// Owns the tree and the builder's scratch memory on the device. Rebuilding with
// the same primitive count reuses every allocation.
class GpuBvhBuilder {
public:
    explicit GpuBvhBuilder(GpuBvhMethod method = GpuBvhMethod::kHploc);
    ~GpuBvhBuilder();
    GpuBvhBuilder(const GpuBvhBuilder&) = delete;
    GpuBvhBuilder& operator=(const GpuBvhBuilder&) = delete;

    // Enqueues a build over device arrays on the backend's stream (every stage is
    // a named launch, so --stats times them); nothing is read back.
    void build(CudaBackend& backend, const Triangle* triangles, uint32_t num_triangles, const Sphere* spheres,
               uint32_t num_spheres);
    // Waits for the build and reads its figures back.
    GpuBvhInfo info(CudaBackend& backend) const;
    // Enqueues the writing of the traversal layout: `nodes` has room for
    // `capacity` = info().max_traversal_nodes nodes, `prims` one per primitive.
    // The tree must be within kBvhMaxDepth (info().depth; in a deeper tree the
    // collapse's stack bound no longer holds, and traversal may drop subtrees),
    // and the primitives build() read must still exist.
    void write_traversal(CudaBackend& backend, TraversalNode* nodes, LeafPrim* prims, uint32_t capacity,
                         BudgetOrder order = BudgetOrder::kAncestorsFirst);
    // The traversal nodes the last write_traversal wrote (waits for it).
    uint32_t traversal_node_count(CudaBackend& backend) const;
    // The binary tree in the flat layout, copied to the host (tests, tools).
    Bvh download(CudaBackend& backend);

    // The binary tree in the flat layout, on the device (download's first step;
    // public only because CUDA's device lambdas need it).
    void write_flat(CudaBackend& backend);
    // build()'s binary tree by GpuBvhMethod::kSah, after the sort (public for the
    // same reason).
    void split_by_sah(CudaBackend& backend);

private:
    struct Buffers;
    std::unique_ptr<Buffers> buf_;
    GpuBvhMethod method_;
};

// Host-callable wrappers for tests and bench_bvh: upload, build on the device,
// copy back.
Bvh build_bvh_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                     GpuBvhInfo* info = nullptr, GpuBvhMethod method = GpuBvhMethod::kHploc);

// The GPU builder's tree and its traversal layout, converted on the device, both
// copied back (tests compare the conversion with the host's).
struct GpuTraversalTree {
    Bvh flat;
    TraversalArrays traversal;
    GpuBvhInfo info;
};
GpuTraversalTree traversal_tree_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                       BudgetOrder order = BudgetOrder::kAncestorsFirst,
                                       GpuBvhMethod method = GpuBvhMethod::kHploc);

struct GpuBvhTiming {
    std::string device;
    GpuBvhInfo info;
    double median_ms = 0.0, min_ms = 0.0;  // whole build and conversion, device time (CUDA events)
    std::vector<StageStat> stages;         // per stage, summed over `reps` profiled builds
};
GpuBvhTiming time_bvh_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                             uint32_t warmup, uint32_t reps, GpuBvhMethod method = GpuBvhMethod::kHploc);

}  // namespace wf
