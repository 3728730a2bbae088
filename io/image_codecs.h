// Internal to io/image*.cpp: encoders and decoders between Image and the bytes of a file.
// They throw ImageError naming only the problem; read_image/write_image add the file name.
#pragma once

#include <cstdint>
#include <vector>

#include "io/image.h"

namespace wf::image_codecs {

using Bytes = std::vector<uint8_t>;

Bytes encode_png(const Image& image, const ToneMap& tone);  // io/image_stb.cpp
Bytes encode_hdr(const Image& image);                      // io/image.cpp (own RGBE writer)
Bytes encode_exr(const Image& image, const std::vector<ImageLayer>& layers);  // io/image_exr.cpp

Image decode_png(const Bytes& file);  // io/image_stb.cpp
Image decode_hdr(const Bytes& file);  // io/image_stb.cpp
Image decode_exr(const Bytes& file);  // io/image_exr.cpp

}  // namespace wf::image_codecs
