// OrientationTest (Khronos sample, tests/data/gltf) checked on a render, as a viewer would
// judge it: six arrows turned by their nodes, each aimed at a target of its colour, three
// on the +x, +y, +z sides of a cube and three on the -x, -y, -z sides. The albedo AOV of
// a view of each three from a direction that no arrow lies along gives each pixel the
// base colour of the first surface it sees; the pixels of one arrow colour form two blobs,
// the arrow (large) and its target (small). The arrow's principal axis in the image must
// pass within the target blob's radius of the target's centre, beyond the arrow's end.
// A node rotation applied transposed turns an arrow by twice its angle (10 to 140 degrees)
// and fails it: with the quaternions conjugated, X1 and Y1 miss by 2-4 target radii (Z1,
// turned 30 degrees, splits into blobs that still pass: the 3D check of
// gltf_render_test.cpp, on the loaded triangles, catches all three).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/render.h"
#include "io/scene_loader.h"
#include "tests/common/aov_scenes.h"
#include "tests/wavefront/gltf_render_support.h"

namespace wf {
namespace {

using test::model_path;
using test::render_cpu;

struct Point2 {
    double x = 0, y = 0;
};

// Centroid, unit principal axis and the largest distance from the centroid of a pixel blob.
struct Blob {
    Point2 centre, axis;
    double radius = 0;
    size_t size = 0;
};

Blob blob_of(const std::vector<Point2>& p) {
    Blob b;
    b.size = p.size();
    for (const Point2& q : p) b.centre.x += q.x / double(p.size()), b.centre.y += q.y / double(p.size());
    double xx = 0, xy = 0, yy = 0;
    for (const Point2& q : p) {
        const double dx = q.x - b.centre.x, dy = q.y - b.centre.y;
        xx += dx * dx, xy += dx * dy, yy += dy * dy;
        b.radius = std::max(b.radius, std::hypot(dx, dy));
    }
    const double angle = 0.5 * std::atan2(2.0 * xy, xx - yy);  // of the larger eigenvector
    b.axis = {std::cos(angle), std::sin(angle)};
    return b;
}

// The two blobs of one colour: 2-means on pixel positions, seeded at the ends of the
// pixels' principal axis (the arrow points at its target, so they lie along it).
std::pair<std::vector<Point2>, std::vector<Point2>> split_in_two(const std::vector<Point2>& p) {
    const Blob all = blob_of(p);
    auto along = [&](const Point2& q) { return (q.x - all.centre.x) * all.axis.x + (q.y - all.centre.y) * all.axis.y; };
    Point2 c[2] = {*std::min_element(p.begin(), p.end(), [&](auto& a, auto& b) { return along(a) < along(b); }),
                   *std::max_element(p.begin(), p.end(), [&](auto& a, auto& b) { return along(a) < along(b); })};
    std::vector<Point2> part[2];
    for (int it = 0; it < 32; ++it) {
        part[0].clear(), part[1].clear();
        for (const Point2& q : p) {
            const double d0 = std::hypot(q.x - c[0].x, q.y - c[0].y), d1 = std::hypot(q.x - c[1].x, q.y - c[1].y);
            part[d1 < d0 ? 1 : 0].push_back(q);
        }
        for (int k = 0; k < 2; ++k)
            if (!part[k].empty()) c[k] = blob_of(part[k]).centre;
    }
    return {part[0], part[1]};
}

// The albedo AOV of `scene` seen from its centre's `side` (+1: the +x, +y, +z sides).
Image albedo_from(HostScene scene, float side, uint32_t size) {
    const Aabb box = scene.bounds();
    const Vec3f centre = box.centroid();
    const float reach = 0.5f * length(box.extent());
    const Vec3f from = side * normalize(Vec3f(0.55f, 0.45f, 0.7f));
    scene.camera.position = centre + from * (3.2f * reach);
    scene.camera.forward = -from;
    scene.camera.up = Vec3f(0, 1, 0);
    scene.camera.fov_y_degrees = 40.0f;
    scene.camera.aperture_radius = 0.0f;
    scene.settings.aovs = test::kAllAovs;
    const RenderResult r = render_cpu(scene, size, size, 1, 2);
    return test::aov_layer(r, "albedo");
}

TEST(GltfRender, OrientationTestArrowsPointAtTheirTargetsInARender) {
    const HostScene scene = load_scene(model_path("OrientationTest/OrientationTest.glb"));
    const uint32_t size = 192;
    const Image views[2] = {albedo_from(scene, 1.0f, size), albedo_from(scene, -1.0f, size)};
    struct Arrow {
        const char* name;
        Vec3f colour;  // the material's baseColorFactor
        int view;      // 0: on a + side, 1: on a - side
    } arrows[] = {{"MatX1", {0.8f, 0, 0}, 0},    {"MatX2", {0, 0.8f, 0.8f}, 1}, {"MatY1", {0, 0.8f, 0}, 0},
                  {"MatY2", {0.8f, 0, 0.8f}, 1}, {"MatZ1", {0, 0, 0.8f}, 0},    {"MatZ2", {0.8f, 0.8f, 0}, 1}};
    for (const Arrow& a : arrows) {
        const Image& albedo = views[a.view];
        ASSERT_EQ(albedo.pixel_count(), size_t(size) * size);
        std::vector<Point2> pixels;
        for (uint32_t y = 0; y < size; ++y)
            for (uint32_t x = 0; x < size; ++x) {
                const Vec3f c = albedo.at(x, y);
                if (std::fabs(c.x - a.colour.x) < 0.02f && std::fabs(c.y - a.colour.y) < 0.02f &&
                    std::fabs(c.z - a.colour.z) < 0.02f)
                    pixels.push_back({x + 0.5, y + 0.5});
            }
        ASSERT_GT(pixels.size(), 100u) << a.name << ": the arrow and its target are in view";
        auto [p, q] = split_in_two(pixels);
        Blob arrow = blob_of(p), target = blob_of(q);
        if (arrow.size < target.size) std::swap(arrow, target);
        ASSERT_GT(target.size, 5u) << a.name;
        // The target's centre: its distance to the arrow's axis line, and how far beyond
        // the arrow's reach along it.
        const double dx = target.centre.x - arrow.centre.x, dy = target.centre.y - arrow.centre.y;
        const double off_axis = std::fabs(dx * arrow.axis.y - dy * arrow.axis.x);
        const double along = std::fabs(dx * arrow.axis.x + dy * arrow.axis.y);
        std::printf("  %s: target %.1f px off the arrow's axis (its radius %.1f px), %.1f px along (arrow reach %.1f)\n",
                    a.name, off_axis, target.radius, along, arrow.radius);
        EXPECT_LT(off_axis, target.radius) << a.name;
        EXPECT_GT(along, arrow.radius) << a.name << ": the target lies beyond the arrow's end";
    }
}

}  // namespace
}  // namespace wf
