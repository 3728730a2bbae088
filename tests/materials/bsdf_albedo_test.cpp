// albedo() of the BSDF types, the albedo AOV's values (engine/aov.h), against the
// definitions written out by hand, at valid and invalid (grazing, back-side) hits alike.
#include <gtest/gtest.h>

#include "materials/surface_bsdf.h"

namespace wf {
namespace {

void expect_vec(Vec3f got, Vec3f want, const char* what) {
    for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(got[c], want[c]) << what << " [" << c << "]";
}

const Vec3f kDown{0.0f, 0.0f, -1.0f}, kUp{0.0f, 0.0f, 1.0f};
const Vec3f kGrazing = normalize(Vec3f(1.0f, 0.0f, -1e-7f));

TEST(BsdfAlbedo, SmallVcmMaterialsSumTheirLobesClampedToOne) {
    Material m;
    m.kd = {0.1f, 0.2f, 0.3f};
    m.ks = {0.05f, 0.1f, 0.6f};
    m.km = {0.0f, 0.5f, 0.4f};
    for (Vec3f dir : {kDown, kUp, kGrazing}) {  // front, back (two-sided), grazing: invalid
        expect_vec(Bsdf::make(m, dir, kUp, true).albedo(), {0.15f, 0.8f, 1.0f}, "diffuse + phong + mirror");
        expect_vec(SurfaceBsdf::from(Bsdf::make(m, dir, kUp, true)).albedo(), {0.15f, 0.8f, 1.0f}, "SurfaceBsdf");
    }
    Material one_sided;  // seen from behind: an invalid BSDF, the albedo still the material's
    one_sided.kd = {0.4f, 0.5f, 0.6f};
    one_sided.two_sided = 0;
    const Bsdf back = Bsdf::make(one_sided, kUp, kUp, true);
    EXPECT_FALSE(back.is_valid());
    expect_vec(back.albedo(), one_sided.kd, "one-sided back");
    Material glass;
    glass.ior = 1.5f;  // refraction counts as 1, with or without a mirror colour
    expect_vec(Bsdf::make(glass, kDown, kUp, true).albedo(), Vec3f(1.0f), "glass");
    expect_vec(Bsdf::make(glass, kUp, kUp, true).albedo(), Vec3f(1.0f), "glass from inside");
}

TEST(BsdfAlbedo, RtiowMaterialsGiveTheirAlbedo) {
    expect_vec(Bsdf::make(rtiow_lambertian_material({0.3f, 0.6f, 0.9f}), kDown, kUp, true).albedo(),
               {0.3f, 0.6f, 0.9f}, "lambertian");
    expect_vec(Bsdf::make(rtiow_metal_material({0.8f, 0.6f, 0.2f}, 0.3f), kDown, kUp, true).albedo(),
               {0.8f, 0.6f, 0.2f}, "fuzzy metal");
    expect_vec(Bsdf::make(rtiow_metal_material({0.8f, 0.6f, 0.2f}, 0.0f), kDown, kUp, true).albedo(),
               {0.8f, 0.6f, 0.2f}, "mirror metal");
    expect_vec(Bsdf::make(rtiow_dielectric_material(1.5f), kDown, kUp, true).albedo(), Vec3f(1.0f), "dielectric");
}

TEST(BsdfAlbedo, GltfGivesTheBaseColourWhateverMetallicAndTransmission) {
    GltfBsdfParams p;
    p.base_color = {0.25f, 0.5f, 0.75f};
    for (float metallic : {0.0f, 0.5f, 1.0f})
        for (float transmission : {0.0f, 1.0f}) {
            p.metallic = metallic;
            p.transmission = transmission;
            for (Vec3f dir : {kDown, kUp, kGrazing}) {  // kUp on a single-sided opaque material: invalid
                const GltfBsdf b = GltfBsdf::make(p, dir, kUp, kUp, true, false);
                expect_vec(b.albedo(), p.base_color, "glTF");
                expect_vec(SurfaceBsdf::from(b).albedo(), p.base_color, "SurfaceBsdf(glTF)");
            }
        }
    p.base_color = {1.5f, -0.5f, 0.5f};  // clamped to [0, 1] as the BSDF uses it
    expect_vec(GltfBsdf::make(p, kDown, kUp, kUp, true, true).albedo(), {1.0f, 0.0f, 0.5f}, "clamped");
}

}  // namespace
}  // namespace wf
