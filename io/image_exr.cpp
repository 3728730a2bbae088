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
    code = LoadEXRImageFromMemory(&exr_image, &header, file.data(), file.size(), &err);
    // On failure tinyexr has already freed the image (without resetting its pointers).
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
