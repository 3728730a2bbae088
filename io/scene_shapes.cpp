#include "io/scene_shapes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "engine/backend/host_parallel.h"

#include "io/mesh.h"
#include "io/mesh_placement.h"
#include "io/scene_gltf_shape.h"

namespace wf::scene_json {
namespace {

// Zero area in float arithmetic, or too large to have a usable normal.
bool degenerate(Vec3f a, Vec3f b, Vec3f c) {
    Vec3f n = cross(b - a, c - a);
    return !(length_squared(n) > 0.0f) || !is_finite(normalize(n));
}

// A triangle in the shape's coordinates, placed by its transform. A mirroring transform
// reverses the winding, so that the normal keeps facing the same side of the shape.
void add_triangle(const Reader& r, const Node& at, Vec3f a, Vec3f b, Vec3f c, const ShapeCommon& sc,
                  GeometryBuilder& g) {
    if (g.triangles.size() >= size_t(std::numeric_limits<int32_t>::max()))
        r.fail(at, "fewer than 2^31 primitives in the scene");
    if (!sc.transform.is_identity()) {
        a = sc.transform.point(a), b = sc.transform.point(b), c = sc.transform.point(c);
        if (sc.transform.determinant() < 0) std::swap(b, c);
        for (Vec3f p : {a, b, c})
            if (!(max_component(abs(p)) <= kMaxCoordinate))
                r.fail(sc.transform_at, "a transform that keeps coordinates within magnitude 1e10",
                       "a vertex at (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z) + ")");
        if (degenerate(a, b, c))
            r.fail(sc.transform_at, "a transform that leaves every triangle of the shape a non-zero area (in float)",
                   "a triangle of zero area");
    }
    if (sc.flip_normals) std::swap(b, c);  // normal = normalize(cross(p1 - p0, p2 - p0))
    if (!is_black(sc.emission)) g.note_emissive_triangle({a, b, c}, at.pointer, g.shape_triangles);
    ++g.shape_triangles;
    g.add_world_triangle({a, b, c}, sc);
}

// Parallelogram corner, corner+u, corner+u+v, corner+v; normal along cross(u, v).
// Returns false, adding nothing, when u and v span no area.
bool add_quad(const Reader& r, const Node& at, Vec3f corner, Vec3f u, Vec3f v, const ShapeCommon& sc,
              GeometryBuilder& g) {
    if (degenerate(corner, corner + u, corner + u + v) || degenerate(corner, corner + u + v, corner + v))
        return false;
    add_triangle(r, at, corner, corner + u, corner + u + v, sc, g);
    add_triangle(r, at, corner, corner + u + v, corner + v, sc, g);
    return true;
}

// Fast path for the bulk of a mesh: a well-formed [x, y, z] within bounds.
bool fast_point(const Json& v, Vec3f& p) {
    if (!v.is_array() || v.size() != 3) return false;
    for (int i = 0; i < 3; ++i) {
        const Json& c = v[size_t(i)];
        if (!c.is_number()) return false;
        double d = c.get<double>();
        if (!(d >= -kMaxCoordinate && d <= kMaxCoordinate)) return false;
        p[i] = float(d);
    }
    return true;
}

bool fast_index_triple(const Json& v, size_t count, uint32_t idx[3]) {
    if (!v.is_array() || v.size() != 3) return false;
    for (int i = 0; i < 3; ++i) {
        const Json& c = v[size_t(i)];
        if (!c.is_number_integer()) return false;  // unsigned counts as integer too
        int64_t k = c.get<int64_t>();
        if (c.is_number_unsigned() && c.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
            return false;
        if (k < 0 || uint64_t(k) >= count) return false;
        idx[i] = uint32_t(k);
    }
    return true;
}

// A mesh file, with the node transforms of a glTF, placed by the shape's transform.
void read_mesh_file_shape(const Reader& r, const Node& n, const Node& file, const ShapeCommon& sc,
                          const std::string& base_dir, GeometryBuilder& g) {
    for (const char* key : {"positions", "indices"})
        if (auto extra = r.member(n, key))
            r.fail(extra->pointer, "either \"file\" or \"positions\" (and \"indices\"), not both", "both");
    std::string path = resolve_scene_path(base_dir, r.string(file));
    std::vector<IndexedMesh> meshes;
    try {
        meshes = read_mesh_file(path, &g.files_read);
    } catch (const SceneError& e) {  // the mesh file's own message, after the place in the scene
        throw SceneError(one_line(r.source()) + ": " + file.pointer + ": " + e.what());
    }
    MeshPlace at{r.source(), file.pointer, sc.transform_at};
    for (IndexedMesh& m : meshes) place_mesh(at, std::move(m), sc.transform, sc, g);
}

void read_mesh(const Reader& r, const Node& n, const ShapeCommon& sc, const std::string& base_dir, GeometryBuilder& g) {
    if (auto file = r.member(n, "file")) return read_mesh_file_shape(r, n, *file, sc, base_dir, g);
    Node positions_node = r.required(n, "positions", "a mesh shape");
    r.expect_array(positions_node, "[x, y, z] positions");
    if (positions_node->size() < 3) r.fail(positions_node, "at least 3 positions");
    std::vector<Vec3f> positions(positions_node->size());
    for (size_t i = 0; i < positions.size(); ++i) {
        if (!fast_point((*positions_node)[i], positions[i]))
            positions[i] = r.point(r.element(positions_node, i));
    }

    std::vector<uint32_t> indices;
    Node triangles_node = positions_node;  // where a triangle's problem is reported
    if (auto indices_member = r.member(n, "indices")) {
        const Node& indices_node = *indices_member;
        triangles_node = indices_node;
        r.expect_array(indices_node, "[i, j, k] triangles");
        if (indices_node->empty()) r.fail(indices_node, "at least one [i, j, k] triangle");
        indices.resize(3 * indices_node->size());
        uint64_t max_index = positions.size() - 1;
        for (size_t t = 0; t < indices_node->size(); ++t) {
            if (fast_index_triple((*indices_node)[t], positions.size(), &indices[3 * t])) continue;
            Node tri = r.element(indices_node, t);
            if (!tri->is_array() || tri->size() != 3) r.fail(tri, "[i, j, k]: 3 position indices");
            std::string expected = "index in [0, " + std::to_string(max_index) + "] (the mesh has " +
                                   std::to_string(positions.size()) + " positions)";
            for (size_t k = 0; k < 3; ++k) {
                Node idx = r.element(tri, k);
                bool ok = idx->is_number_unsigned()  ? idx->get<uint64_t>() <= max_index
                          : idx->is_number_integer() ? idx->get<int64_t>() >= 0 &&
                                                           uint64_t(idx->get<int64_t>()) <= max_index
                                                     : false;
                if (!ok) r.fail(idx, expected);
                indices[3 * t + k] = uint32_t(idx->get<uint64_t>());
            }
        }
    } else {
        if (positions.size() % 3 != 0)
            r.fail(positions_node.pointer, "a multiple of 3 positions (no \"indices\": 3 per triangle)",
                   std::to_string(positions.size()) + " positions");
        indices.resize(positions.size());
        for (size_t i = 0; i < indices.size(); ++i) indices[i] = uint32_t(i);
    }

    IndexedMesh mesh;
    mesh.positions = std::move(positions);
    mesh.indices = std::move(indices);
    place_mesh(MeshPlace{r.source(), triangles_node.pointer, sc.transform_at}, std::move(mesh), sc.transform, sc, g);
}

void read_sphere(const Reader& r, const Node& n, const ShapeCommon& sc, GeometryBuilder& g) {
    Sphere s;
    s.center = r.point(r.required(n, "center", "a sphere shape"));
    s.radius = r.real(r.required(n, "radius", "a sphere shape"), Interval{0.0, kMaxCoordinate, true, false});
    if (!sc.transform.is_identity()) {
        // A sphere stays a sphere under rotation, mirroring, uniform scale and translation only.
        Vec3f axes = sc.transform.column_lengths();
        if (!sc.transform.is_similarity(1e-5))
            r.fail(sc.transform_at, "a rotation, uniform scale and translation (a sphere cannot be stretched or sheared)",
                   "axis scales " + std::to_string(axes.x) + ", " + std::to_string(axes.y) + ", " + std::to_string(axes.z) +
                       (std::fabs(axes.x - axes.y) + std::fabs(axes.y - axes.z) <= 1e-5f * axes.x ? " with a shear" : ""));
        s.center = sc.transform.point(s.center);
        s.radius *= (axes.x + axes.y + axes.z) / 3.0f;
        if (!(max_component(abs(s.center)) + s.radius <= kMaxCoordinate) || !(s.radius > 0.0f))
            r.fail(sc.transform_at, "a transform that keeps the sphere within magnitude 1e10 (and its radius > 0)",
                   "centre (" + std::to_string(s.center.x) + ", " + std::to_string(s.center.y) + ", " +
                       std::to_string(s.center.z) + "), radius " + std::to_string(s.radius));
    }
    if (g.spheres.size() >= size_t(std::numeric_limits<int32_t>::max()))
        r.fail(n, "fewer than 2^31 primitives in the scene");
    PrimInfo p;
    p.material = sc.material;
    if (sc.flip_normals) p.flags |= kPrimFlipNormal;
    if (!is_black(sc.emission)) {
        p.light = int32_t(g.lights.size());
        g.sphere_light_ids.push_back(uint32_t(g.lights.size()));
        Light l;
        l.type = LightType::Area;
        l.prim = uint32_t(g.spheres.size());  // sphere index; finish() adds the triangle count
        l.radiance = sc.emission;
        g.lights.push_back(l);
    }
    g.spheres.push_back(s);
    g.sphere_prims.push_back(p);
}

// The area lights among [first_light, end) that shape `n` just added (a gltf shape adds
// punctual lights too): each one's power pi * area * radiance must stay <=
// kMaxAreaLightPower (see scene_json.h for why).
void check_area_light_power(const Reader& r, const Node& n, const GeometryBuilder& g, size_t first_light) {
    for (size_t k = first_light; k < g.lights.size(); ++k) {
        const Light& l = g.lights[k];
        if (l.type != LightType::Area) continue;
        bool sphere = !g.sphere_light_ids.empty() && g.sphere_light_ids.back() == k;
        double area;
        if (sphere) {
            double radius = g.spheres[l.prim].radius;
            area = 4.0 * kPi * radius * radius;
        } else {
            area = triangle_area(g.triangles[l.prim]);
        }
        double power = kPi * area * double(max_component(l.radiance));
        if (power > kMaxAreaLightPower) {
            char got[160];
            std::snprintf(got, sizeof got, "%g (pi * area %g * radiance %g)", power, area,
                          double(max_component(l.radiance)));
            // A gltf shape's emission is its file's: emissiveFactor x strength of a material.
            const bool from_file = !r.member(n, "emission");
            r.fail(pointer_append(n.pointer, from_file ? "file" : "emission"),
                   std::string(from_file ? "emissive materials" : "an emission") +
                       " whose power pi * area * radiance per light (sphere or triangle) is <= 2^65 = 3.7e19",
                   got);
        }
    }
}

void read_shape(const Reader& r, const Node& n, MaterialTable& materials, const std::string& base_dir,
                GeometryBuilder& g, GltfIncludes& includes) {
    r.expect_object(n, "shape");
    std::string type =
        r.choice(r.required(n, "type", "a shape"), {"sphere", "mesh", "triangle", "quad", "box", "gltf"});
    if (type == "gltf") {  // its own materials and emission: io/scene_gltf_shape.cpp
        r.check_keys(n, {"type", "file", "transform", "material", "lights", "camera", "name"}, "a gltf shape");
        if (auto name = r.member(n, "name")) r.string(*name);  // documentation only
        return read_gltf_shape(r, n, materials, base_dir, g, includes);
    }
    if (type == "sphere")
        r.check_keys(n, {"type", "center", "radius", "material", "emission", "flip_normals", "name", "transform"},
                     "a sphere shape");
    else if (type == "mesh")
        r.check_keys(n, {"type", "positions", "indices", "file", "material", "emission", "flip_normals", "name", "transform"},
                     "a mesh shape");
    else if (type == "triangle")
        r.check_keys(n, {"type", "vertices", "material", "emission", "flip_normals", "name", "transform"},
                     "a triangle shape");
    else if (type == "quad")
        r.check_keys(n, {"type", "corner", "edge_u", "edge_v", "material", "emission", "flip_normals", "name", "transform"},
                     "a quad shape");
    else
        r.check_keys(n, {"type", "min", "max", "material", "emission", "flip_normals", "name", "transform"}, "a box shape");

    if (auto name = r.member(n, "name")) r.string(*name);  // documentation only
    ShapeCommon sc;
    sc.material = materials.resolve(r, r.member(n, "material"));
    sc.emission = r.color_or(n, "emission", Vec3f(0.0f), kNonNegative);
    sc.flip_normals = r.boolean_or(n, "flip_normals", false);
    if (auto t = r.member(n, "transform")) {
        sc.transform = read_transform(r, *t);
        sc.transform_at = t->pointer;
    }

    if (type == "sphere") {
        read_sphere(r, n, sc, g);
    } else if (type == "mesh") {
        read_mesh(r, n, sc, base_dir, g);
    } else if (type == "triangle") {
        Node v = r.required(n, "vertices", "a triangle shape");
        if (!v->is_array() || v->size() != 3) r.fail(v, "array of 3 vertices [[x, y, z], [x, y, z], [x, y, z]]");
        Vec3f a = r.point(r.element(v, 0)), b = r.point(r.element(v, 1)), c = r.point(r.element(v, 2));
        if (degenerate(a, b, c)) r.fail(v, "3 vertices spanning a non-zero area");
        add_triangle(r, v, a, b, c, sc, g);
    } else if (type == "quad") {
        Vec3f corner = r.point(r.required(n, "corner", "a quad shape"));
        Node u_node = r.required(n, "edge_u", "a quad shape"), v_node = r.required(n, "edge_v", "a quad shape");
        Vec3f u = r.point(u_node), v = r.point(v_node);
        if (!add_quad(r, n, corner, u, v, sc, g))
            r.fail(v_node.pointer, "edge_v not parallel to edge_u (a quad of non-zero area)",
                   describe(*v_node) + " with edge_u " + describe(*u_node));
    } else {  // box: axis-aligned in its own coordinates, 12 triangles with outward normals
        Vec3f lo = r.point(r.required(n, "min", "a box shape"));
        Node max_node = r.required(n, "max", "a box shape");
        Vec3f hi = r.point(max_node);
        if (!(hi.x > lo.x && hi.y > lo.y && hi.z > lo.z))
            r.fail(max_node.pointer, "max > min on every axis",
                   describe(*max_node) + " with min " + describe((*n)["min"]));
        Vec3f d = hi - lo;
        Vec3f dx(d.x, 0, 0), dy(0, d.y, 0), dz(0, 0, d.z);
        bool ok = add_quad(r, n, lo, dz, dy, sc, g) &&                       // -x
                  add_quad(r, n, Vec3f(hi.x, lo.y, lo.z), dy, dz, sc, g) &&  // +x
                  add_quad(r, n, lo, dx, dz, sc, g) &&                       // -y
                  add_quad(r, n, Vec3f(lo.x, hi.y, lo.z), dz, dx, sc, g) &&  // +y
                  add_quad(r, n, lo, dy, dx, sc, g) &&                       // -z
                  add_quad(r, n, Vec3f(lo.x, lo.y, hi.z), dx, dy, sc, g);    // +z
        if (!ok) r.fail(max_node.pointer, "a box with faces of non-zero area", describe(*max_node));
    }
}

}  // namespace

void read_shapes(const Reader& r, const Node& shapes, MaterialTable& materials, const std::string& base_dir,
                 GeometryBuilder& out, GltfIncludes& includes) {
    r.expect_array(shapes, "list of shapes");
    for (size_t i = 0; i < shapes->size(); ++i) {
        size_t first_light = out.lights.size();
        out.shape = i;
        out.shape_triangles = 0;
        Node shape = r.element(shapes, i);
        read_shape(r, shape, materials, base_dir, out, includes);
        check_area_light_power(r, shape, out, first_light);
    }
}

double triangle_area(const Triangle& t) {
    Vec3f e1 = t.p1 - t.p0, e2 = t.p2 - t.p0;
    double cx = double(e1.y) * e2.z - double(e1.z) * e2.y, cy = double(e1.z) * e2.x - double(e1.x) * e2.z,
           cz = double(e1.x) * e2.y - double(e1.y) * e2.x;
    return 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
}

void GeometryBuilder::note_emissive_triangle(const Triangle& t, const std::string& pointer, size_t index) {
    const double area = triangle_area(t);
    std::vector<EmissiveTriangleNote>& notes = smallest_emissive_triangles;
    if (notes.empty() || notes.back().shape != shape) notes.push_back({area, shape, pointer, index});
    else if (area < notes.back().area) notes.back() = {area, shape, pointer, index};
}

void GeometryBuilder::add_world_triangle(const Triangle& t, const ShapeCommon& sc) {
    PrimInfo p;
    p.material = sc.material;
    if (!is_black(sc.emission)) {
        p.light = int32_t(lights.size());
        Light l;
        l.type = LightType::Area;
        l.prim = uint32_t(triangles.size());
        l.radiance = sc.emission;
        l.emissive_texture = sc.emissive_texture;
        lights.push_back(l);
    }
    triangles.push_back(t);
    triangle_prims.push_back(p);
}

void GeometryBuilder::add_mesh_triangles(const IndexedMesh& mesh, const ShapeCommon& sc) {
    const size_t count = mesh.indices.size() / 3, base = triangles.size();
    auto make_room = [&](auto& v) {  // geometric growth: many small meshes must not copy quadratically
        reserve_touched(v, base + count, std::max(base + count, 2 * v.capacity()));
    };
    make_room(triangles);
    make_room(triangle_prims);
    // A light per triangle goes in order, on one thread; and a pool of one thread fills
    // in one pass (the parallel fill's resize writes every byte twice).
    if (!is_black(sc.emission) || ThreadPool::global().size() == 1) {
        for (size_t t = 0; t < count; ++t) {
            const uint32_t* v = &mesh.indices[3 * t];
            add_world_triangle({mesh.positions[v[0]], mesh.positions[v[1]], mesh.positions[v[2]]}, sc);
        }
        return;
    }
    PrimInfo prim;
    prim.material = sc.material;
    triangle_prims.resize(base + count, prim);
    triangles.resize(base + count);
    Triangle* out = triangles.data() + base;
    host_parallel_chunks(count, [&](uint64_t begin, uint64_t end) {
        for (uint64_t t = begin; t < end; ++t) {
            const uint32_t* v = &mesh.indices[3 * t];
            out[t] = Triangle{mesh.positions[v[0]], mesh.positions[v[1]], mesh.positions[v[2]]};
        }
    });
}

std::vector<PrimInfo> GeometryBuilder::finish() {
    uint32_t num_triangles = uint32_t(triangles.size());
    for (uint32_t id : sphere_light_ids) lights[id].prim += num_triangles;
    sphere_light_ids.clear();
    std::vector<PrimInfo> prims = std::move(triangle_prims);
    prims.insert(prims.end(), sphere_prims.begin(), sphere_prims.end());
    triangle_prims.clear();
    sphere_prims.clear();
    return prims;
}

}  // namespace wf::scene_json
