// OpenEXR encode/decode through tinyexr (Debian libtinyexr-dev, header-only here).
//
// This is the program's one TINYEXR_IMPLEMENTATION: tinyexr's API has C linkage and no static
// option, so a second definition elsewhere would be a duplicate-symbol link error. Debian
// builds it without miniz (TINYEXR_USE_MINIZ 0): ZIP compression goes through zlib.

// GCC 12 reports a false -Wstringop-overflow for std::vector::insert into an empty vector as
// inlined into tinyexr's SaveEXRNPartImageToMemory. The warning is located in the standard
// library headers, which a push/pop around <tinyexr.h> does not cover, so it is off file-wide.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#include <zlib.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "engine/scene.h"  // kMaxFilmPixels, kMaxFilmSide
#include "io/image_codecs.h"

#define TINYEXR_USE_MINIZ 0
#define TINYEXR_USE_THREAD 0
#define TINYEXR_IMPLEMENTATION
#include <tinyexr.h>

namespace wf::image_codecs {
namespace {

// Takes ownership of a tinyexr error string and turns it into a message.
std::string take_exr_error(const char* err, int code) {
    std::string message = err ? err : "error code " + std::to_string(code);
    if (err) FreeEXRErrorMessage(err);
    return message;
}

struct CFree {
    void operator()(void* p) const { std::free(p); }
};

}  // namespace

Bytes encode_exr(const Image& image) {
    // Channels stored B, G, R: OpenEXR keeps channels sorted by name, and readers expect it.
    const size_t n = image.pixel_count();
    std::vector<float> planes[3];
    for (auto& plane : planes) plane.resize(n);
    for (size_t i = 0; i < n; ++i) {
        planes[0][i] = image.pixels[i].z;
        planes[1][i] = image.pixels[i].y;
        planes[2][i] = image.pixels[i].x;
    }
    unsigned char* plane_ptrs[3] = {reinterpret_cast<unsigned char*>(planes[0].data()),
                                    reinterpret_cast<unsigned char*>(planes[1].data()),
                                    reinterpret_cast<unsigned char*>(planes[2].data())};

    EXRImage exr_image;
    InitEXRImage(&exr_image);
    exr_image.images = plane_ptrs;
    exr_image.num_channels = 3;
    exr_image.width = static_cast<int>(image.width);
    exr_image.height = static_cast<int>(image.height);

    EXRChannelInfo channels[3] = {};
    const char* names[3] = {"B", "G", "R"};
    int pixel_types[3], requested_pixel_types[3];
    for (int c = 0; c < 3; ++c) {
        channels[c].name[0] = names[c][0];
        channels[c].name[1] = '\0';
        pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;            // type of the data we pass
        requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;  // type stored in the file
    }
    EXRHeader header;
    InitEXRHeader(&header);  // line order increasing y: row 0 first, as in Image
    header.num_channels = 3;
    header.channels = channels;
    header.pixel_types = pixel_types;
    header.requested_pixel_types = requested_pixel_types;
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;

    unsigned char* memory = nullptr;
    const char* err = nullptr;
    const size_t size = SaveEXRImageToMemory(&exr_image, &header, &memory, &err);
    std::unique_ptr<unsigned char, CFree> owned(memory);
    if (size == 0 || !memory) throw ImageError("OpenEXR encoding failed: " + take_exr_error(err, 0));
    return Bytes(memory, memory + size);
}

// The steps of tinyexr's LoadEXRFromMemory, which leaks the parsed header when the pixel data
// is bad (a truncated file): here the header and the image are always freed.
Image decode_exr(const Bytes& file) {
    EXRVersion version;
    int code = ParseEXRVersionFromMemory(&version, file.data(), file.size());
    if (code != TINYEXR_SUCCESS) throw ImageError("not an OpenEXR file (error " + std::to_string(code) + ")");
    if (version.multipart || version.non_image)
        throw ImageError("multi-part and deep OpenEXR files are not supported");

    EXRHeader header;
    InitEXRHeader(&header);
    const char* err = nullptr;
    code = ParseEXRHeaderFromMemory(&header, &version, file.data(), file.size(), &err);
    if (code != TINYEXR_SUCCESS) {
        FreeEXRHeader(&header);
        throw ImageError("cannot decode OpenEXR header: " + take_exr_error(err, code));
    }
    std::unique_ptr<EXRHeader, int (*)(EXRHeader*)> header_owner(&header, &FreeEXRHeader);

    // The data window is checked here, in 64 bits: tinyexr computes max - min + 1 in int,
    // which overflows (undefined behaviour) for a window such as [INT_MIN, 3] (found by
    // fuzz/fuzz_image_exr.cpp). The pixel limit is the film's: a larger image could never be
    // compared with a render, and decoding one from a small corrupt file would only
    // allocate gigabytes before failing.
    const EXRBox2i& window = header.data_window;
    const int64_t width = int64_t(window.max_x) - window.min_x + 1, height = int64_t(window.max_y) - window.min_y + 1;
    if (width <= 0 || height <= 0) throw ImageError("OpenEXR data window is empty");
    if (width > int64_t(kMaxFilmSide) * 4 || height > int64_t(kMaxFilmSide) * 4 ||
        uint64_t(width) * uint64_t(height) > kMaxFilmPixels)
        throw ImageError("OpenEXR image of " + std::to_string(width) + "x" + std::to_string(height) +
                         " pixels exceeds the " + std::to_string(kMaxFilmPixels) + "-pixel limit");
    if (header.tiled && (header.tile_size_x <= 0 || header.tile_size_y <= 0))
        throw ImageError("OpenEXR tile size is not positive");

    // R, G, B by name; a single channel of any name (Y, L, ...) is grey. Others are ignored.
    int source[3] = {-1, -1, -1};
    for (int c = 0; c < header.num_channels; ++c) {
        const std::string name = header.channels[c].name;
        if (name == "R") source[0] = c;
        if (name == "G") source[1] = c;
        if (name == "B") source[2] = c;
    }
    if (header.num_channels == 1) source[0] = source[1] = source[2] = 0;
    if (source[0] < 0 || source[1] < 0 || source[2] < 0)
        throw ImageError("OpenEXR file has no R, G, B channels (and more than one channel)");
    for (int c = 0; c < header.num_channels; ++c) {
        if (header.pixel_types[c] == TINYEXR_PIXELTYPE_UINT)
            throw ImageError(std::string("OpenEXR channel ") + header.channels[c].name + " holds integers, not colour");
        header.requested_pixel_types[c] = TINYEXR_PIXELTYPE_FLOAT;  // half is widened on load
    }

    EXRImage exr_image;
    InitEXRImage(&exr_image);
    // On failure tinyexr frees the image itself (without resetting its pointers), but its
    // FreeEXRImage frees only exr_image.num_channels planes, and a scanline image gets that
    // count only on success: a truncated or corrupt file leaked every plane (found by
    // fuzz/fuzz_image_exr.cpp; test: ImageIoExr.CorruptPixelDataDoesNotLeak). Set beforehand,
    // the count covers the planes tinyexr allocates (one per header channel).
    exr_image.num_channels = header.num_channels;
    // tinyexr 1.0.1's PIZ decoder reads its chunk prologue (4 bytes, a bitmap of up to
    // 8 KiB, a length, a 20-byte Huffman header) before checking it against the chunk size,
    // so a corrupt PIZ file is read past its end (found by fuzz/fuzz_image_exr.cpp). Those
    // reads start inside the file and span at most 8224 bytes; with 64 KiB of zeros after
    // the file they stay in memory we own and read zeros, and tinyexr's own checks, which
    // see only the file's true size, then refuse the chunk.
    constexpr size_t kPizOverreadPadding = 65536;
    Bytes padded;
    const uint8_t* bytes = file.data();
    if (header.compression_type == TINYEXR_COMPRESSIONTYPE_PIZ) {
        padded.reserve(file.size() + kPizOverreadPadding);
        padded.assign(file.begin(), file.end());
        padded.resize(file.size() + kPizOverreadPadding, 0);
        bytes = padded.data();
    }
    code = LoadEXRImageFromMemory(&exr_image, &header, bytes, file.size(), &err);
    if (code != TINYEXR_SUCCESS) throw ImageError("cannot decode OpenEXR: " + take_exr_error(err, code));
    std::unique_ptr<EXRImage, int (*)(EXRImage*)> image_owner(&exr_image, &FreeEXRImage);
    if (exr_image.width <= 0 || exr_image.height <= 0) throw ImageError("OpenEXR image has no pixels");

    Image image(static_cast<uint32_t>(exr_image.width), static_cast<uint32_t>(exr_image.height));
    // Copies a w x h block whose planes are plane_width wide to (x0, y0) of the image.
    auto store = [&](float** planes, int plane_width, int x0, int y0, int w, int h) {
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int px = x0 + x, py = y0 + y;
                if (px >= exr_image.width || py >= exr_image.height) continue;
                const size_t src = size_t(y) * size_t(plane_width) + size_t(x);
                image.at(uint32_t(px), uint32_t(py)) =
                    Vec3f(planes[source[0]][src], planes[source[1]][src], planes[source[2]][src]);
            }
    };
    if (header.tiled) {
        for (int t = 0; t < exr_image.num_tiles; ++t) {
            const EXRTile& tile = exr_image.tiles[t];
            store(reinterpret_cast<float**>(tile.images), header.tile_size_x,
                  tile.offset_x * header.tile_size_x, tile.offset_y * header.tile_size_y, tile.width, tile.height);
        }
    } else {
        store(reinterpret_cast<float**>(exr_image.images), exr_image.width, 0, 0, exr_image.width, exr_image.height);
    }
    return image;
}

}  // namespace wf::image_codecs
