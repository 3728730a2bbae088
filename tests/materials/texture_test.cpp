// Texture lookups (materials/texture.h): wrap modes, bilinear weights, sRGB decoding,
// UV sets and KHR_texture_transform, against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "materials/texture.h"

namespace wf {
namespace {

uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | (g << 8) | (b << 16) | (a << 24); }

// A w x h image whose texel (i, j) has red = 10 i, green = 10 j, blue 0, alpha 255.
struct TestTexture {
    std::vector<uint32_t> texels;
    std::vector<TextureImage> images;
    std::vector<TextureBinding> bindings;
    std::vector<float> lut;

    TestTexture(uint32_t w, uint32_t h) {
        for (uint32_t j = 0; j < h; ++j)
            for (uint32_t i = 0; i < w; ++i) texels.push_back(rgba(10 * i, 10 * j, 0, 255));
        images.push_back(TextureImage{0, w, h});
        bindings.push_back(TextureBinding{});
        for (int i = 0; i < 256; ++i) lut.push_back(srgb8_to_linear(uint8_t(i)));
    }
    TextureView view() const { return TextureView{texels.data(), images.data(), bindings.data(), lut.data()}; }
    Vec4f at(float u, float v) const {
        Vec2f uv[2] = {Vec2f{u, v}, Vec2f{u, v}};
        return sample_texture(view(), 0, uv);
    }
};

constexpr float k = 1.0f / 255.0f;

TEST(Texture, NearestReadsTheTexelUnderThePointWithVDownTheImage) {
    TestTexture t(4, 2);
    t.bindings[0].nearest = 1;
    Vec4f c = t.at(0.6f, 0.2f);  // texel (2, 0): the top row
    EXPECT_FLOAT_EQ(c.x, 20 * k);
    EXPECT_FLOAT_EQ(c.y, 0.0f);
    c = t.at(0.1f, 0.9f);  // texel (0, 1): the bottom row
    EXPECT_FLOAT_EQ(c.x, 0.0f);
    EXPECT_FLOAT_EQ(c.y, 10 * k);
    EXPECT_FLOAT_EQ(c.w, 1.0f);
}

TEST(Texture, BilinearIsExactAtTexelCentresAndLinearBetween) {
    TestTexture t(4, 4);
    Vec4f c = t.at(1.5f / 4, 2.5f / 4);  // centre of texel (1, 2)
    EXPECT_NEAR(c.x, 10 * k, 1e-6f);
    EXPECT_NEAR(c.y, 20 * k, 1e-6f);
    c = t.at(1.75f / 4, 2.5f / 4);  // a quarter of the way from texel 1 to 2 along u
    EXPECT_NEAR(c.x, 12.5f * k, 1e-6f);
    EXPECT_NEAR(c.y, 20 * k, 1e-6f);
}

TEST(Texture, WrapModesPerAxis) {
    TestTexture t(4, 4);
    t.bindings[0].nearest = 1;
    // Repeat: u = 1.1 reads like u = 0.1 (texel 0); u = -0.1 like 0.9 (texel 3).
    EXPECT_FLOAT_EQ(t.at(1.1f, 0.1f).x, 0.0f);
    EXPECT_FLOAT_EQ(t.at(-0.1f, 0.1f).x, 30 * k);
    // Clamp to edge: beyond either side reads the edge texel.
    t.bindings[0].wrap_s = TextureWrap::ClampToEdge;
    EXPECT_FLOAT_EQ(t.at(1.7f, 0.1f).x, 30 * k);
    EXPECT_FLOAT_EQ(t.at(-5.0f, 0.1f).x, 0.0f);
    EXPECT_FLOAT_EQ(t.at(-1e20f, 0.1f).x, 0.0f);
    // Mirrored repeat: u in [1, 2) reads the image backwards: u = 1.1 is texel 3, 1.9 is texel 0.
    t.bindings[0].wrap_s = TextureWrap::MirroredRepeat;
    EXPECT_FLOAT_EQ(t.at(1.1f, 0.1f).x, 30 * k);
    EXPECT_FLOAT_EQ(t.at(1.9f, 0.1f).x, 0.0f);
    EXPECT_FLOAT_EQ(t.at(2.1f, 0.1f).x, 0.0f);
    EXPECT_FLOAT_EQ(t.at(-0.1f, 0.1f).x, 0.0f);  // mirrored about 0
    // The other axis keeps its own mode (repeat).
    EXPECT_FLOAT_EQ(t.at(0.1f, 1.3f).y, 10 * k);
}

TEST(Texture, BilinearWrapsAcrossTheEdge) {
    TestTexture t(4, 1);
    // u = 0: halfway between texel 3 (wrapped) and texel 0 on a repeating axis.
    EXPECT_NEAR(t.at(0.0f, 0.5f).x, 15 * k, 1e-6f);
    t.bindings[0].wrap_s = TextureWrap::ClampToEdge;
    EXPECT_NEAR(t.at(0.0f, 0.5f).x, 0.0f, 1e-6f);
}

TEST(Texture, SrgbDecodesEachTexelBeforeFiltering) {
    TestTexture t(2, 1);
    t.texels = {rgba(0, 0, 0, 128), rgba(255, 188, 0, 128)};
    t.bindings[0].srgb = 1;
    Vec4f c = t.at(0.75f, 0.5f);  // texel 1's centre
    EXPECT_FLOAT_EQ(c.x, 1.0f);
    // sRGB 188/255 = 0.737: ((0.737 + 0.055) / 1.055)^2.4 = 0.5029
    EXPECT_NEAR(c.y, 0.5029f, 2e-4f);
    EXPECT_NEAR(c.w, 128 * k, 1e-6f);  // alpha stays linear
    c = t.at(0.5f, 0.5f);  // halfway: the mean of the decoded values, not the decoded mean code
    EXPECT_NEAR(c.x, 0.5f, 1e-6f);
}

TEST(Texture, UvSetAndTransform) {
    TestTexture t(4, 4);
    t.bindings[0].nearest = 1;
    t.bindings[0].uv_set = 1;
    Vec2f uv[2] = {Vec2f{0.1f, 0.1f}, Vec2f{0.6f, 0.1f}};
    EXPECT_FLOAT_EQ(sample_texture(t.view(), 0, uv).x, 20 * k);
    // Offset (0.25, 0.5): set 1 at (0.6, 0.1) reads (0.85, 0.6), texel (3, 2).
    t.bindings[0].transform[2] = 0.25f;
    t.bindings[0].transform[5] = 0.5f;
    Vec4f c = sample_texture(t.view(), 0, uv);
    EXPECT_FLOAT_EQ(c.x, 30 * k);
    EXPECT_FLOAT_EQ(c.y, 20 * k);
}

TEST(Texture, NonFiniteCoordinatesReadBlack) {
    TestTexture t(4, 4);
    Vec4f c = t.at(std::nanf(""), 0.5f);
    EXPECT_EQ(c.x, 0.0f);
    EXPECT_EQ(c.w, 0.0f);
    c = t.at(0.5f, INFINITY);
    EXPECT_EQ(c.w, 0.0f);
    // Huge but finite coordinates still read a texel of the image.
    t.texels.assign(16, rgba(7, 7, 7, 255));
    EXPECT_FLOAT_EQ(t.at(1e9f + 0.3f, -3e8f).x, 7 * k);
}

}  // namespace
}  // namespace wf
