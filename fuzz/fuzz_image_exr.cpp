// libFuzzer target: the OpenEXR reader (io/image_exr.cpp, through the OpenEXR library).
// Any input must decode or throw ImageError, without leaking (LeakSanitizer runs after each
// input that fails). Seeds: fuzz/corpus/image_exr/.
#include <cstddef>
#include <cstdint>

#include "io/image_codecs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const wf::image_codecs::Bytes file(data, data + size);
    try {
        wf::Image image = wf::image_codecs::decode_exr(file);
        if (image.pixels.size() != image.pixel_count()) __builtin_trap();
    } catch (const wf::ImageError&) {
    }
    return 0;
}
