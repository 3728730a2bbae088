// PNG encode/decode and Radiance HDR decode through stb (Debian libstb-dev headers).
//
// stb is compiled into this translation unit with STB_IMAGE_STATIC / STB_IMAGE_WRITE_STATIC:
// every stbi_* symbol is internal to this file, so the engine links statically without
// libstb.a, and cannot clash with another STB_*_IMPLEMENTATION elsewhere in the program
// (nor with libstb.so), and nobody else's stbi_set_flip_vertically_on_load affects us.
// PNG deflate goes through zlib (linked anyway for OpenEXR) instead of stb's own compressor,
// in slices on the thread pool.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "engine/backend/thread_pool.h"
#include "engine/scene.h"  // kMaxFilmPixels
#include "io/image_codecs.h"
#include "io/tonemap.h"

namespace {
unsigned char* wf_stbiw_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_HDR
#define STBI_NO_STDIO          // read_image reads the file itself
#define STBI_FAILURE_USERMSG   // "Corrupt PNG" rather than "bad huffman code"
#include <stb_image.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO    // write_image writes the file itself
#define STBIW_ZLIB_COMPRESS wf_stbiw_zlib_compress
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace {

// zlib's level for PNGs. stb asks for 8; on a 1024x1024 render level 3 deflates 2x
// faster (90 against 180 ms on one core) into files within 2% of level 8's size, and
// level 1 another 1.6x faster for about as much again (bench/NOTES.md).
constexpr int kPngDeflateLevel = 3;
// Streams this long and longer are deflated in slices on the thread pool.
constexpr size_t kDeflateSlice = size_t(1) << 18;

// One slice of a zlib stream's deflate data, raw (no header): ended by a full flush,
// so that the next slice, deflated on its own, continues the stream (pigz's way), or
// by the stream's end for the last slice.
bool deflate_slice(const unsigned char* data, size_t size, bool last, std::vector<unsigned char>* out) {
    z_stream z{};
    if (deflateInit2(&z, kPngDeflateLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
    out->resize(deflateBound(&z, static_cast<uLong>(size)) + 16);  // + the full flush's empty block
    z.next_in = const_cast<unsigned char*>(data);
    z.avail_in = static_cast<uInt>(size);
    z.next_out = out->data();
    z.avail_out = static_cast<uInt>(out->size());
    const int status = deflate(&z, last ? Z_FINISH : Z_FULL_FLUSH);
    // A full flush answers Z_OK with all input taken even when the output ran out
    // first (deflateBound is documented for Z_FINISH only): room left is the proof
    // that nothing is pending.
    const bool ok = (last ? status == Z_STREAM_END : status == Z_OK) && z.avail_in == 0 && z.avail_out > 0;
    out->resize(out->size() - z.avail_out);
    deflateEnd(&z);
    return ok;
}

// The zlib stream of data, deflated in slices in parallel (deflate_slice) whose
// Adler-32 sums combine into the stream's: malloc'ed, or null on failure.
unsigned char* deflate_in_slices(unsigned char* data, int data_len, int* out_len) {
    const size_t size = static_cast<size_t>(data_len);
    const size_t slices = std::max<size_t>(1, size / kDeflateSlice);
    std::vector<std::vector<unsigned char>> parts(slices);
    std::vector<uLong> sums(slices);
    std::atomic<bool> ok{true};
    auto first = [&](size_t i) { return i * size / slices; };  // slice i is [first(i), first(i + 1))
    auto slice = [&](size_t i) {
        const size_t begin = first(i), length = first(i + 1) - begin;
        sums[i] = adler32(adler32(0L, Z_NULL, 0), data + begin, static_cast<uInt>(length));
        if (!deflate_slice(data + begin, length, i + 1 == slices, &parts[i])) ok = false;
    };
    if (slices == 1) slice(0);
    else wf::ThreadPool::global().run_chunks(slices, 1, [&](uint64_t b, uint64_t e) { for (; b < e; ++b) slice(b); });
    if (!ok) return nullptr;
    uLong sum = adler32(0L, Z_NULL, 0);
    size_t total = 2 + 4;  // header, Adler-32
    for (size_t i = 0; i < slices; ++i) {
        sum = adler32_combine(sum, sums[i], static_cast<z_off_t>(first(i + 1) - first(i)));
        total += parts[i].size();
    }
    if (total > static_cast<size_t>(INT_MAX)) return nullptr;
    auto* out = static_cast<unsigned char*>(std::malloc(total));
    if (!out) return nullptr;
    out[0] = 0x78;  // deflate, 32 KiB window
    out[1] = 0x5e;  // (0x785e % 31 == 0), "fast" level
    size_t at = 2;
    for (std::vector<unsigned char>& part : parts) {
        std::memcpy(out + at, part.data(), part.size());
        at += part.size();
        std::vector<unsigned char>().swap(part);  // freed as it is copied
    }
    for (int k = 3; k >= 0; --k) out[at++] = static_cast<unsigned char>(sum >> (8 * k));
    *out_len = static_cast<int>(total);
    return out;
}

// stb_image_write's zlib hook: returns a malloc'ed zlib stream (stb frees it with
// free()), or null on failure, never an exception (stb's C code would leak its
// buffers as one passed through).
unsigned char* wf_stbiw_zlib_compress(unsigned char* data, int data_len, int* out_len, int /*stb's level*/) {
    try {
        return deflate_in_slices(data, data_len, out_len);
    } catch (...) {  // out of memory, or a thread the pool could not start
        return nullptr;
    }
}

struct StbiFree {
    void operator()(void* p) const { stbi_image_free(p); }
};

std::string stbi_reason() {
    const char* reason = stbi_failure_reason();
    return reason ? reason : "unknown error";
}

// The film's limit: a larger image could never be compared with a render, and a small
// corrupt file claiming one would make the decoder allocate gigabytes before failing.
void check_pixel_count(int w, int h) {
    if (w > 0 && h > 0 && uint64_t(w) * uint64_t(h) > wf::kMaxFilmPixels)
        throw wf::ImageError("image of " + std::to_string(w) + "x" + std::to_string(h) + " pixels exceeds the " +
                             std::to_string(wf::kMaxFilmPixels) + "-pixel limit");
}

int checked_length(const wf::image_codecs::Bytes& file) {
    if (file.size() > static_cast<size_t>(INT_MAX)) throw wf::ImageError("file is larger than 2 GiB");
    return static_cast<int>(file.size());
}

// Walks the pixel data of a Radiance file exactly as stb_image's decoder will consume it and
// reports whether that decoder would run past the end of the file. stb pads a short file with
// zeros and reports success, and on a short run-length encoded file it loops forever (a run
// count of 0, read at the end of the file, consumes nothing). Layouts stb rejects by itself
// (a bad scanline length, a run longer than the scanline) are left for it to report.
bool radiance_pixels_truncated(const wf::image_codecs::Bytes& file, int width, int height) {
    // stb reads header lines up to the first empty one, then the resolution line.
    const uint8_t blank_line[2] = {'\n', '\n'};
    auto it = std::search(file.begin(), file.end(), blank_line, blank_line + 2);
    if (it == file.end()) return true;
    it = std::find(it + 2, file.end(), '\n');
    if (it == file.end()) return true;
    size_t pos = size_t(it - file.begin()) + 1;
    const size_t size = file.size();
    const size_t flat_bytes = size_t(width) * size_t(height) * 4;
    auto available = [&](size_t n) { return n <= size - pos; };

    if (width < 8 || width >= 32768) return !available(flat_bytes);
    for (int y = 0; y < height; ++y) {
        if (!available(4)) return true;
        if (file[pos] != 2 || file[pos + 1] != 2 || (file[pos + 2] & 0x80)) {
            // A flat scanline: stb decodes the whole image as flat pixels from here on.
            return !available(flat_bytes);
        }
        if (((file[pos + 2] << 8) | file[pos + 3]) != width) return false;  // stb: "corrupt HDR"
        pos += 4;
        for (int channel = 0; channel < 4; ++channel) {
            for (int x = 0; x < width;) {
                if (!available(1)) return true;
                int count = file[pos++];
                const bool run = count > 128;
                if (run) count -= 128;
                if (count > width - x) return false;  // stb: "bad RLE data in HDR"
                const size_t payload = run ? 1 : size_t(count);
                if (!available(payload)) return true;
                pos += payload;
                x += count;
            }
        }
    }
    return false;
}

// Walks the chunks up to IEND. Throws ImageError when one declares more bytes than the
// file has left: stb_image would first grow its IDAT buffer to the declared size (up to
// 2 GiB for a 190-byte file, found by fuzz/fuzz_image_stb.cpp) and only then fail.
// Returns `file` without its zero-length IDAT chunks, or nullptr when it has none. They are
// valid PNG and carry nothing (a PNG's image data is the concatenation of its IDAT chunks),
// but stb_image, given one before any image data, calls memcpy(NULL, src, 0): undefined
// behaviour (found by the same fuzzer). Regression inputs: fuzz/regressions/image_stb/.
// Other malformed chunk lists are left for stb to report.
std::unique_ptr<wf::image_codecs::Bytes> without_empty_idat_chunks(const wf::image_codecs::Bytes& file) {
    auto be32 = [&](size_t at) {
        return (uint32_t(file[at]) << 24) | (uint32_t(file[at + 1]) << 16) | (uint32_t(file[at + 2]) << 8) |
               uint32_t(file[at + 3]);
    };
    std::vector<std::pair<size_t, size_t>> empty_idat;  // [begin, end) of each, in the file
    for (size_t at = 8; at + 8 <= file.size();) {  // length and type present
        const uint32_t length = be32(at);
        auto type_is = [&](const char* t) { return std::equal(file.begin() + long(at) + 4, file.begin() + long(at) + 8, t); };
        if (type_is("IEND")) break;  // stb reads no further (not even IEND's CRC)
        if (uint64_t(at) + 12 + length > file.size())  // data and CRC
            throw wf::ImageError("truncated PNG: the chunk at byte " + std::to_string(at) + " declares " +
                                 std::to_string(length) + " bytes, more than the file has left");
        if (length == 0 && type_is("IDAT")) empty_idat.emplace_back(at, at + 12);
        at += 12 + size_t(length);
    }
    if (empty_idat.empty()) return nullptr;
    auto out = std::make_unique<wf::image_codecs::Bytes>();
    out->reserve(file.size());
    size_t copied = 0;
    for (auto [begin, end] : empty_idat) {
        out->insert(out->end(), file.begin() + long(copied), file.begin() + long(begin));
        copied = end;
    }
    out->insert(out->end(), file.begin() + long(copied), file.end());
    return out;
}

}  // namespace

namespace wf::image_codecs {

Bytes encode_png(const Image& image, const ToneMap& tone) {
    if ((size_t(image.width) * 3 + 1) * image.height > static_cast<size_t>(INT_MAX))
        throw ImageError("image too large for the PNG writer (" + std::to_string(image.width) + "x" +
                         std::to_string(image.height) + ")");
    std::vector<uint8_t> rgb8(image.pixel_count() * 3);
    // In parallel: 60 ns a pixel (three powf), 60 ms for 1024x1024 on one core.
    ThreadPool::global().run_chunks(image.pixel_count(), 1u << 15, [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
            const std::array<uint8_t, 3> code = tonemap_pixel_srgb8(image.pixels[i], tone);
            std::copy(code.begin(), code.end(), rgb8.begin() + 3 * i);
        }
    });
    Bytes out;
    auto append = [](void* context, void* data, int size) {
        auto* bytes = static_cast<Bytes*>(context);
        const auto* first = static_cast<const uint8_t*>(data);
        bytes->insert(bytes->end(), first, first + size);
    };
    const int ok = stbi_write_png_to_func(append, &out, static_cast<int>(image.width),
                                          static_cast<int>(image.height), 3, rgb8.data(),
                                          static_cast<int>(image.width) * 3);
    if (!ok || out.empty()) throw ImageError("PNG encoding failed");
    return out;
}

Image decode_png(const Bytes& original) {
    static constexpr std::array<uint8_t, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (original.size() < kSignature.size() || !std::equal(kSignature.begin(), kSignature.end(), original.begin()))
        throw ImageError("not a PNG file (bad signature)");
    const std::unique_ptr<Bytes> cleaned = without_empty_idat_chunks(original);
    const Bytes& file = cleaned ? *cleaned : original;
    const int length = checked_length(file);
    int w = 0, h = 0, channels_in_file = 0;
    if (stbi_info_from_memory(file.data(), length, &w, &h, &channels_in_file)) check_pixel_count(w, h);
    Image image;
    if (stbi_is_16_bit_from_memory(file.data(), length)) {
        std::unique_ptr<stbi_us, StbiFree> rgb16(
            stbi_load_16_from_memory(file.data(), length, &w, &h, &channels_in_file, 3));
        if (!rgb16) throw ImageError("cannot decode PNG: " + stbi_reason());
        image = Image(static_cast<uint32_t>(w), static_cast<uint32_t>(h));
        for (size_t i = 0; i < image.pixel_count(); ++i)
            for (int c = 0; c < 3; ++c) image.pixels[i][c] = srgb_decode(rgb16.get()[3 * i + c] / 65535.0f);
    } else {
        std::unique_ptr<stbi_uc, StbiFree> rgb8(
            stbi_load_from_memory(file.data(), length, &w, &h, &channels_in_file, 3));
        if (!rgb8) throw ImageError("cannot decode PNG: " + stbi_reason());
        std::array<float, 256> to_linear;
        for (int code = 0; code < 256; ++code) to_linear[code] = srgb8_to_linear(uint8_t(code));
        image = Image(static_cast<uint32_t>(w), static_cast<uint32_t>(h));
        for (size_t i = 0; i < image.pixel_count(); ++i)
            for (int c = 0; c < 3; ++c) image.pixels[i][c] = to_linear[rgb8.get()[3 * i + c]];
    }
    return image;
}

Image decode_hdr(const Bytes& file) {
    const int length = checked_length(file);
    if (!stbi_is_hdr_from_memory(file.data(), length))
        throw ImageError("not a Radiance HDR file (no #?RADIANCE or #?RGBE header)");
    int w = 0, h = 0, channels_in_file = 0;
    if (!stbi_info_from_memory(file.data(), length, &w, &h, &channels_in_file))
        throw ImageError("cannot decode Radiance HDR: " + stbi_reason());
    if (w <= 0 || h <= 0) throw ImageError("Radiance HDR image has no pixels");
    check_pixel_count(w, h);
    if (radiance_pixels_truncated(file, w, h)) throw ImageError("Radiance HDR file is truncated");
    std::unique_ptr<float, StbiFree> rgb(stbi_loadf_from_memory(file.data(), length, &w, &h, &channels_in_file, 3));
    if (!rgb) throw ImageError("cannot decode Radiance HDR: " + stbi_reason());
    Image image(static_cast<uint32_t>(w), static_cast<uint32_t>(h));
    const float* src = rgb.get();
    for (size_t i = 0; i < image.pixel_count(); ++i) {
        Vec3f c(src[3 * i], src[3 * i + 1], src[3 * i + 2]);
        // stb decodes m * 2^(E-136). Writers truncate the mantissa, so that is biased low by
        // half a step on average (about 0.3% of the image mean); Radiance's own decoder
        // (colr_color) adds the half step back, and so do we. The step is 2^(E-136), read off
        // the largest channel, whose mantissa lies in [128, 256). A zero mantissa stays 0:
        // black channels (a sun with no blue) are common and exact.
        float largest = std::fmax(c.x, std::fmax(c.y, c.z));
        if (largest > 0.0f) {
            int e = 0;
            std::frexp(largest, &e);
            const float half_step = 0.5f * std::ldexp(1.0f, e - 8);
            for (int k = 0; k < 3; ++k)
                if (c[k] > 0.0f) c[k] += half_step;
        }
        image.pixels[i] = c;
    }
    return image;
}

}  // namespace wf::image_codecs
