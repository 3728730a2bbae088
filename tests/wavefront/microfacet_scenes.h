// A JSON scene of the microfacet material types (materials/microfacet_bsdf.h) for the
// estimator tests: tests/wavefront/microfacet_render_test.cpp (every integrator against
// pt, CPU) and tests/gpu/microfacet_cuda_test.cpp (CPU against GPU). A rough gold sphere
// (the complex index of gold) and a rough glass sphere on a white diffuse floor, lit by an
// emissive square the camera does not see (lt does not show emitters seen directly);
// optionally a thin_dielectric pane standing between the camera and the spheres.
#pragma once

#include <string>

#include "engine/scene.h"
#include "io/scene_loader.h"

namespace wf::test {

inline HostScene microfacet_spheres_scene(bool thin_pane, float gold_roughness = 0.35f, float glass_roughness = 0.3f) {
    const std::string pane =
        thin_pane ? R"(,
    {"type": "quad", "name": "pane of glass, facing the camera", "material": "pane",
     "corner": [-2.2, -1, 1.6], "edge_u": [4.4, 0, 0], "edge_v": [0, 2.6, 0]})"
                  : "";
    const std::string text = R"({
  "camera": {"position": [0, 1, 5], "look_at": [0, -0.2, 0], "up": [0, 1, 0], "fov": 40},
  "film": {"width": 32, "height": 32},
  "materials": {
    "floor": {"type": "diffuse", "albedo": 0.8},
    "gold": {"type": "rough_conductor", "roughness": )" +
                             std::to_string(gold_roughness) + R"(, "eta": [0.16, 0.43, 1.44], "k": [3.6, 2.4, 1.8]},
    "glass": {"type": "rough_dielectric", "roughness": )" +
                             std::to_string(glass_roughness) + R"(, "ior": 1.5},
    "pane": {"type": "thin_dielectric", "ior": 1.5},
    "lamp": {"type": "diffuse", "albedo": 0}
  },
  "shapes": [
    {"type": "quad", "name": "floor, facing up", "material": "floor",
     "corner": [-3, -1, -3], "edge_u": [0, 0, 6], "edge_v": [6, 0, 0]},
    {"type": "sphere", "material": "gold", "center": [-0.9, -0.35, 0], "radius": 0.65},
    {"type": "sphere", "material": "glass", "center": [0.9, -0.35, 0], "radius": 0.65},
    {"type": "quad", "name": "lamp, facing down", "material": "lamp", "emission": 12,
     "corner": [-0.75, 3, -0.75], "edge_u": [1.5, 0, 0], "edge_v": [0, 0, 1.5]})" +
                             pane + R"(
  ]
})";
    return parse_scene(text, thin_pane ? "microfacet_spheres_pane.json" : "microfacet_spheres.json", ".");
}

}  // namespace wf::test
