#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <tinyexr.h>  // declarations only: the implementation is in the engine (io/image_exr.cpp)

#include "engine/backend/thread_pool.h"
#include "io/image.h"
#include "io/image_metrics.h"
#include "io/tonemap.h"
#include "tests/common/temp_dir_test.h"

namespace wf {
namespace {

namespace fs = std::filesystem;

// Each test gets its own directory, so tests may run in parallel (ctest -j).
class ImageIo : public test::TempDirTest {
protected:
    ImageIo() : TempDirTest("wf_image_io_") {}
};

std::string read_error_of(const std::string& path) {
    try {
        read_image(path);
    } catch (const ImageError& e) {
        return e.what();
    }
    return "(no ImageError thrown)";
}

std::string write_error_of(const std::string& path, const Image& image, const std::vector<ImageLayer>& layers = {}) {
    try {
        write_image(path, image, {}, layers);
    } catch (const ImageError& e) {
        return e.what();
    }
    return "(no ImageError thrown)";
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Non-square on purpose (catches swapped axes); values span six decades.
Image hdr_pattern(uint32_t w = 37, uint32_t h = 23) {
    Image image(w, h);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> log_value(-3.0f, 3.0f);
    for (Vec3f& p : image.pixels)
        p = Vec3f(std::pow(10.0f, log_value(rng)), std::pow(10.0f, log_value(rng)), std::pow(10.0f, log_value(rng)));
    image.at(0, 0) = Vec3f(0.0f);              // black
    image.at(w - 1, 0) = Vec3f(1.0f, 0.0f, 0.0f);  // top right: pure red
    image.at(0, h - 1) = Vec3f(0.0f, 0.0f, 5.0f);  // bottom left: blue
    return image;
}

Image ldr_pattern(uint32_t w = 64, uint32_t h = 48) {
    Image image(w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            image.at(x, y) = Vec3f(float(x) / float(w - 1), float(y) / float(h - 1), float((x * 7 + y * 13) % 101) / 100.0f);
    return image;
}

// Re-encodes a flat Radiance file written by write_image with run-length encoded scanlines
// (runs of >= 3 equal bytes, dumps otherwise), as Radiance and stb_image_write produce them.
std::string to_rle_radiance(const std::string& flat, uint32_t width, uint32_t height) {
    const size_t data_start = flat.size() - size_t(width) * height * 4;
    std::string out = flat.substr(0, data_start);
    for (uint32_t y = 0; y < height; ++y) {
        out += {char(2), char(2), char(width >> 8), char(width & 0xff)};
        for (int channel = 0; channel < 4; ++channel) {
            std::string bytes;
            for (uint32_t x = 0; x < width; ++x) bytes += flat[data_start + (size_t(y) * width + x) * 4 + channel];
            size_t i = 0;
            while (i < bytes.size()) {
                size_t run = 1;
                while (i + run < bytes.size() && run < 127 && bytes[i + run] == bytes[i]) ++run;
                if (run >= 3) {
                    out += {char(128 + run), bytes[i]};
                    i += run;
                    continue;
                }
                size_t dump = 0;  // up to the next run of 3
                while (i + dump < bytes.size() && dump < 128 &&
                       !(i + dump + 2 < bytes.size() && bytes[i + dump] == bytes[i + dump + 1] &&
                         bytes[i + dump] == bytes[i + dump + 2]))
                    ++dump;
                if (dump == 0) dump = 1;
                out += char(dump);
                out += bytes.substr(i, dump);
                i += dump;
            }
        }
    }
    return out;
}

// Writes an OpenEXR file with the given channels, each plane stored as half floats, through
// tinyexr directly (write_image only writes float R, G, B).
void write_half_exr(const std::string& file, int width, int height, const std::vector<std::string>& names,
                    std::vector<std::vector<float>> planes) {
    std::vector<EXRChannelInfo> channels(names.size());
    std::vector<int> input_types(names.size(), TINYEXR_PIXELTYPE_FLOAT), stored_types(names.size(), TINYEXR_PIXELTYPE_HALF);
    std::vector<unsigned char*> pointers;
    for (size_t c = 0; c < names.size(); ++c) {
        std::snprintf(channels[c].name, sizeof(channels[c].name), "%s", names[c].c_str());
        pointers.push_back(reinterpret_cast<unsigned char*>(planes[c].data()));
    }
    EXRHeader header;
    InitEXRHeader(&header);
    header.num_channels = int(names.size());
    header.channels = channels.data();
    header.pixel_types = input_types.data();
    header.requested_pixel_types = stored_types.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_NONE;
    EXRImage image;
    InitEXRImage(&image);
    image.num_channels = int(names.size());
    image.images = pointers.data();
    image.width = width;
    image.height = height;
    const char* err = nullptr;
    ASSERT_EQ(SaveEXRImageToFile(&image, &header, file.c_str(), &err), TINYEXR_SUCCESS) << (err ? err : "");
}

// A minimal PNG (no filter, one IDAT) of raw scanline bytes, for layouts write_image never
// produces: 16-bit samples, grey.
std::string make_png(uint32_t width, uint32_t height, uint8_t bit_depth, uint8_t colour_type,
                     const std::string& scanlines_without_filter_bytes) {
    auto be32 = [](uint32_t v) {
        return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    };
    auto chunk = [&](const std::string& type, const std::string& data) {
        const std::string body = type + data;
        const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(body.data()), uInt(body.size()));
        return be32(uint32_t(data.size())) + body + be32(uint32_t(crc));
    };
    const size_t row_bytes = scanlines_without_filter_bytes.size() / height;
    std::string raw;
    for (uint32_t y = 0; y < height; ++y) raw += '\0' + scanlines_without_filter_bytes.substr(y * row_bytes, row_bytes);
    uLongf size = compressBound(uLong(raw.size()));
    std::string deflated(size, '\0');
    compress(reinterpret_cast<Bytef*>(deflated.data()), &size, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()));
    deflated.resize(size);
    const std::string ihdr = be32(width) + be32(height) + std::string{char(bit_depth), char(colour_type), 0, 0, 0};
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", deflated) + chunk("IEND", "");
}

void expect_contains(const std::string& text, const std::string& part) {
    EXPECT_NE(text.find(part), std::string::npos) << "'" << text << "' does not contain '" << part << "'";
    EXPECT_EQ(text.find('\n'), std::string::npos) << "message spans lines: " << text;
}

// ---- Round trips -------------------------------------------------------------------------

TEST_F(ImageIo, HdrRoundTripWithinRgbePrecision) {
    const Image original = hdr_pattern();
    write_image(path("a.hdr"), original);
    const Image back = read_image(path("a.hdr"));
    ASSERT_EQ(back.width, original.width);
    ASSERT_EQ(back.height, original.height);
    for (size_t i = 0; i < original.pixel_count(); ++i) {
        const Vec3f a = original.pixels[i], b = back.pixels[i];
        // Shared 8-bit mantissa, truncated on write with half a step added back on read
        // (except to a zero mantissa): error <= one step <= max component / 128.
        const float tolerance = max_component(a) / 128.0f * 1.0001f;
        for (int c = 0; c < 3; ++c) ASSERT_NEAR(b[c], a[c], tolerance) << "pixel " << i << " channel " << c;
        for (int c = 0; c < 3; ++c) {  // relative error of the dominant channel < 0.4%
            if (a[c] == max_component(a) && a[c] > 0) {
                ASSERT_NEAR(b[c] / a[c], 1.0f, 0.004f);
            }
        }
    }
    EXPECT_EQ(back.at(0, 0).x, 0.0f);
    // Exactly representable values come back half a mantissa step high (Radiance's decoder).
    EXPECT_FLOAT_EQ(back.at(original.width - 1, 0).x, 1.0f + 0.5f / 128.0f);
    EXPECT_FLOAT_EQ(back.at(0, original.height - 1).z, 5.0f + 0.5f / 32.0f);
}

TEST_F(ImageIo, HdrHeaderIsTopDownRadiance) {
    write_image(path("a.hdr"), Image(7, 4, Vec3f(0.5f)));
    const std::string bytes = read_bytes(path("a.hdr"));
    EXPECT_EQ(bytes.rfind("#?RADIANCE\n", 0), 0u);
    EXPECT_NE(bytes.find("FORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 7\n"), std::string::npos);
    const size_t data_start = bytes.find("+X 7\n") + 5;
    EXPECT_EQ(bytes.size() - data_start, 7u * 4u * 4u);  // uncompressed RGBE
    // 0.5 = 128 * 2^-8: mantissa 128, exponent byte 128.
    EXPECT_EQ(uint8_t(bytes[data_start]), 128);
    EXPECT_EQ(uint8_t(bytes[data_start + 3]), 128);
}

TEST_F(ImageIo, HdrWriterMapsUnrepresentableValues) {
    const float inf = std::numeric_limits<float>::infinity();
    Image image(4, 1);
    image.at(0, 0) = Vec3f(-1.0f, 2.0f, 0.0f);                                    // negative -> 0
    image.at(1, 0) = Vec3f(std::numeric_limits<float>::quiet_NaN(), 1.0f, 1.0f);  // NaN -> 0
    image.at(2, 0) = Vec3f(inf, 1.0f, 0.0f);                                      // inf saturates
    image.at(3, 0) = Vec3f(1e-40f, 0.0f, 0.0f);                                   // below RGBE range
    write_image(path("a.hdr"), image);
    const Image back = read_image(path("a.hdr"));
    EXPECT_EQ(back.at(0, 0).x, 0.0f);
    EXPECT_FLOAT_EQ(back.at(0, 0).y, 2.0f + 0.5f / 64.0f);  // plus half a mantissa step
    EXPECT_EQ(back.at(1, 0).x, 0.0f);
    EXPECT_TRUE(std::isfinite(back.at(2, 0).x));
    EXPECT_GT(back.at(2, 0).x, 1e38f);
    EXPECT_EQ(count_nonfinite(back), 0u);
    EXPECT_EQ(back.at(3, 0).x, 0.0f);
}

TEST_F(ImageIo, ExrRoundTripIsBitExact) {
    Image original = hdr_pattern();
    original.at(1, 0) = Vec3f(-0.25f, 1e-30f, 3.0e38f);
    original.at(2, 0) = Vec3f(std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(), -0.0f);
    write_image(path("a.exr"), original);
    const Image back = read_image(path("a.exr"));
    ASSERT_EQ(back.width, original.width);
    ASSERT_EQ(back.height, original.height);
    for (size_t i = 0; i < original.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c)
            ASSERT_EQ(std::bit_cast<uint32_t>(back.pixels[i][c]), std::bit_cast<uint32_t>(original.pixels[i][c]))
                << "pixel " << i << " channel " << c;
}

// Layers (the AOVs) are extra EXR channels; the beauty reads back unchanged, and formats
// with one RGB image or a layer of the wrong size or channel count are refused.
TEST_F(ImageIo, ExrLayersLeaveTheBeautyAndOnlyExrTakesThem) {
    const Image beauty = hdr_pattern();
    std::vector<ImageLayer> layers = {{"depth", "Z", Image(beauty.width, beauty.height, Vec3f(2.5f))}};
    write_image(path("layers.exr"), beauty, {}, layers);
    const Image back = read_image(path("layers.exr"));
    for (size_t i = 0; i < beauty.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c) ASSERT_EQ(back.pixels[i][c], beauty.pixels[i][c]) << i;
    EXPECT_NE(write_error_of(path("l.png"), beauty, layers).find("l.png: layers (depth, ...) need an .exr file"),
              std::string::npos);
    EXPECT_NE(write_error_of(path("l.hdr"), beauty, layers).find("need an .exr file"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path("l.png")));
    std::vector<ImageLayer> wrong_size = {{"albedo", "RGB", Image(1, 1)}};
    EXPECT_NE(write_error_of(path("l.exr"), beauty, wrong_size).find("layer 'albedo' is not the image's size"),
              std::string::npos);
    std::vector<ImageLayer> four = {{"x", "RGBA", Image(beauty.width, beauty.height)}};
    EXPECT_NE(write_error_of(path("l.exr"), beauty, four).find("layer 'x' has 4 channels"), std::string::npos);
}

TEST_F(ImageIo, PngRoundTripWithinOneCodeStep) {
    const Image original = ldr_pattern();
    write_image(path("a.png"), original);
    const Image back = read_image(path("a.png"));
    ASSERT_EQ(back.width, original.width);
    ASSERT_EQ(back.height, original.height);
    float worst_linear = 0.0f;
    for (size_t i = 0; i < original.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c) {
            const float a = original.pixels[i][c], b = back.pixels[i][c];
            // Rounded to the nearest code: half a step in the encoded domain ...
            ASSERT_NEAR(srgb_encode(b), srgb_encode(a), 0.5f / 255.0f + 1e-6f) << "pixel " << i;
            worst_linear = std::fmax(worst_linear, std::fabs(a - b));
        }
    // ... which the inverse curve (slope <= 2.28 at 1) turns into at most 1.14 / 255 linear.
    EXPECT_LE(worst_linear, 1.15f / 255.0f);
    EXPECT_EQ(back.at(0, 0).x, 0.0f);
    EXPECT_EQ(back.at(original.width - 1, 0).x, 1.0f);
}

// The PNG writer deflates long images in slices on the thread pool, each ended by a
// full flush, and combines the slices' Adler-32 sums: the file must hold one valid zlib
// stream (zlib's own inflate checks the sum) and decode to the image.
TEST_F(ImageIo, LargePngDeflatesInSlicesIntoOneValidStream) {
    Image original(1000, 400);  // 1.2 MB of scanlines: several slices
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> noise(0.0f, 1.0f);
    for (uint32_t y = 0; y < original.height; ++y)
        for (uint32_t x = 0; x < original.width; ++x)  // a gradient under noise: neither flat nor random
            original.at(x, y) = Vec3f(0.5f * float(x) / float(original.width) + 0.3f * noise(rng),
                                      0.8f * float(y) / float(original.height), 0.2f * noise(rng) + 0.4f);
    write_image(path("large.png"), original);

    std::ifstream in(path("large.png"), std::ios::binary);
    const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string stream;
    int idat_chunks = 0;
    for (size_t at = 8; at + 12 <= file.size();) {  // length, type, data, CRC
        const auto byte = [&](size_t i) { return uint32_t(uint8_t(file[i])); };
        const uint32_t length = byte(at) << 24 | byte(at + 1) << 16 | byte(at + 2) << 8 | byte(at + 3);
        if (file.compare(at + 4, 4, "IDAT") == 0) {
            stream += file.substr(at + 8, length);
            ++idat_chunks;
        }
        at += 12 + size_t(length);
    }
    ASSERT_GE(idat_chunks, 1);
    std::vector<Bytef> scanlines((size_t(3) * original.width + 1) * original.height + 1);
    uLongf size = uLongf(scanlines.size());
    ASSERT_EQ(uncompress(scanlines.data(), &size, reinterpret_cast<const Bytef*>(stream.data()), uLong(stream.size())),
              Z_OK);
    EXPECT_EQ(size, scanlines.size() - 1);

    const Image back = read_image(path("large.png"));
    ASSERT_EQ(back.width, original.width);
    ASSERT_EQ(back.height, original.height);
    for (size_t i = 0; i < original.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(srgb_encode(back.pixels[i][c]), srgb_encode(original.pixels[i][c]), 0.5f / 255.0f + 1e-6f)
                << "pixel " << i;
}

// The PNG writer runs on the process's thread pool; called from one of that pool's own
// jobs it must still finish (the nested call runs on its own thread).
TEST_F(ImageIo, PngWrittenFromAThreadPoolJob) {
    const Image original = ldr_pattern();
    ThreadPool::global().run_chunks(2, 1, [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) write_image(path("job" + std::to_string(i) + ".png"), original);
    });
    for (int i = 0; i < 2; ++i) EXPECT_EQ(read_image(path("job" + std::to_string(i) + ".png")).width, original.width);
}

TEST_F(ImageIo, ExrReadsHalfFloatGreyAndRgba) {
    // 0.5, 0.25, 2 and 1024 are exact in half precision.
    write_half_exr(path("grey.exr"), 2, 2, {"Y"}, {{0.5f, 0.25f, 2.0f, 1024.0f}});
    const Image grey = read_image(path("grey.exr"));
    ASSERT_EQ(grey.width, 2u);
    EXPECT_EQ(grey.at(1, 0).x, 0.25f);
    EXPECT_EQ(grey.at(1, 0).z, 0.25f);
    EXPECT_EQ(grey.at(1, 1).y, 1024.0f);
    write_half_exr(path("rgba.exr"), 2, 1, {"A", "B", "G", "R"}, {{1, 1}, {0.25f, 3}, {0.5f, 2}, {2, 1}});
    const Image rgba = read_image(path("rgba.exr"));
    EXPECT_EQ(rgba.at(0, 0).x, 2.0f);
    EXPECT_EQ(rgba.at(0, 0).y, 0.5f);
    EXPECT_EQ(rgba.at(0, 0).z, 0.25f);
    EXPECT_EQ(rgba.at(1, 0).z, 3.0f);
    write_half_exr(path("uv.exr"), 1, 1, {"U", "V"}, {{0}, {0}});
    expect_contains(read_error_of(path("uv.exr")), "no R, G, B channels");
}

TEST_F(ImageIo, PngReadsSixteenBitAndGrey) {
    // 16-bit RGB, one pixel: 0xffff, 0x8000, 0x0000 (big-endian samples).
    write_bytes(path("rgb16.png"), make_png(1, 1, 16, 2, std::string("\xff\xff\x80\x00\x00\x00", 6)));
    const Image rgb16 = read_image(path("rgb16.png"));
    EXPECT_FLOAT_EQ(rgb16.at(0, 0).x, 1.0f);
    EXPECT_NEAR(rgb16.at(0, 0).y, srgb_decode(32768.0f / 65535.0f), 1e-6f);
    EXPECT_EQ(rgb16.at(0, 0).z, 0.0f);
    // 8-bit grey, 2x2, codes 0, 188 / 255, 255: replicated to R, G, B.
    write_bytes(path("grey.png"), make_png(2, 2, 8, 0, std::string("\x00\xbc\xff\x00", 4)));
    const Image grey = read_image(path("grey.png"));
    ASSERT_EQ(grey.width, 2u);
    EXPECT_NEAR(grey.at(1, 0).x, 0.5f, 1.15f / 255.0f);
    EXPECT_EQ(grey.at(1, 0).x, grey.at(1, 0).z);
    EXPECT_EQ(grey.at(0, 1).y, 1.0f);
}

TEST_F(ImageIo, PngAppliesExposureAndClamps) {
    Image image(4, 1);
    image.at(0, 0) = Vec3f(0.25f);
    image.at(1, 0) = Vec3f(2.0f);
    image.at(2, 0) = Vec3f(-1.0f);
    image.at(3, 0) = Vec3f(std::numeric_limits<float>::quiet_NaN());
    write_image(path("a.png"), image, ToneMap{ToneCurve::None, /*exposure=*/1.0f});
    const Image back = read_image(path("a.png"));
    EXPECT_NEAR(back.at(0, 0).x, 0.5f, 1.15f / 255.0f);  // 0.25 * 2^1
    EXPECT_EQ(back.at(1, 0).x, 1.0f);
    EXPECT_EQ(back.at(2, 0).x, 0.0f);
    EXPECT_EQ(back.at(3, 0).x, 0.0f);
}

TEST_F(ImageIo, HdrAndExrIgnoreExposureAndCurve) {
    const Image image(2, 2, Vec3f(0.25f));
    write_image(path("a.hdr"), image, ToneMap{ToneCurve::Agx, 3.0f});
    write_image(path("a.exr"), image, ToneMap{ToneCurve::PbrNeutral, 3.0f});
    EXPECT_FLOAT_EQ(read_image(path("a.hdr")).at(1, 1).x, 0.25f + 0.5f / 512.0f);
    EXPECT_EQ(read_image(path("a.exr")).at(1, 1).x, 0.25f);
}

TEST_F(ImageIo, ExtensionIsCaseInsensitive) {
    const Image image(3, 2, Vec3f(0.5f));
    for (const char* name : {"a.HDR", "a.Exr", "a.PNG"}) {
        write_image(path(name), image);
        const Image back = read_image(path(name));
        EXPECT_EQ(back.width, 3u) << name;
        EXPECT_NEAR(back.at(2, 1).y, 0.5f, 1.15f / 255.0f) << name;
    }
    EXPECT_EQ(read_bytes(path("a.PNG")).substr(1, 3), "PNG");
    EXPECT_EQ(read_bytes(path("a.Exr")).substr(0, 4), "\x76\x2f\x31\x01");
}

// ---- Errors --------------------------------------------------------------------------------

TEST_F(ImageIo, UnknownExtensionThrowsNamingFile) {
    const Image image(2, 2);
    const std::string bmp = path("a.bmp"), none = path("noextension");
    std::string message = write_error_of(bmp, image);
    expect_contains(message, bmp);
    expect_contains(message, "'.bmp'");
    expect_contains(write_error_of(none, image), none);
    EXPECT_FALSE(fs::exists(bmp));
    write_bytes(bmp, "BM");
    message = read_error_of(bmp);
    expect_contains(message, bmp);
    expect_contains(message, "'.bmp'");
}

TEST_F(ImageIo, MissingFileThrowsNamingFile) {
    for (const char* name : {"missing.hdr", "missing.exr", "missing.png"}) {
        const std::string message = read_error_of(path(name));
        expect_contains(message, path(name));
        expect_contains(message, "No such file");
    }
}

TEST_F(ImageIo, GarbageFileThrowsNamingFile) {
    const std::string garbage(1000, '\x5a');
    for (const char* name : {"garbage.hdr", "garbage.exr", "garbage.png"}) {
        write_bytes(path(name), garbage);
        expect_contains(read_error_of(path(name)), path(name));
    }
    write_bytes(path("empty.png"), "");
    expect_contains(read_error_of(path("empty.png")), "empty");
}

TEST_F(ImageIo, ContentMustMatchExtension) {
    write_image(path("a.png"), Image(4, 4, Vec3f(0.5f)));
    fs::copy_file(path("a.png"), path("png_named.hdr"));
    fs::copy_file(path("a.png"), path("png_named.exr"));
    expect_contains(read_error_of(path("png_named.hdr")), "not a Radiance HDR file");
    expect_contains(read_error_of(path("png_named.exr")), path("png_named.exr"));
    write_image(path("a.hdr"), Image(4, 4, Vec3f(0.5f)));
    fs::copy_file(path("a.hdr"), path("hdr_named.png"));
    expect_contains(read_error_of(path("hdr_named.png")), "not a PNG file");
}

TEST_F(ImageIo, TruncatedFilesThrow) {
    const Image image = hdr_pattern(64, 32);
    for (const char* name : {"a.hdr", "a.exr", "a.png"}) {
        write_image(path(name), image);
        const std::string bytes = read_bytes(path(name));
        write_bytes(path(name), bytes.substr(0, bytes.size() / 2));
        expect_contains(read_error_of(path(name)), path(name));
    }
    // Down to a single byte missing at the end of an uncompressed Radiance file.
    write_image(path("b.hdr"), image);
    const std::string bytes = read_bytes(path("b.hdr"));
    for (size_t cut : {1, 3, 4, 5}) {
        write_bytes(path("b.hdr"), bytes.substr(0, bytes.size() - cut));
        expect_contains(read_error_of(path("b.hdr")), "truncated");
    }
}

TEST_F(ImageIo, HdrReadsRunLengthEncodedScanlines) {
    Image image = hdr_pattern(40, 6);
    for (uint32_t x = 5; x < 30; ++x) image.at(x, 2) = Vec3f(0.75f, 0.5f, 0.25f);  // runs
    write_image(path("flat.hdr"), image);
    const std::string rle = to_rle_radiance(read_bytes(path("flat.hdr")), 40, 6);
    write_bytes(path("rle.hdr"), rle);
    ASSERT_LT(rle.size(), read_bytes(path("flat.hdr")).size());
    EXPECT_EQ(rmse(read_image(path("rle.hdr")), read_image(path("flat.hdr"))), 0.0);
}

TEST_F(ImageIo, TruncatedRleHdrThrowsInsteadOfHanging) {
    Image image = hdr_pattern(40, 6);
    for (uint32_t x = 0; x < 40; ++x) image.at(x, 5) = Vec3f(0.75f);
    write_image(path("flat.hdr"), image);
    const std::string rle = to_rle_radiance(read_bytes(path("flat.hdr")), 40, 6);
    // The last scanline is constant, so the file ends with one run (count 128 + 40, value).
    // Cut 2 drops that count byte: stb_image alone then reads count 0 forever.
    ASSERT_EQ(uint8_t(rle[rle.size() - 2]), 128 + 40);
    for (size_t cut : {size_t(1), size_t(2), size_t(7), rle.size() / 2}) {
        write_bytes(path("cut.hdr"), rle.substr(0, rle.size() - cut));
        expect_contains(read_error_of(path("cut.hdr")), "truncated");
    }
}

TEST_F(ImageIo, UnwritablePathThrowsNamingFile) {
    const Image image(2, 2);
    const std::string no_dir = path("no/such/dir/a.png");
    std::string message = write_error_of(no_dir, image);
    expect_contains(message, no_dir);
    expect_contains(message, "cannot open for writing");
    fs::create_directories(path("dir.exr"));  // a directory where the file should go
    expect_contains(write_error_of(path("dir.exr"), image), path("dir.exr"));
}

TEST_F(ImageIo, FailedWriteThrowsAndLeavesWhatWasThere) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "/dev/full not available";
    const std::string full = path("full.hdr");
    fs::create_symlink("/dev/full", full);  // every write fails with ENOSPC
    const std::string message = write_error_of(full, Image(256, 256, Vec3f(1.0f)));
    expect_contains(message, full);
    expect_contains(message, "write failed");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(full)));  // not replaced, not removed
}

TEST_F(ImageIo, InvalidImageThrowsNamingFile) {
    expect_contains(write_error_of(path("a.hdr"), Image()), "empty");
    Image inconsistent(4, 4);
    inconsistent.pixels.pop_back();
    const std::string message = write_error_of(path("a.exr"), inconsistent);
    expect_contains(message, path("a.exr"));
    expect_contains(message, "does not match 4x4");
    EXPECT_FALSE(fs::exists(path("a.hdr")));
    EXPECT_FALSE(fs::exists(path("a.exr")));
}

// ---- The SmallVCM reference --------------------------------------------------------------

TEST(ImageIoReference, SmallVcmPathTracingReferenceHasKnownChannelMean) {
#ifdef WF_SHARED_DIR
    const std::string file = std::string(WF_SHARED_DIR) + "/reference/smallvcm/s1_pt_i1000.hdr";
    if (!fs::exists(file)) GTEST_SKIP() << "reference image not found: " << file;
    const Image reference = read_image(file);
    ASSERT_EQ(reference.width, 512u);
    ASSERT_EQ(reference.height, 512u);
    EXPECT_EQ(count_nonfinite(reference), 0u);
    const Vec3f mean = channel_mean(reference);
    EXPECT_NEAR(mean.x, 0.263f, 0.03f * 0.263f);
    EXPECT_NEAR(mean.y, 0.266f, 0.03f * 0.266f);
    EXPECT_NEAR(mean.z, 0.261f, 0.03f * 0.261f);
    // Downsampled to 128x128 as renders are compared, the mean is unchanged.
    const Image small = box_downsample(reference, 4);
    ASSERT_EQ(small.width, 128u);
    const Vec3f small_mean = channel_mean(small);
    EXPECT_NEAR(small_mean.x, mean.x, 1e-5f);
    EXPECT_NEAR(small_mean.y, mean.y, 1e-5f);
    EXPECT_NEAR(small_mean.z, mean.z, 1e-5f);
#else
    GTEST_SKIP() << "WF_SHARED_DIR is not defined: build through CMake to locate the reference images";
#endif
}

}  // namespace
}  // namespace wf
