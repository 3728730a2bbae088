#include "accel/traverse_on_gpu.h"

#include <stdexcept>
#include <string>

#include "accel/traverse_group.h"
#include "accel/traverse_refill.h"
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

// DeviceRays with each ray's t_max, and room for `answers` any-hit answers.
struct DeviceShadowRays : DeviceRays {
    CudaBuffer<float> t_max;
    CudaBuffer<uint8_t> any;

    DeviceShadowRays(const char* what, const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                     const TraversalArrays& traversal, const std::vector<Ray>& ray_list,
                     const std::vector<float>& ray_t_max, size_t answers)
        : DeviceRays(triangles, spheres, traversal, ray_list) {
        if (ray_t_max.size() != ray_list.size())
            throw std::invalid_argument(std::string(what) + ": " + std::to_string(ray_t_max.size()) +
                                        " t_max values for " + std::to_string(ray_list.size()) + " rays");
        t_max.upload(ray_t_max);
        any.resize(answers);
    }
    std::vector<uint8_t> answers() const {
        std::vector<uint8_t> out(any.size());
        any.download(out.data(), out.size());
        return out;
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

// The buffers of a refilling launch and its checks.
struct RefillRun {
    CudaBuffer<Hit> hits;
    CudaBuffer<uint32_t> records, counter;

    RefillRun(const char* what, size_t rays, uint32_t threads) {
        if (threads == 0 || threads % 32 != 0)
            throw std::invalid_argument(std::string(what) + ": " + std::to_string(threads) +
                                        " threads (whole warps, at least one)");
        hits.resize(rays);
        records.resize(rays);
        counter.resize(2);
    }
    RefilledHits result() const {
        RefilledHits out;
        out.hits = hits.to_vector();
        out.records = records.to_vector();
        counter.download(out.counter, 2);
        return out;
    }
};

}  // namespace

RefilledHits closest_hits_on_gpu_refilling(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                           const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                           uint32_t threads, uint32_t refill_below) {
    CudaBackend be;
    DeviceRays d(triangles, spheres, traversal, rays);
    RefillRun run("closest_hits_on_gpu_refilling", rays.size(), threads);
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    Hit* h = run.hits.data();
    uint32_t* records = run.records.data();
    uint32_t* counter = run.counter.data();
    const uint32_t total = uint32_t(rays.size());
    be.parallel_for("closest_hits_refilling", threads, [=] __device__(uint32_t t) {
        closest_hits_refilling(
            g, t, threads, total, counter, refill_below, [&](uint32_t i) { return r[i]; },
            [&](uint32_t i, const Hit& hit) {
                h[i] = hit;
                atomicAdd(&records[i], 1u);
            });
    });
    be.synchronize();
    return run.result();
}

RefilledHits any_hits_on_gpu_refilling(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                       const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                       const std::vector<float>& t_max, uint32_t threads, uint32_t refill_below) {
    CudaBackend be;
    DeviceShadowRays d("any_hits_on_gpu_refilling", triangles, spheres, traversal, rays, t_max, 0);
    RefillRun run("any_hits_on_gpu_refilling", rays.size(), threads);
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    const float* tm = d.t_max.data();
    Hit* h = run.hits.data();
    uint32_t* records = run.records.data();
    uint32_t* counter = run.counter.data();
    const uint32_t total = uint32_t(rays.size());
    be.parallel_for("any_hits_refilling", threads, [=] __device__(uint32_t t) {
        any_hits_refilling(
            g, t, threads, total, counter, refill_below,
            [&](uint32_t i, float* ray_t_max) {
                *ray_t_max = tm[i];
                return r[i];
            },
            [&](uint32_t i, bool hit) {
                h[i].prim = hit ? 0u : kNoHit;  // found: any primitive but kNoHit
                atomicAdd(&records[i], 1u);
            });
    });
    be.synchronize();
    return run.result();
}

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
    CudaBackend be;
    DeviceShadowRays d("any_hits_on_gpu_in_groups", triangles, spheres, traversal, rays, t_max, threads);
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    const float* tm = d.t_max.data();
    uint8_t* any = d.any.data();
    be.parallel_for("any_hits_in_groups", threads, [=] __device__(uint32_t t) {
        any[t] = intersect_any_group(g, r[t >> shift], tm[t >> shift], t & 31u, shift) ? 1 : 0;
    });
    be.synchronize();
    return d.answers();
}

std::vector<uint8_t> any_hits_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                     const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                     const std::vector<float>& t_max, LeafOrder order) {
    CudaBackend be;
    DeviceShadowRays d("any_hits_on_gpu", triangles, spheres, traversal, rays, t_max, rays.size());
    const GeometryView g = d.geometry;
    const Ray* r = d.rays.data();
    const float* t = d.t_max.data();
    uint8_t* any = d.any.data();
    if (order == LeafOrder::kImmediate)
        be.parallel_for("any_hits_immediate", uint32_t(rays.size()), [=] __device__(uint32_t i) {
            any[i] = intersect_any<LeafOrder::kImmediate>(g, r[i], t[i]) ? 1 : 0;
        });
    else
        be.parallel_for("any_hits_postponed", uint32_t(rays.size()), [=] __device__(uint32_t i) {
            any[i] = intersect_any<LeafOrder::kPostponed>(g, r[i], t[i]) ? 1 : 0;
        });
    be.synchronize();
    return d.answers();
}

}  // namespace wf
