#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/tonemap.h"

namespace wf {
namespace {

TEST(SrgbCurve, EncodeKnownValues) {
    EXPECT_FLOAT_EQ(srgb_encode(0.0f), 0.0f);
    EXPECT_NEAR(srgb_encode(1.0f), 1.0f, 1e-6f);
    EXPECT_NEAR(srgb_encode(0.5f), 0.7354f, 1e-4f);
    EXPECT_NEAR(srgb_encode(0.18f), 0.4614f, 1e-4f);  // mid grey
    EXPECT_FLOAT_EQ(srgb_encode(0.001f), 0.01292f);   // linear segment
}

TEST(SrgbCurve, EncodeIsContinuousAtBreakPoint) {
    const float knee = 0.0031308f;
    EXPECT_NEAR(srgb_encode(knee), 0.04045f, 1e-5f);
    // Both segments meet at the knee: just below (linear) and just above (power).
    const float below = srgb_encode(std::nextafter(knee, 0.0f));
    const float above = srgb_encode(std::nextafter(knee, 1.0f));
    EXPECT_NEAR(below, above, 1e-6f);
    EXPECT_NEAR(1.055f * std::pow(knee, 1.0f / 2.4f) - 0.055f, 12.92f * knee, 1e-6f);
}

TEST(SrgbCurve, DecodeKnownValues) {
    EXPECT_FLOAT_EQ(srgb_decode(0.0f), 0.0f);
    EXPECT_NEAR(srgb_decode(1.0f), 1.0f, 1e-6f);
    EXPECT_NEAR(srgb_decode(0.04045f), 0.0031308f, 1e-7f);
    EXPECT_NEAR(srgb_decode(0.7354f), 0.5f, 1e-4f);
}

TEST(SrgbCurve, DecodeInvertsEncode) {
    for (int i = 0; i <= 10000; ++i) {
        const float x = float(i) / 10000.0f;
        EXPECT_NEAR(srgb_decode(srgb_encode(x)), x, 1e-6f + 2e-6f * x) << "x = " << x;
        EXPECT_NEAR(srgb_encode(srgb_decode(x)), x, 1e-6f + 2e-6f * x) << "x = " << x;
    }
}

TEST(SrgbCurve, EncodeIsMonotonic) {
    float previous = srgb_encode(0.0f);
    for (int i = 1; i <= 100000; ++i) {
        const float v = srgb_encode(float(i) / 100000.0f);
        ASSERT_GE(v, previous) << "at " << float(i) / 100000.0f;
        previous = v;
    }
}

TEST(Tonemap, QuantizeRoundsToNearestCode) {
    EXPECT_EQ(quantize_8bit(0.0f), 0);
    EXPECT_EQ(quantize_8bit(1.0f), 255);
    EXPECT_EQ(quantize_8bit(0.49f / 255.0f), 0);
    EXPECT_EQ(quantize_8bit(0.51f / 255.0f), 1);
    EXPECT_EQ(quantize_8bit(127.49f / 255.0f), 127);
    EXPECT_EQ(quantize_8bit(127.51f / 255.0f), 128);
    EXPECT_EQ(quantize_8bit(254.51f / 255.0f), 255);
}

TEST(Tonemap, ClampsOutOfRangeAndNonFinite) {
    EXPECT_EQ(tonemap_srgb8(2.0f), 255);
    EXPECT_EQ(tonemap_srgb8(-1.0f), 0);
    EXPECT_EQ(tonemap_srgb8(std::numeric_limits<float>::infinity()), 255);
    EXPECT_EQ(tonemap_srgb8(-std::numeric_limits<float>::infinity()), 0);
    EXPECT_EQ(tonemap_srgb8(std::numeric_limits<float>::quiet_NaN()), 0);
}

TEST(Tonemap, ExposureIsInStopsBeforeTheCurve) {
    EXPECT_FLOAT_EQ(apply_exposure(0.25f, 1.0f), 0.5f);
    EXPECT_FLOAT_EQ(apply_exposure(0.25f, -2.0f), 0.0625f);
    EXPECT_FLOAT_EQ(apply_exposure(0.25f, 0.0f), 0.25f);
    EXPECT_EQ(tonemap_srgb8(0.25f, 1.0f), tonemap_srgb8(0.5f));
    EXPECT_EQ(tonemap_srgb8(0.5f), 188);  // round(255 * 0.7354) = 188
    EXPECT_EQ(tonemap_srgb8(0.6f, 1.0f), 255);  // 1.2 clamps after exposure
}

TEST(Tonemap, EightBitDecodeInvertsEncodeForEveryCode) {
    for (int code = 0; code < 256; ++code)
        EXPECT_EQ(tonemap_srgb8(srgb8_to_linear(uint8_t(code))), code) << "code " << code;
}

}  // namespace
}  // namespace wf
