// What the stages of the bidirectional family (lt, bpt, ppm, bpm, vcm) read: the
// scene, both sub-path records, the light vertices, the merging grid and the
// iteration's MIS constants. Built by wavefront/integrators/vcm.h per iteration.
#pragma once

#include <cstdint>

#include "accel/hash_grid.h"
#include "engine/film.h"
#include "engine/hd.h"
#include "engine/rng.h"
#include "wavefront/scene_view.h"
#include "wavefront/state/camera_path.h"
#include "wavefront/state/light_path.h"
#include "wavefront/state/light_vertex.h"
#include "wavefront/state/merge_query.h"
#include "wavefront/state/merge_vertex.h"
#include "wavefront/vcm_mis.h"

namespace wf {

// Which techniques run (SmallVCM's VertexCM switches).
struct VcmTechniques {
    bool light_trace_only = false;  // lt: light vertices splatted to the camera, no MIS
    bool connect = false;           // bpt, vcm: next-event estimation and vertex connection
    bool merge = false;             // ppm, bpm, vcm: vertex merging
    bool ppm = false;               // merge at the first non-delta camera vertex only, no MIS
    // An orthographic camera sees along one direction (a delta distribution): no light
    // vertex connects to it, and the camera sub-path's MIS counts no light-tracing
    // technique (generate_camera_rays). lt, which has nothing else, refuses it.
    bool delta_camera = false;

    bool connects_to_camera() const { return (light_trace_only || connect) && !delta_camera; }
};

// Statistics counted on the device (only when --stats asks for them).
enum VcmCounter : uint32_t {
    kCounterLightVertices = 0,   // light vertices stored
    kCounterConnections = 1,     // camera-vertex to light-vertex connections evaluated
    kCounterMerges = 2,          // light vertices merged (within the radius)
    kNumVcmCounters = 3,
};

// What differs between the iterations of one batch: the merging radius shrinks
// every iteration, and with it the MIS weights, the grid and its vertices.
struct VcmIteration {
    VcmWeights weights;
    float merge_radius = 0.0f;
    float vm_normalization = 0.0f;   // 1 / (pi r^2 light paths)
    HashGridView grid;               // over this iteration's light vertices (in the light pass its layout only: prepare)
    MergePoint* merge_points = nullptr;     // this iteration's light vertices in grid order:
    MergeVertex* merge_vertices = nullptr;  // what the tests read, and the rest
};

// A light path's vertex table entry with no vertex (a delta BSDF there, or the path ended).
inline constexpr uint32_t kNoLightVertex = 0xffffffffu;

// Iterations traced together in one wave (small films): light paths, light vertices
// and camera paths of up to this many iterations share the launches.
inline constexpr uint32_t kMaxVcmBatch = 8;

struct VcmContext {
    SceneView scene;
    CameraPathView camera_paths;
    LightPathView light_paths;       // `path` holds the batch light-path index b * light paths + p
    LightVertexView light_vertices;  // a block of light_vertices_per_iteration() per batch iteration
    uint32_t* light_vertex_counts;   // [batch iteration]: entries claimed in its block (zeroed per batch)
    uint32_t* light_vertex_buckets;  // merging: [entry] the vertex's bucket in its iteration's grid; else null
    uint32_t* light_path_vertices;   // [batch light path * vertex_stride + k - 1]: its vertex of path length k, or kNoLightVertex
    MergeQuery* merge_queries;       // merging: [index in the bounce's camera vertex queue] its query; else null
    uint32_t vertex_stride;          // max path length - 1: the most vertices a light path stores
    uint32_t num_light_paths;        // per iteration
    VcmTechniques techniques;
    uint32_t max_path_length;
    uint32_t seed;
    uint32_t first_iteration;        // of the batch
    VcmIteration iterations[kMaxVcmBatch];  // [iteration - first_iteration]
    FilmView film;
    uint32_t* counters;              // kNumVcmCounters in backend memory, or null: no statistics

    // Each iteration's light vertices fill a block of their own (its hash grid is built over
    // it): at most vertex_stride per light path.
    WF_HD size_t light_vertices_per_iteration() const { return size_t(vertex_stride) * num_light_paths; }
    // The next free entry of the light path's iteration block (store_light_vertex).
    WF_HD uint32_t claim_light_vertex(uint32_t batch_light_path) const {
        const uint32_t b = batch_light_path / num_light_paths;
        return uint32_t(b * light_vertices_per_iteration() + atomic_push_index_keyed(light_vertex_counts + b));
    }
    // The light path's row of the vertex table: entry k - 1 for path length k.
    WF_HD uint32_t* light_vertices_of_path(uint32_t batch_light_path) const {
        return light_path_vertices + size_t(batch_light_path) * vertex_stride;
    }
    WF_HD uint32_t light_vertex_of(uint32_t batch_light_path, uint32_t path_length) const {
        return light_vertices_of_path(batch_light_path)[path_length - 1];
    }
    WF_HD const VcmIteration& iteration_of_light_path(uint32_t batch_light_path) const {
        return iterations[batch_light_path / num_light_paths];
    }
    WF_HD PathRng light_rng(uint32_t batch_light_path, uint32_t bounce) const {
        uint32_t b = batch_light_path / num_light_paths;
        return PathRng{seed, batch_light_path - b * num_light_paths, first_iteration + b, bounce, kRngStreamLight};
    }
    // The iteration of a camera path is its sample index.
    WF_HD const VcmIteration& iteration_of_camera_path(uint32_t slot) const {
        return iterations[camera_paths.sample[slot] - first_iteration];
    }
    // The light sub-path a camera path connects to: the one with its pixel's index.
    WF_HD uint32_t light_path_of_camera_path(uint32_t slot) const {
        return (camera_paths.sample[slot] - first_iteration) * num_light_paths +
               camera_paths.pixel[slot] % num_light_paths;
    }

    WF_HD void count(VcmCounter c, uint32_t n) const {
        if (counters) atomic_add_aggregated(counters + c, n);
    }
};

}  // namespace wf
