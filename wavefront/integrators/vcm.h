// The bidirectional family: `lt`, `bpt`, `ppm`, `bpm` and `vcm` (SmallVCM's
// VertexCM), composed from stages. One iteration is one light pass and one camera
// pass (lt: the light pass only); on small films several iterations share a wave:
//
//   light pass, per wave of light paths:
//     generate_light -> compact -> per bounce: intersect_closest[light] ->
//     store_light_vertex -> connect_to_camera -> intersect_shadow[light] -> shade_light ->
//     compact + move_paths (survivors to the front of the other state buffer: compact_moving_paths.h)
//   build_hash_grid over every light vertex (when merging; its layout fixed before the
//     light pass, whose store_light_vertex computes each vertex's bucket)
//   camera pass, per wave of pixels:
//     generate -> per bounce: intersect_closest -> shade_background -> shade_surface ->
//     connect -> connect_vertices -> intersect_shadow -> merge -> scatter ->
//     accumulate_ended -> compact + move_paths
//
// Everything stays on the device; the host only reads the lagged active-queue
// sizes (to stop issuing bounces) and, with --stats, the event counters.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "accel/hash_grid.h"
#include "engine/integrators.h"
#include "materials/microfacet.h"
#include "materials/coverage_bsdf.h"
#include "wavefront/bounce_counters.h"
#include "wavefront/integrator.h"
#include "wavefront/stages/accumulate_ended.h"
#include "wavefront/stages/compact.h"
#include "wavefront/stages/compact_moving_paths.h"
#include "wavefront/stages/connect.h"
#include "wavefront/stages/connect_to_camera.h"
#include "wavefront/stages/first_hit_aovs.h"
#include "wavefront/stages/generate_camera_rays.h"
#include "wavefront/stages/gather_merge_vertices.h"
#include "wavefront/stages/generate_light.h"
#include "wavefront/stages/intersect_closest.h"
#include "wavefront/stages/intersect_shadow.h"
#include "wavefront/stages/merge.h"
#include "wavefront/stages/scatter.h"
#include "wavefront/stages/shade_light.h"
#include "wavefront/stages/store_light_vertex.h"
#include "wavefront/stages/vcm_shade_background.h"
#include "wavefront/stages/vcm_shade_surface.h"

namespace wf {

// ppm accepts glTF materials whose roughness is at least kPpmMinGltfRoughness: their GGX
// lobes must then all be rough (non-delta), or ppm would end paths at mixed vertices.
static_assert(kPpmMinGltfRoughness * kPpmMinGltfRoughness >= kGgxSmoothAlpha,
              "ppm's glTF roughness floor must give rough GGX lobes");

inline VcmTechniques vcm_techniques(IntegratorKind kind) {
    VcmTechniques t;
    switch (kind) {
        case IntegratorKind::Lt: t.light_trace_only = true; break;
        case IntegratorKind::Ppm: t.ppm = t.merge = true; break;
        case IntegratorKind::Bpm: t.merge = true; break;
        case IntegratorKind::Bpt: t.connect = true; break;
        case IntegratorKind::Vcm: t.connect = t.merge = true; break;
        default: throw std::invalid_argument("not an integrator of the bidirectional family");
    }
    return t;
}

template <class Backend>
class VertexConnectionMerging final : public Integrator<Backend> {
public:
    // Shadow rays one camera wave may push: bounds the camera wave for deep paths.
    static constexpr uint64_t kMaxShadowRaysPerWave = uint64_t(1) << 25;
    // Paths per wave when the caller leaves it open (pt's larger GPU waves are not measured here).
    static constexpr uint32_t kDefaultWavePaths = 1u << 21;
    // Light-vertex memory a batch of iterations may take (batches shrink to fit).
    static constexpr uint64_t kBatchVertexBytes = uint64_t(3) << 30;
    // What the sizing check allows for the counters and other buffers of a few bytes per
    // bounce or iteration.
    static constexpr uint64_t kSmallBuffersBytes = uint64_t(1) << 20;

    VertexConnectionMerging(const RenderResources<Backend>& res, IntegratorKind kind)
        : res_(res), backend_(*res.backend), techniques_(vcm_techniques(kind)) {
        techniques_.delta_camera = res.scene.camera.is_orthographic();
        const RenderSettings& s = res.settings;
        if (techniques_.light_trace_only && res.film->aovs()) throw std::invalid_argument(kLtAovProblem);
        num_pixels_ = s.width * s.height;
        num_light_paths_ = s.light_paths ? s.light_paths : num_pixels_;
        stride_ = std::max(1u, s.max_depth - 1);
        const uint32_t max_wave = res.max_wave_paths ? res.max_wave_paths : kDefaultWavePaths;
        const uint64_t entries = uint64_t(num_light_paths_) * stride_;  // per iteration
        // Per entry: the vertex, its light path's table entry, and for merging its grid
        // bucket and the copies in grid order.
        const uint64_t bytes_per_iteration =
            entries * (LightVertexStorage<Backend>::kBytesPerElement + sizeof(uint32_t) +
                       (techniques_.merge ? sizeof(uint32_t) + sizeof(MergePoint) + sizeof(MergeVertex) : 0));
        // Small films: trace several iterations in one wave (as pt does), within the
        // wave size and the light-vertex memory budget.
        batch_ = std::min<uint64_t>({kMaxVcmBatch, std::max<uint64_t>(1, s.spp),
                                     std::max<uint64_t>(1, max_wave / std::max(num_pixels_, num_light_paths_)),
                                     std::max<uint64_t>(1, kBatchVertexBytes / std::max<uint64_t>(1, bytes_per_iteration))});
        if (entries * batch_ > 0xffffffffull)
            throw std::invalid_argument("light paths x (max path length - 1) = " + std::to_string(entries) +
                                        " light-vertex entries: expected at most 2^32 - 1; use fewer --light-paths "
                                        "or a smaller --max-depth");
        // What a batch of b iterations needs in all: the waves' path state and queues, the
        // light vertices, the hash grids, the shadow-ray queue and the connections, and
        // kSmallBuffersBytes for the per-bounce counters.
        const auto memory_for = [&](uint32_t b) {
            BatchMemory m;
            m.light_wave = uint32_t(std::min<uint64_t>(uint64_t(num_light_paths_) * b, max_wave));
            m.camera_wave = std::max(1u, uint32_t(std::min<uint64_t>(
                                             {uint64_t(num_pixels_) * b, max_wave, kMaxShadowRaysPerWave / (1 + stride_)})));
            m.vertex_bytes = bytes_per_iteration * b;
            // Shadow rays: light vertices connected to the camera (lt, bpt, vcm), and next-event
            // estimation plus vertex connections from camera vertices (bpt, vcm).
            const uint64_t light_shadow = techniques_.connects_to_camera() ? m.light_wave : 0;
            const uint64_t camera_shadow = techniques_.connect ? uint64_t(m.camera_wave) * (1 + stride_) : 0;
            m.shadow_capacity = std::max<uint64_t>({1, light_shadow, camera_shadow});
            const uint64_t connection_bytes =
                techniques_.connect ? uint64_t(m.camera_wave) * stride_ * ConnectionStorage<Backend>::kBytesPerElement : 0;
            const uint64_t grid_bytes =
                techniques_.merge ? b * HashGrid<Backend>::reserved_bytes(uint32_t(entries), uint32_t(entries / 4)) : 0;
            const uint64_t camera_slots = techniques_.light_trace_only ? 0 : m.camera_wave;
            // Path state twice (survivors move between two buffers, compact_moving_paths.h),
            // two light queues and four camera queues of a slot each, and the merge queries.
            m.needed = m.vertex_bytes + grid_bytes +
                       uint64_t(m.light_wave) * (2 * LightPathStorage<Backend>::kBytesPerElement + 2 * sizeof(uint32_t)) +
                       camera_slots * (2 * CameraPathStorage<Backend>::kBytesPerElement + 4 * sizeof(uint32_t) +
                                       (techniques_.merge ? sizeof(MergeQuery) : 0)) +
                       m.shadow_capacity * ShadowRayStorage<Backend>::kBytesPerElement + connection_bytes +
                       kSmallBuffersBytes;
            return m;
        };
        // A batch that does not fit the device (or the --max-memory limit) shrinks, down to one
        // iteration; a film too large even for that is a clear error here, not a failed
        // allocation later.
        const uint64_t available = backend_.available_memory();
        BatchMemory plan = memory_for(batch_);
        while (plan.needed > available && batch_ > 1) plan = memory_for(--batch_);
        light_wave_ = plan.light_wave;
        camera_wave_ = plan.camera_wave;
        vertex_bytes_ = plan.vertex_bytes;
        shadow_capacity_ = plan.shadow_capacity;
        const uint64_t needed = plan.needed;
        if (needed > available) {
            auto gib = [](uint64_t b) { return std::to_string(double(b) / double(1ull << 30)).substr(0, 6) + " GiB"; };
            // Under --max-memory the limit, not the device, may be what falls short: say which.
            const uint64_t limit = backend_.memory().limit.load();
            const bool by_limit = limit != 0 && available == backend_.memory().left_under_limit();
            const std::string have = by_limit ? "the --max-memory limit of " + gib(limit) + " leaves " + gib(available)
                                              : backend_.device_name() + " has " + gib(available);
            throw std::runtime_error(s.integrator + " at " + std::to_string(s.width) + "x" + std::to_string(s.height) +
                                     " with max path length " + std::to_string(s.max_depth) + " needs " + gib(needed) +
                                     " for light vertices, path state and queues (" + std::to_string(num_light_paths_) +
                                     " light paths x " + std::to_string(stride_) + " vertices), but " + have +
                                     " available; use fewer --light-paths, a smaller film" +
                                     (by_limit ? ", a smaller --max-depth or a larger --max-memory"
                                               : " or a smaller --max-depth"));
        }
        light_vertices_.allocate(uint32_t(entries * batch_));
        light_path_vertices_.resize(entries * batch_);
        light_vertex_counts_.resize(kMaxVcmBatch);
        for (auto& b : light_paths_) b.allocate(light_wave_);
        light_active_.resize(light_wave_);
        light_surface_.resize(light_wave_);
        light_counters_.allocate(std::max(1u, s.max_depth - 1));  // light paths trace max - 1 segments
        if (!techniques_.light_trace_only) {
            for (auto& b : camera_paths_) b.allocate(camera_wave_);
            for (auto* q : {&camera_active_, &camera_surface_, &camera_escaped_, &camera_vertices_})
                q->resize(camera_wave_);
            if (techniques_.merge) merge_queries_.resize(camera_wave_);
            camera_counters_.allocate(s.max_depth);
            vertex_counts_.resize(s.max_depth);
            if (techniques_.connect) {
                connections_.allocate(uint32_t(std::min<uint64_t>(uint64_t(camera_wave_) * stride_, 0xffffffffull)));
                connection_counts_.resize(s.max_depth);
            }
        }
        shadow_rays_.allocate(uint32_t(shadow_capacity_));
        if (techniques_.merge) {
            light_vertex_buckets_.resize(entries * batch_);
            merge_points_.resize(entries * batch_);
            merge_vertices_.resize(entries * batch_);
            // Buckets: a quarter of the entries (a power of two above). Only the non-delta
            // hits are stored, about a quarter of the entries in SmallVCM's scenes, and a
            // small table stays in the L2 cache while the camera pass queries it.
            for (uint32_t b = 0; b < batch_; ++b) grids_[b].reserve(uint32_t(entries), uint32_t(entries / 4));
        }
        counters_.resize(kNumVcmCounters + 1);
        cells_used_.resize(kMaxVcmBatch);
        base_radius_ = s.radius_factor * res.scene.scene_sphere.radius;
    }

    uint32_t max_batch() const override { return batch_; }

    void render(uint32_t first_iteration, uint32_t count) override {
        for (uint32_t i = first_iteration; i < first_iteration + count; i += batch_)
            render_batch(i, std::min(batch_, first_iteration + count - i));
    }

    void report(RenderStats& stats) override {
        stats.light_bounces = light_counters_.totals();
        if (!techniques_.light_trace_only) stats.bounces = camera_counters_.totals();
        double shadow_rays = 0.0;
        for (const BounceQueueSizes& q : stats.light_bounces) shadow_rays += double(q.shadow);
        for (const BounceQueueSizes& q : stats.bounces) shadow_rays += double(q.shadow);
        stats.counters.push_back({"shadow rays traced", shadow_rays});
        stats.counters.push_back({"light vertices stored", double(totals_[kCounterLightVertices])});
        if (techniques_.connect)
            stats.counters.push_back({"connections to light vertices", double(totals_[kCounterConnections])});
        if (techniques_.merge) {
            stats.counters.push_back({"light vertices merged", double(totals_[kCounterMerges])});
            stats.counters.push_back({"hash grid buckets used", double(totals_[kNumVcmCounters])});
            stats.counters.push_back({"merge radius (last iteration)", double(last_radius_), false});
        }
        stats.counters.push_back({"light paths per iteration", double(num_light_paths_), false});
        stats.counters.push_back({"iterations per batch", double(batch_), false});
        stats.counters.push_back({"light vertex memory (bytes)", double(vertex_bytes_), false});
        stats.counters.push_back({"shadow-ray queue capacity", double(shadow_capacity_), false});
    }

private:
    using Items = typename Backend::template Buffer<uint32_t>;

    struct BatchMemory {
        uint32_t light_wave = 0, camera_wave = 0;
        uint64_t vertex_bytes = 0, shadow_capacity = 0, needed = 0;
    };

    template <class View>
    SlotQueue<View> queue(Items& items, BounceCounters<Backend>& c, uint32_t bounce, QueueKind kind, uint32_t n) {
        return {items.data(), c.size(bounce, kind), n};
    }

    // Iterations [first, first + count) together: one light pass over all their light
    // paths, a grid per iteration, one camera pass over all their camera paths.
    void render_batch(uint32_t first, uint32_t count) {
        const RenderSettings& s = res_.settings;
        VcmContext ctx{};
        ctx.scene = res_.scene;
        ctx.camera_paths = camera_paths_view(0);
        ctx.light_paths = light_paths_view(0);
        ctx.light_vertices = light_vertices_.view();
        ctx.light_vertex_counts = light_vertex_counts_.data();
        ctx.light_vertex_buckets = techniques_.merge ? light_vertex_buckets_.data() : nullptr;
        ctx.light_path_vertices = light_path_vertices_.data();
        ctx.merge_queries = techniques_.merge ? merge_queries_.data() : nullptr;  // lt never merges
        light_vertex_counts_.fill_zero();
        ctx.vertex_stride = stride_;
        ctx.num_light_paths = num_light_paths_;
        ctx.techniques = techniques_;
        ctx.max_path_length = s.max_depth;
        ctx.seed = s.seed;
        ctx.first_iteration = first;
        ctx.film = res_.film->view();
        ctx.counters = res_.count_events ? counters_.data() : nullptr;
        if (ctx.counters) counters_.fill_zero();
        const size_t per_iteration = ctx.light_vertices_per_iteration();
        for (uint32_t b = 0; b < count; ++b) {
            VcmIteration& it = ctx.iterations[b];
            it.merge_radius = merge_radius(base_radius_, s.radius_alpha, first + b);
            it.weights = VcmWeights::make(techniques_.connect, techniques_.merge, it.merge_radius, float(num_light_paths_));
            it.vm_normalization = 1.0f / (kPi * it.merge_radius * it.merge_radius * float(num_light_paths_));
            if (techniques_.merge) {
                // The grid's layout is fixed before the light pass, which computes the
                // buckets of the vertices it stores (VcmContext::light_vertex_buckets).
                it.grid = grids_[b].prepare(res_.scene.bounds, it.merge_radius);
                it.merge_points = merge_points_.data() + b * per_iteration;
                it.merge_vertices = merge_vertices_.data() + b * per_iteration;
            }
            last_radius_ = it.merge_radius;
        }

        const uint32_t light_paths = num_light_paths_ * count;
        // The stages that rebuild BSDFs come in two instantiations (as pt's shade_surface):
        // the dispatching one (CoverageBsdf, materials/coverage_bsdf.h: any material type,
        // with glTF's alpha coverage) only for scenes with glTF or microfacet materials.
        const bool dispatching = ctx.scene.needs_surface_bsdf;
        for (uint32_t offset = 0; offset < light_paths; offset += light_wave_) {
            const uint32_t n = std::min(light_wave_, light_paths - offset);
            if (dispatching) light_wave<CoverageBsdf>(ctx, offset, n);
            else light_wave<Bsdf>(ctx, offset, n);
        }
        if (techniques_.merge) {
            for (uint32_t b = 0; b < count; ++b) {
                const VcmIteration& it = ctx.iterations[b];
                LightVertexView block = ctx.light_vertices.from(b * per_iteration);
                // it.grid is prepare()'s view already: the build fills its cells in place.
                // The buckets used are counted only for statistics (--stats).
                grids_[b].build_from_buckets(backend_, ctx.light_vertex_buckets + b * per_iteration,
                                             uint32_t(per_iteration), ctx.light_vertex_counts + b, ctx.counters != nullptr);
                if (dispatching) gather_merge_vertices<CoverageBsdf>(backend_, it, block, uint32_t(per_iteration));
                else gather_merge_vertices<Bsdf>(backend_, it, block, uint32_t(per_iteration));
            }
        }
        if (!techniques_.light_trace_only) {
            const uint32_t camera_paths = num_pixels_ * count;
            for (uint32_t offset = 0; offset < camera_paths; offset += camera_wave_) {
                const uint32_t n = std::min(camera_wave_, camera_paths - offset);
                if (dispatching) camera_wave<CoverageBsdf>(ctx, offset, n);
                else camera_wave<Bsdf>(ctx, offset, n);
            }
        }
        if (ctx.counters) read_counters(count);
    }

    template <class BsdfT>
    void light_wave(const VcmContext& batch_ctx, uint32_t first_path, uint32_t n) {
        const RenderSettings& s = res_.settings;
        VcmContext ctx = batch_ctx;  // its light_paths: the state buffer of the bounce
        uint32_t buffer = 0;
        ctx.light_paths = light_paths_view(buffer);
        BounceCounters<Backend>& c = light_counters_;
        c.begin_wave();
        generate_light(backend_, ctx, first_path, n);
        compact(backend_, "compact[light]", ctx.light_paths.alive, n, queue<LightPathView>(light_active_, c, 0, kQueueActive, n));
        // A light path stores vertices of path length 1 .. max - 1 (SmallVCM: it stops when
        // length + 2 > max), so it traces at most max - 1 segments.
        for (uint32_t bounce = 0; bounce + 1 < s.max_depth; ++bounce) {
            if (!c.any_alive(backend_, bounce)) break;
            const uint32_t bound = c.launch_bound(bounce, n);
            auto active = queue<LightPathView>(light_active_, c, bounce, kQueueActive, bound);
            auto surface = queue<LightPathView>(light_surface_, c, bounce, kQueueSurface, bound);
            SlotQueue<LightPathView> no_escaped{nullptr, c.size(bounce, kQueueEscaped), bound};
            intersect_closest(backend_, "intersect_closest[light]", ctx.scene.geometry, ctx.light_paths, active,
                              surface, no_escaped, RayCoherence::kScatteredRays);
            if (techniques_.merge) store_light_vertex<BsdfT, true>(backend_, ctx, surface);
            else store_light_vertex<BsdfT, false>(backend_, ctx, surface);
            if (techniques_.connects_to_camera()) {
                WorkQueue<ShadowRayView> shadow{shadow_rays_.view(), c.size(bounce, kQueueShadow), bound};
                connect_to_camera<BsdfT>(backend_, ctx, surface, shadow);
                intersect_shadow(backend_, "intersect_shadow[light]", ctx.scene.geometry, shadow, ctx.film);
            }
            shade_light<BsdfT>(backend_, ctx, surface);
            buffer ^= 1u;
            compact_moving_paths(backend_, "compact[light]", "move_paths[light]", ctx.light_paths,
                                 light_paths_view(buffer), bound,
                                 queue<LightPathView>(light_active_, c, bounce + 1, kQueueActive, n));
            ctx.light_paths = light_paths_view(buffer);
            c.end_bounce(backend_, bounce);
        }
        c.end_wave(backend_);
    }

    // Camera paths [first_path, first_path + n) of the batch: path g is pixel g % pixels
    // of iteration first_iteration + g / pixels.
    template <class BsdfT>
    void camera_wave(const VcmContext& batch_ctx, uint32_t first_path, uint32_t n) {
        const RenderSettings& s = res_.settings;
        VcmContext ctx = batch_ctx;  // its camera_paths: the state buffer of the bounce
        uint32_t buffer = 0;
        ctx.camera_paths = camera_paths_view(buffer);
        BounceCounters<Backend>& c = camera_counters_;
        c.begin_wave();
        vertex_counts_.fill_zero();
        if (techniques_.connect) connection_counts_.fill_zero();
        GenerateCameraRaysContext gen{ctx.scene.camera, ctx.camera_paths, s.seed, num_pixels_,
                                      uint64_t(ctx.first_iteration) * num_pixels_ + first_path, n,
                                      float(num_light_paths_)};
        generate_camera_rays(backend_, gen, queue<CameraPathView>(camera_active_, c, 0, kQueueActive, n));
        for (uint32_t bounce = 0; bounce < s.max_depth; ++bounce) {
            if (!c.any_alive(backend_, bounce)) break;
            const uint32_t bound = c.launch_bound(bounce, n);
            auto active = queue<CameraPathView>(camera_active_, c, bounce, kQueueActive, bound);
            auto surface = queue<CameraPathView>(camera_surface_, c, bounce, kQueueSurface, bound);
            auto escaped = queue<CameraPathView>(camera_escaped_, c, bounce, kQueueEscaped, bound);
            // Camera vertices that connect, merge and scatter (one counter per bounce).
            SlotQueue<CameraPathView> vertices{camera_vertices_.data(), vertex_counts_.data() + bounce, bound};
            intersect_closest(backend_, "intersect_closest", ctx.scene.geometry, ctx.camera_paths, active, surface,
                              escaped, bounce == 0 ? RayCoherence::kCameraRays : RayCoherence::kScatteredRays);
            if (bounce == 0 && ctx.film.has_aovs())
                first_hit_aovs(backend_, ctx.scene, ctx.camera_paths, surface, ctx.film);
            vcm_shade_background(backend_, ctx, escaped);
            vcm_shade_surface<BsdfT>(backend_, ctx, surface, vertices);
            if (techniques_.connect) {
                WorkQueue<ShadowRayView> shadow{shadow_rays_.view(), c.size(bounce, kQueueShadow),
                                                uint32_t(std::min<uint64_t>(shadow_capacity_, uint64_t(bound) * (1 + stride_)))};
                WorkQueue<ConnectionView> connections{connections_.view(), connection_counts_.data() + bounce,
                                                      uint32_t(uint64_t(bound) * stride_)};
                connect<BsdfT>(backend_, ctx, vertices, shadow, connections);
                connect_vertices<BsdfT>(backend_, ctx, connections, shadow);
                intersect_shadow(backend_, "intersect_shadow", ctx.scene.geometry, shadow, ctx.film);
            }
            if (techniques_.merge) merge<BsdfT>(backend_, ctx, vertices);
            scatter<BsdfT>(backend_, ctx, vertices);
            accumulate_ended(backend_, ctx.camera_paths, active, bounce + 1 == s.max_depth, ctx.film);
            buffer ^= 1u;
            compact_moving_paths(backend_, "compact", "move_paths", ctx.camera_paths, camera_paths_view(buffer), bound,
                                 queue<CameraPathView>(camera_active_, c, bounce + 1, kQueueActive, n));
            ctx.camera_paths = camera_paths_view(buffer);
            c.end_bounce(backend_, bounce);
        }
        c.end_wave(backend_);
    }

    // The view of one of a pass's two path state buffers (compact_moving_paths.h): both
    // share buffer 0's `alive`.
    template <class Storage>
    static auto state_view(Storage (&buffers)[2], uint32_t buffer) {
        auto v = buffers[buffer].view();
        v.alive = buffers[0].alive.data();
        return v;
    }
    LightPathView light_paths_view(uint32_t buffer) { return state_view(light_paths_, buffer); }
    CameraPathView camera_paths_view(uint32_t buffer) { return state_view(camera_paths_, buffer); }

    void read_counters(uint32_t count) {
        std::vector<uint32_t> v = counters_.to_vector();
        for (uint32_t i = 0; i < kNumVcmCounters; ++i) totals_[i] += v[i];
        if (techniques_.merge) {  // the grids' bucket counts: one copy each, one wait
            for (uint32_t b = 0; b < count; ++b)
                backend_.copy_counter_to_host(cells_used_.data() + b, grids_[b].cells_used_counter());
            backend_.synchronize();
            for (uint32_t b = 0; b < count; ++b) totals_[kNumVcmCounters] += cells_used_.data()[b];
        }
    }

    RenderResources<Backend> res_;
    Backend& backend_;
    VcmTechniques techniques_;
    uint32_t num_pixels_ = 0, num_light_paths_ = 0, stride_ = 1, batch_ = 1;
    uint32_t light_wave_ = 0, camera_wave_ = 0;
    uint64_t shadow_capacity_ = 0, vertex_bytes_ = 0;
    float base_radius_ = 0.0f, last_radius_ = 0.0f;
    LightPathStorage<Backend> light_paths_[2];  // the surviving paths move between them every bounce
    LightVertexStorage<Backend> light_vertices_;
    Items light_path_vertices_;  // the light-path vertex table (VcmContext::light_path_vertices)
    Items light_vertex_counts_;  // per batch iteration: entries claimed in its block
    Items light_vertex_buckets_;  // merging: each light vertex's bucket in its iteration's grid
    typename Backend::template Buffer<MergePoint> merge_points_;
    typename Backend::template Buffer<MergeVertex> merge_vertices_;
    CameraPathStorage<Backend> camera_paths_[2];
    ShadowRayStorage<Backend> shadow_rays_;
    Items light_active_, light_surface_;
    Items camera_active_, camera_surface_, camera_escaped_, camera_vertices_;
    typename Backend::template Buffer<MergeQuery> merge_queries_;  // at camera_vertices_'s indices (merging)
    Items vertex_counts_;
    ConnectionStorage<Backend> connections_;  // camera-vertex to light-vertex connections of a bounce
    Items connection_counts_;
    BounceCounters<Backend> light_counters_, camera_counters_;
    HashGrid<Backend> grids_[kMaxVcmBatch];
    Items counters_;
    typename Backend::CounterMirror cells_used_;  // host copies of the grids' bucket counts (--stats)
    uint64_t totals_[kNumVcmCounters + 1] = {};
};

}  // namespace wf
