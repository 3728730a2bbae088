// SmallVCM parity: our render of a SmallVCM scene at 128x128 must converge to
// SmallVCM's own converged 512x512 render averaged over 4x4 blocks
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
//
// Any integrator can be checked (default "pt"). ParityOptions lets a check render at a
// lower resolution (the 128x128 reference is then averaged over blocks once more, which
// is what a box-filtered lower-resolution render converges to), change the light-path
// count or the merging radius, and compare with a reference that is itself noisy (fewer
// iterations): its variance then enters the allowance (see reference_iterations).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/render.h"
#include "io/image.h"
#include "io/image_metrics.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"

namespace wf::test {

struct ParityOptions {
    uint32_t size = 128;           // render size; divides 128
    uint32_t light_paths = 0;      // per iteration; 0: one per pixel (SmallVCM)
    float radius_factor = 0.0f;    // 0: the scene's (SmallVCM's 0.003)
    // Our iterations at `size` that carry as much noise per pixel as the reference; 0: the
    // reference is converged (its noise is negligible). SmallVCM's 512x512 render of I
    // iterations, averaged over 4x4 blocks, has per block 16 I camera samples and, per unit
    // of image area, 16 times the light paths of one of our 128x128 iterations: it is as
    // noisy as 16 I of our 128x128 iterations (64 I at 64x64).
    double reference_iterations = 0.0;
    double mean_tolerance = 0.01;  // relative, per channel
    // > 0: the per-pixel criterion leaves out pixels within one pixel of a reference pixel
    // brighter than this in any channel (the emitter itself, seen directly or in a mirror).
    // Every estimator renders those alike (weight 1: path length 1 or all specular), and
    // their noise is pixel jitter across an edge of radiance 25 against 0.3: a hundred such
    // pixels make the error-vs-noise comparison fluctuate by +-20% (measured on s1), more
    // than its allowance. The channel means still include them.
    float exclude_above = 0.0f;
};

// The two renders a parity check made (seeds 1 and 2), for further comparisons.
struct ParityRenders {
    Image a, b;
};

// The comparison itself: two renders (seeds 1 and 2) of `spp` iterations against a reference.
inline void compare_with_smallvcm_reference(const Image& a, const Image& b, const Image& reference, uint32_t spp,
                                            const ParityOptions& opt, const std::string& what) {
    ASSERT_EQ(a.width, reference.width);
    ASSERT_EQ(b.width, reference.width);
    Vec3f mean_a = channel_mean(a), mean_b = channel_mean(b), mean_ref = channel_mean(reference);
    for (int c = 0; c < 3; ++c) {
        double ours = 0.5 * (mean_a[c] + mean_b[c]);
        EXPECT_NEAR(ours, mean_ref[c], opt.mean_tolerance * mean_ref[c])
            << what << " channel " << c << ": ours " << ours << ", SmallVCM " << mean_ref[c];
    }
    std::vector<uint8_t> use(reference.pixels.size(), 1);
    if (opt.exclude_above > 0.0f)
        for (uint32_t y = 0; y < reference.height; ++y)
            for (uint32_t x = 0; x < reference.width; ++x) {
                const Vec3f& v = reference.pixels[size_t(y) * reference.width + x];
                if (!(std::max(v.x, std::max(v.y, v.z)) > opt.exclude_above)) continue;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        int xx = int(x) + dx, yy = int(y) + dy;
                        if (xx >= 0 && yy >= 0 && xx < int(reference.width) && yy < int(reference.height))
                            use[size_t(yy) * reference.width + xx] = 0;
                    }
            }
    auto mse = [&](const Image& p, const Image& q) {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < p.pixels.size(); ++i) {
            if (!use[i]) continue;
            for (int c = 0; c < 3; ++c) {
                const double d = double(p.pixels[i][c]) - double(q.pixels[i][c]);
                sum += d * d;
            }
            n += 3;
        }
        return n ? sum / double(n) : 0.0;
    };
    double noise_mse = mse(a, b) / 2.0;  // per-pixel variance of one render
    double error_mse = 0.5 * (mse(a, reference) + mse(b, reference));
    // 1.25: sampling error of the variance estimate under heavy-tailed pixel noise
    // plus the reference's own noise (1000 passes x 16 pixels per block). A noisy
    // reference adds its variance, noise_mse * spp / reference_iterations.
    double reference_share = opt.reference_iterations > 0.0 ? double(spp) / opt.reference_iterations : 0.0;
    std::printf("%s: channel means %+.2f%% %+.2f%% %+.2f%% from the reference; squared error %.3g vs noise %.3g (ratio "
                "%.3f, allowed %.3f)\n",
                what.c_str(), 100.0 * (0.5 * (mean_a.x + mean_b.x) / mean_ref.x - 1.0),
                100.0 * (0.5 * (mean_a.y + mean_b.y) / mean_ref.y - 1.0),
                100.0 * (0.5 * (mean_a.z + mean_b.z) / mean_ref.z - 1.0), error_mse, noise_mse, error_mse / noise_mse,
                1.25 * (1.0 + reference_share));
    EXPECT_LT(error_mse, 1.25 * noise_mse * (1.0 + reference_share) + 1e-6)
        << what << ": mean squared error vs SmallVCM " << error_mse << ", noise variance " << noise_mse;
    EXPECT_EQ(count_nonfinite(a), 0u);
}

inline void check_smallvcm_parity(const std::string& scene_file, const std::string& reference_file,
                                  BackendKind backend, uint32_t spp, const std::string& integrator = "pt",
                                  const ParityOptions& opt = {}, ParityRenders* renders = nullptr) {
    HostScene scene = load_scene(test::source_dir() + "/scenes/smallvcm/" + scene_file);
    Image reference = read_image(test::source_dir() + "/tests/data/smallvcm/" + reference_file);
    ASSERT_EQ(reference.width, 128u);
    ASSERT_EQ(128u % opt.size, 0u);
    if (opt.size != 128) reference = box_downsample(reference, 128 / opt.size);

    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = opt.size;
    o.settings.max_depth = 10;
    o.settings.spp = spp;
    o.settings.integrator = integrator;
    o.settings.light_paths = opt.light_paths;
    if (opt.radius_factor > 0.0f) o.settings.radius_factor = opt.radius_factor;
    o.backend = backend;
    o.settings.seed = 1;
    Image a = render(scene, o).image;
    o.settings.seed = 2;
    Image b = render(scene, o).image;

    compare_with_smallvcm_reference(a, b, reference, spp, opt, scene_file + " (" + integrator + ")");
    if (renders) *renders = {a, b};
}

}  // namespace wf::test
