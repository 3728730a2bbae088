// The lean instantiation of the stages that sample lights leaves the emissive-texture and
// coverage look-ups out of next-event estimation (kMayVaryEmission,
// wavefront/stages/path_vertex.h), which is right only because such emission comes from
// glTF materials alone: hits and light paths would read the texture and next-event
// estimation would not, and the estimators would disagree. The upload checks it: a scene
// without glTF materials whose light has an emissive texture is refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "app/render.h"
#include "tests/common/emissive_texture_checks.h"

namespace wf {
namespace {

RenderOptions one_pass_on_cpu(const HostScene& scene, const char* integrator) {
    RenderOptions o;
    o.settings = scene.settings;
    o.backend = BackendKind::Cpu;
    o.settings.integrator = integrator;
    o.settings.width = o.settings.height = 8;
    o.settings.spp = 1;
    return o;
}

}  // namespace

TEST(VaryingEmissionGuard, ATexturedLightWithoutGltfMaterialsIsRefused) {
    // A glTF emitter with an emissive texture over a floor, camera looking up at it.
    HostScene scene = test::EmissiveTextureScene::make("guard", Vec3f(0.0f, 0.0f, 0.2f), true, 60.0f);
    for (const char* integrator : {"pt", "vcm"}) EXPECT_NO_THROW(render(scene, one_pass_on_cpu(scene, integrator)));
    // The same lights and texture with every material made a SmallVCM one (a hand-built scene).
    for (Material& m : scene.materials) m = Material{};
    ASSERT_FALSE(scene.lights.empty());
    ASSERT_GE(scene.lights[0].emissive_texture, 0);
    for (const char* integrator : {"pt", "vcm"}) {
        try {
            render(scene, one_pass_on_cpu(scene, integrator));
            ADD_FAILURE() << integrator << " rendered a textured light of a scene without glTF materials";
        } catch (const std::logic_error& e) {
            EXPECT_NE(std::string(e.what()).find("emissive texture"), std::string::npos) << e.what();
        }
    }
}

}  // namespace wf
