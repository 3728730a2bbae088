// Placing shapes and meshes in the scene: a shape's "transform" (JSON) and the
// flattening of an indexed mesh into the scene's triangles. Internal to the loader.
#pragma once

#include <string>

#include "io/mesh_transform.h"
#include "io/scene_json.h"
#include "io/scene_shapes.h"

namespace wf::scene_json {

// A shape's "transform": one object, or an array of them applied first to last. An
// object is {"matrix": 4 rows of 4 numbers, the last [0, 0, 0, 1]} or any of "scale"
// (a number or [x, y, z], none 0), "rotate" ({"axis": [x, y, z], "angle": degrees},
// right-handed) and "translate" ([x, y, z]), applied in that order. The result must be
// invertible.
Affine3 read_transform(const Reader& r, const Node& n);

// Where a problem with a placed mesh is reported: "<source>: <pointer>: expected ...".
struct MeshPlace {
    std::string source;
    std::string pointer;  // "" for a mesh file rendered on its own
    std::string transform_pointer;  // where a problem the transform made is reported ("": at `pointer`)
    [[noreturn]] void fail(const std::string& expected, const std::string& got) const;
};

// Adds a mesh given in its own coordinates: transformed by `xf` (mirroring keeps the
// facing, see transform_mesh), turned around by sc.flip_normals (winding and normals),
// zero-area triangles left out (counted in g.dropped_degenerate_triangles), every
// triangle a primitive of sc's material (and an area light when sc emits). The mesh is
// kept, in world space, in g.meshes. Fails when a coordinate ends up beyond
// kMaxCoordinate or no triangle of non-zero area is left.
void place_mesh(const MeshPlace& at, IndexedMesh mesh, const Affine3& xf, const ShapeCommon& sc, GeometryBuilder& g);

}  // namespace wf::scene_json
