// The integrator interface. An integrator is one file (wavefront/integrators/)
// that composes stages; it renders with resources the render session owns
// (scene, BVH, film) and owns only its own state records and queues.
// Integrators are found through wavefront/integrator_registry.h.
#pragma once

#include <cstdint>

#include "engine/film.h"
#include "engine/scene.h"
#include "wavefront/render_stats.h"
#include "wavefront/scene_view.h"

namespace wf {

// What every integrator renders with. Owned by the render session (app/).
template <class Backend>
struct RenderResources {
    Backend* backend = nullptr;
    SceneView scene{};               // device view of the scene and its BVH
    Film<Backend>* film = nullptr;   // the image: every contribution is added here
    RenderSettings settings;         // resolution, depth, seed, integrator parameters
    // Paths traced at once (state memory); 0 lets the integrator choose. The image does not depend on it.
    uint32_t max_wave_paths = 0;
    bool count_events = false;           // count light vertices, connections, merges (--stats)
    MaterialSortMode material_sort = MaterialSortMode::Auto;
};

template <class Backend>
class Integrator {
public:
    virtual ~Integrator() = default;
    // Most iterations one render() call should take: on small films both pt and the
    // bidirectional family trace several iterations in one wave.
    virtual uint32_t max_batch() const = 0;
    // Renders iterations [first, first + count): for pt one sample per pixel each; for
    // the bidirectional family one light pass and one camera pass each. The film's
    // sums grow by one estimate of every pixel per iteration.
    virtual void render(uint32_t first_iteration, uint32_t count) = 0;
    // Adds queue sizes and counters (stage times come from the backend).
    virtual void report(RenderStats& stats) = 0;
};

}  // namespace wf
