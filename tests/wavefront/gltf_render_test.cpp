// glTF files rendered on the CPU backend: what each Khronos sample model of
// tests/data/gltf is built to show (its README). The glTF material in closed form:
// gltf_material_render_test.cpp.
//
// The planar test models are checked against a prediction made here, independently of
// the renderer: the loaded triangles are ray-cast from the camera (brute force), the
// texture coordinate at each hit is interpolated from the file's vertex data, and the
// texture image is sampled by this file's own bilinear sampler (sRGB decoded, glTF wrap
// modes) through the transform the file asks for. Pixels whose footprint straddles two
// surfaces are left out. A texture placed wrongly (flipped, unrotated, rotated the wrong
// way, wrapped the wrong way) makes the render disagree with the prediction, and agree
// better with the prediction of that mistake.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/render.h"
#include "io/image.h"
#include "io/scene_loader.h"
#include "materials/gltf_bsdf.h"
#include "tests/common/source_dir.h"
#include "tests/io/gltf_test_files.h"
#include "tests/wavefront/gltf_render_prediction.h"
#include "tests/wavefront/gltf_render_support.h"

namespace wf {
namespace {

using nlohmann::json;

using namespace test;  // gltf_render_support.h, gltf_render_prediction.h

// ---- TextureCoordinateTest -------------------------------------------------------------------

// The model (its README): four squares, each textured with the matching corner of one
// image; TopLeft_TEXCOORD_0 spans u, v in [0, 0.4] and shows the image's upper left.
// Checked: (1) each square's material colour in its named corner of the image; (2) the
// texture's glyphs where the README's UV convention puts them (v = 0 at the top of the
// image), against the same texture flipped in v or in u.
TEST(GltfRender, TextureCoordinateTestShowsEachCornerUpright) {
    HostScene scene = load_scene(model_path("TextureCoordinateTest/TextureCoordinateTest.glb"));
    look_at_plane(scene, 0.0f, 0.0f, 1.35f, 6.0f);
    const uint32_t size = 128;
    ASSERT_EQ(scene.texture_images.size(), 1u);
    const HostTextureImage& img = scene.texture_images[0];
    ASSERT_EQ(img.width, 512u);
    // Two texels read off the PNG with another decoder: the image is stored rows from the top.
    EXPECT_EQ(img.rgba[(460 * 512 + 51) * 4], 0) << "texel (51, 460) is black";
    EXPECT_EQ(img.rgba[(51 * 512 + 51) * 4], 255) << "texel (51, 51) is white";

    const char* names[4] = {"TopLeftMat", "TopRightMat", "BottomLeftMat", "BottomRightMat"};
    uint32_t materials[4];
    for (int k = 0; k < 4; ++k) materials[k] = material_named(scene, names[k]);
    // The vertex at the square's upper-left corner carries the UV of the image's corner
    // region (README): TopLeft (0, 0), TopRight (0.6, 0), BottomLeft (0, 0.6), BottomRight (0.6, 0.6).
    const Vec3f corner[4] = {{-1.2f, 1.2f, 0}, {0.2f, 1.2f, 0}, {-1.2f, -0.2f, 0}, {0.2f, -0.2f, 0}};
    const Vec2f corner_uv[4] = {{0.0f, 0.0f}, {0.6f, 0.0f}, {0.0f, 0.6f}, {0.6f, 0.6f}};
    for (const IndexedMesh& m : scene.meshes) {
        const uint32_t mat = scene.prims[m.first_prim].material;
        for (int k = 0; k < 4; ++k) {
            if (mat != materials[k]) continue;
            bool found = false;
            for (size_t v = 0; v < m.positions.size(); ++v)
                if (length(m.positions[v] - corner[k]) < 1e-3f) {
                    found = true;
                    EXPECT_NEAR(m.uvs[v].x, corner_uv[k].x, 1e-3f) << names[k];
                    EXPECT_NEAR(m.uvs[v].y, corner_uv[k].y, 1e-3f) << names[k];
                }
            EXPECT_TRUE(found) << names[k];
        }
    }

    const RenderResult r = render_cpu(scene, size, size, 16, 3);
    const std::vector<PixelSeen> pixels = pure_pixels(scene, size, size);
    enum { kCorrect, kFlipV, kFlipU, kHypotheses };
    const char* hypothesis[kHypotheses] = {"as the README says", "flipped in v", "flipped in u"};
    for (int k = 0; k < 4; ++k) {
        std::vector<Vec3f> rendered;
        std::vector<Vec3f> pred[kHypotheses];
        double cx = 0, cy = 0;
        const Material& mat = scene.materials[materials[k]];
        for (const PixelSeen& px : pixels) {
            if (px.points[0].material != materials[k]) continue;
            rendered.push_back(r.image.at(px.x, px.y));
            cx += px.x + 0.5;
            cy += px.y + 0.5;
            for (int h = 0; h < kHypotheses; ++h)
                pred[h].push_back(predicted(px, [&](const Seen& s) {
                    const double u = h == kFlipU ? 1.0 - s.uv.x : s.uv.x, v = h == kFlipV ? 1.0 - s.uv.y : s.uv.y;
                    return mat.pbr.base_color * sample_rgb(img, u, v, Sampler{});
                }));
        }
        ASSERT_GT(rendered.size(), 400u) << names[k];
        cx /= rendered.size();
        cy /= rendered.size();
        // (1) In its corner of the image, in its colour (baseColorFactor: TopLeft yellow
        // (0.8, 0.8, 0), TopRight red (0.8, 0.08, 0), BottomLeft blue (0, 0.16, 0.8),
        // BottomRight green (0, 0.8, 0)).
        const bool left = k == 0 || k == 2, top = k < 2;
        EXPECT_EQ(cx < size / 2.0, left) << names[k] << " centred at x " << cx;
        EXPECT_EQ(cy < size / 2.0, top) << names[k] << " centred at y " << cy;
        Vec3f mean(0.0f);
        for (const Vec3f& v : rendered) mean += v;
        mean = mean * (1.0f / float(rendered.size()));
        const Vec3f f = mat.pbr.base_color;
        for (int c = 0; c < 3; ++c)
            for (int d = 0; d < 3; ++d)
                if (f[c] >= 4.0f * f[d] + 0.05f) {  // a channel the colour clearly favours stays ahead
                    EXPECT_GT(mean[c], 2.0f * mean[d]) << names[k] << ": channel " << c << " vs " << d;
                }
        // (2) The glyphs: where the README's orientation and a flipped one disagree, the
        // render follows the README's.
        std::printf("  %s: unexplained variance %.3f (upright)", names[k], unexplained(rendered, pred[kCorrect]));
        for (int h = 1; h < kHypotheses; ++h) {
            const Disagreement d = disagreement(rendered, pred[kCorrect], pred[h]);
            std::printf("; vs %s: %zu pixels disagree, residual ratio %.3f", hypothesis[h], d.pixels, d.ratio);
            EXPECT_GT(d.pixels, 30u) << names[k] << " " << hypothesis[h];
            EXPECT_LT(d.ratio, 0.5) << names[k] << ": the render fits the texture " << hypothesis[h];
        }
        std::printf("\n");
    }
}

// ---- TextureTransformTest ----------------------------------------------------------------------

struct UvTransform {
    double offset[2] = {0, 0}, rotation = 0, scale[2] = {1, 1};
    // uv' = T R S uv, rotated as the model's green markers show (glTF issue #1563).
    Vec2f apply(Vec2f uv) const {
        const double c = std::cos(rotation), s = std::sin(rotation);
        const double x = scale[0] * uv.x, y = scale[1] * uv.y;
        return Vec2f{float(c * x + s * y + offset[0]), float(-s * x + c * y + offset[1])};
    }
};

// The model (its README): six quads; the top row offsets the UV texture (yellow where the
// offset is not applied), the bottom row turns, scales, or does all three to the arrow
// texture, whose tip then points at the green "Correct" marker (yellow: not applied, red:
// rotated the wrong way). Checked: (1) with the transforms the loader read, the arrow's
// tip lands on the green marker of each bottom quad; (2) the rendered quads against the
// predicted ones, with the file's transform and with each mistake.
TEST(GltfRender, TextureTransformTestArrowsPointAtTheGreenMarkers) {
    const std::string path = model_path("TextureTransformTest/TextureTransformTest.gltf");
    HostScene scene = load_scene(path);
    json doc;
    std::ifstream(path) >> doc;
    const HostTextureImage& arrow = image_named(scene, "Arrow.png");
    const HostTextureImage& uv_image = image_named(scene, "UV.png");
    ASSERT_EQ(arrow.width, 128u);

    // The arrow's tip in texture space: the dark texel farthest along the arrow (u + v).
    Vec2f tip{0, 0};
    int best = -1;
    for (uint32_t j = 0; j < arrow.height; ++j)
        for (uint32_t i = 0; i < arrow.width; ++i)
            if (arrow.rgba[(j * arrow.width + i) * 4] < 100 && int(i + j) > best) {
                best = int(i + j);
                tip = Vec2f{(i + 0.5f) / arrow.width, (j + 0.5f) / arrow.height};
            }
    ASSERT_GT(best, 0);

    struct Quad {
        const char* name;
        bool arrow;
    };
    const Quad quads[] = {{"Offset U", false}, {"Offset V", false}, {"Offset UV", false},
                          {"Rotation", true},  {"Scale", true},     {"All", true}};
    const Sampler clamp = sampler_of(doc["samplers"][0]["wrapS"], doc["samplers"][0]["wrapT"]);
    ASSERT_EQ(clamp.s, TextureWrap::ClampToEdge);

    // Marker centres (world), by colour.
    struct Marker {
        Vec3f centre;
        std::string kind;
    };
    std::vector<Marker> markers;
    for (const IndexedMesh& m : scene.meshes) {
        const std::string& name = scene.material_names[scene.prims[m.first_prim].material];
        if (name != "Correct" && name != "NotSupported" && name != "Error") continue;
        Vec3f c(0.0f);
        for (const Vec3f& p : m.positions) c += p;
        markers.push_back({c * (1.0f / float(m.positions.size())), name});
    }
    ASSERT_EQ(markers.size(), 6u);

    look_at_plane(scene, 0.0f, 0.0f, 1.1f, 8.0f);
    const uint32_t width = 192, height = 128;
    const RenderResult r = render_cpu(scene, width, height, 16, 3);
    const std::vector<PixelSeen> pixels = pure_pixels(scene, width, height);

    for (size_t qi = 0; qi < 6; ++qi) {
        const Quad& q = quads[qi];
        const uint32_t mat = material_named(scene, q.name);
        const json& tt = doc["materials"][mat - 1]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]["KHR_texture_transform"];
        UvTransform file;
        if (tt.contains("offset")) file.offset[0] = tt["offset"][0], file.offset[1] = tt["offset"][1];
        if (tt.contains("rotation")) file.rotation = tt["rotation"];
        if (tt.contains("scale")) file.scale[0] = tt["scale"][0], file.scale[1] = tt["scale"][1];
        const HostTextureImage& img = q.arrow ? arrow : uv_image;
        const int32_t bid = scene.materials[mat].pbr.base_color_texture;
        ASSERT_GE(bid, 0) << q.name;
        EXPECT_EQ(&scene.texture_images[scene.texture_bindings[size_t(bid)].image], &img) << q.name << ": the wrong image";

        // The quad's map from UV to the plane (affine, from its own vertices).
        const IndexedMesh* mesh = nullptr;
        for (const IndexedMesh& m : scene.meshes)
            if (scene.prims[m.first_prim].material == mat) mesh = &m;
        ASSERT_NE(mesh, nullptr);
        Vec3f quad_centre(0.0f);
        for (const Vec3f& p : mesh->positions) quad_centre += p * 0.25f;

        if (q.arrow) {
            // (1) Where the loaded transform puts the tip: solve M uv + o = tip.
            const TextureBinding& b = scene.texture_bindings[size_t(bid)];
            const double a = b.transform[0], bb = b.transform[1], c = b.transform[3], d = b.transform[4];
            const double det = a * d - bb * c;
            const double x = tip.x - b.transform[2], y = tip.y - b.transform[5];
            const double u = (d * x - bb * y) / det, v = (-c * x + a * y) / det;
            // The quads map uv (0, 0) to their upper-left corner, u right and v down, one unit each.
            const Vec3f on_quad = quad_centre + Vec3f(float(u) - 0.5f, 0.5f - float(v), 0.0f);
            const Marker* nearest = nullptr;
            float nearest_d = 1e9f;
            for (const Marker& m : markers) {
                const float dist = length(Vec3f(m.centre.x, m.centre.y, 0) - Vec3f(on_quad.x, on_quad.y, 0));
                if (length(Vec3f(m.centre.x - quad_centre.x, m.centre.y - quad_centre.y, 0)) > 0.8f) continue;
                if (dist < nearest_d) nearest_d = dist, nearest = &m;
            }
            ASSERT_NE(nearest, nullptr) << q.name;
            EXPECT_EQ(nearest->kind, "Correct") << q.name << ": the arrow's tip is nearest the " << nearest->kind
                                                << " marker";
            EXPECT_LT(nearest_d, 0.25f) << q.name << ": the tip is " << nearest_d << " from the marker";
        }

        // (2) The render against predictions: the file's transform, and each mistake.
        std::vector<std::pair<std::string, UvTransform>> hypotheses = {{"as the file says", file}};
        UvTransform none;
        hypotheses.push_back({"not applied", none});
        if (file.rotation != 0) {
            UvTransform reversed = file;
            reversed.rotation = -file.rotation;
            hypotheses.push_back({"rotated the other way", reversed});
        }
        if (file.scale[0] != 1 && (file.rotation != 0 || file.offset[0] != 0)) {
            UvTransform unscaled = file;
            unscaled.scale[0] = unscaled.scale[1] = 1;
            hypotheses.push_back({"not scaled", unscaled});
        }
        const MaterialPixels seen = material_pixels(
            pixels, mat, hypotheses.size(), [&](uint32_t x, uint32_t y) { return r.image.at(x, y); },
            [&](size_t h, const Seen& s) {
                const Vec2f t = hypotheses[h].second.apply(s.uv);
                return sample_rgb(img, t.x, t.y, clamp);
            });
        const std::vector<Vec3f>& rendered = seen.rendered;
        const std::vector<std::vector<Vec3f>>& pred = seen.predicted;
        ASSERT_GT(rendered.size(), 1500u) << q.name;
        const double correct = unexplained(rendered, pred[0]);
        std::printf("  %s: unexplained variance %.3f (as the file says)", q.name, correct);
        EXPECT_LT(correct, 0.3) << q.name;
        for (size_t h = 1; h < hypotheses.size(); ++h) {
            const Disagreement dis = disagreement(rendered, pred[0], pred[h]);
            std::printf("; %s: %zu pixels disagree, residual ratio %.3f", hypotheses[h].first.c_str(), dis.pixels, dis.ratio);
            EXPECT_GT(dis.pixels, 30u) << q.name << " " << hypotheses[h].first;
            EXPECT_LT(dis.ratio, 0.5) << q.name << ": the render fits the texture " << hypotheses[h].first;
        }
        std::printf("\n");
    }
}

// ---- EmissiveStrengthTest ----------------------------------------------------------------------

// The model (its README): five cubes of emissiveFactor (0.1, 0.5, 0.9), the leftmost
// without KHR_materials_emissive_strength (1x), then 2x, 4x, 8x, 16x to the right; black
// base colour. A camera ray that meets a cube's face sees its emission exactly (the path
// tracer counts emission at the first hit with weight 1); what the face also reflects
// is a black dielectric's (F0 = 0.04) share of the little light around it. So the
// face radiance read from the linear .exr is Le = (0.1, 0.5, 0.9) x strength to within a
// few percent (2% below: the .exr stores float32 exactly, nothing is lost; 6% above: the
// reflection), and the strengths' ratios follow.
TEST(GltfRender, EmissiveStrengthTestCubesDoubleInRadiance) {
    HostScene scene = load_scene(model_path("EmissiveStrengthTest/EmissiveStrengthTest.glb"));
    for (const Light& l : scene.lights) ASSERT_NE(l.type, LightType::Environment) << "an emissive file gets no environment";
    look_at_plane(scene, 0.0f, 0.0f, 1.8f, 20.0f);
    const uint32_t width = 192, height = 48;
    const RenderResult r = render_cpu(scene, width, height, 4, 4);
    const std::string exr = test::temp_folder("wf_gltf_render") + "/emissive.exr";
    write_image(exr, r.image);
    const Image image = read_image(exr);
    const std::vector<PixelSeen> pixels = pure_pixels(scene, width, height);
    const char* names[5] = {"Emit1", "Emit2", "Emit4", "Emit8", "Emit16"};
    const Vec3f colour(0.1f, 0.5f, 0.9f);
    Vec3f mean[5];
    for (int k = 0; k < 5; ++k) {
        const uint32_t mat = material_named(scene, names[k]);
        Vec3f sum(0.0f);
        size_t n = 0;
        double cx = 0;
        for (const PixelSeen& px : pixels) {
            bool front = px.points[0].material == mat;
            for (const Seen& s : px.points) front &= std::fabs(s.p.z - 0.5f) < 1e-3f;  // the face toward the camera
            if (!front) continue;
            sum += image.at(px.x, px.y);
            cx += px.x + 0.5;
            ++n;
        }
        ASSERT_GT(n, 40u) << names[k];
        mean[k] = sum * (1.0f / float(n));
        const float strength = float(1 << k);
        // Left to right: cube k at x = 3 (k - 2), its face toward the camera at z = 0.5.
        float fx = 0, fy = 0;
        ASSERT_TRUE(scene.camera.build(width, height).world_to_raster(Vec3f(3.0f * (k - 2), 0.0f, 0.5f), &fx, &fy));
        EXPECT_NEAR(cx / n, fx, 1.0) << names[k];
        for (int c = 0; c < 3; ++c) {
            const float le = colour[c] * strength;
            EXPECT_GE(mean[k][c], 0.98f * le) << names[k] << " channel " << c;
            EXPECT_LE(mean[k][c], 1.06f * le) << names[k] << " channel " << c;
        }
        std::printf("  %s: (%.4f, %.4f, %.4f), Le (%.2f, %.2f, %.2f)\n", names[k], mean[k].x, mean[k].y, mean[k].z,
                    colour.x * strength, colour.y * strength, colour.z * strength);
    }
    for (int k = 1; k < 5; ++k) {
        const double ratio = mean[k].z / mean[k - 1].z;
        EXPECT_NEAR(ratio, 2.0, 0.1) << names[k] << " / " << names[k - 1];
    }
}

// ---- OrientationTest ----------------------------------------------------------------------------

// The model (its README): six arrows turned by their nodes (red, green, blue: quaternions
// about x, y, z; cyan, magenta, yellow: matrices), each aimed at a target of its colour
// whose position is baked into its vertices. A transposed rotation turns an arrow away
// by twice its angle (10 to 140 degrees here). Checked on the loaded triangles: each
// arrow's long axis (principal axis of its vertices, toward its tip, the end farther
// from the centroid), from its centroid, passes within the target's own angular radius
// of the target's centroid.
TEST(GltfRender, OrientationTestArrowsPointAtTheirTargets) {
    HostScene scene = load_scene(model_path("OrientationTest/OrientationTest.glb"));
    int checked = 0;
    for (const char* name : {"MatX1", "MatX2", "MatY1", "MatY2", "MatZ1", "MatZ2"}) {
        const uint32_t mat = material_named(scene, name);
        std::vector<const IndexedMesh*> meshes;
        for (const IndexedMesh& m : scene.meshes)
            if (scene.prims[m.first_prim].material == mat) meshes.push_back(&m);
        ASSERT_EQ(meshes.size(), 2u) << name;
        struct Shape {
            Vec3f centroid{0.0f};
            Vec3f axis{0.0f};
            double length = 0, radius = 0, tip_extent = 0;
        };
        auto shape_of = [](const IndexedMesh& m) {
            Shape s;
            double c[3] = {0, 0, 0};
            for (const Vec3f& p : m.positions)
                for (int i = 0; i < 3; ++i) c[i] += p[i] / double(m.positions.size());
            s.centroid = Vec3f(float(c[0]), float(c[1]), float(c[2]));
            double cov[3][3] = {};
            for (const Vec3f& p : m.positions)
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) cov[i][j] += (p[i] - c[i]) * (p[j] - c[j]);
            double v[3] = {1, 0.3, 0.2};
            for (int it = 0; it < 500; ++it) {
                double w[3] = {0, 0, 0};
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) w[i] += cov[i][j] * v[j];
                const double len = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
                for (int i = 0; i < 3; ++i) v[i] = w[i] / len;
            }
            double lo = 1e30, hi = -1e30;
            for (const Vec3f& p : m.positions) {
                double t = 0, r2 = 0;
                for (int i = 0; i < 3; ++i) t += (p[i] - c[i]) * v[i];
                for (int i = 0; i < 3; ++i) r2 += (p[i] - c[i]) * (p[i] - c[i]);
                lo = std::min(lo, t), hi = std::max(hi, t);
                s.radius = std::max(s.radius, std::sqrt(r2));
            }
            if (-lo > hi) {
                for (double& x : v) x = -x;
                std::swap(lo, hi), lo = -lo, hi = -hi;
            }
            s.axis = Vec3f(float(v[0]), float(v[1]), float(v[2]));
            s.length = hi - lo;
            s.tip_extent = hi;
            return s;
        };
        Shape a = shape_of(*meshes[0]), t = shape_of(*meshes[1]);
        if (a.length < t.length) std::swap(a, t);
        ASSERT_GT(a.length, 3.5) << name << ": the arrow is 4 long";
        ASSERT_LT(t.length, 2.0) << name << ": the target is small";
        const Vec3f to_target = t.centroid - a.centroid;
        const double distance = length(to_target);
        const double angle = std::acos(std::min(1.0, double(dot(a.axis, to_target)) / distance)) * 180.0 / kPiD;
        const double allowed = std::atan(t.radius / distance) * 180.0 / kPiD;
        std::printf("  %s: arrow axis %.2f degrees off its target (target radius %.2f degrees)\n", name, angle, allowed);
        EXPECT_LT(angle, allowed) << name;
        ++checked;
    }
    EXPECT_EQ(checked, 6);
}

// ---- TextureSettingsTest ------------------------------------------------------------------------

// The model (its README): a "Test" column of quads whose textures are wrapped by their
// samplers (REPEAT, CLAMP_TO_EDGE, MIRRORED_REPEAT on s or t); done right each shows a
// green check mark (the clamp tests a solid green box), done wrong a red X or a solid
// red box. Checked: (1) the render of each test quad has (almost) no red and the green
// the prediction with the file's wrap modes has; (2) the render fits that prediction
// better than the predictions with the tested axis wrapped either other way, where they
// disagree.
TEST(GltfRender, TextureSettingsTestWrapModesShowGreenNotRed) {
    const std::string path = model_path("TextureSettingsTest/TextureSettingsTest.glb");
    HostScene scene = load_scene(path);
    // The test column: world x in [0, 3.05], y in [-5.2, 0.95] (the root node turns the
    // model's y up into z).
    look_at_plane(scene, 1.525f, -2.125f, 3.25f, 20.0f);
    const uint32_t width = 88, height = 176;
    const RenderResult r = render_cpu(scene, width, height, 8, 3);
    const std::vector<PixelSeen> pixels = pure_pixels(scene, width, height);

    struct Case {
        const char* material;
        int texture;  // the file's texture index
        bool on_t;    // the axis tested
    };
    const Case cases[] = {{"TextureMirrorMaterialT", 0, true}, {"TextureMirrorMaterialS", 1, false},
                          {"TextureRepeatMaterialT", 2, true}, {"TextureClampMaterialT", 3, true},
                          {"TextureRepeatMaterialS", 4, false}, {"TextureClampMaterialS", 5, false}};
    // The file's samplers, read here (glTF JSON chunk of the .glb).
    std::ifstream f(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    uint32_t json_length = 0;
    std::memcpy(&json_length, bytes.data() + 12, 4);
    const json doc = json::parse(bytes.substr(20, json_length));

    for (const Case& c : cases) {
        const uint32_t mat = material_named(scene, c.material);
        const json& tex = doc["textures"][c.texture];
        const json& smp = doc["samplers"][tex["sampler"].get<int>()];
        const Sampler file = sampler_of(smp.value("wrapS", 10497), smp.value("wrapT", 10497));
        const int32_t bid = scene.materials[mat].pbr.base_color_texture;
        ASSERT_GE(bid, 0);
        const HostTextureImage& img = scene.texture_images[scene.texture_bindings[size_t(bid)].image];
        std::vector<Sampler> hypotheses = {file};
        for (TextureWrap w : {TextureWrap::Repeat, TextureWrap::ClampToEdge, TextureWrap::MirroredRepeat}) {
            Sampler h = file;
            (c.on_t ? h.t : h.s) = w;
            if ((c.on_t ? file.t : file.s) != w) hypotheses.push_back(h);
        }
        const MaterialPixels seen = material_pixels(
            pixels, mat, hypotheses.size(), [&](uint32_t x, uint32_t y) { return r.image.at(x, y); },
            [&](size_t h, const Seen& s) { return sample_rgb(img, s.uv.x, s.uv.y, hypotheses[h]); });
        const std::vector<Vec3f>& rendered = seen.rendered;
        const std::vector<std::vector<Vec3f>>& pred = seen.predicted;
        ASSERT_GT(rendered.size(), 500u) << c.material;
        auto red = [](Vec3f v) { return v.x > 0.05f && v.x > 3.0f * v.y && v.x > 3.0f * v.z; };
        auto green = [](Vec3f v) { return v.y > 0.05f && v.y > 3.0f * v.x && v.y > 3.0f * v.z; };
        auto share = [](const std::vector<Vec3f>& v, auto&& is) {
            size_t n = 0;
            for (const Vec3f& x : v) n += is(x);
            return double(n) / double(v.size());
        };
        // (1) The prediction itself says what the model promises: green, no red; each
        // mistake shows red.
        const double green_expected = share(pred[0], green);
        ASSERT_LT(share(pred[0], red), 0.005) << c.material;
        ASSERT_GT(green_expected, 0.02) << c.material;
        for (size_t h = 1; h < hypotheses.size(); ++h) ASSERT_GT(share(pred[h], red), 0.02) << c.material << " " << h;
        const double red_seen = share(rendered, red), green_seen = share(rendered, green);
        std::printf("  %s: red %.3f, green %.3f (predicted %.3f)", c.material, red_seen, green_seen, green_expected);
        EXPECT_LT(red_seen, 0.01) << c.material << ": red shows where the model promises none";
        EXPECT_GT(green_seen, 0.5 * green_expected) << c.material;
        // (2) A solid box (the clamp tests) predicts no pattern to follow: (1) has judged it.
        Vec3f lo(1e30f), hi(-1e30f);
        for (const Vec3f& v : pred[0]) lo = min(lo, v), hi = max(hi, v);
        const bool solid = max_component(hi - lo) < 0.05f;
        for (size_t h = 1; h < hypotheses.size() && !solid; ++h) {
            const Disagreement dis = disagreement(rendered, pred[0], pred[h]);
            std::printf("; wrap %zu: %zu pixels disagree, residual ratio %.3f", h, dis.pixels, dis.ratio);
            EXPECT_GT(dis.pixels, 30u) << c.material << " " << h;
            EXPECT_LT(dis.ratio, 0.5) << c.material << ": the render fits another wrap mode (" << h << ")";
        }
        std::printf("\n");
    }
}

// ---- Cameras ----------------------------------------------------------------------------------

// The model: a unit square turned -45 degrees about x, a perspective camera (yfov 0.7,
// aspect 1) and an orthographic one (xmag = ymag = 1), both at (0.5, 0.5, 3) looking down
// -z. The square is made black here, so against the environment (radiance 1, seen
// exactly) it is a dark shape; every pixel wholly inside its projection through the
// camera, computed here from the file's numbers, is dark, every pixel wholly outside it is 1.
HostScene cameras_model_with_black_square() {
    SceneLoadStats stats;
    HostScene scene = load_scene(model_path("Cameras/Cameras.gltf"), &stats);
    EXPECT_EQ(scene.materials.size(), 1u) << "the square names no material: glTF's default";
    scene.materials[0].pbr.base_color = Vec3f(0.0f);  // metallic 1, base 0: black but for grazing Fresnel
    EXPECT_TRUE(stats.warnings.empty()) << stats.warnings[0];
    EXPECT_EQ(scene.file_cameras.size(), 2u);
    return scene;
}

// Checks the render of the black square against `project` (world point to raster).
void expect_square_where_projected(const Image& image, const std::function<Vec2f(Vec3f)>& project) {
    const uint32_t size = image.width;
    // The square's corners: node rotation (-0.383, 0, 0, 0.92375) about x of (x, y, 0).
    const double qx = -0.383, qw = 0.92375, n = std::sqrt(qx * qx + qw * qw);
    const double angle = 2.0 * std::atan2(qx / n, qw / n);
    auto corner = [&](float x, float y) {
        return Vec3f(x, float(y * std::cos(angle)), float(y * std::sin(angle)));
    };
    const Vec3f quad[4] = {corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)};
    float px[4], py[4];
    for (int i = 0; i < 4; ++i) {
        const Vec2f p = project(quad[i]);
        px[i] = p.x, py[i] = p.y;
    }
    auto inside = [&](float x, float y) {  // inside the convex projected quad
        int sign = 0;
        for (int i = 0; i < 4; ++i) {
            const int j = (i + 1) % 4;
            const float cr = (px[j] - px[i]) * (y - py[i]) - (py[j] - py[i]) * (x - px[i]);
            const int s = cr > 0 ? 1 : -1;
            if (sign == 0) sign = s;
            else if (s != sign) return false;
        }
        return true;
    };
    size_t in = 0, out = 0, lit_inside = 0, dark_outside = 0;
    double cx = 0, cy = 0, dark = 0;
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) {
            int corners = 0;
            for (int c = 0; c < 4; ++c) corners += inside(float(x + (c & 1)), float(y + (c >> 1)));
            const Vec3f v = image.at(x, y);
            if (v.y < 0.5f) cx += x + 0.5, cy += y + 0.5, dark += 1;
            if (corners == 4) {
                ++in;
                lit_inside += !(v.y < 0.1f);
            } else if (corners == 0) {
                ++out;
                dark_outside += !(std::fabs(v.y - 1.0f) < 1e-5f);
            }
        }
    EXPECT_EQ(lit_inside, 0u) << "of " << in << " pixels on the square";
    EXPECT_EQ(dark_outside, 0u) << "of " << out << " pixels off the square";
    EXPECT_GT(in, 200u);
    EXPECT_GT(out, 200u);
    // The square is centred left-right; its image centre is where the projection's is.
    double ey = 0;
    for (int i = 0; i < 4; ++i) ey += py[i] / 4;
    EXPECT_NEAR(cx / dark, size / 2.0, 0.5);
    EXPECT_NEAR(cy / dark, ey, 2.0);
}

TEST(GltfRender, CamerasRendersThroughTheFilesCamera) {
    HostScene scene = cameras_model_with_black_square();
    const uint32_t size = 48;
    ASSERT_EQ(scene.settings.height, scene.settings.width) << "aspectRatio 1 makes the film square";
    const RenderResult r = render_cpu(scene, size, size, 2, 3);
    CameraDesc expected;
    expected.position = Vec3f(0.5f, 0.5f, 3.0f);
    expected.forward = Vec3f(0, 0, -1);
    expected.up = Vec3f(0, 1, 0);
    expected.fov_y_degrees = float(0.7 * 180.0 / kPiD);
    const Camera cam = expected.build(size, size);
    expect_square_where_projected(r.image, [&](Vec3f p) {
        Vec2f raster;
        EXPECT_TRUE(cam.world_to_raster(p, &raster.x, &raster.y));
        return raster;
    });
}

// Camera 1 is orthographic: it sees [-0.5, 1.5] x [-0.5, 1.5] of every plane z = const
// (xmag and ymag are half-widths about x = y = 0.5), so a point lands on raster
// ((x + 0.5) / 2, (1.5 - y) / 2) times the film size, whatever its depth; the perspective
// camera would show the square's far edge shrunk.
TEST(GltfRender, CamerasRendersThroughItsOrthographicCamera) {
    HostScene scene = cameras_model_with_black_square();
    use_file_camera(scene, 1);
    const uint32_t size = 48;
    ASSERT_EQ(scene.settings.height, scene.settings.width) << "xmag / ymag = 1 makes the film square";
    const RenderResult r = render_cpu(scene, size, size, 2, 3);
    expect_square_where_projected(r.image, [&](Vec3f p) {
        return Vec2f{float((p.x + 0.5) / 2.0 * size), float((1.5 - p.y) / 2.0 * size)};
    });
}

// ---- The Khronos sample models of ../shared/assets/gltf (absent in CI: skipped) ---------------

// Every model loads (its warnings each naming the file) and renders (if under 200k
// triangles, for time) without a non-finite or negative pixel; the .gltf and .glb copies of a model give the same image, bit for
// bit (the same scene, read through two containers).
TEST(GltfRender, SharedSampleModelsRenderFiniteAndTheirTwoContainersAgree) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(WF_SHARED_DIR) / "assets/gltf";
    if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " is absent";
    size_t models = 0, pairs = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (!entry.is_directory()) continue;
        const std::string name = entry.path().filename().string();
        const fs::path text = entry.path() / "glTF" / (name + ".gltf"), binary = entry.path() / "glTF-Binary" / (name + ".glb");
        std::vector<Image> images;
        for (const fs::path& file : {text, binary}) {
            if (!fs::exists(file)) continue;
            SCOPED_TRACE(file.string());
            SceneLoadStats stats;
            HostScene scene;
            try {
                scene = load_scene(file.string(), &stats);
            } catch (const SceneError& e) {
                ADD_FAILURE() << e.what();
                continue;
            }
            for (const std::string& w : stats.warnings) EXPECT_EQ(w.rfind(file.string() + ": ", 0), 0u) << w;
            if (scene.triangles.size() > 200000) continue;  // loaded; its BVH alone would take a second
            const RenderResult r = render_cpu(scene, 24, 24, 1, 4);
            EXPECT_EQ(r.stats.nonfinite_samples, 0u);
            size_t bad = 0;
            for (const Vec3f& v : r.image.pixels) bad += !(is_finite(v) && min_component(v) >= 0.0f);
            EXPECT_EQ(bad, 0u) << "pixels not finite and non-negative";
            images.push_back(r.image);
            ++models;
        }
        if (images.size() == 2) {
            ++pairs;
            size_t differ = 0;
            for (size_t i = 0; i < images[0].pixels.size(); ++i)
                differ += std::memcmp(&images[0].pixels[i], &images[1].pixels[i], sizeof(Vec3f)) != 0;
            EXPECT_EQ(differ, 0u) << name << ": the .gltf and .glb render differently";
        }
    }
    EXPECT_GT(models, 0u);
    std::printf("  %zu models, %zu with both containers\n", models, pairs);
}

}  // namespace
}  // namespace wf
