// downsample_image IN OUT FACTOR: averages FACTOR x FACTOR pixel blocks (the box
// filter a lower-resolution render has). Used to make the SmallVCM reference
// thumbnails in tests/data/smallvcm from ../shared/reference/smallvcm.
#include <cstdio>
#include <string>

#include "io/image.h"
#include "io/image_metrics.h"

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: downsample_image IN OUT FACTOR\n");
        return 2;
    }
    try {
        wf::Image in = wf::read_image(argv[1]);
        wf::write_image(argv[2], wf::box_downsample(in, uint32_t(std::stoul(argv[3]))));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "downsample_image: %s\n", e.what());
        return 2;
    }
    return 0;
}
