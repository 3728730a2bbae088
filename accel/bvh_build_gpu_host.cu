// Host-callable wrappers around GpuBvhBuilder for tests and bench_bvh: upload
// primitives, build on the device, copy back or time.
#include "accel/bvh_build_gpu.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "accel/traversal_bvh_build.h"
#include "engine/backend/cuda_backend.cuh"

namespace wf {

namespace {

// Host primitives copied to the device, and a builder over them.
struct UploadedBuild {
    CudaBuffer<Triangle> triangles;
    CudaBuffer<Sphere> spheres;
    GpuBvhBuilder builder;
    TraversalBvh<CudaBackend> traversal;
    UploadedBuild(const std::vector<Triangle>& t, const std::vector<Sphere>& s, GpuBvhMethod method)
        : builder(method) {
        triangles.upload(t);
        spheres.upload(s);
    }
    void build(CudaBackend& be) {
        builder.build(be, triangles.data(), uint32_t(triangles.size()), spheres.data(), uint32_t(spheres.size()));
    }
    // The traversal layout of the last build (with `info` its figures).
    void write_traversal(CudaBackend& be, const GpuBvhInfo& info, BudgetOrder order = BudgetOrder::kAncestorsFirst) {
        traversal.allocate(info.max_traversal_nodes, info.num_prims);
        builder.write_traversal(be, traversal.nodes(), traversal.prims(), info.max_traversal_nodes, order);
    }
};

// The wide layout needs a tree within kBvhMaxDepth (the renderer falls back to
// the CPU builder beyond it).
void check_depth(const GpuBvhInfo& info) {
    if (info.depth > kBvhMaxDepth)
        throw std::length_error("GPU BVH: the tree is " + std::to_string(info.depth) + " levels deep, more than " +
                                std::to_string(kBvhMaxDepth) + ": no wide layout");
}

}  // namespace

Bvh build_bvh_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres, GpuBvhInfo* info,
                     GpuBvhMethod method) {
    CudaBackend be;
    UploadedBuild up(triangles, spheres, method);
    up.build(be);
    if (info) *info = up.builder.info(be);
    return up.builder.download(be);
}

GpuTraversalTree traversal_tree_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                       BudgetOrder order, GpuBvhMethod method) {
    CudaBackend be;
    UploadedBuild up(triangles, spheres, method);
    up.build(be);
    const GpuBvhInfo info = up.builder.info(be);
    check_depth(info);
    up.write_traversal(be, info, order);
    GpuTraversalTree out;
    out.info = info;
    out.flat = up.builder.download(be);
    out.traversal.nodes.resize(up.builder.traversal_node_count(be));
    out.traversal.prims.resize(info.num_prims);
    WF_CUDA_CHECK(cudaMemcpy(out.traversal.nodes.data(), up.traversal.nodes(),
                             out.traversal.nodes.size() * sizeof(TraversalNode), cudaMemcpyDeviceToHost));
    WF_CUDA_CHECK(cudaMemcpy(out.traversal.prims.data(), up.traversal.prims(),
                             out.traversal.prims.size() * sizeof(LeafPrim), cudaMemcpyDeviceToHost));
    return out;
}

GpuBvhTiming time_bvh_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                             uint32_t warmup, uint32_t reps, GpuBvhMethod method) {
    CudaBackend be;
    UploadedBuild up(triangles, spheres, method);
    GpuBvhBuilder& builder = up.builder;
    GpuBvhTiming out;
    out.device = be.device_name();
    up.build(be);
    out.info = builder.info(be);
    check_depth(out.info);
    // A build ends with the tree in the layout traversal reads (traversal_bvh.h).
    // Every build of the same input has the node counts read above (the test
    // RebuildReusesTheBuilderAndGivesTheSameTree).
    auto build = [&] {
        up.build(be);
        up.write_traversal(be, out.info);
    };
    for (uint32_t i = 0; i < warmup; ++i) build();

    // Whole builds between two events each, launched back to back as a renderer
    // would; then the same count profiled launch by launch for the stage table.
    std::vector<cudaEvent_t> events(2 * size_t(reps));
    for (cudaEvent_t& e : events) WF_CUDA_CHECK(cudaEventCreate(&e));
    for (uint32_t i = 0; i < reps; ++i) {
        WF_CUDA_CHECK(cudaEventRecord(events[2 * i]));
        build();
        WF_CUDA_CHECK(cudaEventRecord(events[2 * i + 1]));
    }
    be.synchronize();
    std::vector<double> ms;
    for (uint32_t i = 0; i < reps; ++i) {
        float m = 0.0f;
        WF_CUDA_CHECK(cudaEventElapsedTime(&m, events[2 * i], events[2 * i + 1]));
        ms.push_back(m);
    }
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    std::sort(ms.begin(), ms.end());
    if (!ms.empty()) {
        out.median_ms = ms[ms.size() / 2];
        out.min_ms = ms.front();
    }
    be.set_profiling(true);
    for (uint32_t i = 0; i < reps; ++i) build();
    be.flush_profile();
    out.stages = be.stages().rows();
    return out;
}

}  // namespace wf
