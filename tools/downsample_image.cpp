// downsample_image IN OUT FACTOR [GAMMA]: averages FACTOR x FACTOR pixel blocks (the box
// filter a lower-resolution render has). GAMMA: IN is 8-bit codes of linear^(1/GAMMA), not
// sRGB (io/image_metrics.h decode_gamma_codes). Used to make the reference thumbnails in
// tests/data/smallvcm and tests/data/rtiow from the renders of those programs.
#include <cstdio>
#include <string>

#include "io/image.h"
#include "io/image_metrics.h"

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: downsample_image IN OUT FACTOR [GAMMA]\n");
        return 2;
    }
    try {
        wf::Image in = wf::read_image(argv[1]);
        if (argc == 5) in = wf::decode_gamma_codes(in, std::stod(argv[4]));
        wf::write_image(argv[2], wf::box_downsample(in, uint32_t(std::stoul(argv[3]))));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "downsample_image: %s\n", e.what());
        return 2;
    }
    return 0;
}
