// libFuzzer target: the PNG and Radiance HDR readers (stb_image behind io/image_stb.cpp).
// The first byte picks the decoder, so one corpus covers both. Any input must decode or
// throw ImageError. Seeds: fuzz/corpus/image_stb/.
#include <cstddef>
#include <cstdint>

#include "io/image_codecs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const wf::image_codecs::Bytes file(data + 1, data + size);
    try {
        wf::Image image = (data[0] & 1) ? wf::image_codecs::decode_hdr(file) : wf::image_codecs::decode_png(file);
        if (image.pixels.size() != image.pixel_count()) __builtin_trap();
    } catch (const wf::ImageError&) {
    }
    return 0;
}
