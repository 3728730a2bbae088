#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "io/image_metrics.h"

namespace wf {
namespace {

// Pixel (x, y) = (x, y, x + 10 y): every value distinct and easy to predict.
Image ramp(uint32_t w, uint32_t h) {
    Image image(w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) image.at(x, y) = Vec3f(float(x), float(y), float(x + 10 * y));
    return image;
}

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ImageError& e) {
        return e.what();
    }
    return "(no ImageError thrown)";
}

TEST(ImageMetrics, ChannelMeanOfKnownPattern) {
    const Vec3f mean = channel_mean(ramp(4, 3));  // x in 0..3, y in 0..2
    EXPECT_FLOAT_EQ(mean.x, 1.5f);
    EXPECT_FLOAT_EQ(mean.y, 1.0f);
    EXPECT_FLOAT_EQ(mean.z, 11.5f);
    EXPECT_THROW(channel_mean(Image()), ImageError);
}

TEST(ImageMetrics, RmseAndPsnrOfKnownDifference) {
    const Image a(8, 8, Vec3f(0.5f));
    Image b = a;
    for (Vec3f& p : b.pixels) p.y += 0.1f;  // one of three channels off by 0.1
    const double expected = std::sqrt(0.01 / 3.0);
    EXPECT_NEAR(rmse(a, b), expected, 1e-7);
    EXPECT_NEAR(rmse(b, a), expected, 1e-7);
    EXPECT_NEAR(psnr(a, b), 20.0 * std::log10(1.0 / expected), 1e-5);
    EXPECT_NEAR(psnr(a, b, 2.0), 20.0 * std::log10(2.0 / expected), 1e-5);
    EXPECT_EQ(rmse(a, a), 0.0);
    EXPECT_EQ(psnr(a, a), std::numeric_limits<double>::infinity());
    EXPECT_THROW(psnr(a, b, 0.0), ImageError);
}

TEST(ImageMetrics, RmseRejectsDifferentSizes) {
    const std::string message = message_of([] { rmse(Image(4, 4), Image(4, 2)); });
    EXPECT_NE(message.find("4x4 vs 4x2"), std::string::npos) << message;
}

TEST(ImageMetrics, BoxDownsampleAveragesBlocks) {
    const Image small = box_downsample(ramp(4, 2), 2);
    ASSERT_EQ(small.width, 2u);
    ASSERT_EQ(small.height, 1u);
    // Block (0,0) covers x 0..1, y 0..1; block (1,0) covers x 2..3, y 0..1.
    EXPECT_FLOAT_EQ(small.at(0, 0).x, 0.5f);
    EXPECT_FLOAT_EQ(small.at(0, 0).y, 0.5f);
    EXPECT_FLOAT_EQ(small.at(0, 0).z, 5.5f);
    EXPECT_FLOAT_EQ(small.at(1, 0).x, 2.5f);
    EXPECT_FLOAT_EQ(small.at(1, 0).y, 0.5f);
    EXPECT_FLOAT_EQ(small.at(1, 0).z, 7.5f);
}

TEST(ImageMetrics, BoxDownsampleOfCheckerboardIsFlat) {
    Image checker(8, 8);
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 8; ++x) checker.at(x, y) = Vec3f(float((x + y) % 2));
    const Image flat = box_downsample(checker, 4);
    ASSERT_EQ(flat.pixel_count(), 4u);
    for (const Vec3f& p : flat.pixels) EXPECT_FLOAT_EQ(p.x, 0.5f);
}

TEST(ImageMetrics, BoxDownsamplePreservesMeanAndIdentityAtFactorOne) {
    const Image image = ramp(12, 6);
    const Vec3f before = channel_mean(image), after = channel_mean(box_downsample(image, 3));
    EXPECT_NEAR(before.x, after.x, 1e-5f);
    EXPECT_NEAR(before.y, after.y, 1e-5f);
    EXPECT_NEAR(before.z, after.z, 1e-5f);
    EXPECT_EQ(rmse(box_downsample(image, 1), image), 0.0);
}

TEST(ImageMetrics, BoxDownsampleRejectsIndivisibleSizeAndZeroFactor) {
    const std::string message = message_of([] { box_downsample(Image(6, 4), 4); });
    EXPECT_NE(message.find("6x4"), std::string::npos) << message;
    EXPECT_NE(message.find("factor 4"), std::string::npos) << message;
    EXPECT_THROW(box_downsample(Image(6, 4), 0), ImageError);
}

TEST(ImageMetrics, CountNonfiniteCountsPixels) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    Image image(4, 4, Vec3f(1.0f));
    EXPECT_EQ(count_nonfinite(image), 0u);
    image.at(0, 0).x = nan;
    image.at(1, 2).z = -inf;
    image.at(3, 3) = Vec3f(nan, inf, nan);  // one pixel, however many bad channels
    EXPECT_EQ(count_nonfinite(image), 3u);
}

}  // namespace
}  // namespace wf
