// Images on the host, and reading/writing them as PNG, Radiance HDR and OpenEXR.
//
// Pixels are linear RGB radiance (W/sr/m^2, sRGB/Rec.709 primaries), row-major, row 0 at the
// top, x to the right (the orientation of the Radiance "-Y H +X W" header).
//
// Formats, chosen by the file extension (case-insensitive):
//   .png  8-bit sRGB through a tone map of io/tonemap.h: exposure, a tone curve (by default
//         `none`: clamp(linear * 2^exposure)), the sRGB OETF. Reading applies the inverse of
//         `none` at exposure 0, so values in [0,1] written that way come back within
//         quantization error. 16-bit PNGs are read too.
//   .hdr  Radiance RGBE, linear, uncompressed scanlines ("-Y H +X W"). RGBE has an 8-bit
//         mantissa shared by the three channels, truncated on write (as Radiance and
//         SmallVCM write it); reading adds half a step back to non-zero mantissas (as
//         Radiance's colr_color does), so the mean is unbiased and each channel comes back
//         within max_component / 128 of its value. It cannot hold negative or non-finite values:
//         negatives and NaN are written as 0, +inf and values above ~1.7e38 saturate.
//         Reading accepts RLE and uncompressed files.
//   .exr  OpenEXR, linear float32 R, G, B, ZIP compressed (lossless: bit-exact round trip,
//         NaN and inf included). Reading (through OpenEXR) accepts every compression, DWAA
//         and DWAB included, scanline or tiled, half and float, grey (Y) or RGB(A).
// Every failure throws ImageError with one line naming the file and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/math.h"
#include "io/tonemap.h"

namespace wf {

class ImageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Image {
    uint32_t width = 0, height = 0;
    std::vector<Vec3f> pixels;  // row-major, row 0 = top; width * height entries

    Image() = default;
    Image(uint32_t w, uint32_t h, Vec3f fill = Vec3f(0.0f))
        : width(w), height(h), pixels(size_t(w) * h, fill) {}

    Vec3f& at(uint32_t x, uint32_t y) { return pixels[size_t(y) * width + x]; }
    const Vec3f& at(uint32_t x, uint32_t y) const { return pixels[size_t(y) * width + x]; }
    size_t pixel_count() const { return size_t(width) * height; }
    bool empty() const { return pixels.empty(); }
};

// A layer of an OpenEXR file beside the beauty's R, G, B (the AOVs of engine/aov.h):
// channel `name`.<letter> for each letter of `channels`, taken from the pixels' x, y, z in
// order ("RGB" -> albedo.R, albedo.G, albedo.B; "Z" -> depth.Z from x), float32.
struct ImageLayer {
    std::string name;
    std::string channels;  // 1 to 3 letters
    Image image;           // the beauty's size
};

// Writes `image` to `path`, format by extension. `tone` (curve and exposure) shapes PNG output
// only; .hdr and .exr always store the unscaled linear values. `layers` need an .exr path
// (PNG and Radiance HDR hold one RGB image): elsewhere they are an error. The file is
// replaced as write_file_replacing does: a failed write leaves what was there before.
void write_image(const std::string& path, const Image& image, const ToneMap& tone = {},
                 const std::vector<ImageLayer>& layers = {});

// True when `path` names an OpenEXR file (extension .exr, any case): the only format
// that holds ImageLayers.
bool is_exr_path(const std::string& path);

// Writes `bytes` to `path` so that `path` never holds a part of them: they go to a
// temporary file in the same folder (".NAME.tmp-PID-N"), flushed to disk and renamed over
// `path`, which keeps the permissions of the file it replaces. A symbolic link to a
// file has that file replaced; a path that is not a regular file (/dev/stdout, a pipe)
// is written directly. Throws ImageError ("PATH: problem"); the temporary file is
// removed on failure. Images and --stats are written this way.
void write_file_replacing(const std::string& path, std::string_view bytes);

// Throws ImageError ("PATH: problem") when write_file_replacing(path, ...) would fail for
// a reason that can be seen beforehand: `path` is a folder or a read-only file, or its
// folder is missing or does not take new files (tried with a temporary file, removed at
// once). Creates and changes nothing that stays.
void check_file_replaceable(const std::string& path);

// Throws ImageError unless `path` names a format write_image can write: lets a caller
// reject a bad output name before doing the work that produces the image.
void check_image_extension(const std::string& path);

// Reads a .png, .hdr or .exr file (by extension; the content must match it).
Image read_image(const std::string& path);

}  // namespace wf
