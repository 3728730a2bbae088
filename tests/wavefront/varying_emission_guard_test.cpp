// The lean instantiation of the stages that sample lights leaves the emissive-texture and
// coverage look-ups out (kMayVaryEmission, wavefront/stages/path_vertex.h), which is right
// only because such emission comes from glTF materials alone. The upload checks it: a
// scene without glTF materials whose light has an emissive texture is refused, never
// rendered with the texture silently ignored.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "app/render.h"
#include "tests/common/analytic_scenes.h"

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
    HostScene scene = test::closed_emissive_mesh_sphere_scene(1.0f, 0.5f, 8, 4, 4);
    for (const char* integrator : {"pt", "vcm"}) EXPECT_NO_THROW(render(scene, one_pass_on_cpu(scene, integrator)));
    ASSERT_FALSE(scene.lights.empty());
    scene.lights[0].emissive_texture = 0;
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
