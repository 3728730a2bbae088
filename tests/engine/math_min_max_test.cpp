// fmin_c / fmax_c (engine/math.h): the C library's fminf / fmaxf, inlined on the host.
// The engine's host code leans on them (boxes, clamps), so they must give the library's
// answers bit for bit, a NaN against a number included, or CPU renders would change.
// Two zeros, or two NaNs, are compared as values only: which of the two comes out is left
// open (IEEE, C), and compilers lower std::fmin differently (g++ calls glibc, which gives
// the second operand; clang expands it inline and gives the first).
// (A signalling NaN loses like a quiet one, as on the GPU; glibc returns a NaN for it.
// Arithmetic never makes one, and the loaders refuse NaN input.)
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "engine/math.h"

namespace wf {
namespace {

// Out of line, so that the compiler cannot fold them into the functions under test.
__attribute__((noinline)) float library_min(float a, float b) { return std::fmin(a, b); }
__attribute__((noinline)) float library_max(float a, float b) { return std::fmax(a, b); }

TEST(MathMinMax, MatchTheLibraryBitForBit) {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 1e-40f, -1e-40f, 3.4e38f, inf, -inf, nan, -nan};
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint32_t> bits;
    for (int i = 0; i < 300; ++i) {  // quiet NaN payloads too
        const float v = std::bit_cast<float>(bits(rng));
        values.push_back(std::isnan(v) ? std::bit_cast<float>(std::bit_cast<uint32_t>(v) | 0x00400000u) : v);
    }
    for (float a : values)
        for (float b : values) {
            if (a == 0.0f && b == 0.0f) {  // a tie of zeros: either sign
                EXPECT_EQ(fmin_c(a, b), 0.0f);
                EXPECT_EQ(fmax_c(a, b), 0.0f);
                continue;
            }
            if (std::isnan(a) && std::isnan(b)) {  // either NaN
                EXPECT_TRUE(std::isnan(fmin_c(a, b)));
                EXPECT_TRUE(std::isnan(fmax_c(a, b)));
                continue;
            }
            EXPECT_EQ(std::bit_cast<uint32_t>(fmin_c(a, b)), std::bit_cast<uint32_t>(library_min(a, b)))
                << "fmin(" << a << ", " << b << ")";
            EXPECT_EQ(std::bit_cast<uint32_t>(fmax_c(a, b)), std::bit_cast<uint32_t>(library_max(a, b)))
                << "fmax(" << a << ", " << b << ")";
        }
}

TEST(MathMinMax, NanLosesInVectorsAndClamps) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Vec3f lo = min(Vec3f(1.0f, nan, -2.0f), Vec3f(nan, 3.0f, -1.0f));
    EXPECT_EQ(lo.x, 1.0f);
    EXPECT_EQ(lo.y, 3.0f);
    EXPECT_EQ(lo.z, -2.0f);
    EXPECT_EQ(max_component(Vec3f(nan, 2.0f, 1.0f)), 2.0f);
    EXPECT_EQ(min_component(Vec3f(4.0f, nan, 5.0f)), 4.0f);
    EXPECT_EQ(clampf(nan, 0.0f, 1.0f), 0.0f);  // fmax(NaN, 0) = 0, as the PNG writer relies on
    EXPECT_EQ(clampf(7.0f, 0.0f, 1.0f), 1.0f);
}

}  // namespace
}  // namespace wf
