// What the stages of the bidirectional family (lt, bpt, ppm, bpm, vcm) read: the
// scene, both sub-path records, the light vertices, the merging grid and the
// iteration's MIS constants. Built by wavefront/integrators/vcm.h per iteration.
#pragma once

#include <cstdint>

#include "accel/hash_grid.h"
#include "engine/film.h"
#include "wavefront/scene_view.h"
#include "wavefront/state/camera_path.h"
#include "wavefront/state/light_path.h"
#include "wavefront/state/light_vertex.h"
#include "wavefront/state/merge_vertex.h"
#include "wavefront/vcm_mis.h"

namespace wf {

// Which techniques run (SmallVCM's VertexCM switches).
struct VcmTechniques {
    bool light_trace_only = false;  // lt: light vertices splatted to the camera, no MIS
    bool connect = false;           // bpt, vcm: next-event estimation and vertex connection
    bool merge = false;             // ppm, bpm, vcm: vertex merging
    bool ppm = false;               // merge at the first non-delta camera vertex only, no MIS

    bool connects_to_camera() const { return light_trace_only || connect; }
};

// Statistics counted on the device (only when --stats asks for them).
enum VcmCounter : uint32_t {
    kCounterLightVertices = 0,   // light vertices stored
    kCounterConnections = 1,     // camera-vertex to light-vertex connections evaluated
    kCounterMerges = 2,          // light vertices merged (within the radius)
    kNumVcmCounters = 3,
};

struct VcmContext {
    SceneView scene;
    CameraPathView camera_paths;
    LightPathView light_paths;
    LightVertexView light_vertices;  // light path p, path length k: entry light_vertex_entry(p, k)
    uint32_t vertex_stride;          // max path length - 1: the most vertices a light path stores
    uint32_t num_light_paths;        // per iteration
    VcmTechniques techniques;
    VcmWeights weights;
    HashGridView grid;
    MergeVertexView merge_vertices;  // the light vertices in grid order (merging)
    float merge_radius;
    float vm_normalization;          // 1 / (pi r^2 light paths)
    uint32_t max_path_length;
    uint32_t seed;
    uint32_t iteration;
    FilmView film;
    uint32_t* counters;              // kNumVcmCounters in backend memory, or null: no statistics

    // Light vertices are stored by path length, then path: the vertices of one bounce of
    // the light pass are contiguous, so the stages writing and reading them coalesce.
    WF_HD uint32_t light_vertex_entry(uint32_t light_path, uint32_t path_length) const {
        return (path_length - 1) * num_light_paths + light_path;
    }

    WF_HD void count(VcmCounter c, uint32_t n) const {
        if (counters) atomic_add_aggregated(counters + c, n);
    }
};

}  // namespace wf
