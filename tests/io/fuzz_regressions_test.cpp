// Every input the fuzzers (fuzz/) ever crashed, hung or leaked on, kept in
// fuzz/regressions/<target>/, goes through the same entry point as its fuzz target: it must
// load or be refused with the reader's own error type. The leaks and undefined behaviour
// these inputs once caused are caught when this suite runs under AddressSanitizer and
// UndefinedBehaviorSanitizer (.ci/run's sanitizer phase); without them the test still
// checks that each input is refused cleanly.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/image_codecs.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"

namespace wf {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> regression_inputs(const std::string& target) {
    std::vector<fs::path> files;
    fs::path dir = fs::path(test::source_dir()) / "fuzz/regressions" / target;
    if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.is_regular_file()) files.push_back(e.path());
    return files;
}

image_codecs::Bytes read_bytes(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return image_codecs::Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

TEST(FuzzRegressions, ExrReaderInputs) {
    auto files = regression_inputs("image_exr");
    EXPECT_GE(files.size(), 1u);  // the truncated scanline file whose planes leaked
    for (const fs::path& p : files) {
        try {
            Image image = image_codecs::decode_exr(read_bytes(p));
            EXPECT_EQ(image.pixels.size(), image.pixel_count()) << p;
        } catch (const ImageError&) {
        }
    }
}

TEST(FuzzRegressions, PngAndHdrReaderInputs) {
    auto files = regression_inputs("image_stb");
    EXPECT_GE(files.size(), 1u);  // the PNG with an empty first IDAT chunk
    for (const fs::path& p : files) {
        image_codecs::Bytes bytes = read_bytes(p);
        ASSERT_FALSE(bytes.empty()) << p;
        // As in fuzz/fuzz_image_stb.cpp: the first byte picks the decoder.
        bool hdr = bytes[0] & 1;
        image_codecs::Bytes file(bytes.begin() + 1, bytes.end());
        try {
            Image image = hdr ? image_codecs::decode_hdr(file) : image_codecs::decode_png(file);
            EXPECT_EQ(image.pixels.size(), image.pixel_count()) << p;
        } catch (const ImageError&) {
        }
    }
}

TEST(FuzzRegressions, SceneLoaderInputs) {
    for (const fs::path& p : regression_inputs("scene_loader")) {
        std::ifstream f(p, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        try {
            parse_scene(text, "fuzz.json", "/nonexistent-wavefront-fuzz-dir");
        } catch (const SceneError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("fuzz.json", 0), 0u) << p << ": " << e.what();
        }
    }
}

// The empty IDAT chunk is valid PNG: with it removed the image decodes as before.
TEST(FuzzRegressions, EmptyIdatChunksAreIgnored) {
    // A 1x1 grey PNG, with a zero-length IDAT chunk inserted before its image data.
    const uint8_t png[] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a,
                           0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0,
                           0x3a, 0x7e, 0x9b, 0x55,
                           0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e,
                           0, 0, 0, 10, 'I', 'D', 'A', 'T', 0x78, 0x9c, 0x63, 0xf8, 0x0f, 0x00, 0x01, 0x01, 0x01, 0x00,
                           0xb1, 0x38, 0xf6, 0x14,
                           0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    Image image = image_codecs::decode_png(image_codecs::Bytes(std::begin(png), std::end(png)));
    ASSERT_EQ(image.width, 1u);
    ASSERT_EQ(image.height, 1u);
    EXPECT_FLOAT_EQ(image.pixels[0].x, 1.0f);  // the byte 0xff: white
}

}  // namespace
}  // namespace wf
