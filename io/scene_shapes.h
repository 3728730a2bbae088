// Scene-file shapes: the "shapes" array turned into triangles, spheres, their
// per-primitive records and the area lights of emissive shapes. Internal to the loader.
#pragma once

#include <string>
#include <vector>

#include "engine/scene.h"
#include "engine/scene_types.h"
#include "io/mesh_transform.h"
#include "io/scene_json.h"
#include "io/scene_materials.h"

namespace wf::scene_json {

// What every shape type shares.
struct ShapeCommon {
    uint32_t material = 0;
    Vec3f emission{0.0f};  // black: not a light
    bool flip_normals = false;
    Affine3 transform;          // object to world
    std::string transform_at;   // JSON pointer of "transform", for messages ("" when absent)
};

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
    std::vector<IndexedMesh> meshes;  // mesh shapes, indexed, in world space (HostScene::meshes)

    // Appends a world-space triangle as the next primitive (an area light when `emission` is not black).
    void add_world_triangle(const Triangle& t, uint32_t material, Vec3f emission);
    // Turns sphere indices into primitive ids; returns prims (triangles, then spheres).
    std::vector<PrimInfo> finish();
};

// `base_dir`: where mesh files named in the scene resolve from (the scene file's folder).
void read_shapes(const Reader& r, const Node& shapes, MaterialTable& materials, const std::string& base_dir,
                 GeometryBuilder& out);

}  // namespace wf::scene_json
