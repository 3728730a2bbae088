// Environment maps on disk: OpenEXR of every compression through io/image.h, the scene
// format's environment light with "file" (docs/scene-format.md), bad map files (one line
// naming the file), and the Blender DWAB maps of shared/assets/env when they are there.
#include <gtest/gtest.h>
#include <unistd.h>

#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfTiledOutputFile.h>
#include <Imath/half.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "engine/backend/cpu_backend.h"
#include "io/environment_map.h"
#include "io/image.h"
#include "io/scene_loader.h"
#include "materials/environment_map_build.h"
#include "tests/common/temp_dir_test.h"
#include "tests/io/scene_test_util.h"

namespace wf {
namespace {

namespace fs = std::filesystem;

class EnvironmentMapFiles : public test::TempDirTest {
protected:
    EnvironmentMapFiles() : TempDirTest("wf_env_") {}
    void SetUp() override {
        TempDirTest::SetUp();
        fs::create_directories(dir_ / "maps");
    }

    // A scene file in the test folder whose one light is `light` (JSON).
    std::string write_scene(const std::string& light) const {
        const std::string file = path("scene.json");
        std::ofstream(file) << R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1}], "lights": [)"
                            << light << "]}";
        return file;
    }

};

// Non-square, every texel different, values over several decades.
Image test_pattern(uint32_t w = 19, uint32_t h = 11) {
    Image image(w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            image.at(x, y) = Vec3f(0.01f + 0.5f * x, std::pow(2.0f, float(y) - 4.0f), 0.25f + 0.01f * float(x * y));
    return image;
}

// Writes `image` as OpenEXR R, G, B (half or float) with `compression`, through OpenEXR
// itself; scanlines, or 8 x 8 tiles. The data window starts at (3, -2): not at the origin.
void write_openexr(const std::string& file, const Image& image, Imf::Compression compression, Imf::PixelType type,
                   bool tiled) {
    const Imath::Box2i window(Imath::V2i(3, -2), Imath::V2i(3 + int(image.width) - 1, -2 + int(image.height) - 1));
    Imf::Header header(window, window);
    header.compression() = compression;
    for (const char* c : {"R", "G", "B"}) header.channels().insert(c, Imf::Channel(type));
    std::vector<half> halves(image.pixel_count() * 3);
    std::vector<float> floats(image.pixel_count() * 3);
    for (size_t i = 0; i < image.pixel_count(); ++i)
        for (int c = 0; c < 3; ++c) {
            floats[3 * i + size_t(c)] = image.pixels[i][c];
            halves[3 * i + size_t(c)] = half(image.pixels[i][c]);
        }
    Imf::FrameBuffer frame;
    const size_t size = type == Imf::HALF ? sizeof(half) : sizeof(float);
    char* base = type == Imf::HALF ? reinterpret_cast<char*>(halves.data()) : reinterpret_cast<char*>(floats.data());
    for (int c = 0; c < 3; ++c)
        frame.insert(c == 0 ? "R" : c == 1 ? "G" : "B",
                     Imf::Slice::Make(type, base + size * size_t(c), window, 3 * size, 3 * size * image.width));
    if (tiled) {
        header.setTileDescription(Imf::TileDescription(8, 8, Imf::ONE_LEVEL));
        Imf::TiledOutputFile out(file.c_str(), header);
        out.setFrameBuffer(frame);
        out.writeTiles(0, out.numXTiles() - 1, 0, out.numYTiles() - 1);
    } else {
        Imf::OutputFile out(file.c_str(), header);
        out.setFrameBuffer(frame);
        out.writePixels(int(image.height));
    }
}

// ---- OpenEXR reading ------------------------------------------------------------------------

TEST_F(EnvironmentMapFiles, OpenExrOfEveryCompressionReads) {
    const Image original = test_pattern();
    struct Case {
        Imf::Compression compression;
        const char* name;
        float tolerance;  // relative; 0: exact (to the stored precision)
    };
    const Case cases[] = {{Imf::NO_COMPRESSION, "none", 0},  {Imf::RLE_COMPRESSION, "rle", 0},
                          {Imf::ZIPS_COMPRESSION, "zips", 0}, {Imf::ZIP_COMPRESSION, "zip", 0},
                          {Imf::PIZ_COMPRESSION, "piz", 0},   {Imf::PXR24_COMPRESSION, "pxr24", 0},
                          {Imf::B44_COMPRESSION, "b44", 0.02f}, {Imf::B44A_COMPRESSION, "b44a", 0.02f},
                          {Imf::DWAA_COMPRESSION, "dwaa", 0.05f}, {Imf::DWAB_COMPRESSION, "dwab", 0.05f}};
    for (const Case& c : cases)
        for (bool tiled : {false, true}) {
            const std::string file = path(std::string(c.name) + (tiled ? "_tiled" : "") + ".exr");
            write_openexr(file, original, c.compression, Imf::HALF, tiled);
            Image back = read_image(file);
            ASSERT_EQ(back.width, original.width) << file;
            ASSERT_EQ(back.height, original.height) << file;
            for (size_t i = 0; i < original.pixel_count(); ++i)
                for (int ch = 0; ch < 3; ++ch) {
                    const float want = float(half(original.pixels[i][ch])), got = back.pixels[i][ch];
                    if (c.tolerance == 0) ASSERT_EQ(got, want) << file << " pixel " << i;
                    else ASSERT_NEAR(got, want, c.tolerance * std::fabs(want) + 1e-3f) << file << " pixel " << i;
                }
        }
    // Float channels, DWAB (as the Blender maps are) and PIZ (lossless: exact floats).
    write_openexr(path("float_dwab.exr"), original, Imf::DWAB_COMPRESSION, Imf::FLOAT, false);
    write_openexr(path("float_piz.exr"), original, Imf::PIZ_COMPRESSION, Imf::FLOAT, true);
    Image dwab = read_image(path("float_dwab.exr")), piz = read_image(path("float_piz.exr"));
    for (size_t i = 0; i < original.pixel_count(); ++i)
        for (int ch = 0; ch < 3; ++ch) {
            EXPECT_NEAR(dwab.pixels[i][ch], original.pixels[i][ch], 0.05f * original.pixels[i][ch] + 1e-3f);
            EXPECT_EQ(piz.pixels[i][ch], original.pixels[i][ch]);
        }
}

TEST_F(EnvironmentMapFiles, TruncatedOpenExrIsRefused) {
    write_openexr(path("full.exr"), test_pattern(64, 40), Imf::ZIP_COMPRESSION, Imf::FLOAT, false);
    std::string bytes;
    {
        std::ifstream in(path("full.exr"), std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    for (size_t keep : {bytes.size() / 2, bytes.size() - 1, size_t(20)}) {
        std::ofstream(path("cut.exr"), std::ios::binary) << bytes.substr(0, keep);
        try {
            read_image(path("cut.exr"));
            ADD_FAILURE() << "a file cut to " << keep << " of " << bytes.size() << " bytes was read";
        } catch (const ImageError& e) {
            EXPECT_NE(std::string(e.what()).find(path("cut.exr")), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}

// ---- The scene format ---------------------------------------------------------------------

TEST_F(EnvironmentMapFiles, FileLightLoadsWithIntensityRotationAndUp) {
    const Image pattern = test_pattern();
    write_image(path("maps/sky.exr"), pattern);
    write_image(path("maps/sky.hdr"), pattern);
    for (const char* name : {"maps/sky.exr", "maps/sky.hdr"}) {
        const std::string scene_file = write_scene(std::string(R"({"type": "environment", "file": ")") + name +
                                                   R"(", "intensity": 2.5, "rotation": -30, "up": [0, 0, 2]})");
        HostScene s = load_scene(scene_file);
        ASSERT_EQ(s.lights.size(), 1u);
        EXPECT_EQ(s.lights[0].type, LightType::Environment);
        EXPECT_EQ(s.lights[0].radiance.x, 2.5f);
        EXPECT_EQ(s.lights[0].radiance.z, 2.5f);
        const HostEnvironmentMap& m = s.environment_map;
        ASSERT_EQ(m.width, pattern.width);
        ASSERT_EQ(m.height, pattern.height);
        const Image expected = read_image(path(name));  // the .hdr's own rounding
        for (size_t i = 0; i < pattern.pixel_count(); ++i) ASSERT_EQ(m.texels[i].y, expected.pixels[i].y) << i;
        EXPECT_EQ(m.up.z, 1.0f);
        EXPECT_EQ(m.rotation_degrees, -30.0f);
        EXPECT_EQ(m.file, path(name));
        // Outputs are checked against the inputs: the map is one of them.
        EXPECT_NE(std::find(s.input_files.begin(), s.input_files.end(), path(name)), s.input_files.end());
    }
    // Defaults: intensity 1, no rotation, up +y.
    HostScene d = load_scene(write_scene(R"({"type": "environment", "file": "maps/sky.exr"})"));
    EXPECT_EQ(d.lights[0].radiance.y, 1.0f);
    EXPECT_EQ(d.environment_map.rotation_degrees, 0.0f);
    EXPECT_EQ(d.environment_map.up.y, 1.0f);
    // A constant environment has no map.
    EXPECT_TRUE(load_scene(write_scene(R"({"type": "environment", "radiance": 0.5})")).environment_map.empty());
}

TEST_F(EnvironmentMapFiles, MixedKeysAreRejected) {
    write_image(path("maps/sky.exr"), test_pattern());
    struct Case {
        const char* light;
        const char* where;
        const char* detail;
    };
    const Case cases[] = {
        {R"({"type": "environment", "file": "maps/sky.exr", "radiance": 1})", "/lights/0/radiance",
         "got both \"file\" and \"radiance\""},
        {R"({"type": "environment", "file": "maps/sky.exr", "zenith": 1, "nadir": 0})", "/lights/0/zenith",
         "got both \"file\" and \"zenith\""},
        {R"({"type": "environment", "radiance": 1, "intensity": 2})", "/lights/0/intensity",
         "\"intensity\" only with \"file\""},
        {R"({"type": "environment", "rotation": 90})", "/lights/0/rotation", "\"rotation\" only with \"file\""},
        {R"({"type": "environment", "file": "maps/sky.exr", "intensity": -1})", "/lights/0/intensity", "got -1"},
        {R"({"type": "environment", "file": "maps/sky.exr", "up": [0, 0, 0]})", "/lights/0/up", "expected"},
        {R"({"type": "environment", "file": 3})", "/lights/0/file", "string"},
    };
    for (const Case& c : cases) {
        const std::string file = write_scene(c.light);
        std::string e = test::scene_error_of([&] { load_scene(file); });
        EXPECT_EQ(e.rfind(file + ": " + c.where + ": ", 0), 0u) << e;
        EXPECT_NE(e.find(c.detail), std::string::npos) << e;
    }
}

// Every bad map: SceneError, one line, the scene file, the place in it, the map's path and the problem.
TEST_F(EnvironmentMapFiles, BadMapFilesAreRejectedNamingTheFile) {
    Image bad = test_pattern();
    write_image(path("maps/good.exr"), bad);
    bad.at(4, 2) = Vec3f(1.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f);
    write_image(path("maps/nan.exr"), bad);
    bad.at(4, 2) = Vec3f(std::numeric_limits<float>::infinity(), 1.0f, 1.0f);
    write_image(path("maps/inf.exr"), bad);
    bad.at(4, 2) = Vec3f(1.0f, 1.0f, -5.0f);
    write_image(path("maps/negative.exr"), bad);
    write_image(path("maps/good.hdr"), test_pattern());
    std::string exr, hdr;
    {
        std::ifstream a(path("maps/good.exr"), std::ios::binary), b(path("maps/good.hdr"), std::ios::binary);
        exr.assign(std::istreambuf_iterator<char>(a), {});
        hdr.assign(std::istreambuf_iterator<char>(b), {});
    }
    std::ofstream(path("maps/truncated.exr"), std::ios::binary) << exr.substr(0, exr.size() / 2);
    std::ofstream(path("maps/truncated.hdr"), std::ios::binary) << hdr.substr(0, hdr.size() - 100);
    std::ofstream(path("maps/huge.hdr"), std::ios::binary)
        << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 200000\n" << std::string(64, '\x80');
    std::ofstream(path("maps/empty.exr"), std::ios::binary);
    fs::create_directories(path("maps/folder.exr"));
    write_image(path("maps/sky.png"), test_pattern());
    struct Case {
        const char* file;
        const char* problem;
    };
    const Case cases[] = {
        {"maps/missing.exr", "cannot open: No such file or directory"},
        {"maps/truncated.exr", "OpenEXR"},
        {"maps/truncated.hdr", "truncated"},
        {"maps/nan.exr", "texel (4, 2) is not finite (1, nan, 1)"},
        {"maps/inf.exr", "texel (4, 2) is not finite (inf, 1, 1)"},
        {"maps/negative.exr", "texel (4, 2) is negative (1, 1, -5)"},
        {"maps/huge.hdr", "exceeds the 67108864-pixel limit"},
        {"maps/empty.exr", "file is empty"},
        {"maps/folder.exr", "is a folder"},
        {"maps/sky.png", "an environment map is a .hdr or .exr file"},
    };
    for (const Case& c : cases) {
        const std::string scene = write_scene(std::string(R"({"type": "environment", "file": ")") + c.file + "\"}");
        std::string e = test::scene_error_of([&] { load_scene(scene); });
        EXPECT_EQ(e.rfind(scene + ": /lights/0/file: " + path(c.file) + ": ", 0), 0u) << e;
        EXPECT_NE(e.find(c.problem), std::string::npos) << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        // The same through --env.
        HostScene s = load_scene(write_scene(R"({"type": "point", "position": [0, 3, 0]})"));
        std::string env = test::scene_error_of([&] { set_environment_map(s, path(c.file)); });
        EXPECT_EQ(env.rfind("--env: " + path(c.file) + ": ", 0), 0u) << env;
        EXPECT_NE(env.find(c.problem), std::string::npos) << env;
    }
}

// Lossy compression leaves small negative values: down to 1/16 of the map's mean they read as 0.
TEST_F(EnvironmentMapFiles, CompressionNoiseBelowZeroReadsAsZero) {
    Image noisy = test_pattern();
    double mean = 0.0;
    for (const Vec3f& p : noisy.pixels) mean += (double(p.x) + p.y + p.z) / (3.0 * noisy.pixel_count());
    noisy.at(2, 3) = Vec3f(0.5f, float(-0.9 * mean / 16.0), 0.25f);
    noisy.at(5, 1) = Vec3f(-1e-4f);
    write_image(path("maps/noisy.exr"), noisy);
    HostEnvironmentMap m = read_environment_map(path("maps/noisy.exr"));
    EXPECT_EQ(m.texels[3 * m.width + 2].x, 0.5f);
    EXPECT_EQ(m.texels[3 * m.width + 2].y, 0.0f);
    EXPECT_EQ(m.texels[1 * m.width + 5].z, 0.0f);
    noisy.at(2, 3).y = float(-1.1 * mean / 16.0);
    write_image(path("maps/noisy.exr"), noisy);
    std::string e = test::scene_error_of([&] { read_environment_map(path("maps/noisy.exr")); });
    EXPECT_NE(e.find("texel (2, 3) is negative"), std::string::npos) << e;
}

// A map too bright for light paths to carry (as for every light: docs/scene-format.md).
TEST_F(EnvironmentMapFiles, TooBrightMapIsRejected) {
    Image bright = test_pattern();
    bright.at(1, 1) = Vec3f(1e28f);
    write_image(path("maps/bright.exr"), bright);
    const std::string scene = write_scene(R"({"type": "environment", "file": "maps/bright.exr"})");
    std::string e = test::scene_error_of([&] { load_scene(scene); });
    EXPECT_EQ(e.rfind(scene + ": /lights/0: expected intensity <= ", 0), 0u) << e;
    HostScene s = load_scene(write_scene(R"({"type": "point", "position": [0, 3, 0]})"));
    std::string env = test::scene_error_of([&] { set_environment_map(s, path("maps/bright.exr")); });
    EXPECT_NE(env.find("<= 2^96"), std::string::npos) << env;
    // Scaled down enough, it loads.
    load_scene(write_scene(R"({"type": "environment", "file": "maps/bright.exr", "intensity": 1e-20})"));
}

// --env: replaces the environment light (constant, gradient or image) or adds one.
TEST_F(EnvironmentMapFiles, EnvFlagReplacesOrAddsTheEnvironment) {
    write_image(path("maps/sky.exr"), test_pattern());
    HostScene s = load_scene(write_scene(R"({"type": "environment", "zenith": 1, "nadir": 0})"));
    set_environment_map(s, path("maps/sky.exr"));
    ASSERT_EQ(s.lights.size(), 1u);
    EXPECT_EQ(s.lights[0].type, LightType::Environment);
    EXPECT_EQ(s.lights[0].radiance.x, 1.0f);
    EXPECT_EQ(s.lights[0].radiance_slope.x, 0.0f);
    EXPECT_EQ(s.environment_map.width, 19u);
    EXPECT_EQ(s.input_files.back(), path("maps/sky.exr"));
    HostScene p = load_scene(write_scene(R"({"type": "point", "position": [0, 3, 0]})"));
    set_environment_map(p, path("maps/sky.exr"));
    ASSERT_EQ(p.lights.size(), 2u);
    EXPECT_EQ(p.lights[1].type, LightType::Environment);
}

// ---- The Blender maps (shared/assets/env, DWAB) ------------------------------------------

TEST(EnvironmentMapShared, BlenderDwabMapsLoadAndBuild) {
#ifdef WF_SHARED_DIR
    const fs::path dir = fs::path(WF_SHARED_DIR) / "assets/env";
    if (!fs::is_directory(dir)) GTEST_SKIP() << "environment maps not found: " << dir;
    size_t maps = 0;
    for (const char* name : {"city", "courtyard", "forest", "interior", "night", "studio", "sunrise", "sunset"}) {
        const fs::path file = dir / (std::string(name) + ".exr");
        if (!fs::exists(file)) continue;
        ++maps;
        HostEnvironmentMap m = read_environment_map(file.string());
        EXPECT_EQ(m.width, 1024u) << name;
        EXPECT_EQ(m.height, 512u) << name;
        EXPECT_GT(max_texel_value(m), 0.0f) << name;
        CpuBackend backend;
        EnvironmentMap<CpuBackend> built;
        built.build(backend, m);
        // Every sample carries a finite, positive pdf and radiance.
        const EnvironmentMapView view = built.view();
        for (int i = 0; i < 1000; ++i) {
            const float u0 = (float(i) + 0.5f) / 1000.0f, u1 = (float((i * 617) % 1000) + 0.5f) / 1000.0f;
            EnvironmentSample s = sample_environment_map(view, u0, u1);
            ASSERT_GT(s.pdf_w, 0.0f) << name;
            ASSERT_TRUE(std::isfinite(s.pdf_w)) << name;
            ASSERT_GT(luminance(s.texel), 0.0f) << name;
        }
    }
    if (maps == 0) GTEST_SKIP() << "no map found in " << dir;
#else
    GTEST_SKIP() << "WF_SHARED_DIR is not defined";
#endif
}

}  // namespace
}  // namespace wf
