// Stage `generate`: one camera ray per camera-path slot (pixel jitter with a box
// filter, thin lens when the camera has an aperture), and the start of the
// bidirectional MIS quantities. Fills the active queue with every slot.
//
// Slots map to (sample, pixel) through a global path index g = first_path + slot,
// sample = g / pixels, pixel = g % pixels: a wave may hold several samples of a
// pixel (small films), and the random numbers depend only on (pixel, sample).
#pragma once

#include "wavefront/queues.h"
#include "wavefront/rng_dims.h"
#include "wavefront/scene_view.h"
#include "wavefront/state/camera_path.h"
#include "wavefront/vcm_mis.h"

namespace wf {

struct GenerateCameraRaysContext {
    Camera camera;
    CameraPathView paths;
    uint32_t seed;
    uint32_t num_pixels;
    uint64_t first_path;       // global path index of slot 0
    uint32_t num_paths;        // slots in this wave
    float light_paths;         // light sub-paths per iteration (bidirectional MIS); 0 for pt
};

template <class Backend>
void generate_camera_rays(Backend& backend, const GenerateCameraRaysContext& ctx, SlotQueue<CameraPathView> active) {
    backend.parallel_for("generate", ctx.num_paths, WF_LAMBDA(uint32_t slot) {
        const CameraPathView& p = ctx.paths;
        uint64_t g = ctx.first_path + slot;
        uint32_t pixel = uint32_t(g % ctx.num_pixels);
        uint32_t sample = uint32_t(g / ctx.num_pixels);
        PathRng rng{ctx.seed, pixel, sample, 0, kRngStreamCamera};
        uint32_t width = ctx.camera.width;
        float x = float(pixel % width) + rng.at(rng_dim::kPixelX);
        float y = float(pixel / width) + rng.at(rng_dim::kPixelY);
        Ray ray = ctx.camera.generate_ray(x, y, rng.at(rng_dim::kLensU), rng.at(rng_dim::kLensV));
        p.ray_origin[slot] = ray.origin;
        p.ray_dir[slot] = ray.dir;
        p.throughput[slot] = Vec3f(1.0f);
        p.radiance[slot] = Vec3f(0.0f);
        p.pixel[slot] = pixel;
        p.sample[slot] = sample;
        p.path_length[slot] = 1;
        p.last_pdf_w[slot] = 1.0f;
        p.last_specular[slot] = 1;
        p.alive[slot] = 0;
        // An orthographic camera's directions are a delta distribution: density 0 for a
        // light vertex connecting to it, so the light-tracing technique gets no weight.
        const float camera_pdf_w = ctx.camera.is_orthographic() ? 0.0f : ctx.camera.pdf_direction_per_pixel(ray.dir);
        SubpathMis mis = camera_subpath_start(ctx.light_paths, camera_pdf_w);
        p.d_vcm[slot] = mis.d_vcm;
        p.d_vc[slot] = mis.d_vc;
        p.d_vm[slot] = mis.d_vm;
        p.specular_path[slot] = 1;
        active.items[slot] = slot;
        if (slot == 0) *active.size = ctx.num_paths;
    });
}

}  // namespace wf
