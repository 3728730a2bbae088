// `pt`: path tracing with next-event estimation and MIS (SmallVCM's pathtracer),
// composed from its stages. The host loop only decides which stage runs next;
// every queue size stays in backend memory.
//
// Per wave: generate -> [intersect_closest -> shade_background -> shade_surface ->
// intersect_shadow -> compact] per bounce -> accumulate. A wave holds up to
// max_wave_paths camera paths, which may be several samples of each pixel.
#pragma once

#include <algorithm>

#include "wavefront/bounce_counters.h"
#include "wavefront/integrator.h"
#include "wavefront/stages/accumulate.h"
#include "wavefront/stages/compact.h"
#include "wavefront/stages/first_hit_aovs.h"
#include "wavefront/stages/generate_camera_rays.h"
#include "wavefront/stages/intersect_closest.h"
#include "wavefront/stages/intersect_shadow.h"
#include "wavefront/stages/pt_shade_background.h"
#include "wavefront/stages/pt_shade_surface.h"
#include "wavefront/stages/sort_by_material.h"

namespace wf {

template <class Backend>
class PathTracer final : public Integrator<Backend> {
public:
    explicit PathTracer(const RenderResources<Backend>& res) : res_(res), backend_(*res.backend) {
        const RenderSettings& s = res.settings;
        num_pixels_ = s.width * s.height;
        // Fill the wave with several samples of each pixel when the film is small.
        wave_size_ = res.max_wave_paths ? res.max_wave_paths : default_wave_paths(backend_);
        batch_ = std::max(1u, std::min(s.spp, wave_size_ / num_pixels_));
        wave_size_ = std::min<uint64_t>(wave_size_, uint64_t(num_pixels_) * batch_);
        paths_.allocate(wave_size_);
        for (auto* q : {&active_items_, &surface_items_, &escaped_items_}) q->resize(wave_size_);
        // One NEE shadow ray per path per bounce at most.
        shadow_rays_.allocate(wave_size_);
        counters_.allocate(s.max_depth);
        // The render session resolves Auto (resolve_material_sort); left unresolved, it is off.
        sort_materials_ = res.material_sort == MaterialSortMode::On;
        if (sort_materials_) material_sort_.allocate(wave_size_, res.scene.num_materials);
    }

    uint32_t max_batch() const override { return batch_; }

    // Paths per wave when the caller leaves it open. The late, nearly empty bounces of a
    // wave cost a few launches each however few paths are left, so a GPU renders faster in
    // fewer, larger waves (rtiow final scene, 9.6M camera paths, H100: 18.9 ms in waves of
    // 2M, 9.7 ms in one wave): the largest power of two up to 16M whose state takes at most
    // an eighth of the available memory. The CPU has no launches to save: 2M.
    static uint32_t default_wave_paths(const Backend& backend) {
        constexpr uint32_t kSmall = 1u << 21, kLarge = 1u << 24;
        if constexpr (!Backend::kPrefersLargeWaves) return kSmall;
        constexpr uint64_t kBytesPerPath = CameraPathStorage<Backend>::kBytesPerElement +
                                           ShadowRayStorage<Backend>::kBytesPerElement + 3 * sizeof(uint32_t);
        const uint64_t fits = backend.available_memory() / 8 / kBytesPerPath;
        uint32_t wave = kLarge;
        while (wave > kSmall && wave > fits) wave >>= 1;
        return wave;
    }

    void render(uint32_t first_iteration, uint32_t count) override {
        const uint64_t begin = uint64_t(first_iteration) * num_pixels_;
        const uint64_t end = begin + uint64_t(count) * num_pixels_;
        for (uint64_t first = begin; first < end; first += wave_size_)
            render_wave(first, uint32_t(std::min<uint64_t>(wave_size_, end - first)));
    }

    void report(RenderStats& stats) override { stats.bounces = counters_.totals(); }

private:
    SlotQueue<CameraPathView> queue(typename Backend::template Buffer<uint32_t>& items, uint32_t bounce,
                                    QueueKind kind, uint32_t n) {
        return {items.data(), counters_.size(bounce, kind), n};
    }

    void render_wave(uint64_t first_path, uint32_t num_paths) {
        const RenderSettings& s = res_.settings;
        const SceneView& scene = res_.scene;
        const FilmView film = res_.film->view();
        CameraPathView paths = paths_.view();
        counters_.begin_wave();

        GenerateCameraRaysContext gen{scene.camera, paths, s.seed, num_pixels_, first_path, num_paths, 0.0f};
        generate_camera_rays(backend_, gen, queue(active_items_, 0, kQueueActive, num_paths));
        PtShadeContext shade{scene, paths, s.max_depth, s.seed};
        for (uint32_t bounce = 0; bounce < s.max_depth; ++bounce) {
            if (!counters_.any_alive(backend_, bounce)) break;
            const uint32_t bound = counters_.launch_bound(bounce, num_paths);
            auto active = queue(active_items_, bounce, kQueueActive, bound);
            auto surface = queue(surface_items_, bounce, kQueueSurface, bound);
            auto escaped = queue(escaped_items_, bounce, kQueueEscaped, bound);
            WorkQueue<ShadowRayView> shadow{shadow_rays_.view(), counters_.size(bounce, kQueueShadow), bound};
            intersect_closest(backend_, "intersect_closest", scene.geometry, paths, active, surface, escaped,
                              bounce == 0 ? RayCoherence::kCameraRays : RayCoherence::kScatteredRays);
            if (bounce == 0 && film.has_aovs()) first_hit_aovs(backend_, scene, paths, surface, film);
            pt_shade_background(backend_, scene, paths, escaped);
            // Two instantiations: SmallVCM's and the rtiow materials alone keep the lean
            // shading kernel; glTF and microfacet materials need the dispatching one (4-5%
            // slower on H100).
            if (sort_materials_) surface = material_sort_.sort(backend_, scene, paths, surface);
            if (scene.needs_surface_bsdf) pt_shade_surface<SurfaceBsdf>(backend_, shade, surface, shadow);
            else pt_shade_surface<Bsdf>(backend_, shade, surface, shadow);
            intersect_shadow(backend_, "intersect_shadow", scene.geometry, shadow, film);
            compact(backend_, "compact", paths.alive, num_paths, queue(active_items_, bounce + 1, kQueueActive, num_paths));
            counters_.end_bounce(backend_, bounce);
        }
        accumulate(backend_, paths, num_paths, film);
        counters_.end_wave(backend_);
    }

    RenderResources<Backend> res_;
    Backend& backend_;
    CameraPathStorage<Backend> paths_;
    ShadowRayStorage<Backend> shadow_rays_;
    typename Backend::template Buffer<uint32_t> active_items_, surface_items_, escaped_items_;
    BounceCounters<Backend> counters_;
    MaterialSort<Backend> material_sort_;
    bool sort_materials_ = false;
    uint32_t num_pixels_ = 0, wave_size_ = 0, batch_ = 1;
};

}  // namespace wf
