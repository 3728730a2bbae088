// Which leaf order (accel/traverse.h's LeafOrder) a traversal launch uses: the
// rule the intersect_closest and intersect_shadow stages share.
#pragma once

#include <cstdlib>
#include <type_traits>

#include "accel/geometry_view.h"
#include "accel/traverse.h"

namespace wf {

// What a launch holds: camera rays leave the lens together in pixel order and
// stay coherent, so a warp's rays reach their leaves together; scattered rays
// (bounces, light paths) and shadow rays do not.
enum class RayCoherence { kCameraRays, kScatteredRays };

// Scattered and shadow rays postpone leaves on the GPU where the tree's SAH
// cost (GeometryView::tree_sah: the walk a ray expects, in node visits and
// primitive tests) is at least this. Postponing pays where walks are long and
// costs where they are short. H100, bench_traversal, every scattered and shadow
// ray postponed against none, one call each, all bounces; shadow rays:
//   bump meshes of 1k / 3k / 10k triangles, SAH 21 / 28 / 36: -7% / -3.5% / +1%;
//   -6% / -4% / -2% (every lane's vote); with half the lanes' vote
//   (kLeafVoteQuarters) -12% / -7% / -0.5%; -17% / -13% / -8%;
//   bump meshes of 30k / 100k / 300k, SAH 43 / 50 / 55: +5% / +8% / +10.5%;
//   +1% / +3% / +3.5% (every lane's vote; at 30k the half vote gives the same,
//   +0.5% / -0.6% against it, and adds 5-10% at 1M and 10M triangles, SAH 62
//   and 75).
// Whole renders (bench_sphere_field, bench_pt), all postponed against none:
// the sphere field (SAH 5-8 at 1k to 4M spheres, CPU builder) 3.5-5% slower
// with every lane's vote, 7-12% with half; SmallVCM's scene 1 (SAH 9) 2% / 8%
// and the Cornell box (13) 4% / 7% (bench/NOTES.md). The primitive count alone
// does not tell: a field of 4M spheres walks short, a mesh of 30k bumps long.
inline constexpr float kPostponeLeavesMinSah = 40.0f;

template <class Backend>
LeafOrder leaf_order_for(RayCoherence rays, const GeometryView& geometry) {
    const bool postpone = Backend::kRunsInWarps && rays == RayCoherence::kScatteredRays &&
                          geometry.tree_sah >= kPostponeLeavesMinSah;
    return postpone ? LeafOrder::kPostponed : LeafOrder::kImmediate;
}

// Where walks are long by the same measure, a small launch of scattered or shadow
// rays that spreads its rays over 1 << kGroupWalkFromShift lanes or more
// (lanes_shift_per_item) has each ray walked by its lanes together
// (accel/traverse_group.h), in a launch of its own (for_all_queued_in_groups): in
// the same kernel the group walk made the ordinary walk spill and cost bumps-1M's
// full launches 2-6%. H200, bench_traversal, against main in the same call:
// MetalRoughSpheres (SAH 55) bounces 2+ 0.185-0.192 -> 0.214-0.219 G rays/s, all
// bounces 0.677-0.694 -> 0.718-0.738 (+6%), shadow rays 0.618-0.626 -> 0.682-0.687
// (+10%); bumps-1M within 0.6%, bumps-10M shadow rays +2.3%. Groups from 2 lanes
// and from 8 did less well than from 4 (closest hit). Where walks are short they
// lose (closest hit): pt's scenes 0-0.4% with groups in every scene, the sphere
// field (SAH 5-8) at 512k and 4M spheres 0.4-0.6% with groups from 65536
// primitives; under this rule both run as before (bench/NOTES.md).
inline constexpr uint32_t kGroupWalkFromShift = 2;

// The spread from which a launch over this geometry walks its rays in groups
// (for_all_items' groups_from; 6: never).
template <class Backend>
uint32_t group_walks_from(const GeometryView& geometry) {
    const bool groups = Backend::kRunsInWarps && geometry.tree_sah >= kPostponeLeavesMinSah;
    return groups ? kGroupWalkFromShift : 6u;
}

// Postponed launches of more than kRefillFromRaysPerThread rays per thread of
// the room their stage keeps resident run on resident warps whose lanes take new
// rays once fewer than kRefillBelowLanes of them still walk
// (accel/traverse_refill.h). The closest-hit stage writes their hits in place,
// and its ordinary launch then pushes them to their queues in queue order. H200,
// bench_traversal, bumps-1M, against no refills in the same call: diffuse
// bounce 1 1.456 -> 1.68-1.69 G rays/s, shadow rays 1.257 -> 1.51. Below
// four rays per thread the refills cost more than they save (bounce 3's 465k
// rays, 3.4 per thread, 3-10% slower), and warps refilling below 16, 20, 24 or
// 28 busy lanes differ by 1-3%. See bench/NOTES.md. The environment sets both
// for measurements: WF_TRAVERSAL_REFILL_BELOW=N (0 turns refilling off) and
// WF_TRAVERSAL_REFILL_FROM=N, read at every launch (a getenv beside a kernel
// launch), so that a test can render with refills and without in one process.
inline constexpr uint32_t kRefillBelowLanes = 24;
inline constexpr uint32_t kRefillFromRaysPerThread = 4;

namespace detail {
inline uint32_t env_count(const char* name, uint32_t fallback, uint32_t most) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == 0) return fallback;
    const unsigned long n = std::strtoul(v, nullptr, 10);
    return n > most ? most : uint32_t(n);
}
}  // namespace detail

inline uint32_t refill_below_lanes() {
    return detail::env_count("WF_TRAVERSAL_REFILL_BELOW", kRefillBelowLanes, 32);
}
// At least 1: the refilling launch then never takes a count the group launch may
// take as well (groups run only for counts of at most a sixteenth of the room).
inline uint32_t refill_from_rays_per_thread() {
    const uint32_t n = detail::env_count("WF_TRAVERSAL_REFILL_FROM", kRefillFromRaysPerThread, 1024);
    return n > 0 ? n : 1u;
}

// Calls launch(order) with the launch's leaf order (leaf_order_for) as a
// compile-time constant, std::integral_constant<LeafOrder, ...>, so a stage
// writes its kernel once as a template on the order. The CPU never postpones,
// so it never compiles the postponed kernel.
template <class Backend, class Launch>
void with_leaf_order(RayCoherence rays, const GeometryView& geometry, Launch&& launch) {
    if constexpr (Backend::kRunsInWarps) {
        if (leaf_order_for<Backend>(rays, geometry) == LeafOrder::kPostponed) {
            launch(std::integral_constant<LeafOrder, LeafOrder::kPostponed>{});
            return;
        }
    }
    launch(std::integral_constant<LeafOrder, LeafOrder::kImmediate>{});
}

}  // namespace wf
