// Stage `generate_light`: starts one light sub-path per light-path slot: picks a
// light, samples an emitted particle (position and direction) and starts the MIS
// quantities.
#pragma once

#include <cmath>

#include "materials/emitters.h"
#include "wavefront/queues.h"
#include "wavefront/rng_dims.h"
#include "wavefront/vcm_context.h"

namespace wf {

struct LightSubpathStart {
    bool valid = false;  // false: no particle (zero pdf or energy); the path never starts
    Ray ray{};
    Vec3f throughput{0.0f};
    SubpathMis mis{};
    bool from_finite_light = false;
};

// The start of a light sub-path from light `light_id`; u: the four emission numbers
// (direction pair, then position pair). The throughput is energy / (pick x emission
// pdf), and a particle whose pdf is 0 (a direction exactly along the light's surface)
// or infinite (a zero-area emitter), or whose throughput is not finite or is black, is
// refused: it could only carry Inf or NaN, or nothing.
WF_HD_INLINE LightSubpathStart start_light_subpath(const SceneView& scene, uint32_t light_id, float u0, float u1,
                                                   float u2, float u3, const VcmWeights& weights) {
    LightSubpathStart s;
    const Light& light = scene.lights[light_id];
    const float pick = scene.light_pick_prob(light_id);
    EmissionSample es = emit(light, scene.emitters(), u0, u1, u2, u3);
    float emission_pdf_w = es.pdf_emission_w * pick;
    float direct_pdf_a = es.pdf_direct_a * pick;
    // A degenerate emitter (zero area: an infinite area pdf) is refused as well.
    if (!(emission_pdf_w > 0.0f) || !std::isfinite(emission_pdf_w) || !std::isfinite(direct_pdf_a) ||
        is_black(es.energy))
        return s;
    s.throughput = es.energy / emission_pdf_w;
    if (!is_finite(s.throughput) || is_black(s.throughput)) return s;
    s.from_finite_light = !light_is_infinite(light);
    s.mis = light_subpath_start(direct_pdf_a, emission_pdf_w, es.cos_light, light_is_delta(light),
                                s.from_finite_light, weights);
    Vec3f origin = es.origin;
    if (light.type == LightType::Area) origin = offset_ray_origin(es.origin, es.origin_error, es.origin_normal, es.dir);
    s.ray = Ray{origin, es.dir};
    s.valid = true;
    return s;
}

// Paths that start are marked alive; compact turns them into the first active queue.
template <class Backend>
void generate_light(Backend& backend, const VcmContext& ctx, uint32_t first_path, uint32_t num_paths) {
    backend.parallel_for("generate_light", num_paths, WF_LAMBDA(uint32_t slot) {
        const LightPathView& p = ctx.light_paths;
        const uint32_t path = first_path + slot;
        uint32_t* vertices = ctx.light_vertices_of_path(path);
        for (uint32_t k = 0; k < ctx.vertex_stride; ++k) vertices[k] = kNoLightVertex;
        p.alive[slot] = 0;
        p.path[slot] = path;
        if (ctx.scene.num_lights == 0) return;
        PathRng rng = ctx.light_rng(path, 0);
        uint32_t light_id = ctx.scene.pick_light(rng.at(rng_dim::kEmitLightPick));
        LightSubpathStart s = start_light_subpath(ctx.scene, light_id, rng.at(rng_dim::kEmitDirU),
                                                  rng.at(rng_dim::kEmitDirV), rng.at(rng_dim::kEmitPosU),
                                                  rng.at(rng_dim::kEmitPosV),
                                                  ctx.iteration_of_light_path(path).weights);
        if (!s.valid) return;
        p.ray_origin[slot] = s.ray.origin;
        p.ray_dir[slot] = s.ray.dir;
        p.throughput[slot] = s.throughput;
        p.path_length[slot] = 1;
        p.from_finite_light[slot] = s.from_finite_light ? 1 : 0;
        p.d_vcm[slot] = s.mis.d_vcm;
        p.d_vc[slot] = s.mis.d_vc;
        p.d_vm[slot] = s.mis.d_vm;
        p.alive[slot] = 1;
    });
}

}  // namespace wf
