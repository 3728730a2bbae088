// Owns the backend buffers of a scene, builds its BVH and the SceneView kernels read.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "accel/bvh_build.h"
#include "accel/bvh_build_gpu.h"
#include "accel/bvh_quality.h"
#include "accel/shading_arrays.h"
#include "accel/traversal_bvh_build.h"
#include "engine/camera.h"
#include "engine/scene.h"
#include "materials/environment_map_build.h"
#include "materials/light_selection_build.h"
#include "wavefront/render_stats.h"
#include "wavefront/scene_view.h"

namespace wf {

// What the render asks of the BVH: a builder (RenderOptions::bvh_builder) and how
// many paths it may trace (width x height x spp), which kAuto weighs.
struct BvhRequest {
    BvhBuilderChoice choice = BvhBuilderChoice::kAuto;
    uint64_t paths = 0;
};

// kAuto on the CUDA backend: binned SAH on the GPU (GpuBvhMethod::kSah) where the
// render traces at least this many paths per primitive, else H-PLOC. On an H200, in
// a render (its buffers allocated anew), the SAH build costs 5.5-6.5 ms more per
// million primitives; its tree saved a 1M-triangle terrain 0.11 ns per path (5-9%
// of its traversal) and a glTF scene whose camera rays mostly miss 0.014 ns (3% of
// a pass): it repays itself from about 50 paths per primitive on the first and 400
// on the second (bench/NOTES.md). Near the rule either choice costs a few ms.
inline constexpr uint64_t kSahPathsPerPrimitive = 64;

// WF_BVH_BUILDER, read where the render leaves the choice to kAuto (a comparison
// knob for benchmarks): "gpu" (H-PLOC), "gpu-sah" or "cpu"; unset or empty: kAuto.
inline BvhBuilderChoice bvh_builder_from_environment() {
    const char* v = std::getenv("WF_BVH_BUILDER");
    if (!v || !*v) return BvhBuilderChoice::kAuto;
    if (std::string_view(v) == "gpu") return BvhBuilderChoice::kFast;
    if (std::string_view(v) == "gpu-sah") return BvhBuilderChoice::kSah;
    if (std::string_view(v) == "cpu") return BvhBuilderChoice::kCpu;
    throw std::invalid_argument(std::string("WF_BVH_BUILDER must be 'gpu', 'gpu-sah' or 'cpu', got '") + v + "'");
}

template <class Backend>
class DeviceScene {
public:
    // Uploads geometry, materials and lights, and builds the BVH: on the device
    // for CUDA (H-PLOC), on the host otherwise (binned SAH). A GPU tree deeper
    // than the traversal stack holds is replaced by the CPU builder's, which
    // bounds its depth; `report` says which builder made the tree and why. Then
    // builds the light-selection distribution (materials/light_selection_build.h).
    void upload(Backend& backend, const HostScene& scene, const Camera& camera, LightSelectionMode light_selection,
                BvhRequest bvh, BvhBuildStats* report, double* build_ms) {
        bool surface_bsdf = false;
        for (const Material& m : scene.materials) surface_bsdf |= needs_surface_bsdf(m.type);
        if (!surface_bsdf) check_no_emission_varies(scene);
        triangles_.upload(scene.triangles);
        spheres_.upload(scene.spheres);
        if (std::any_of(scene.meshes.begin(), scene.meshes.end(), [](const IndexedMesh& m) { return has_shading_attributes(m); })) {
            std::vector<PrimInfo> prims = scene.prims;  // gains the kPrimHas* shading flags
            upload_shading(gather_shading_arrays(scene.meshes, uint32_t(scene.triangles.size()), prims));
            prims_.upload(prims);
        } else {  // flat-shaded meshes alone: no copy of the primitives (120 MB at 10M triangles)
            upload_shading(ShadingArrays{});
            prims_.upload(scene.prims);
        }
        upload_textures(scene);
        materials_.upload(scene.materials);
        lights_.upload(scene.lights);

        auto t0 = std::chrono::steady_clock::now();
        build_bvh(backend, scene, bvh, report);
        *build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

        view_.geometry.triangles = triangles_.data();
        view_.geometry.num_triangles = uint32_t(scene.triangles.size());
        view_.geometry.spheres = spheres_.data();
        view_.geometry.num_spheres = uint32_t(scene.spheres.size());
        view_.geometry.prims = prims_.data();
        view_.materials = materials_.data();
        view_.num_materials = uint32_t(scene.materials.size());
        view_.needs_surface_bsdf = surface_bsdf;
        view_.shading = ShadingAttributesView{shading_vertices_.size() ? shading_vertices_.data() : nullptr, normals_.data(), uvs_.data(), uvs1_.data(),
                                              tangents_.data(), colors_.data()};
        view_.textures = TextureView{texels_.data(), texture_images_.data(), texture_bindings_.data(), srgb_lut_.data()};
        view_.lights = lights_.data();
        view_.num_lights = uint32_t(scene.lights.size());
        view_.environment_light = -1;
        for (size_t i = 0; i < scene.lights.size(); ++i)
            if (scene.lights[i].type == LightType::Environment) view_.environment_light = int32_t(i);
        if (!scene.environment_map.empty()) environment_map_.build(backend, scene.environment_map);
        view_.environment_map = environment_map_.view();
        view_.bounds = scene.bounds();  // a pass over every primitive: once
        view_.scene_sphere = HostScene::sphere_around(view_.bounds);
        light_selection_.build(backend, view_.lights, view_.num_lights, view_.emitters(), light_selection);
        view_.light_selection = light_selection_.view();
        view_.camera = camera;
    }

    const SceneView& view() const { return view_; }

private:
    // Scenes of Bsdf's materials alone render with the lean Bsdf, whose next-event estimation
    // leaves the varying-emission look-ups out (kMayVaryEmission): only glTF materials give
    // an emitter a texture (or coverage, which needs a glTF material itself). A scene built
    // otherwise would have its estimators disagree: refused before anything is uploaded.
    static void check_no_emission_varies(const HostScene& scene) {
        for (const Light& l : scene.lights)
            if (l.type == LightType::Area && l.emissive_texture >= 0)
                throw std::logic_error("an emissive texture on a light of a scene without glTF materials");
    }

    // An empty array uploads as a null pointer: ShadingAttributesView's "no data".
    void upload_shading(const ShadingArrays& a) {
        shading_vertices_.upload(a.triangle_vertices);
        normals_.upload(a.normals);
        uvs_.upload(a.uvs);
        uvs1_.upload(a.uvs1);
        tangents_.upload(a.tangents);
        colors_.upload(a.colors);
    }

    // Every image's texels in one RGBA8 array, the image records pointing into it, the
    // bindings as loaded, and the sRGB decoding table the lookups share.
    void upload_textures(const HostScene& scene) {
        std::vector<TextureImage> images;
        uint64_t texels = 0;
        for (const HostTextureImage& img : scene.texture_images) {
            images.push_back(TextureImage{texels, img.width, img.height});
            texels += uint64_t(img.width) * img.height;
        }
        std::vector<uint32_t> all(texels);
        for (size_t i = 0; i < scene.texture_images.size(); ++i)
            std::memcpy(all.data() + images[i].offset, scene.texture_images[i].rgba.data(), scene.texture_images[i].rgba.size());
        texels_.upload(all);
        texture_images_.upload(images);
        texture_bindings_.upload(scene.texture_bindings);
        std::vector<float> lut(256);
        for (int i = 0; i < 256; ++i) lut[size_t(i)] = srgb8_to_linear(uint8_t(i));
        srgb_lut_.upload(lut);
    }

    void build_bvh(Backend& backend, const HostScene& scene, BvhRequest request, BvhBuildStats* report) {
        *report = BvhBuildStats{};
#if defined(WF_HAVE_CUDA)
        if constexpr (std::string_view(Backend::kName) == "cuda") {
            const uint64_t prims = uint64_t(scene.triangles.size()) + scene.spheres.size();
            BvhBuilderChoice choice = request.choice;
            std::string why;
            if (choice == BvhBuilderChoice::kAuto) {
                choice = bvh_builder_from_environment();
                if (choice != BvhBuilderChoice::kAuto)
                    why = std::string("WF_BVH_BUILDER=") + std::getenv("WF_BVH_BUILDER");
            }
            const bool automatic = choice == BvhBuilderChoice::kAuto;
            if (automatic) {
                const bool sah = request.paths / kSahPathsPerPrimitive >= prims;
                choice = sah ? BvhBuilderChoice::kSah : BvhBuilderChoice::kFast;
                why = "auto: " + std::to_string(request.paths / std::max<uint64_t>(prims, 1)) +
                      " paths per primitive, " + (sah ? "at least " : "fewer than ") +
                      std::to_string(kSahPathsPerPrimitive);
            }
            GpuBvhMethod method = choice == BvhBuilderChoice::kSah ? GpuBvhMethod::kSah : GpuBvhMethod::kHploc;
            if (choice == BvhBuilderChoice::kCpu) {
                report->note = why.empty() ? "--bvh cpu" : why;
            } else if (prims > kMaxGpuBvhPrimitives) {
                report->fell_back = true;
                report->note = "more primitives than the GPU builder takes (" +
                               std::to_string(kMaxGpuBvhPrimitives) + "): built on the CPU instead";
            } else {
                // The builder's memory lives only until the traversal layout is written.
                std::unique_ptr<GpuBvhBuilder> gpu_bvh;
                auto build = [&] {
                    gpu_bvh = std::make_unique<GpuBvhBuilder>(method);
                    gpu_bvh->build(backend, triangles_.data(), uint32_t(scene.triangles.size()), spheres_.data(),
                                    uint32_t(scene.spheres.size()));
                };
                try {
                    build();
                } catch (const OutOfMemoryError& e) {
                    // The SAH method needs about 100 bytes more per primitive than H-PLOC:
                    // where auto chose it and they are not there, H-PLOC builds instead.
                    if (!automatic || method != GpuBvhMethod::kSah) throw;
                    gpu_bvh.reset();
                    method = GpuBvhMethod::kHploc;
                    why += "; the SAH build ran out of memory (" + std::string(e.what()) + "): H-PLOC instead";
                    build();
                }
                GpuBvhInfo info = gpu_bvh->info(backend);
                if (info.depth <= kBvhMaxDepth) {
                    traversal_.allocate(info.max_traversal_nodes, info.num_prims);
                    gpu_bvh->write_traversal(backend, traversal_.nodes(), traversal_.prims(),
                                             info.max_traversal_nodes);
                    *report =
                        BvhBuildStats{gpu_bvh_method_name(method), info.sah, info.depth, info.num_nodes, why, false};
                    bind_traversal(info.sah);
                    return;
                }
                report->fell_back = true;
                report->note = "the GPU-built tree is " + std::to_string(info.depth) +
                               " levels deep, more than the traversal stack holds (" + std::to_string(kBvhMaxDepth) +
                               "): built on the CPU instead";
            }
        }
#endif
        (void)backend;
        (void)request;  // the CPU backend has one builder
        Bvh bvh = build_bvh_binned_sah(scene.triangles, scene.spheres);
        traversal_.upload(make_traversal_arrays(bvh.nodes, bvh.prim_index, scene.triangles, scene.spheres));
        BvhQuality q = measure_bvh(bvh);
        bind_traversal(q.sah);
        report->builder = "cpu";
        report->sah = q.sah;
        report->depth = q.depth;
        report->nodes = uint32_t(bvh.nodes.size());
    }

    void bind_traversal(double sah) {
        view_.geometry.traversal_nodes = traversal_.nodes();
        view_.geometry.leaf_prims = traversal_.prims();
        view_.geometry.tree_sah = float(sah);
    }

    typename Backend::template Buffer<Triangle> triangles_;
    typename Backend::template Buffer<Sphere> spheres_;
    typename Backend::template Buffer<PrimInfo> prims_;
    typename Backend::template Buffer<Material> materials_;
    typename Backend::template Buffer<Light> lights_;
    typename Backend::template Buffer<uint32_t> shading_vertices_;
    typename Backend::template Buffer<Vec3f> normals_;
    typename Backend::template Buffer<Vec2f> uvs_, uvs1_;
    typename Backend::template Buffer<Vec4f> tangents_, colors_;
    typename Backend::template Buffer<uint32_t> texels_;
    typename Backend::template Buffer<TextureImage> texture_images_;
    typename Backend::template Buffer<TextureBinding> texture_bindings_;
    typename Backend::template Buffer<float> srgb_lut_;
    TraversalBvh<Backend> traversal_;
    EnvironmentMap<Backend> environment_map_;  // texels and sampling distribution; unbuilt without a map
    LightSelection<Backend> light_selection_;
    SceneView view_{};
};

}  // namespace wf
