#include "io/environment_map.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "io/image.h"
#include "io/scene_json.h"
#include "io/scene_loader.h"

namespace wf {
namespace {

using scene_json::one_line;

std::string lowercase_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

}  // namespace

HostEnvironmentMap read_environment_map(const std::string& path) {
    const std::string name = one_line(path.empty() ? std::string("(empty path)") : path);
    const std::string ext = lowercase_extension(path);
    if (ext != ".hdr" && ext != ".exr")
        throw SceneError(name + ": an environment map is a .hdr or .exr file (linear radiance), got " +
                         (ext.empty() ? std::string("no extension") : "'" + one_line(ext, 40) + "'"));
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw SceneError(name + ": cannot open: is a folder");
    Image image;
    try {
        image = read_image(path);
    } catch (const ImageError& e) {
        // read_image says "read_image: PATH: problem"; the caller names the place in the scene.
        std::string message = e.what();
        const std::string prefix = "read_image: ";
        if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
        throw SceneError(one_line(message));
    }
    // NaN and infinity are errors. Lossy OpenEXR compression (DWAA, DWAB, B44) rings around
    // bright texels and leaves small negative values (the Blender maps of shared/assets/env
    // have them, down to -0.4% of their mean): values down to -1/16 of the map's mean
    // channel value are that noise and read as 0; anything more negative is an error.
    double sum = 0.0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x) {
            const Vec3f t = image.at(x, y);
            if (std::isfinite(t.x) && std::isfinite(t.y) && std::isfinite(t.z)) {
                sum += double(t.x) + double(t.y) + double(t.z);
                continue;
            }
            char problem[200];
            std::snprintf(problem, sizeof problem,
                          ": texel (%u, %u) is not finite (%g, %g, %g): an environment map holds radiance, finite and "
                          ">= 0",
                          x, y, double(t.x), double(t.y), double(t.z));
            throw SceneError(name + problem);
        }
    const double noise = std::max(0.0, sum / (3.0 * double(image.pixel_count()))) / 16.0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x) {
            Vec3f& t = image.at(x, y);
            for (int c = 0; c < 3; ++c) {
                if (t[c] >= 0.0f) continue;
                if (-double(t[c]) <= noise) {
                    t[c] = 0.0f;
                    continue;
                }
                char problem[300];
                std::snprintf(problem, sizeof problem,
                              ": texel (%u, %u) is negative (%g, %g, %g): an environment map holds radiance >= 0 "
                              "(values down to -%g, 1/16 of the map's mean, are read as 0: lossy-compression noise)",
                              x, y, double(t.x), double(t.y), double(t.z), noise);
                throw SceneError(name + problem);
            }
        }
    HostEnvironmentMap map;
    map.file = path;
    map.width = image.width;
    map.height = image.height;
    map.texels = std::move(image.pixels);
    return map;
}

float max_texel_value(const HostEnvironmentMap& map) {
    float largest = 0.0f;
    for (const Vec3f& t : map.texels) largest = std::max(largest, max_component(t));
    return largest;
}

}  // namespace wf
