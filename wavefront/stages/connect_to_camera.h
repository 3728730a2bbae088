// Stage `connect_to_camera` (lt, bpt, vcm): each light vertex just stored is
// connected to the (pinhole) camera: a shadow ray toward the eye that, when
// unoccluded, splats onto the pixel the vertex projects to (eqs. 46-47; no MIS
// for plain light tracing). Divided by the number of light paths, the technique's
// sample count per pixel.
#pragma once

#include "wavefront/queues.h"
#include "wavefront/stages/intersect_shadow.h"
#include "wavefront/stages/vcm_vertex.h"
#include "wavefront/vcm_context.h"

namespace wf {

template <class BsdfT, class Backend>
void connect_to_camera(Backend& backend, const VcmContext& ctx, SlotQueue<LightPathView> surface,
                       WorkQueue<ShadowRayView> shadow) {
    for_all_queued(backend, "connect_to_camera", surface, WF_LAMBDA(uint32_t slot) {
        const LightPathView& p = ctx.light_paths;
        const LightVertexView& lv = ctx.light_vertices;
        const uint32_t e = ctx.light_vertex_of(p.path[slot], p.path_length[slot]);
        if (e == kNoLightVertex) return;  // a delta BSDF here
        const VcmWeights& weights = ctx.iteration_of_light_path(p.path[slot]).weights;
        const Camera& camera = ctx.scene.camera;
        const Vec3f point = lv.position[e];
        float rx, ry;
        uint32_t pixel;
        if (!camera.world_to_raster(point, &rx, &ry) || !ctx.film.pixel_at(rx, ry, &pixel)) return;
        Vec3f to_camera = camera.position - point;
        float dist2 = length_squared(to_camera);
        float dist = sqrtf(dist2);
        to_camera = to_camera / dist;
        const BsdfT bsdf = light_vertex_bsdf<BsdfT>(ctx.scene, lv, e);
        BsdfEval ev = bsdf.evaluate(to_camera);
        if (is_black(ev.factor)) return;
        // Camera pdf of generating this point, per unit area there (pixel area 1).
        float camera_pdf_a = camera.pdf_direction_per_pixel(-to_camera) * ev.cos_out / dist2;
        float weight = 1.0f;
        if (!ctx.techniques.light_trace_only) {
            SubpathMis mis{lv.d_vcm[e], lv.d_vc[e], lv.d_vm[e]};
            weight = mis_weight_camera_connection(mis, camera_pdf_a, ev.pdf_rev_w * bsdf.continuation_prob_from(to_camera), weights);
        }
        Vec3f contribution = lv.throughput[e] * ev.factor * (weight * camera_pdf_a / weights.light_paths);
        // Into an absorbing volume the ray reaches a camera inside it.
        contribution *= beer_lambert(segment_sigma_a<BsdfT>(ctx.scene, lv.material[e], lv.normal[e], to_camera), dist);
        if (is_black(contribution)) return;
        float t_max;
        Ray ray = spawn_ray_to(SurfacePoint{point, lv.position_error[e], lv.normal[e]}, camera.position, &t_max);
        push_shadow_ray(shadow, ray, t_max, contribution, pixel);
    });
}

}  // namespace wf
