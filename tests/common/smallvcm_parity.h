// SmallVCM parity: our render of a SmallVCM scene at 128x128 must converge to
// SmallVCM's own converged 512x512 render averaged over 4x4 pixel blocks
// (tests/data/smallvcm/*_128.exr, made by tools/make_reference_thumbnails.sh
// from ../shared/reference/smallvcm).
//
// Two criteria, as the issue states them:
//  * the mean of each channel within 1% of the reference mean;
//  * the per-pixel error is consistent with noise: two renders A and B with
//    different seeds give an estimate of the per-pixel variance (E|A-B|^2 = 2
//    sigma^2), and the squared error of A against the (nearly noise-free)
//    reference must not exceed that by more than the allowance below. A bias
//    anywhere in the image (a wrong light, a wrong BSDF lobe) adds bias^2 to
//    the error against the reference but not to A - B.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "app/render.h"
#include "io/image.h"
#include "io/image_metrics.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"

namespace wf::test {

inline void check_smallvcm_parity(const std::string& scene_file, const std::string& reference_file,
                                  BackendKind backend, uint32_t spp) {
    HostScene scene = load_scene(test::source_dir() + "/scenes/smallvcm/" + scene_file);
    Image reference = read_image(test::source_dir() + "/tests/data/smallvcm/" + reference_file);
    ASSERT_EQ(reference.width, 128u);

    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 128;
    o.settings.max_depth = 10;
    o.settings.spp = spp;
    o.backend = backend;
    o.settings.seed = 1;
    Image a = render(scene, o).image;
    o.settings.seed = 2;
    Image b = render(scene, o).image;

    Vec3f mean_a = channel_mean(a), mean_b = channel_mean(b), mean_ref = channel_mean(reference);
    for (int c = 0; c < 3; ++c) {
        double ours = 0.5 * (mean_a[c] + mean_b[c]);
        EXPECT_NEAR(ours, mean_ref[c], 0.01 * mean_ref[c])
            << scene_file << " channel " << c << ": ours " << ours << ", SmallVCM " << mean_ref[c];
    }
    double noise_mse = rmse(a, b) * rmse(a, b) / 2.0;  // per-pixel variance of one render
    double err_a = rmse(a, reference), err_b = rmse(b, reference);
    double error_mse = 0.5 * (err_a * err_a + err_b * err_b);
    // 1.25: sampling error of the variance estimate under heavy-tailed pixel noise
    // plus the reference's own noise (1000 passes x 16 pixels per block).
    EXPECT_LT(error_mse, 1.25 * noise_mse + 1e-6)
        << scene_file << ": mean squared error vs SmallVCM " << error_mse << ", noise variance " << noise_mse;
    EXPECT_EQ(count_nonfinite(a), 0u);
}

}  // namespace wf::test
