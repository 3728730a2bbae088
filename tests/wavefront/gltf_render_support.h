// Helpers of the glTF render tests (gltf_render_test.cpp, gltf_material_render_test.cpp):
// the bundled models' paths, a CPU render with given settings, a camera facing a plane.
#pragma once

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "app/render.h"
#include "engine/scene.h"
#include "tests/common/source_dir.h"

namespace wf::test {

inline constexpr double kPiD = 3.14159265358979323846;

inline std::string model_path(const std::string& relative) { return test::source_dir() + "/tests/data/gltf/" + relative; }

inline RenderResult render_cpu(const HostScene& scene, uint32_t width, uint32_t height, uint32_t spp, uint32_t max_depth,
                               uint32_t seed = 1) {
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = width;
    o.settings.height = height;
    o.settings.spp = spp;
    o.settings.max_depth = max_depth;
    o.settings.seed = seed;
    o.settings.integrator = "pt";
    o.backend = BackendKind::Cpu;
    return render(scene, o);
}

// A camera on +z looking down -z (y up) that shows [cx - hw, cx + hw] x [cy - hh, cy + hh]
// of the plane z = 0 from `distance`.
inline void look_at_plane(HostScene& scene, float cx, float cy, float half_height, float distance) {
    scene.camera.position = Vec3f(cx, cy, distance);
    scene.camera.forward = Vec3f(0, 0, -1);
    scene.camera.up = Vec3f(0, 1, 0);
    scene.camera.fov_y_degrees = float(2.0 * std::atan(half_height / distance) * 180.0 / kPiD);
    scene.camera.aperture_radius = 0.0f;
}

inline uint32_t material_named(const HostScene& s, const std::string& name) {
    for (size_t i = 0; i < s.material_names.size(); ++i)
        if (s.material_names[i] == name) return uint32_t(i);
    ADD_FAILURE() << "no material named " << name;
    return 0;
}

}  // namespace wf::test
