// The optional material sort of pt's surface queue (wavefront/stages/sort_by_material.h):
// the queue comes out as a stable permutation in material order, entries past the size
// stay behind the real ones, and a render is the same image with and without it.
#include <gtest/gtest.h>

#include <vector>

#include "app/render.h"
#include "engine/backend/cpu_backend.h"
#include "io/scene_loader.h"
#include "tests/common/source_dir.h"
#include "wavefront/stages/sort_by_material.h"

namespace wf {
namespace {

TEST(MaterialSort, QueueBecomesAStablePermutationInMaterialOrder) {
    CpuBackend backend;
    const std::vector<PrimInfo> prims = {{2, -1, 0}, {0, -1, 0}, {1, -1, 0}, {2, -1, 0}, {0, -1, 0}, {1, -1, 0}};
    SceneView scene{};
    scene.geometry.prims = prims.data();
    scene.num_materials = 3;
    CameraPathStorage<CpuBackend> paths;
    paths.allocate(8);
    CameraPathView view = paths.view();
    for (uint32_t slot = 0; slot < 6; ++slot) view.hit_prim[slot] = slot;  // slot s hit primitive s
    std::vector<uint32_t> items = {5, 4, 3, 2, 1, 0, 77, 99};  // 77, 99: past the size
    uint32_t size = 6;
    MaterialSort<CpuBackend> sort;
    sort.allocate(8, scene.num_materials);
    SlotQueue<CameraPathView> sorted = sort.sort(backend, scene, view, {items.data(), &size, 8});
    EXPECT_EQ(sorted.size, &size);
    // Materials 0, 0, 1, 1, 2, 2; within one material the queue's order (5 4 3 2 1 0).
    const std::vector<uint32_t> expected = {4, 1, 5, 2, 3, 0};
    for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(sorted.items[i], expected[i]) << "entry " << i;
}

TEST(MaterialSort, RenderIsTheSameImageSortedOrNot) {  // ~2 s
    HostScene scene = load_scene(test::source_dir() + "/tests/data/gltf/TextureSettingsTest/TextureSettingsTest.glb");
    ASSERT_GT(scene.materials.size(), 3u);
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 48;
    o.settings.spp = 2;
    o.backend = BackendKind::Cpu;
    o.material_sort = MaterialSortMode::Off;
    const Image unsorted = render(scene, o).image;
    o.material_sort = MaterialSortMode::On;
    const Image sorted = render(scene, o).image;
    ASSERT_EQ(sorted.pixels.size(), unsorted.pixels.size());
    size_t differ = 0;
    for (size_t i = 0; i < sorted.pixels.size(); ++i)
        differ += !(sorted.pixels[i].x == unsorted.pixels[i].x && sorted.pixels[i].y == unsorted.pixels[i].y &&
                    sorted.pixels[i].z == unsorted.pixels[i].z);
    EXPECT_EQ(differ, 0u);
}

// A render with --material-sort auto of TextureSettingsTest (ten uncoated materials, which
// its primitives use, after the glTF default material, which none does): the sort stage
// runs once a used material has a clear coat, and not when only the unused one has.
TEST(MaterialSort, AutoSortsARenderOnceACoatJoinsTheMaterials) {
    HostScene scene = load_scene(test::source_dir() + "/tests/data/gltf/TextureSettingsTest/TextureSettingsTest.glb");
    RenderOptions o;
    o.settings = scene.settings;
    o.settings.width = o.settings.height = 16;
    o.settings.spp = 1;
    o.backend = BackendKind::Cpu;
    o.collect_stage_times = true;
    auto sorted = [&] {
        bool ran = false;
        for (const auto& s : render(scene, o).stats.stages) ran |= s.name == "sort_by_material";
        return ran;
    };
    EXPECT_FALSE(sorted());
    for (const PrimInfo& p : scene.prims) ASSERT_NE(p.material, 0u) << "material 0 is the unused default";
    scene.materials[0].pbr.clearcoat = 0.5f;
    EXPECT_FALSE(sorted());
    scene.materials[scene.prims[0].material].pbr.clearcoat = 0.5f;
    EXPECT_TRUE(sorted());
}

// A scene of one primitive per material, and `unused` materials after them that none names.
HostScene scene_of(std::vector<Material> materials, std::vector<Material> unused = {}) {
    HostScene s;
    for (uint32_t i = 0; i < materials.size(); ++i) s.prims.push_back(PrimInfo{i, -1, 0});
    s.materials = std::move(materials);
    s.materials.insert(s.materials.end(), unused.begin(), unused.end());
    return s;
}

// Auto sorts where glTF clear coats lie beside uncoated materials that primitives use, and
// only there; the explicit modes stay as they are.
TEST(MaterialSort, AutoSortsWhereCoatsLieBesideUncoatedMaterials) {
    Material plain, coated, diffuse;
    plain.type = coated.type = MaterialType::GltfPbr;
    coated.pbr.clearcoat = 1.0f;
    diffuse.kd = Vec3f(0.5f);
    auto resolve = [](std::vector<Material> m, std::vector<Material> unused = {}) {
        return resolve_material_sort(MaterialSortMode::Auto, scene_of(std::move(m), std::move(unused)));
    };
    EXPECT_EQ(resolve({plain, coated}), MaterialSortMode::On);
    EXPECT_EQ(resolve({diffuse, coated}), MaterialSortMode::On);
    EXPECT_EQ(resolve({coated, coated}), MaterialSortMode::Off) << "coats alone: no divergence to remove";
    EXPECT_EQ(resolve({plain, diffuse}), MaterialSortMode::Off);
    Material textured_only = plain;
    textured_only.pbr.clearcoat_texture = 0;  // a texture under a factor of 0: no coat
    EXPECT_EQ(resolve({plain, textured_only}), MaterialSortMode::Off);
    EXPECT_EQ(resolve({coated}, {plain}), MaterialSortMode::Off) << "the uncoated material is not used";
    EXPECT_EQ(resolve({plain}, {coated}), MaterialSortMode::Off) << "the coated material is not used";
    EXPECT_EQ(resolve_material_sort(MaterialSortMode::Off, scene_of({plain, coated})), MaterialSortMode::Off);
    EXPECT_EQ(resolve_material_sort(MaterialSortMode::On, scene_of({plain})), MaterialSortMode::On);
}

}  // namespace
}  // namespace wf
