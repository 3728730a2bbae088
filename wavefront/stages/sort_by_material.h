// Stage `sort_by_material` (pt, optional): reorders the surface queue so that hits of one
// material lie next to each other before shade_surface, so that a warp runs one
// material's code and reads one material's textures (the seeds' "material sorting").
// A stable radix sort (CUB on the GPU) of (material id, slot) pairs over the queue's
// launch bound: the key of an entry past the queue's size is num_materials, which sorts
// it behind every real one, so the sorted queue keeps the size counter of the unsorted
// one and no count goes to the host. Each path's result is the same in any order: the
// image does not change, only the time (bench/bench_gltf.cpp measures both).
#pragma once

#include <bit>
#include <cstdint>

#include "wavefront/queues.h"
#include "wavefront/scene_view.h"
#include "wavefront/state/camera_path.h"

namespace wf {

template <class Backend>
class MaterialSort {
public:
    template <class T>
    using Buffer = typename Backend::template Buffer<T>;

    void allocate(uint32_t capacity, uint32_t num_materials) {
        keys_.resize(capacity);
        sorted_keys_.resize(capacity);
        sorted_items_.resize(capacity);
        num_materials_ = num_materials;
    }

    // The surface queue in material order (same size counter, new items).
    SlotQueue<CameraPathView> sort(Backend& backend, const SceneView& scene, const CameraPathView& paths,
                                   SlotQueue<CameraPathView> surface) {
        const uint32_t n = surface.capacity;
        const uint32_t past_end = num_materials_;
        uint32_t* keys = keys_.data();
        backend.parallel_for("material_keys", n, WF_LAMBDA(uint32_t i) {
            keys[i] = i < *surface.size ? scene.geometry.prims[paths.hit_prim[surface.items[i]]].material : past_end;
        });
        const int key_bits = int(std::bit_width(past_end));
        backend.sort_pairs("sort_by_material", keys, sorted_keys_.data(), surface.items, sorted_items_.data(), n,
                           key_bits);
        return {sorted_items_.data(), surface.size, surface.capacity};
    }

private:
    Buffer<uint32_t> keys_, sorted_keys_, sorted_items_;
    uint32_t num_materials_ = 0;
};

}  // namespace wf
