// Closest and any hits traced on the device over a traversal layout made on the
// host (CUDA builds only). Traversal runs per ray on the CPU and the GPU alike,
// but a warp's lanes vote on when to test leaves (LeafOrder::kPostponed), which
// only a device run exercises: tests hold its hits to brute force with this.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/traversal_bvh_build.h"
#include "accel/traverse.h"
#include "engine/scene_types.h"

namespace wf {

std::vector<Hit> closest_hits_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                     const TraversalArrays& traversal, const std::vector<Ray>& rays, LeafOrder order);

// intersect_closest_group's hits, each ray walked by 1 << shift lanes (shift 1..5),
// and the same hits as every lane of its group returned them: lane j's hit of
// ray i at [i << shift | j].
std::vector<Hit> closest_hits_on_gpu_in_groups(const std::vector<Triangle>& triangles,
                                               const std::vector<Sphere>& spheres, const TraversalArrays& traversal,
                                               const std::vector<Ray>& rays, uint32_t shift);

// intersect_any_group's answers, as closest_hits_on_gpu_in_groups lays them out.
std::vector<uint8_t> any_hits_on_gpu_in_groups(const std::vector<Triangle>& triangles,
                                               const std::vector<Sphere>& spheres, const TraversalArrays& traversal,
                                               const std::vector<Ray>& rays, const std::vector<float>& t_max,
                                               uint32_t shift);

// closest_hits_refilling (any_hits_refilling: with t_max) over `threads` resident
// threads (whole warps, fewer than the rays so that lanes refill), a lane taking
// a new ray once fewer than refill_below lanes of its warp walk: each ray's
// answer, how many times it was recorded (1), and the work counter after the
// launch (both 0).
struct RefilledHits {
    std::vector<Hit> hits;
    std::vector<uint32_t> records;
    uint32_t counter[2];
};
RefilledHits closest_hits_on_gpu_refilling(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                           const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                           uint32_t threads, uint32_t refill_below);
// As above with t_max; hits[i].prim is kNoHit where the ray is not occluded.
RefilledHits any_hits_on_gpu_refilling(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                       const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                       const std::vector<float>& t_max, uint32_t threads, uint32_t refill_below);

// Per ray, 1 where intersect_any finds a hit in (0, t_max[i]), else 0.
std::vector<uint8_t> any_hits_on_gpu(const std::vector<Triangle>& triangles, const std::vector<Sphere>& spheres,
                                     const TraversalArrays& traversal, const std::vector<Ray>& rays,
                                     const std::vector<float>& t_max, LeafOrder order);

}  // namespace wf
