// Stage `generate`: one camera ray per path slot (pixel jitter with a box
// filter, thin lens when the camera has an aperture). Fills the active queue
// with every slot.
#pragma once

#include "wavefront/pt_context.h"
#include "wavefront/rng_dims.h"

namespace wf {

template <class Backend>
void integrator_generate(Backend& backend, const PtContext& ctx, QueueView active) {
    backend.parallel_for("generate", ctx.num_paths, WF_LAMBDA(uint32_t slot) {
        const PathStateView& p = ctx.paths;
        uint32_t pixel = ctx.pixel_offset + slot;
        PathRng rng{ctx.seed, pixel, ctx.sample_index, 0};
        float x = float(pixel % ctx.width) + rng.at(rng_dim::kPixelX);
        float y = float(pixel / ctx.width) + rng.at(rng_dim::kPixelY);
        Ray ray = ctx.scene.camera.generate_ray(x, y, rng.at(rng_dim::kLensU), rng.at(rng_dim::kLensV));
        p.ray_origin[slot] = ray.origin;
        p.ray_dir[slot] = ray.dir;
        p.throughput[slot] = Vec3f(1.0f);
        p.radiance[slot] = Vec3f(0.0f);
        p.pixel[slot] = pixel;
        p.path_length[slot] = 1;
        p.last_pdf_w[slot] = 1.0f;
        p.last_specular[slot] = 1;
        p.alive[slot] = 0;
        active.items[slot] = slot;
        if (slot == 0) *active.size = ctx.num_paths;
    });
}

}  // namespace wf
