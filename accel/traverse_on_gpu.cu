#include "accel/traverse_on_gpu.h"

#include <stdexcept>
#include <string>

#include "accel/traverse_group.h"
#include "engine/backend/cuda_backend.cuh"

namespace wf {
namespace {

// The scene and the rays on the device, and the view traversal reads.
struct DeviceRays {
    CudaBuffer<Triangle> tris;
    CudaBuffer<Sphere> sphs;
    CudaBuffer<TraversalNode> nodes;
    CudaBuffer<LeafPrim> prims;
    CudaBuffer<Ray> rays;
    GeometryView geometry;

    DeviceRays(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
               const TraversalArrays& traversal, const std::vector<Ray>& ray_list) {
        tris.upload(triangles);
        sphs.upload(spheres);
        nodes.upload(traversal.nodes);
        prims.upload(traversal.prims);
        rays.upload(ray_list);
        // Traversal reads no PrimInfo.
        geometry = GeometryView{tris.data(),  uint32_t(triangles.size()), sphs.data(), uint32_t(spheres.size()),
                                nullptr,      nodes.data(),               prims.data()};
    }
};

// The threads of a launch that gives each of `rays` rays 1 << shift lanes.
uint32_t group_threads(const char* what, size_t rays, uint32_t shift) {
    if (shift < 1 || shift > 5)
        throw std::invalid_argument(std::string(what) + ": shift " + std::to_string(shift) +
                                    " (groups of 2 to 32 lanes)");
    if (uint64_t(rays) << shift > 0xFFFFFFFFu)
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(rays) + " rays of " +
                                    std::to_string(1u << shift) + " lanes each exceed a launch");
    return uint32_t(rays) << shift;
}

}  // namespace

std::vector<Hit> closest_hits_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                     const TraversalArrays& traversal, const std::vector<Ray>& rays, LeafOrder order) {
    CudaBackend be;
    DeviceRays d(triangles, spheres, traversal, rays);
    CudaBuffer<Hit> hit_buf;
    hit_buf.resize(rays.size());
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
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

std::vector<Hit> closest_hits_on_gpu_in_groups(const std::vector<Triangle>& triangles,
                                               const std::vector<Sphere>& spheres, const TraversalArrays& traversal,
                                               const std::vector<Ray>& rays, uint32_t shift) {
    const uint32_t threads = group_threads("closest_hits_on_gpu_in_groups", rays.size(), shift);
    CudaBackend be;
    DeviceRays d(triangles, spheres, traversal, rays);
    CudaBuffer<Hit> hit_buf;
    hit_buf.resize(threads);
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    Hit* h = hit_buf.data();
    // threads is a multiple of 1 << shift and groups start at multiples of it, so
    // every group lies whole in one warp (blocks are whole warps) and in the launch.
    be.parallel_for("closest_hits_in_groups", threads, [=] __device__(uint32_t t) {
        h[t] = intersect_closest_group(g, r[t >> shift], kInfinity, t & 31u, shift);
    });
    be.synchronize();
    std::vector<Hit> out(threads);
    hit_buf.download(out.data(), out.size());
    return out;
}

std::vector<uint8_t> any_hits_on_gpu_in_groups(const std::vector<Triangle>& triangles,
                                               const std::vector<Sphere>& spheres, const TraversalArrays& traversal,
                                               const std::vector<Ray>& rays, const std::vector<float>& t_max,
                                               uint32_t shift) {
    const uint32_t threads = group_threads("any_hits_on_gpu_in_groups", rays.size(), shift);
    if (t_max.size() != rays.size())
        throw std::invalid_argument("any_hits_on_gpu_in_groups: " + std::to_string(t_max.size()) + " t_max values for " +
                                    std::to_string(rays.size()) + " rays");
    CudaBackend be;
    DeviceRays d(triangles, spheres, traversal, rays);
    CudaBuffer<float> t_buf;
    CudaBuffer<uint8_t> any_buf;
    t_buf.upload(t_max);
    any_buf.resize(threads);
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    const float* tm = t_buf.data();
    uint8_t* any = any_buf.data();
    be.parallel_for("any_hits_in_groups", threads, [=] __device__(uint32_t t) {
        any[t] = intersect_any_group(g, r[t >> shift], tm[t >> shift], t & 31u, shift) ? 1 : 0;
    });
    be.synchronize();
    std::vector<uint8_t> out(threads);
    any_buf.download(out.data(), out.size());
    return out;
}

std::vector<uint8_t> any_hits_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                     const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                     const std::vector<float>& t_max, LeafOrder order) {
    if (t_max.size() != rays.size())
        throw std::invalid_argument("any_hits_on_gpu: " + std::to_string(t_max.size()) + " t_max values for " +
                                    std::to_string(rays.size()) + " rays");
    CudaBackend be;
    DeviceRays d(triangles, spheres, traversal, rays);
    CudaBuffer<float> t_buf;
    CudaBuffer<uint8_t> any_buf;
    t_buf.upload(t_max);
    any_buf.resize(rays.size());
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    const float* t = t_buf.data();
    uint8_t* any = any_buf.data();
    if (order == LeafOrder::kImmediate)
        be.parallel_for("any_hits_immediate", uint32_t(rays.size()), [=] __device__(uint32_t i) {
            any[i] = intersect_any<LeafOrder::kImmediate>(g, r[i], t[i]) ? 1 : 0;
        });
    else
        be.parallel_for("any_hits_postponed", uint32_t(rays.size()), [=] __device__(uint32_t i) {
            any[i] = intersect_any<LeafOrder::kPostponed>(g, r[i], t[i]) ? 1 : 0;
        });
    be.synchronize();
    std::vector<uint8_t> out(rays.size());
    any_buf.download(out.data(), out.size());
    return out;
}

}  // namespace wf
