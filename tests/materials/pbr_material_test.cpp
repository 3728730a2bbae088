// pbr_shading_point (materials/pbr_material.h): the normal maps. normalTexture bends the
// base's shading normal; KHR_materials_clearcoat's clearcoatNormalTexture bends the coat's,
// each in the tangent frame with its own scale, and neither touches the other. Expected
// normals are worked from glTF's (2 rgb - 1) encoding by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/srgb.h"
#include "materials/pbr_material.h"

namespace wf {
namespace {

uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | (g << 8) | (b << 16) | (a << 24); }

// Two 1 x 1 normal maps: image 0 leans along +x (the tangent), image 1 along -y (the bitangent).
struct NormalMaps {
    std::vector<uint32_t> texels{rgba(191, 128, 221, 255), rgba(128, 64, 221, 255)};
    std::vector<TextureImage> images{TextureImage{0, 1, 1}, TextureImage{1, 1, 1}};
    std::vector<TextureBinding> bindings;
    std::vector<float> lut;

    NormalMaps() {
        TextureBinding b;
        b.nearest = 1;
        bindings.push_back(b);
        b.image = 1;
        bindings.push_back(b);
        for (int i = 0; i < 256; ++i) lut.push_back(srgb8_to_linear(uint8_t(i)));
    }
    TextureView view() const { return TextureView{texels.data(), images.data(), bindings.data(), lut.data()}; }
};

// The shading frame: normal +z, tangent +x, bitangent cross(n, t) = +y.
ShadingAttributes flat_frame() {
    ShadingAttributes a;
    a.ns = Vec3f(0.0f, 0.0f, 1.0f);
    a.tangent = Vec3f(1.0f, 0.0f, 0.0f);
    a.uv[0] = a.uv[1] = Vec2f{0.5f, 0.5f};
    return a;
}

// (2 c / 255 - 1) for an 8-bit code c.
float decode(uint32_t c) { return 2.0f * float(c) / 255.0f - 1.0f; }

Vec3f unit(Vec3f v) { return v * (1.0f / std::sqrt(dot(v, v))); }

void expect_near(Vec3f a, Vec3f b, const char* what) {
    EXPECT_NEAR(a.x, b.x, 1e-5f) << what;
    EXPECT_NEAR(a.y, b.y, 1e-5f) << what;
    EXPECT_NEAR(a.z, b.z, 1e-5f) << what;
}

Material coated() {
    Material m;
    m.type = MaterialType::GltfPbr;
    m.pbr.clearcoat = 1.0f;
    return m;
}

TEST(PbrMaterial, ClearcoatNormalTextureBendsTheCoatsNormalAlone) {
    const NormalMaps maps;
    Material m = coated();
    m.pbr.clearcoat_normal_texture = 1;
    m.pbr.clearcoat_normal_scale = 0.5f;
    const PbrShadingPoint s = pbr_shading_point(m, maps.view(), flat_frame());
    expect_near(s.params.clearcoat_normal, unit(Vec3f(0.5f * decode(128), 0.5f * decode(64), decode(221))), "coat: -y, scale 0.5");
    expect_near(s.ns, Vec3f(0.0f, 0.0f, 1.0f), "the base keeps the interpolated normal");
}

TEST(PbrMaterial, BaseNormalMapLeavesTheCoatUnmapped) {
    const NormalMaps maps;
    Material m = coated();
    m.pbr.normal_texture = 0;
    m.pbr.normal_scale = 2.0f;
    const PbrShadingPoint s = pbr_shading_point(m, maps.view(), flat_frame());
    expect_near(s.ns, unit(Vec3f(2.0f * decode(191), 2.0f * decode(128), decode(221))), "base: +x, scale 2");
    expect_near(s.params.clearcoat_normal, Vec3f(0.0f, 0.0f, 1.0f), "no clearcoatNormalTexture: the interpolated normal");
    // Both maps: each its own.
    m.pbr.clearcoat_normal_texture = 1;
    const PbrShadingPoint both = pbr_shading_point(m, maps.view(), flat_frame());
    expect_near(both.ns, s.ns, "base");
    expect_near(both.params.clearcoat_normal, unit(Vec3f(decode(128), decode(64), decode(221))), "coat: -y, scale 1");
}

}  // namespace
}  // namespace wf
