#include "io/scene_shapes.h"

#include <limits>
#include <utility>

namespace wf::scene_json {
namespace {

// What every shape type shares.
struct ShapeCommon {
    uint32_t material = 0;
    Vec3f emission{0.0f};  // black: not a light
    bool flip_normals = false;
};

// Zero area in float arithmetic, or too large to have a usable normal.
bool degenerate(Vec3f a, Vec3f b, Vec3f c) {
    Vec3f n = cross(b - a, c - a);
    return !(length_squared(n) > 0.0f) || !is_finite(normalize(n));
}

void add_triangle(const Reader& r, const Node& at, Vec3f a, Vec3f b, Vec3f c, const ShapeCommon& sc,
                  GeometryBuilder& g) {
    if (g.triangles.size() >= size_t(std::numeric_limits<int32_t>::max()))
        r.fail(at, "fewer than 2^31 primitives in the scene");
    if (sc.flip_normals) std::swap(b, c);  // normal = normalize(cross(p1 - p0, p2 - p0))
    PrimInfo p;
    p.material = sc.material;
    if (!is_black(sc.emission)) {
        p.light = int32_t(g.lights.size());
        Light l;
        l.type = LightType::Area;
        l.prim = uint32_t(g.triangles.size());
        l.radiance = sc.emission;
        g.lights.push_back(l);
    }
    g.triangles.push_back({a, b, c});
    g.triangle_prims.push_back(p);
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

void read_mesh(const Reader& r, const Node& n, const ShapeCommon& sc, GeometryBuilder& g) {
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

    size_t kept = 0;
    for (size_t t = 0; t < indices.size() / 3; ++t) {
        Vec3f a = positions[indices[3 * t]], b = positions[indices[3 * t + 1]], c = positions[indices[3 * t + 2]];
        if (degenerate(a, b, c)) {
            ++g.dropped_degenerate_triangles;
            continue;
        }
        add_triangle(r, triangles_node, a, b, c, sc, g);
        ++kept;
    }
    if (kept == 0)
        r.fail(triangles_node.pointer, "at least one triangle of non-zero area",
               std::to_string(indices.size() / 3) + " degenerate triangles");
}

void read_sphere(const Reader& r, const Node& n, const ShapeCommon& sc, GeometryBuilder& g) {
    Sphere s;
    s.center = r.point(r.required(n, "center", "a sphere shape"));
    s.radius = r.real(r.required(n, "radius", "a sphere shape"), Interval{0.0, kMaxCoordinate, true, false});
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

void read_shape(const Reader& r, const Node& n, MaterialTable& materials, GeometryBuilder& g) {
    r.expect_object(n, "shape");
    std::string type = r.choice(r.required(n, "type", "a shape"), {"sphere", "mesh", "triangle", "quad", "box"});
    if (type == "sphere")
        r.check_keys(n, {"type", "center", "radius", "material", "emission", "flip_normals", "name"}, "a sphere shape");
    else if (type == "mesh")
        r.check_keys(n, {"type", "positions", "indices", "material", "emission", "flip_normals", "name"}, "a mesh shape");
    else if (type == "triangle")
        r.check_keys(n, {"type", "vertices", "material", "emission", "flip_normals", "name"}, "a triangle shape");
    else if (type == "quad")
        r.check_keys(n, {"type", "corner", "edge_u", "edge_v", "material", "emission", "flip_normals", "name"},
                     "a quad shape");
    else
        r.check_keys(n, {"type", "min", "max", "material", "emission", "flip_normals", "name"}, "a box shape");

    if (auto name = r.member(n, "name")) r.string(*name);  // documentation only
    ShapeCommon sc;
    sc.material = materials.resolve(r, r.member(n, "material"));
    sc.emission = r.color_or(n, "emission", Vec3f(0.0f), kNonNegative);
    sc.flip_normals = r.boolean_or(n, "flip_normals", false);

    if (type == "sphere") {
        read_sphere(r, n, sc, g);
    } else if (type == "mesh") {
        read_mesh(r, n, sc, g);
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
    } else {  // box: axis-aligned, 12 triangles with outward normals
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

void read_shapes(const Reader& r, const Node& shapes, MaterialTable& materials, GeometryBuilder& out) {
    r.expect_array(shapes, "list of shapes");
    for (size_t i = 0; i < shapes->size(); ++i) read_shape(r, r.element(shapes, i), materials, out);
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
