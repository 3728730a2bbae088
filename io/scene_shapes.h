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
    int32_t emissive_texture = -1;  // a texture binding multiplying `emission` (glTF emissiveTexture), or -1
    bool flip_normals = false;
    Affine3 transform;          // object to world
    std::string transform_at;   // JSON pointer of "transform", for messages ("" when absent)
};

// Emissive triangle area. An area light's pdfs are 1 / area times squared distances up
// to the scene's diameter (materials/emitters.h), as for a sphere light, whose radius
// limit (kMinSphereRadiusRelative, scene_json.h) keeps them below 2^61 and their squares
// (the MIS ratios) finite: so an emissive triangle needs at least the area of the smallest
// sphere accepted, 4 pi (2^-20 M)^2, M the scene's largest coordinate magnitude. The
// absolute floor keeps the renderer's float |e1 x e2|^2 = (2 area)^2 a normal float
// (>= 2^-126) with room for a further 2^-6: area >= 2^-61. A triangle that emits nothing
// has no such pdf and needs only a non-zero area.
inline constexpr double kMinEmissiveTriangleArea = 0x1p-61;

// The smallest emissive triangle of one shape, kept for the area check above, which
// needs the whole scene's scale (check_scene_scale in scene_loader.cpp).
struct EmissiveTriangleNote {
    double area = 0.0;    // in world space, from the float vertices the renderer uses
    size_t shape = 0;     // index in "shapes"
    std::string pointer;  // where it is reported: the shape's triangles ("/shapes/3/indices", "/shapes/3")
    size_t triangle = 0;  // index among the shape's triangles as written (zero-area ones counted)
};

// Area of a triangle of float vertices, in double (the products of floats are exact).
double triangle_area(const Triangle& t);

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
    std::vector<std::string> files_read;  // mesh files and what they pulled in, repeats included (HostScene::input_files)
    std::vector<EmissiveTriangleNote> smallest_emissive_triangles;  // one per emissive shape of triangles, in shape order
    size_t shape = 0;            // index in "shapes" of the shape being read
    size_t shape_triangles = 0;  // triangles of that shape so far, as written (zero-area ones counted)

    // Appends a world-space triangle as the next primitive, of the shape's material: an area
    // light when its emission is not black (with its emissive texture, if any; a texture
    // alone does not make a light: glTF's emission is the factor times the texture).
    void add_world_triangle(const Triangle& t, const ShapeCommon& sc);
    // add_world_triangle for each triangle of a world-space mesh, in order.
    void add_mesh_triangles(const IndexedMesh& mesh, const ShapeCommon& sc);
    // Keeps world-space triangle `t`, number `index` among the current shape's triangles as
    // written, when it is the shape's smallest emissive one so far (`pointer`: see EmissiveTriangleNote).
    void note_emissive_triangle(const Triangle& t, const std::string& pointer, size_t index);
    // Turns sphere indices into primitive ids; returns prims (triangles, then spheres).
    std::vector<PrimInfo> finish();
};

struct GltfIncludes;

// `base_dir`: where mesh files named in the scene resolve from (the scene file's folder).
// gltf shapes add their files' textures, cameras and lights to `includes` (io/scene_gltf_shape.h).
void read_shapes(const Reader& r, const Node& shapes, MaterialTable& materials, const std::string& base_dir,
                 GeometryBuilder& out, GltfIncludes& includes);

}  // namespace wf::scene_json
