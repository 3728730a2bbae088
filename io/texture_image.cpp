// stb_image compiled into this translation unit alone, STB_IMAGE_STATIC: its symbols are
// internal here, apart from io/image_stb.cpp's copy (PNG and HDR for film images), so
// neither's settings reach the other. This one reads PNG and JPEG, from memory.
#include "io/texture_image.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "io/scene_loader.h"  // SceneError

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace wf {

HostTextureImage decode_texture_image(const std::string& name, const unsigned char* bytes, size_t size) {
    auto fail = [&](const std::string& what) -> void { throw SceneError(name + ": " + what); };
    if (size == 0) fail("an empty image");
    if (size > size_t(INT_MAX)) fail("an image of " + std::to_string(size) + " bytes is beyond the decoder's 2 GiB");
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_memory(bytes, int(size), &w, &h, &channels))
        fail(std::string("cannot decode the image (PNG or JPEG expected): ") + stbi_failure_reason());
    if (w <= 0 || h <= 0 || uint32_t(w) > kMaxTextureSide || uint32_t(h) > kMaxTextureSide ||
        uint64_t(w) * uint64_t(h) > kMaxTextureTexels)
        fail("image of " + std::to_string(w) + " x " + std::to_string(h) + " texels: at most " +
             std::to_string(kMaxTextureSide) + " on a side are supported");
    std::unique_ptr<unsigned char, void (*)(void*)> pixels(stbi_load_from_memory(bytes, int(size), &w, &h, &channels, 4),
                                                          stbi_image_free);
    if (!pixels) fail(std::string("cannot decode the image: ") + stbi_failure_reason());
    HostTextureImage img;
    img.name = name;
    img.width = uint32_t(w);
    img.height = uint32_t(h);
    img.rgba.assign(pixels.get(), pixels.get() + size_t(w) * size_t(h) * 4);
    return img;
}

}  // namespace wf
