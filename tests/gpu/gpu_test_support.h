// GPU tests skip (with a message) when the build has no CUDA backend or the
// machine has no device; on an H100/H200 they run the same checks as on the CPU.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "app/render.h"
#include "io/image_metrics.h"

#define WF_REQUIRE_CUDA_DEVICE()                                              \
    do {                                                                      \
        std::string why_not;                                                  \
        if (!::wf::cuda_backend_available(&why_not)) GTEST_SKIP() << why_not; \
    } while (0)

namespace wf::test {

// Renders `scene` with `options` on the CPU and then on the GPU and checks that the two
// images agree as far as the backends can: both draw the same random numbers for each
// path vertex and differ only in float rounding (nvcc fuses multiply-adds, g++ does not),
// which can flip a rare discrete decision (lobe choice, roulette) and change that one
// sample. So: at most `max_differing` of the pixels differ beyond 1e-4 relative, and the
// channel means agree to 1%. `label` names the case in messages.
inline void expect_cpu_gpu_agree(const HostScene& scene, RenderOptions options, const std::string& label,
                                 double max_differing) {
    options.backend = BackendKind::Cpu;
    const Image cpu = render(scene, options).image;
    options.backend = BackendKind::Cuda;
    const Image gpu = render(scene, options).image;
    ASSERT_EQ(cpu.pixels.size(), gpu.pixels.size()) << label;
    size_t differing = 0;
    for (size_t i = 0; i < cpu.pixels.size(); ++i)
        for (int c = 0; c < 3; ++c) {
            const float x = cpu.pixels[i][c], y = gpu.pixels[i][c];
            if (std::fabs(x - y) > 1e-4f * std::fmax(1.0f, std::fabs(x))) {
                ++differing;
                break;
            }
        }
    EXPECT_LT(double(differing) / double(cpu.pixels.size()), max_differing)
        << label << ": " << differing << " of " << cpu.pixels.size() << " pixels differ";
    const Vec3f mc = channel_mean(cpu), mg = channel_mean(gpu);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(mc[c], mg[c], 0.01 * std::fmax(mc[c], 1e-3f)) << label;
    std::printf("%s: %zu of %zu pixels differ beyond 1e-4 relative\n", label.c_str(), differing, cpu.pixels.size());
}

}  // namespace wf::test
