#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

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


// ---- Tone curves ---------------------------------------------------------------------------
//
// Expected values come from the published formulas, written out again here in double
// precision and in the sources' own form (the Khronos GLSL sample, Wrensch's column-major
// GLSL matrices), or from arithmetic by hand; never from the implementation's own output.

constexpr ToneCurve kFilmicCurves[] = {ToneCurve::Aces, ToneCurve::PbrNeutral, ToneCurve::Agx};
constexpr ToneCurve kAllCurves[] = {ToneCurve::None, ToneCurve::Aces, ToneCurve::PbrNeutral, ToneCurve::Agx};

struct Rgb {
    double r, g, b;
};

// Khronos PBR Neutral as the KhronosGroup/ToneMapping sample pbrNeutral.glsl writes it (offset
// x - 6.25 x^2, mix() towards the new peak), an arrangement of the specification's formula
// different from io/tonemap.h's.
Rgb khronos_pbr_neutral_glsl(Rgb c) {
    const double start_compression = 0.8 - 0.04, desaturation = 0.15;
    const double x = std::min({c.r, c.g, c.b});
    const double offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    c = {c.r - offset, c.g - offset, c.b - offset};
    const double peak = std::max({c.r, c.g, c.b});
    if (peak < start_compression) return c;
    const double d = 1.0 - start_compression;
    const double new_peak = 1.0 - d * d / (peak + d - start_compression);
    const double s = new_peak / peak;
    c = {c.r * s, c.g * s, c.b * s};
    const double g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
    auto mix = [&](double v) { return v * (1.0 - g) + new_peak * g; };
    return {mix(c.r), mix(c.g), mix(c.b)};
}

// GLSL's mat3(a, b, c, ...) * v: the literals are the columns, in the order the sources list them.
Rgb glsl_mat3_times(const std::array<double, 9>& m, Rgb v) {
    return {m[0] * v.r + m[3] * v.g + m[6] * v.b, m[1] * v.r + m[4] * v.g + m[7] * v.b,
            m[2] * v.r + m[5] * v.g + m[8] * v.b};
}

// Wrensch's minimal AgX (agx() then agxEotf()), default look, literals as published.
Rgb wrensch_agx_glsl(Rgb c) {
    const std::array<double, 9> agx_mat = {0.842479062253094,  0.0423282422610123, 0.0423756549057051,
                                           0.0784335999999992, 0.878468636469772,  0.0784336,
                                           0.0792237451477643, 0.0791661274605434, 0.879142973793104};
    const std::array<double, 9> agx_mat_inv = {1.19687900512017,    -0.0528968517574562, -0.0529716355144438,
                                               -0.0980208811401368, 1.15190312990417,    -0.0980434501171241,
                                               -0.0990297440797205, -0.0989611768448433, 1.15107367264116};
    const double min_ev = -12.47393, max_ev = 4.026069;
    auto encode = [&](double v) {
        const double e = std::clamp(v > 0.0 ? std::log2(v) : -1e300, min_ev, max_ev);
        const double x = (e - min_ev) / (max_ev - min_ev);
        return 15.5 * std::pow(x, 6) - 40.14 * std::pow(x, 5) + 31.96 * std::pow(x, 4) - 6.868 * std::pow(x, 3) +
               0.4298 * x * x + 0.1191 * x - 0.00232;
    };
    Rgb v = glsl_mat3_times(agx_mat, c);
    v = glsl_mat3_times(agx_mat_inv, {encode(v.r), encode(v.g), encode(v.b)});
    auto eotf = [](double e) { return std::clamp(std::pow(std::max(e, 0.0), 2.2), 0.0, 1.0); };
    return {eotf(v.r), eotf(v.g), eotf(v.b)};
}

// Hill's fitted ACES (BakingLab ACES.hlsl), his row-major float3x3 literals and mul(M, v).
Rgb hill_aces_hlsl(Rgb c) {
    const double in[3][3] = {{0.59719, 0.35458, 0.04823}, {0.07600, 0.90834, 0.01566}, {0.02840, 0.13383, 0.83777}};
    const double out[3][3] = {
        {1.60475, -0.53108, -0.07367}, {-0.10208, 1.10813, -0.00605}, {-0.00327, -0.07276, 1.07602}};
    auto mul = [](const double m[3][3], Rgb v) {
        return Rgb{m[0][0] * v.r + m[0][1] * v.g + m[0][2] * v.b, m[1][0] * v.r + m[1][1] * v.g + m[1][2] * v.b,
                   m[2][0] * v.r + m[2][1] * v.g + m[2][2] * v.b};
    };
    auto fit = [](double v) {
        return (v * (v + 0.0245786) - 0.000090537) / (v * (0.983729 * v + 0.4329510) + 0.238081);
    };
    Rgb v = mul(in, c);
    v = mul(out, {fit(v.r), fit(v.g), fit(v.b)});
    return {std::clamp(v.r, 0.0, 1.0), std::clamp(v.g, 0.0, 1.0), std::clamp(v.b, 0.0, 1.0)};
}

void expect_near_rgb(Vec3f got, Rgb want, double tolerance, const char* what) {
    EXPECT_NEAR(got.x, want.r, tolerance) << what;
    EXPECT_NEAR(got.y, want.g, tolerance) << what;
    EXPECT_NEAR(got.z, want.b, tolerance) << what;
}

// Colours over the whole range: greys, saturated and dim ones, highlights.
const std::vector<Vec3f>& sample_colours() {
    static const std::vector<Vec3f> colours = {
        {0.0f, 0.0f, 0.0f},   {0.001f, 0.001f, 0.001f}, {0.05f, 0.05f, 0.05f}, {0.18f, 0.18f, 0.18f},
        {0.5f, 0.5f, 0.5f},   {1.0f, 1.0f, 1.0f},       {4.0f, 4.0f, 4.0f},    {2.0f, 0.5f, 0.0f},
        {0.8f, 0.2f, 0.1f},   {0.001f, 0.2f, 0.9f},     {0.07f, 0.3f, 0.6f},   {0.75f, 0.1f, 0.09f},
        {10.0f, 3.0f, 0.5f},  {0.0f, 0.0f, 30.0f},      {100.0f, 120.0f, 90.0f}};
    return colours;
}

TEST(ToneCurve, NamesAreTheCliAndSceneSpelling) {
    EXPECT_EQ(tone_curve_name_list(), "none, aces, pbr-neutral, agx");
    for (const ToneCurveInfo& info : kToneCurves) {
        ASSERT_NE(find_tone_curve(info.name), nullptr);
        EXPECT_EQ(find_tone_curve(info.name)->curve, info.curve);
    }
    EXPECT_EQ(find_tone_curve("ACES"), nullptr);
    EXPECT_EQ(find_tone_curve("filmic"), nullptr);
    EXPECT_EQ(find_tone_curve(""), nullptr);
}

TEST(ToneCurve, NoneIsTheEarlierPerChannelClampByteForByte) {
    // PNGs of JSON scenes must not change: `none` is clamp(v * 2^e) -> sRGB -> 8 bits per channel.
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> values = {0.0f, -0.0f, -1.0f, nan, inf, -inf, 1.0f, 2.0f, 1e30f, 1e-30f, 0.0031308f};
    for (int i = 0; i <= 4000; ++i) values.push_back(float(i) / 3000.0f);
    for (const float exposure : {0.0f, 1.0f, -2.5f, 7.0f}) {
        for (const float v : values) {
            const uint8_t expected = quantize_8bit(srgb_encode(clamp01(v * std::exp2(exposure))));
            const Vec3f pixel(v, 0.5f * v, 0.25f);
            const std::array<uint8_t, 3> code = tonemap_pixel_srgb8(pixel, ToneMap{ToneCurve::None, exposure});
            ASSERT_EQ(code[0], expected) << v << " at " << exposure;
            ASSERT_EQ(code[1], quantize_8bit(srgb_encode(clamp01(0.5f * v * std::exp2(exposure)))));
            ASSERT_EQ(code[2], quantize_8bit(srgb_encode(clamp01(0.25f * std::exp2(exposure)))));
        }
    }
}

TEST(ToneCurve, PbrNeutralKnownValuesByHand) {
    // Below the knee only the offset f moves the colour: x = min > 0.08 gives f = F90 = 0.04.
    expect_near_rgb(tone_curve_pbr_neutral(Vec3f(0.5f)), {0.46, 0.46, 0.46}, 1e-6, "grey 0.5");
    expect_near_rgb(tone_curve_pbr_neutral(Vec3f(0.18f)), {0.14, 0.14, 0.14}, 1e-6, "grey 0.18");
    // x = 0.05 <= 2 F90: f = 0.05 - 0.05^2 / 0.16 = 0.034375, out = 0.015625.
    expect_near_rgb(tone_curve_pbr_neutral(Vec3f(0.05f)), {0.015625, 0.015625, 0.015625}, 1e-7, "grey 0.05");
    // (0.8, 0.2, 0.1): f = 0.04, p = 0.76 = Ks exactly: still the plain shift.
    expect_near_rgb(tone_curve_pbr_neutral({0.8f, 0.2f, 0.1f}), {0.76, 0.16, 0.06}, 1e-6, "at the knee");
    // Grey 1: f = 0.04, p = 0.96 > Ks: pn = 1 - 0.24^2 / (0.96 + 1 - 1.52) = 1 - 0.0576 / 0.44; a grey
    // stays grey whatever g is, so out = pn.
    const double pn = 1.0 - 0.0576 / 0.44;
    expect_near_rgb(tone_curve_pbr_neutral(Vec3f(1.0f)), {pn, pn, pn}, 1e-6, "grey 1");
    // (2, 0.5, 0): x = 0, f = 0, p = 2: pn = 1 - 0.0576 / 1.48, g = 1 / (0.15 (2 - pn) + 1).
    const double pn2 = 1.0 - 0.0576 / 1.48, g = 1.0 / (0.15 * (2.0 - pn2) + 1.0);
    expect_near_rgb(tone_curve_pbr_neutral({2.0f, 0.5f, 0.0f}),
                    {2.0 * pn2 / 2.0 * g + pn2 * (1 - g), 0.5 * pn2 / 2.0 * g + pn2 * (1 - g), pn2 * (1 - g)}, 1e-6,
                    "(2, 0.5, 0)");
}

TEST(ToneCurve, PbrNeutralMatchesTheKhronosSample) {
    for (const Vec3f c : sample_colours())
        expect_near_rgb(tone_curve_pbr_neutral(c), khronos_pbr_neutral_glsl({c.x, c.y, c.z}), 2e-6, "colour");
}

TEST(ToneCurve, PbrNeutralBelowTheKneeKeepsChannelDifferences) {
    // p <= 0.76: out = rgb - f, the same f for all three channels (hue and contrast kept).
    for (const Vec3f c : {Vec3f(0.3f, 0.6f, 0.2f), Vec3f(0.7f, 0.05f, 0.4f), Vec3f(0.0f, 0.76f, 0.1f)}) {
        const Vec3f out = tone_curve_pbr_neutral(c);
        EXPECT_NEAR(out.x - out.y, c.x - c.y, 1e-6f);
        EXPECT_NEAR(out.y - out.z, c.y - c.z, 1e-6f);
    }
    // Continuous at the knee (pn(Ks) = 1 - (1 - Ks)^2 / (1 - Ks) = Ks): grey 0.8 is p = Ks exactly,
    // grey 0.80001 is compressed, and both come out at 0.76.
    EXPECT_NEAR(tone_curve_pbr_neutral(Vec3f(0.8f)).x, 0.76f, 1e-6f);
    EXPECT_NEAR(tone_curve_pbr_neutral(Vec3f(0.80001f)).x, 0.76f, 2e-5f);
}

TEST(ToneCurve, AcesKnownValuesByHand) {
    // The input and output matrices' rows sum to 1 (the last output row to 0.99999): a grey v
    // reaches the fit unchanged. v = 0.18: (0.18 * 0.2045786 - 0.000090537) /
    // (0.18 * (0.983729 * 0.18 + 0.432951) + 0.238081) = 0.0367336 / 0.3478850 = 0.105591.
    const Vec3f mid = tone_curve_aces(Vec3f(0.18f));
    EXPECT_NEAR(mid.x, 0.105591f, 2e-6f);
    EXPECT_NEAR(mid.y, 0.105591f, 2e-6f);
    EXPECT_NEAR(mid.z, 0.105591f * 0.99999f, 2e-6f);
    // v = 1: (1.0245786 - 0.000090537) / (1.416680 + 0.238081) = 1.0244881 / 1.654761 = 0.619115.
    EXPECT_NEAR(tone_curve_aces(Vec3f(1.0f)).x, 0.619115f, 2e-6f);
    for (const Vec3f c : sample_colours())
        expect_near_rgb(tone_curve_aces(c), hill_aces_hlsl({c.x, c.y, c.z}), 2e-6, "colour");
}

TEST(ToneCurve, AgxKnownValues) {
    // Grey 0.18: the inset's first row sums to 1.000136, log2(0.18 * 1.000136) = -2.473931, which
    // is (-2.473931 + 12.47393) / 16.499999 = 0.606072 of the log range (the range is placed so).
    const double x = (std::log2(0.18 * 1.000136) + 12.47393) / (4.026069 + 12.47393);
    EXPECT_NEAR(x, 0.606072, 1e-6);
    for (const Vec3f c : sample_colours())
        expect_near_rgb(tone_curve_agx(c), wrensch_agx_glsl({c.x, c.y, c.z}), 1e-5, "colour");  // float vs double
    // Grey stays (almost) grey: the inset rows sum to 1 within 1.4e-4.
    const Vec3f mid = tone_curve_agx(Vec3f(0.18f));
    EXPECT_NEAR(mid.x, mid.z, 1e-4f);
    EXPECT_NEAR(mid.y, 0.2145f, 1e-4f);
}

TEST(ToneCurve, BlackStaysBlack) {
    for (const ToneCurve curve : kAllCurves) {
        const Vec3f out = apply_tone_curve(curve, Vec3f(0.0f));
        EXPECT_EQ(out.x, 0.0f) << int(curve);
        EXPECT_EQ(out.y, 0.0f) << int(curve);
        EXPECT_EQ(out.z, 0.0f) << int(curve);
        EXPECT_EQ(tonemap_pixel_srgb8(Vec3f(0.0f), ToneMap{curve, 5.0f}), (std::array<uint8_t, 3>{0, 0, 0}));
    }
}

TEST(ToneCurve, OutputIsInTheUnitRangeForAnyInput) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<Vec3f> inputs = sample_colours();
    for (const Vec3f odd : {Vec3f(nan, 0.5f, 0.5f), Vec3f(inf, inf, inf), Vec3f(-1.0f, 0.5f, 2.0f), Vec3f(3e38f),
                            Vec3f(inf, 0.0f, 0.0f), Vec3f(-inf, nan, 1e-38f)})
        inputs.push_back(odd);
    for (const ToneCurve curve : kAllCurves)
        for (const Vec3f c : inputs) {
            const Vec3f out = apply_tone_curve(curve, c);
            for (int i = 0; i < 3; ++i) {
                EXPECT_GE(out[i], 0.0f) << int(curve) << " channel " << i;
                EXPECT_LE(out[i], 1.0f) << int(curve) << " channel " << i;
            }
        }
    // NaN and negative channels count as 0; +inf as the brightest value.
    for (const ToneCurve curve : kFilmicCurves) {
        EXPECT_EQ(tonemap_pixel_srgb8(Vec3f(nan, -1.0f, nan), ToneMap{curve}), (std::array<uint8_t, 3>{0, 0, 0}));
        EXPECT_EQ(tonemap_pixel_srgb8(Vec3f(inf), ToneMap{curve}), tonemap_pixel_srgb8(Vec3f(1e30f), ToneMap{curve}));
    }
}

TEST(ToneCurve, MonotonicInLuminance) {
    // Along a grey ramp and along rays of fixed chromaticity, from 2^-14 to 2^14 in 1/16 stops:
    // the output luminance never falls, nor does any 8-bit code of a grey.
    // One exception, in the formula itself: once a channel of AgX passes the top of its log
    // range (2^4.026 = 16.3) its sigmoid value stops rising while the others still rise, and
    // the outset matrix's negative terms pull the finished channel down: for (1, 0.5, 0.25)
    // the luminance falls by 3.7e-5 per 1/16 stop from 39.7 on (Wrensch's GLSL computed in
    // double does the same), 3e-4 in all, below a tenth of one 8-bit step.
    for (const ToneCurve curve : kAllCurves) {
        for (const Vec3f hue : {Vec3f(1.0f), Vec3f(1.0f, 0.5f, 0.25f), Vec3f(0.1f, 0.2f, 1.0f), Vec3f(0.0f, 1.0f, 0.0f),
                                Vec3f(1.0f, 0.0f, 0.0f), Vec3f(1.0f, 1.0f, 0.0f)}) {
            float previous = -1.0f, peak = -1.0f;
            std::array<uint8_t, 3> previous_code{};
            for (int step = -14 * 16; step <= 14 * 16; ++step) {
                const Vec3f c = hue * std::exp2(float(step) / 16.0f);
                const float y = luminance(apply_tone_curve(curve, c));
                if (curve == ToneCurve::Agx && max_component(c) > 16.0f)
                    ASSERT_GE(y, peak - 5e-4f) << "agx at " << c.x << ", " << c.y << ", " << c.z;
                else
                    ASSERT_GE(y, previous) << "curve " << int(curve) << " at " << c.x << ", " << c.y << ", " << c.z;
                previous = y;
                peak = std::max(peak, y);
                if (hue.x == hue.y && hue.y == hue.z) {
                    const std::array<uint8_t, 3> code = tonemap_pixel_srgb8(c, ToneMap{curve});
                    for (int i = 0; i < 3; ++i) ASSERT_GE(code[i], previous_code[i]) << int(curve) << " grey " << c.x;
                    previous_code = code;
                }
            }
        }
    }
}

TEST(ToneCurve, WhitePoints) {
    auto grey_code = [](ToneCurve curve, float v) { return tonemap_pixel_srgb8(Vec3f(v), ToneMap{curve})[1]; };
    // none: white at 1.
    EXPECT_EQ(grey_code(ToneCurve::None, 1.0f), 255);
    EXPECT_EQ(grey_code(ToneCurve::None, 0.99f), 254);
    // pbr-neutral: 1.0 is compressed to 0.86909 (sRGB 0.939, code 240); the curve tends to 1 and
    // never reaches it: grey 16 gives pn = 1 - 0.0576 / 15.44 = 0.99627, code 255.
    EXPECT_EQ(grey_code(ToneCurve::PbrNeutral, 1.0f), 240);
    EXPECT_LT(tone_curve_pbr_neutral(Vec3f(1e18f)).x, 1.0f + 1e-6f);
    EXPECT_EQ(grey_code(ToneCurve::PbrNeutral, 16.0f), 255);
    // aces: the fit reaches 1 at grey 25.67 (root of 0.016271 v^2 - 0.4083724 v - 0.238171).
    EXPECT_LT(tone_curve_aces(Vec3f(25.0f)).x, 1.0f);
    EXPECT_EQ(tone_curve_aces(Vec3f(26.0f)).x, 1.0f);
    EXPECT_EQ(grey_code(ToneCurve::Aces, 1.0f), 206);
    // agx: the log encoding ends at 2^4.026069 = 16.29 (the sigmoid gives 0.99858 there):
    // anything brighter maps to the same value, code 255.
    EXPECT_EQ(tone_curve_agx(Vec3f(20.0f)).x, tone_curve_agx(Vec3f(1e6f)).x);
    EXPECT_EQ(grey_code(ToneCurve::Agx, 17.0f), 255);
    EXPECT_LT(grey_code(ToneCurve::Agx, 4.0f), 255);
}

TEST(ToneCurve, ExposureDoublesTheLinearInput) {
    for (const ToneCurve curve : kAllCurves)
        for (const Vec3f c : sample_colours()) {
            EXPECT_EQ(tonemap_pixel_srgb8(c, ToneMap{curve, 1.0f}), tonemap_pixel_srgb8(c * 2.0f, ToneMap{curve}))
                << int(curve);
            EXPECT_EQ(tonemap_pixel_srgb8(c, ToneMap{curve, -3.0f}), tonemap_pixel_srgb8(c * 0.125f, ToneMap{curve}))
                << int(curve);
        }
    // And it is applied before the curve: pbr-neutral of 0.25 at +1 stop is 0.5 - 0.04.
    const std::array<uint8_t, 3> code = tonemap_pixel_srgb8(Vec3f(0.25f), ToneMap{ToneCurve::PbrNeutral, 1.0f});
    EXPECT_EQ(code[0], quantize_8bit(srgb_encode(0.46f)));
}
}  // namespace
}  // namespace wf
