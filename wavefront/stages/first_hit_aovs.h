// Stage `first_hit_aovs`: at the first surface each camera ray hits (bounce 0's surface
// queue), adds the sample's albedo, shading normal and depth (engine/aov.h says exactly
// what they are) to the film's AOV sums. Escaped camera rays add 0 to every AOV, which
// the zeroed sums already hold, so the escaped queue needs no launch.
//
// A stage of its own, shared by pt and the camera pass of the bidirectional family,
// rather than lines in their shading stages: it runs only when the film has AOVs (one
// launch per camera wave), so a render without AOVs launches and reads nothing more.
#pragma once

#include "engine/film.h"
#include "materials/surface_bsdf.h"
#include "wavefront/queues.h"
#include "wavefront/scene_view.h"
#include "wavefront/stages/path_vertex.h"
#include "wavefront/state/camera_path.h"

namespace wf {

template <class BsdfT, class Backend>
void first_hit_aovs_with(Backend& backend, const SceneView& scene, const CameraPathView& paths,
                         SlotQueue<CameraPathView> surface, FilmView film) {
    for_all_queued(backend, "first_hit_aovs", surface, WF_LAMBDA(uint32_t slot) {
        const auto v = subpath_vertex<BsdfT>(scene, paths, slot, true);
        const Vec3f ray_dir = paths.ray_dir[slot];
        // The BSDF's frame normal is the shading normal (glTF) or the geometric one; an
        // invalid BSDF (grazing or one-sided back hit) has none: the geometric normal.
        Vec3f n = v.bsdf.is_valid() ? v.bsdf.normal() : v.sp.ng;
        if (dot(n, ray_dir) > 0.0f) n = -n;  // toward the side the camera ray came from
        film.add_first_hit(paths.pixel[slot], v.bsdf.albedo(), n, paths.hit_t[slot]);  // ray_dir is unit
    });
}

// Call after the first intersect_closest of a camera wave, when film.has_aovs().
// Scenes with glTF or microfacet materials need the dispatching BSDF (engine/scene_types.h
// needs_surface_bsdf).
template <class Backend>
void first_hit_aovs(Backend& backend, const SceneView& scene, const CameraPathView& paths,
                    SlotQueue<CameraPathView> surface, FilmView film) {
    if (scene.needs_surface_bsdf) first_hit_aovs_with<SurfaceBsdf>(backend, scene, paths, surface, film);
    else first_hit_aovs_with<Bsdf>(backend, scene, paths, surface, film);
}

}  // namespace wf
