// read_image / write_image: format dispatch, file access (a written file replaces the old
// one whole, or not at all), error messages, and the Radiance RGBE encoder. The PNG and
// HDR decoders live in io/image_stb.cpp, OpenEXR in io/image_exr.cpp.
#include "io/image.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>

#include "io/image_codecs.h"

namespace wf {
namespace {

using image_codecs::Bytes;

enum class ImageFormat { png, hdr, exr };

// Keeps messages on one line whatever a third-party decoder put in them.
std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::replace(s.begin(), s.end(), '\r', ' ');
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

[[noreturn]] void fail(const char* op, const std::string& path, const std::string& problem) {
    throw ImageError(one_line(std::string(op) + ": " + path + ": " + problem));
}

std::string lower_case_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

ImageFormat format_from_extension(const char* op, const std::string& path) {
    const std::string ext = lower_case_extension(path);
    if (ext == ".png") return ImageFormat::png;
    if (ext == ".hdr") return ImageFormat::hdr;
    if (ext == ".exr") return ImageFormat::exr;
    fail(op, path,
         (ext.empty() ? std::string("no file extension") : "unsupported extension '" + ext + "'") +
             " (expected .png, .hdr or .exr)");
}

std::string errno_text(int err) { return std::strerror(err != 0 ? err : EIO); }

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

Bytes read_file(const std::string& path) {
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file) fail("read_image", path, "cannot open: " + errno_text(errno));
    Bytes data;
    std::array<uint8_t, 1 << 16> chunk;
    size_t n = 0;
    while ((n = std::fread(chunk.data(), 1, chunk.size(), file.get())) > 0)
        data.insert(data.end(), chunk.begin(), chunk.begin() + n);
    if (std::ferror(file.get())) fail("read_image", path, "read error: " + errno_text(errno));
    if (data.empty()) fail("read_image", path, "file is empty");
    return data;
}

// ---- Replacing a file: a temporary sibling renamed into place ----------------------------

// Where the bytes for `path` go: `path` itself when it is something other than a regular
// file (a device, a pipe: written directly), the file a symbolic link names, or `path`.
struct ReplaceTarget {
    std::string path;
    bool direct = false;  // not a regular file: written in place, never renamed over
    bool exists = false;
    struct stat old_stat {};
};

ReplaceTarget replace_target(const std::string& path) {
    ReplaceTarget t;
    t.path = path;
    if (::stat(path.c_str(), &t.old_stat) != 0) return t;  // absent (or a dangling link: replaced)
    t.exists = true;
    t.direct = !S_ISREG(t.old_stat.st_mode);
    std::error_code ec;
    if (!t.direct && std::filesystem::is_symlink(path, ec)) {
        std::filesystem::path real = std::filesystem::canonical(path, ec);
        if (!ec) t.path = real.string();
    }
    return t;
}

std::string folder_of(const std::string& path) {
    std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? std::string(".") : dir;
}

// A name in the folder of `path` that no other writer uses: hidden, and named after the
// file it will become, so a leftover (the process killed mid-write) says what it was.
std::string temporary_sibling(const std::string& path) {
    static std::atomic<uint64_t> counter{0};
    const std::filesystem::path p(path);
    std::string name = ".";
    name += p.filename().string();
    name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
    return (p.parent_path() / name).string();
}

std::string errno_problem(const std::string& what, int err) { return what + ": " + errno_text(err); }

// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view bytes) {
    const char* at = bytes.data();
    size_t left = bytes.size();
    while (left > 0) {
        ssize_t n = ::write(fd, at, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        at += n;
        left -= size_t(n);
    }
    return 0;
}

// "" when `path` may be replaced, else the problem (see check_file_replaceable).
std::string replaceable_problem(const std::string& path) {
    if (path.empty()) return "empty file name";
    const ReplaceTarget t = replace_target(path);
    if (t.exists && S_ISDIR(t.old_stat.st_mode)) return "is a folder";
    if (t.exists && ::access(t.path.c_str(), W_OK) != 0) return errno_problem("cannot open for writing", errno);
    if (t.direct) return "";
    const std::string probe = temporary_sibling(t.path);
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return errno_problem("cannot open for writing (in folder '" + folder_of(t.path) + "')", errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return "";
}

// Writes `bytes` as write_file_replacing describes; returns "" or the problem.
std::string replace_file(const std::string& path, std::string_view bytes) {
    const ReplaceTarget t = replace_target(path);
    if (t.exists && S_ISDIR(t.old_stat.st_mode)) return "is a folder";
    if (t.direct) {
        const int fd = ::open(t.path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) return errno_problem("cannot open for writing", errno);
        int err = write_all(fd, bytes);
        if (::close(fd) != 0 && err == 0) err = errno;
        return err ? errno_problem("write failed", err) : "";
    }
    const std::string temporary = temporary_sibling(t.path);
    // 0666 less the umask, as a new file would get; a replaced file keeps its own mode.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return errno_problem("cannot open for writing (in folder '" + folder_of(t.path) + "')", errno);
    const char* failed = "write failed";
    int err = write_all(fd, bytes);
    if (err == 0 && t.exists && ::fchmod(fd, t.old_stat.st_mode & 07777) != 0) err = errno;
    if (err == 0 && ::fsync(fd) != 0) err = errno;  // on disk before it takes the old file's place
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err == 0 && ::rename(temporary.c_str(), t.path.c_str()) != 0) {
        err = errno;
        failed = "cannot rename the written file into place";
    }
    if (err != 0) {
        ::unlink(temporary.c_str());
        return errno_problem(failed, err);
    }
    return "";
}

void check_writable_image(const std::string& path, const Image& image) {
    const std::string dims = std::to_string(image.width) + "x" + std::to_string(image.height);
    if (image.width == 0 || image.height == 0) fail("write_image", path, "image is empty (" + dims + ")");
    if (image.pixels.size() != image.pixel_count())
        fail("write_image", path,
             "pixel count " + std::to_string(image.pixels.size()) + " does not match " + dims);
    constexpr uint32_t kMaxDimension = 1u << 24;  // stb_image's limit; tinyexr stores int
    if (image.width > kMaxDimension || image.height > kMaxDimension)
        fail("write_image", path, "dimensions " + dims + " exceed 16777216");
}

// ---- Radiance RGBE ----------------------------------------------------------------------
// Largest value RGBE holds: mantissa 255 with exponent byte 255, i.e. 255 * 2^(255-136).
constexpr float kRgbeMax = 255.0f * 0x1p119f;

// Negative and NaN -> 0 (RGBE has no sign and no NaN); +inf and huge -> kRgbeMax.
float rgbe_representable(float v) { return v > 0.0f ? std::fmin(v, kRgbeMax) : 0.0f; }

// One pixel to RGBE (Ward, Graphics Gems II; Radiance's setcolr). The shared exponent e comes
// from the largest component (max = f * 2^e, f in [0.5, 1)); mantissas are truncated, as
// Radiance, SmallVCM and most writers do, and our reader (decode_hdr) adds half a mantissa
// step back as Radiance's colr_color does, so a round trip is unbiased and each channel comes
// back within 2^(e-9) <= max/256 of its value.
std::array<uint8_t, 4> to_rgbe(Vec3f c) {
    const float r = rgbe_representable(c.x), g = rgbe_representable(c.y), b = rgbe_representable(c.z);
    const float largest = std::fmax(r, std::fmax(g, b));
    if (largest < 1e-32f) return {0, 0, 0, 0};
    int e = 0;
    std::frexp(largest, &e);
    const double scale = std::ldexp(1.0, 8 - e);  // largest * scale lies in [128, 256)
    auto mantissa = [&](float v) { return uint8_t(std::min(255.0, std::floor(v * scale))); };
    return {mantissa(r), mantissa(g), mantissa(b), uint8_t(e + 128)};
}

}  // namespace

namespace image_codecs {

Bytes encode_hdr(const Image& image) {
    // Uncompressed scanlines. A flat scanline is never mistaken for an RLE one: that would
    // need a first pixel (2, 2, b < 128, e), but the largest mantissa of a pixel is >= 128.
    const std::string header = "#?RADIANCE\n# wavefront\nFORMAT=32-bit_rle_rgbe\n\n-Y " +
                               std::to_string(image.height) + " +X " + std::to_string(image.width) + "\n";
    Bytes out(header.begin(), header.end());
    out.reserve(header.size() + image.pixel_count() * 4);
    for (const Vec3f& p : image.pixels) {
        const std::array<uint8_t, 4> rgbe = to_rgbe(p);
        out.insert(out.end(), rgbe.begin(), rgbe.end());
    }
    return out;
}

}  // namespace image_codecs

void write_image(const std::string& path, const Image& image, const ToneMap& tone,
                 const std::vector<ImageLayer>& layers) {
    const ImageFormat format = format_from_extension("write_image", path);
    check_writable_image(path, image);
    if (!layers.empty() && format != ImageFormat::exr)
        fail("write_image", path, "layers (" + layers[0].name + ", ...) need an .exr file");
    for (const ImageLayer& layer : layers) {
        if (layer.channels.empty() || layer.channels.size() > 3)
            fail("write_image", path, "layer '" + layer.name + "' has " + std::to_string(layer.channels.size()) +
                                          " channels (expected 1 to 3)");
        if (layer.image.width != image.width || layer.image.height != image.height ||
            layer.image.pixels.size() != image.pixels.size())
            fail("write_image", path, "layer '" + layer.name + "' is not the image's size");
    }
    Bytes data;
    try {
        switch (format) {
            case ImageFormat::png: data = image_codecs::encode_png(image, tone); break;
            case ImageFormat::hdr: data = image_codecs::encode_hdr(image); break;
            case ImageFormat::exr: data = image_codecs::encode_exr(image, layers); break;
        }
    } catch (const ImageError& e) {
        fail("write_image", path, e.what());
    } catch (const std::bad_alloc&) {
        fail("write_image", path, "out of memory while encoding");
    }
    if (const std::string problem = replace_file(path, std::string_view(reinterpret_cast<const char*>(data.data()),
                                                                        data.size()));
        !problem.empty())
        fail("write_image", path, problem);
}

void write_file_replacing(const std::string& path, std::string_view bytes) {
    if (const std::string problem = replace_file(path, bytes); !problem.empty())
        throw ImageError(one_line(path + ": " + problem));
}

void check_file_replaceable(const std::string& path) {
    if (const std::string problem = replaceable_problem(path); !problem.empty())
        throw ImageError(one_line(path + ": " + problem));
}

Image read_image(const std::string& path) {
    const ImageFormat format = format_from_extension("read_image", path);
    const Bytes data = read_file(path);
    Image image;
    try {
        switch (format) {
            case ImageFormat::png: image = image_codecs::decode_png(data); break;
            case ImageFormat::hdr: image = image_codecs::decode_hdr(data); break;
            case ImageFormat::exr: image = image_codecs::decode_exr(data); break;
        }
    } catch (const ImageError& e) {
        fail("read_image", path, e.what());
    } catch (const std::bad_alloc&) {
        fail("read_image", path, "out of memory while decoding");
    }
    if (image.width == 0 || image.height == 0 || image.pixels.size() != image.pixel_count())
        fail("read_image", path, "decoder returned an empty or inconsistent image");
    return image;
}

void check_image_extension(const std::string& path) { format_from_extension("output", path); }

bool is_exr_path(const std::string& path) { return lower_case_extension(path) == ".exr"; }

}  // namespace wf
