// Texture images for materials: PNG or JPEG bytes decoded to 8-bit RGBA (stb_image;
// 16-bit PNGs are reduced to 8 bits, grey and grey-alpha images expanded to RGBA).
#pragma once

#include <cstdint>
#include <string>

#include "engine/scene.h"

namespace wf {

// Largest side and texel count of a texture image.
inline constexpr uint32_t kMaxTextureSide = 16384;
inline constexpr uint64_t kMaxTextureTexels = uint64_t(1) << 28;  // 16384 x 16384

// Decodes `size` bytes; `name` names the image in messages. Throws SceneError
// "<name>: ..." for anything that is not a PNG or JPEG image within the limits.
HostTextureImage decode_texture_image(const std::string& name, const unsigned char* bytes, size_t size);

}  // namespace wf
