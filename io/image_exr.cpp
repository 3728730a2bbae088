// OpenEXR: written through tinyexr (Debian libtinyexr-dev, header-only here), read through
// OpenEXR (Debian libopenexr-dev), which decodes every compression, DWAA and DWAB included
// (tinyexr cannot).
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

#include <OpenEXR/Iex.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfInputFile.h>
#include <OpenEXR/ImfVersion.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
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

// The bytes of a file as an OpenEXR input stream. A read past the end throws, as
// OpenEXR's own file stream does, so a truncated file is refused.
class MemoryStream : public Imf::IStream {
public:
    explicit MemoryStream(const Bytes& bytes) : Imf::IStream("(memory)"), bytes_(bytes) {}

    bool read(char c[], int n) override {
        if (n < 0 || uint64_t(n) > bytes_.size() - position_) throw Iex::InputExc("unexpected end of file");
        std::memcpy(c, bytes_.data() + position_, size_t(n));
        position_ += uint64_t(n);
        return position_ < bytes_.size();
    }
    uint64_t tellg() override { return position_; }
    void seekg(uint64_t position) override { position_ = std::min<uint64_t>(position, bytes_.size()); }

private:
    const Bytes& bytes_;
    uint64_t position_ = 0;
};

}  // namespace

Bytes encode_exr(const Image& image, const std::vector<ImageLayer>& layers) {
    // One float plane per channel: the beauty's R, G, B and each layer's `name`.<letter>,
    // stored sorted by name (OpenEXR keeps channels sorted, and readers expect it: "B",
    // "G", "R", then "albedo.B", ... since upper case sorts first).
    struct Plane {
        std::string name;
        std::vector<float> values;
    };
    const size_t n = image.pixel_count();
    std::vector<Plane> planes;
    auto add_plane = [&](std::string name, const Image& from, int component) {
        Plane p{std::move(name), std::vector<float>(n)};
        for (size_t i = 0; i < n; ++i) p.values[i] = from.pixels[i][component];
        planes.push_back(std::move(p));
    };
    for (int c = 0; c < 3; ++c) add_plane(std::string(1, "RGB"[c]), image, c);
    for (const ImageLayer& layer : layers)
        for (size_t c = 0; c < layer.channels.size(); ++c)
            add_plane(layer.name + "." + layer.channels[c], layer.image, int(c));
    std::sort(planes.begin(), planes.end(), [](const Plane& a, const Plane& b) { return a.name < b.name; });

    const int count = int(planes.size());
    std::vector<unsigned char*> plane_ptrs(planes.size());
    std::vector<EXRChannelInfo> channels(planes.size());
    std::vector<int> pixel_types(planes.size(), TINYEXR_PIXELTYPE_FLOAT);  // type of the data we pass
    std::vector<int> requested_pixel_types(planes.size(), TINYEXR_PIXELTYPE_FLOAT);  // type stored in the file
    for (size_t c = 0; c < planes.size(); ++c) {
        plane_ptrs[c] = reinterpret_cast<unsigned char*>(planes[c].values.data());
        if (planes[c].name.size() >= sizeof(channels[c].name))
            throw ImageError("OpenEXR channel name '" + planes[c].name + "' is too long");
        std::memset(channels[c].name, 0, sizeof(channels[c].name));
        std::memcpy(channels[c].name, planes[c].name.data(), planes[c].name.size());
    }

    EXRImage exr_image;
    InitEXRImage(&exr_image);
    exr_image.images = plane_ptrs.data();
    exr_image.num_channels = count;
    exr_image.width = static_cast<int>(image.width);
    exr_image.height = static_cast<int>(image.height);

    EXRHeader header;
    InitEXRHeader(&header);  // line order increasing y: row 0 first, as in Image
    header.num_channels = count;
    header.channels = channels.data();
    header.pixel_types = pixel_types.data();
    header.requested_pixel_types = requested_pixel_types.data();
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;

    unsigned char* memory = nullptr;
    const char* err = nullptr;
    const size_t size = SaveEXRImageToMemory(&exr_image, &header, &memory, &err);
    std::unique_ptr<unsigned char, CFree> owned(memory);
    if (size == 0 || !memory) throw ImageError("OpenEXR encoding failed: " + take_exr_error(err, 0));
    return Bytes(memory, memory + size);
}

// Reading goes through OpenEXR (libopenexr-dev), which decodes every compression (DWAA,
// DWAB, B44 and the rest that tinyexr cannot), scanline and tiled, half and float.
Image decode_exr(const Bytes& file) {
    // Bounds OpenEXR checks while it parses a header, before it allocates for it: a small
    // corrupt file claiming a huge image or tile is refused rather than allocated for.
    static const bool limits_set = [] {
        Imf::Header::setMaxImageSize(int(kMaxFilmSide) * 4, int(kMaxFilmSide) * 4);
        Imf::Header::setMaxTileSize(int(kMaxFilmSide) * 4, int(kMaxFilmSide) * 4);
        return true;
    }();
    (void)limits_set;
    if (file.size() < 4 || !Imf::isImfMagic(reinterpret_cast<const char*>(file.data())))
        throw ImageError("not an OpenEXR file (bad magic number)");
    try {
        MemoryStream stream(file);
        Imf::InputFile input(stream);
        const Imf::Header& header = input.header();
        const Imath::Box2i window = header.dataWindow();
        // In 64 bits: max - min + 1 overflows int for a window such as [INT_MIN, 3]. The pixel
        // limit is the film's: a larger image could never be compared with a render.
        const int64_t width = int64_t(window.max.x) - window.min.x + 1;
        const int64_t height = int64_t(window.max.y) - window.min.y + 1;
        if (width <= 0 || height <= 0) throw ImageError("OpenEXR data window is empty");
        if (width > int64_t(kMaxFilmSide) * 4 || height > int64_t(kMaxFilmSide) * 4 ||
            uint64_t(width) * uint64_t(height) > kMaxFilmPixels)
            throw ImageError("OpenEXR image of " + std::to_string(width) + "x" + std::to_string(height) +
                             " pixels exceeds the " + std::to_string(kMaxFilmPixels) + "-pixel limit");

        // R, G, B by name; a single channel of any name (Y, L, ...) is grey. Others are ignored.
        const Imf::ChannelList& channels = header.channels();
        int count = 0;
        for (Imf::ChannelList::ConstIterator c = channels.begin(); c != channels.end(); ++c) ++count;
        const char* source[3] = {"R", "G", "B"};
        if (count == 1) source[0] = source[1] = source[2] = channels.begin().name();
        for (const char* name : source) {
            const Imf::Channel* c = channels.findChannel(name);
            if (!c) throw ImageError("OpenEXR file has no R, G, B channels (and more than one channel)");
            if (c->type == Imf::UINT)
                throw ImageError(std::string("OpenEXR channel ") + name + " holds integers, not colour");
            if (c->xSampling != 1 || c->ySampling != 1)
                throw ImageError(std::string("OpenEXR channel ") + name + " is subsampled (not supported)");
        }

        Image image(static_cast<uint32_t>(width), static_cast<uint32_t>(height));
        // Each slice writes one component of the Vec3f pixels (OpenEXR converts half to
        // float); a grey file's one channel is read into x and copied to y and z.
        Imf::FrameBuffer frame;
        const size_t x_stride = sizeof(Vec3f), y_stride = sizeof(Vec3f) * size_t(width);
        for (int k = 0; k < (count == 1 ? 1 : 3); ++k) {
            char* base = reinterpret_cast<char*>(image.pixels.data()) + sizeof(float) * size_t(k);
            frame.insert(source[k], Imf::Slice::Make(Imf::FLOAT, base, window, x_stride, y_stride));
        }
        input.setFrameBuffer(frame);
        input.readPixels(window.min.y, window.max.y);
        if (count == 1)
            for (Vec3f& p : image.pixels) p = Vec3f(p.x);
        return image;
    } catch (const ImageError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        // OpenEXR names the stream in its messages; the caller names the file.
        std::string what = e.what();
        for (size_t at; (at = what.find(" \"(memory)\"")) != std::string::npos;) what.erase(at, 11);
        throw ImageError("cannot decode OpenEXR: " + what);
    }
}

}  // namespace wf::image_codecs
