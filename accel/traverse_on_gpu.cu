#include "accel/traverse_on_gpu.h"

#include "engine/backend/cuda_backend.cuh"

namespace wf {

std::vector<Hit> closest_hits_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                     const TraversalArrays& traversal, const std::vector<Ray>& rays, LeafOrder order) {
    CudaBackend be;
    CudaBuffer<Triangle> tris;
    CudaBuffer<Sphere> sphs;
    CudaBuffer<TraversalNode> nodes;
    CudaBuffer<LeafPrim> prims;
    CudaBuffer<Ray> ray_buf;
    CudaBuffer<Hit> hit_buf;
    tris.upload(triangles);
    sphs.upload(spheres);
    nodes.upload(traversal.nodes);
    prims.upload(traversal.prims);
    ray_buf.upload(rays);
    hit_buf.resize(rays.size());
    // Traversal reads no PrimInfo.
    const GeometryView g{tris.data(),  uint32_t(triangles.size()), sphs.data(), uint32_t(spheres.size()), nullptr,
                         nodes.data(), prims.data()};
    const Ray* r = ray_buf.data();
    Hit* h = hit_buf.data();
    if (order == LeafOrder::kImmediate)
        be.parallel_for("closest_hits_immediate", uint32_t(rays.size()), [=] __device__(uint32_t i) {
            h[i] = intersect_closest<LeafOrder::kImmediate>(g, r[i], kInfinity);
        });
    else
        be.parallel_for("closest_hits_postponed", uint32_t(rays.size()), [=] __device__(uint32_t i) {
            h[i] = intersect_closest<LeafOrder::kPostponed>(g, r[i], kInfinity);
        });
    be.synchronize();
    std::vector<Hit> out(rays.size());
    hit_buf.download(out.data(), out.size());
    return out;
}

}  // namespace wf
