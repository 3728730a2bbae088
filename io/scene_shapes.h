// Scene-file shapes: the "shapes" array turned into triangles, spheres, their
// per-primitive records and the area lights of emissive shapes. Internal to the loader.
#pragma once

#include <vector>

#include "engine/scene_types.h"
#include "io/scene_json.h"
#include "io/scene_materials.h"

namespace wf::scene_json {

// Triangles and spheres are collected apart because primitive ids put all triangles
// first; an area light on a sphere holds the sphere's index until finish() knows
// the triangle count.
struct GeometryBuilder {
    std::vector<Triangle> triangles;
    std::vector<PrimInfo> triangle_prims;
    std::vector<Sphere> spheres;
    std::vector<PrimInfo> sphere_prims;
    std::vector<Light> lights;              // area lights, in shape order
    std::vector<uint32_t> sphere_light_ids;  // lights whose prim is still a sphere index
    uint32_t dropped_degenerate_triangles = 0;

    // Turns sphere indices into primitive ids; returns prims (triangles, then spheres).
    std::vector<PrimInfo> finish();
};

void read_shapes(const Reader& r, const Node& shapes, MaterialTable& materials, GeometryBuilder& out);

}  // namespace wf::scene_json
