// glTF 2.0 materials as GltfPbr records (engine/scene_types.h PbrParams), and the
// textures they use, decoded once (io/texture_image.h) and bound with their samplers,
// UV sets and KHR_texture_transform.
//
// Read: pbrMetallicRoughness (factors and textures), normalTexture (with scale),
// emissiveFactor with KHR_materials_emissive_strength and emissiveTexture, alphaMode/alphaCutoff,
// doubleSided, KHR_materials_ior, KHR_materials_transmission, KHR_materials_volume
// (thickness > 0 makes the surface the boundary of a volume absorbing by its attenuation),
// KHR_materials_specular, KHR_materials_clearcoat (its clearcoatNormalTexture too),
// KHR_materials_sheen, KHR_texture_transform. Warned about and left out: any other
// extension the file uses. Left out by design, without a warning:
// occlusionTexture (a path tracer computes occlusion).
// A file that *requires* an extension not read here is an error naming it.
// Errors name the place as a JSON pointer into the file (io/gltf_pointer.h), the
// material's name after it: x.gltf: /materials/0/pbrMetallicRoughness/metallicFactor
// (material "Gold"): 2 is not in [0, 1].
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <tiny_gltf.h>

#include "io/gltf_pointer.h"
#include "io/gltf_scene.h"
#include "io/mesh.h"
#include "io/scene_loader.h"
#include "io/texture_image.h"

namespace wf::gltf_io {
namespace {

// Extensions this reader understands (materials, textures, lights).
const std::set<std::string>& supported_extensions() {
    static const std::set<std::string> s = {
        "KHR_materials_emissive_strength", "KHR_materials_ior", "KHR_materials_transmission", "KHR_materials_volume",
        "KHR_materials_specular", "KHR_materials_clearcoat", "KHR_materials_sheen", "KHR_texture_transform",
        "KHR_lights_punctual"};
    return s;
}

class MaterialReader {
public:
    MaterialReader(const std::string& path, const tinygltf::Model& model, GltfScene& out)
        : path_(path), model_(model), out_(out) {}

    void read() {
        for (size_t k = 0; k < model_.extensionsRequired.size(); ++k) {
            const std::string& ext = model_.extensionsRequired[k];
            if (!supported_extensions().count(ext) && ext != "KHR_draco_mesh_compression")
                fail(element("extensionsRequired", k), "requires the extension " + ext + ", which is not supported");
        }
        for (size_t k = 0; k < model_.extensionsUsed.size(); ++k) {
            const std::string& ext = model_.extensionsUsed[k];
            if (!supported_extensions().count(ext))
                warn(element("extensionsUsed", k) + ": uses the extension " + ext + ", which is not supported: it is ignored");
        }
        for (size_t i = 0; i < model_.materials.size(); ++i) read_material(i);
        // A primitive's material index was checked where the primitive was read
        // (io/mesh_gltf.cpp), so that the error names the primitive.
    }

private:
    // "<path>: <pointer> (material \"name\"): <what>": the place, then the material's name
    // while one is read.
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        mesh_io::fail(path_, pointer + material_name_ + ": " + what);
    }
    void warn(const std::string& what) { out_.warnings.push_back(path_ + ": " + what); }

    static const tinygltf::Value* extension(const tinygltf::ExtensionMap& m, const char* name) {
        auto it = m.find(name);
        return it == m.end() ? nullptr : &it->second;
    }

    // A number member of an extension object (`at` the object's pointer), checked against
    // [lo, hi]; `fallback` when absent.
    double number(const tinygltf::Value& v, const char* key, double fallback, double lo, double hi,
                  const std::string& at) const {
        if (!v.Has(key)) return fallback;
        const tinygltf::Value& n = v.Get(key);
        if (!n.IsNumber()) fail(child(at, key), "not a number");
        const double d = n.GetNumberAsDouble();
        if (!(d >= lo && d <= hi))
            fail(child(at, key), number_text(d) + " is out of [" + number_text(lo) + ", " + number_text(hi) + "]");
        return d;
    }

    // Component k of a colour as a float: finite (as a float) and non-negative.
    float colour_component(double d, const std::string& at, size_t k) const {
        const float f = float(d);
        if (!std::isfinite(f)) fail(child(at, k), number_text(d) + " is not finite as a float");
        if (!(f >= 0.0f)) fail(child(at, k), number_text(d) + " is negative");
        return f;
    }

    // A colour member (`at` its pointer): n numbers, the first 3 of them the colour.
    Vec3f colour(const std::vector<double>& v, size_t n, Vec3f fallback, const std::string& at) const {
        if (v.empty()) return fallback;
        if (v.size() != n) fail(at, "expected " + std::to_string(n) + " numbers, got " + std::to_string(v.size()));
        Vec3f c;
        for (size_t k = 0; k < 3; ++k) c[int(k)] = colour_component(v[k], at, k);
        return c;
    }

    // A colour member of an extension object (`at` the object's pointer).
    Vec3f colour_value(const tinygltf::Value& v, const char* key, Vec3f fallback, const std::string& at) const {
        if (!v.Has(key)) return fallback;
        const tinygltf::Value& a = v.Get(key);
        const std::string field = child(at, key);
        if (!a.IsArray() || a.ArrayLen() != 3) fail(field, "expected 3 numbers");
        Vec3f c;
        for (int i = 0; i < 3; ++i) {
            if (!a.Get(i).IsNumber()) fail(field, "expected 3 numbers");
            c[i] = colour_component(a.Get(i).GetNumberAsDouble(), field, size_t(i));
        }
        return c;
    }

    // A decoded image, once per image however many textures use it.
    uint32_t image(int source) {
        auto it = image_ids_.find(source);
        if (it != image_ids_.end()) return it->second;
        const tinygltf::Image& img = model_.images[size_t(source)];
        // The image's own place: its uri (a file) or the image (bytes in a buffer view or a data: URI).
        const std::string place = img.uri.empty() ? element("images", size_t(source))
                                                  : child(element("images", size_t(source)), "uri") + " \"" + img.uri + "\"";
        const std::string name = path_ + ": " + place;
        if (img.image.empty()) throw SceneError(name + ": no image data (a missing or unreadable file)");
        out_.texture_images.push_back(decode_texture_image(name, img.image.data(), img.image.size()));
        const uint32_t id = uint32_t(out_.texture_images.size() - 1);
        image_ids_.emplace(source, id);
        return id;
    }

    static TextureWrap wrap(int mode) {
        switch (mode) {
            case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE: return TextureWrap::ClampToEdge;
            case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT: return TextureWrap::MirroredRepeat;
            default: return TextureWrap::Repeat;
        }
    }

    // A texture reference (textureInfo, `at` its pointer): index, texCoord, extensions.
    // Returns the binding id, or -1 when `index` < 0 (no texture).
    int32_t binding(int index, int tex_coord, const tinygltf::ExtensionMap& ext, bool srgb, const std::string& at) {
        if (index < 0) return -1;
        const std::string index_at = child(at, "index");
        if (size_t(index) >= model_.textures.size())
            fail(index_at, "texture " + std::to_string(index) + " does not exist (the file has " +
                               std::to_string(model_.textures.size()) + " textures)");
        const tinygltf::Texture& t = model_.textures[size_t(index)];
        const std::string texture = element("textures", size_t(index));
        // "texture 4 (/textures/4/sampler)": the texture followed, and the place in it.
        auto in_texture = [&](const char* key) { return "texture " + std::to_string(index) + " (" + child(texture, key) + ")"; };
        if (t.source < 0 || size_t(t.source) >= model_.images.size())
            fail(index_at, in_texture("source") + ": image " + std::to_string(t.source) + " does not exist");
        TextureBinding b;
        b.image = image(t.source);
        if (t.sampler >= 0) {
            if (size_t(t.sampler) >= model_.samplers.size())
                fail(index_at, in_texture("sampler") + ": sampler " + std::to_string(t.sampler) + " does not exist");
            const tinygltf::Sampler& s = model_.samplers[size_t(t.sampler)];
            b.wrap_s = wrap(s.wrapS);
            b.wrap_t = wrap(s.wrapT);
            b.nearest = s.magFilter == TINYGLTF_TEXTURE_FILTER_NEAREST ? 1u : 0u;
        }
        b.srgb = srgb ? 1u : 0u;
        int uv_set = tex_coord;
        if (const tinygltf::Value* tt = extension(ext, "KHR_texture_transform")) {
            // uv' = T * R * S * uv (the extension's matrix order), rotation counter-clockwise in UV space.
            const std::string xat = child(child(at, "extensions"), "KHR_texture_transform");
            double off[2] = {0, 0}, scale[2] = {1, 1};
            auto pair = [&](const char* key, double* v) {
                if (!tt->Has(key)) return;
                const tinygltf::Value& a = tt->Get(key);
                if (!a.IsArray() || a.ArrayLen() != 2 || !a.Get(0).IsNumber() || !a.Get(1).IsNumber())
                    fail(child(xat, key), "expected 2 numbers");
                v[0] = a.Get(0).GetNumberAsDouble();
                v[1] = a.Get(1).GetNumberAsDouble();
                if (!std::isfinite(v[0]) || !std::isfinite(v[1])) fail(child(xat, key), "not finite");
            };
            pair("offset", off);
            pair("scale", scale);
            const double rot = number(*tt, "rotation", 0.0, -1e6, 1e6, xat);
            if (tt->Has("texCoord")) uv_set = int(number(*tt, "texCoord", 0.0, 0.0, 1.0, xat));
            const double c = std::cos(rot), s = std::sin(rot);
            b.transform[0] = float(c * scale[0]);
            b.transform[1] = float(s * scale[1]);
            b.transform[2] = float(off[0]);
            b.transform[3] = float(-s * scale[0]);
            b.transform[4] = float(c * scale[1]);
            b.transform[5] = float(off[1]);
        }
        if (uv_set < 0 || uv_set > 1)
            fail(child(at, "texCoord"), "set " + std::to_string(uv_set) + ": only sets 0 and 1 are supported");
        b.uv_set = uint32_t(uv_set);
        out_.texture_bindings.push_back(b);
        return int32_t(out_.texture_bindings.size() - 1);
    }

    int32_t binding(const tinygltf::TextureInfo& info, bool srgb, const std::string& at) {
        return binding(info.index, info.texCoord, info.extensions, srgb, at);
    }

    void read_material(size_t i) {
        const tinygltf::Material& gm = model_.materials[i];
        const std::string at = element("materials", i);
        const std::string pbr_at = child(at, "pbrMetallicRoughness"), extensions_at = child(at, "extensions");
        material_name_ = named("material", gm.name);
        Material m;
        m.type = MaterialType::GltfPbr;
        m.ior = 1.5f;
        m.two_sided = gm.doubleSided ? 1u : 0u;
        PbrParams& p = m.pbr;
        const tinygltf::PbrMetallicRoughness& pbr = gm.pbrMetallicRoughness;
        if (!pbr.baseColorFactor.empty()) {
            const std::string factor_at = child(pbr_at, "baseColorFactor");
            p.base_color = colour(pbr.baseColorFactor, 4, Vec3f(1.0f), factor_at);
            p.alpha = float(pbr.baseColorFactor[3]);
            if (!(p.alpha >= 0.0f && p.alpha <= 1.0f))
                fail(child(factor_at, 3), "alpha " + number_text(pbr.baseColorFactor[3]) + " is not in [0, 1]");
        }
        auto unit = [&](double v, const char* key) {
            if (!(v >= 0.0 && v <= 1.0)) fail(child(pbr_at, key), number_text(v) + " is not in [0, 1]");
            return float(v);
        };
        p.metallic = unit(pbr.metallicFactor, "metallicFactor");
        p.roughness = unit(pbr.roughnessFactor, "roughnessFactor");
        p.base_color_texture = binding(pbr.baseColorTexture, true, child(pbr_at, "baseColorTexture"));
        p.metallic_roughness_texture = binding(pbr.metallicRoughnessTexture, false, child(pbr_at, "metallicRoughnessTexture"));
        const tinygltf::NormalTextureInfo& nt = gm.normalTexture;
        const std::string normal_at = child(at, "normalTexture");
        p.normal_texture = binding(nt.index, nt.texCoord, nt.extensions, false, normal_at);
        if (!std::isfinite(float(nt.scale))) fail(child(normal_at, "scale"), number_text(nt.scale) + " is not finite as a float");
        p.normal_scale = float(nt.scale);
        if (gm.alphaMode == "MASK") p.alpha_mode = AlphaMode::Mask;
        else if (gm.alphaMode == "BLEND") p.alpha_mode = AlphaMode::Blend;
        else if (gm.alphaMode != "OPAQUE" && !gm.alphaMode.empty())
            fail(child(at, "alphaMode"), "unknown alphaMode " + scene_json::in_quotes(gm.alphaMode) + " (OPAQUE, MASK or BLEND)");
        if (!(gm.alphaCutoff >= 0.0)) fail(child(at, "alphaCutoff"), number_text(gm.alphaCutoff) + " is negative");
        p.alpha_cutoff = float(gm.alphaCutoff);

        Vec3f emission = colour(gm.emissiveFactor, 3, Vec3f(0.0f), child(at, "emissiveFactor"));
        // The emitted radiance is the factor (times the strength) times this texture's RGB
        // (sRGB colour data): where the factor is black the surface emits nothing, however
        // bright the texture (an area light takes both: io/gltf_scene_file.cpp).
        p.emissive_texture = binding(gm.emissiveTexture, true, child(at, "emissiveTexture"));
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_emissive_strength"))
            emission *= float(number(*e, "emissiveStrength", 1.0, 0.0, 1e12, child(extensions_at, "KHR_materials_emissive_strength")));
        if (!is_finite(emission))
            fail(at, "emissiveFactor x emissiveStrength overflows a float (the emitted radiance must be finite)");
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_ior")) {
            const std::string eat = child(extensions_at, "KHR_materials_ior");
            const double ior = number(*e, "ior", 1.5, 0.0, 10.0, eat);
            if (ior != 0.0 && ior < 1.0) fail(child(eat, "ior"), number_text(ior) + " is below 1 (and not 0)");
            // ior 0 is the extension's "infinite": a perfect conductor-like Fresnel of 1; the
            // largest finite ior stands for it.
            m.ior = ior == 0.0 ? 1e4f : float(ior);
        }
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_transmission")) {
            const std::string eat = child(extensions_at, "KHR_materials_transmission");
            p.transmission = float(number(*e, "transmissionFactor", 0.0, 0.0, 1.0, eat));
            if (e->Has("transmissionTexture"))
                p.transmission_texture = texture_value(e->Get("transmissionTexture"), false, child(eat, "transmissionTexture"));
        }
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_volume")) {
            const std::string eat = child(extensions_at, "KHR_materials_volume");
            const double thickness = number(*e, "thicknessFactor", 0.0, 0.0, 1e30, eat);
            p.thin_walled = thickness > 0.0 ? 0u : 1u;
            p.attenuation_color = colour_value(*e, "attenuationColor", Vec3f(1.0f), eat);
            if (!(max_component(p.attenuation_color) <= 1.0f)) fail(child(eat, "attenuationColor"), "must be in [0, 1]");
            const double distance = number(*e, "attenuationDistance", 1e30, -1e300, 1e300, eat);
            if (!(distance > 0.0)) fail(child(eat, "attenuationDistance"), number_text(distance) + " must be positive");
            p.attenuation_distance = float(std::min(distance, 1e30));
            // Beer-Lambert: a colour c after the distance d. Thin walls do not absorb (the
            // extension: thickness 0 has no volume). A channel of colour 0 absorbs all (a
            // finite, huge coefficient, so that a zero-length segment stays 1, not NaN).
            if (!p.thin_walled) {
                for (int c = 0; c < 3; ++c)
                    p.sigma_a[c] = p.attenuation_color[c] >= 1.0f
                                       ? 0.0f
                                       : float(std::min(-std::log(double(p.attenuation_color[c])) / p.attenuation_distance, 1e30));
            }
        }
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_specular")) {
            const std::string eat = child(extensions_at, "KHR_materials_specular");
            p.specular = float(number(*e, "specularFactor", 1.0, 0.0, 1.0, eat));
            p.specular_color = colour_value(*e, "specularColorFactor", Vec3f(1.0f), eat);
            if (e->Has("specularTexture"))
                p.specular_texture = texture_value(e->Get("specularTexture"), false, child(eat, "specularTexture"));
            if (e->Has("specularColorTexture"))
                p.specular_color_texture = texture_value(e->Get("specularColorTexture"), true, child(eat, "specularColorTexture"));
        }
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_clearcoat")) {
            const std::string eat = child(extensions_at, "KHR_materials_clearcoat");
            p.clearcoat = float(number(*e, "clearcoatFactor", 0.0, 0.0, 1.0, eat));
            p.clearcoat_roughness = float(number(*e, "clearcoatRoughnessFactor", 0.0, 0.0, 1.0, eat));
            if (e->Has("clearcoatTexture"))
                p.clearcoat_texture = texture_value(e->Get("clearcoatTexture"), false, child(eat, "clearcoatTexture"));
            if (e->Has("clearcoatRoughnessTexture"))
                p.clearcoat_roughness_texture =
                    texture_value(e->Get("clearcoatRoughnessTexture"), false, child(eat, "clearcoatRoughnessTexture"));
            if (e->Has("clearcoatNormalTexture")) {
                const tinygltf::Value& v = e->Get("clearcoatNormalTexture");
                const std::string nat = child(eat, "clearcoatNormalTexture");
                p.clearcoat_normal_texture = texture_value(v, false, nat);
                // A normalTextureInfo: its scale (default 1, any finite number) as normalTexture's.
                if (v.Has("scale")) {
                    const tinygltf::Value& s = v.Get("scale");
                    if (!s.IsNumber() || !std::isfinite(float(s.GetNumberAsDouble())))
                        fail(child(nat, "scale"), "not a finite number (as a float)");
                    p.clearcoat_normal_scale = float(s.GetNumberAsDouble());
                }
            }
        }
        if (const tinygltf::Value* e = extension(gm.extensions, "KHR_materials_sheen")) {
            const std::string eat = child(extensions_at, "KHR_materials_sheen");
            p.sheen_color = colour_value(*e, "sheenColorFactor", Vec3f(0.0f), eat);
            if (!(max_component(p.sheen_color) <= 1.0f)) fail(child(eat, "sheenColorFactor"), "must be in [0, 1]");
            p.sheen_roughness = float(number(*e, "sheenRoughnessFactor", 0.0, 0.0, 1.0, eat));
            if (e->Has("sheenColorTexture"))
                p.sheen_color_texture = texture_value(e->Get("sheenColorTexture"), true, child(eat, "sheenColorTexture"));
            if (e->Has("sheenRoughnessTexture"))
                p.sheen_roughness_texture = texture_value(e->Get("sheenRoughnessTexture"), false, child(eat, "sheenRoughnessTexture"));
        }
        out_.materials.push_back(m);
        out_.material_names.push_back(gm.name.empty() ? "material " + std::to_string(i) : gm.name);
        out_.material_emission.push_back(emission);
        material_name_.clear();
    }

    // A textureInfo given as an extension's JSON value (`at` its pointer).
    int32_t texture_value(const tinygltf::Value& v, bool srgb, const std::string& at) {
        if (!v.IsObject() || !v.Has("index") || !v.Get("index").IsInt()) fail(at, "expected a textureInfo with an index");
        const int index = v.Get("index").Get<int>();
        int tex_coord = 0;
        if (v.Has("texCoord")) {
            if (!v.Get("texCoord").IsInt()) fail(child(at, "texCoord"), "not an integer");
            tex_coord = v.Get("texCoord").Get<int>();
        }
        tinygltf::ExtensionMap ext;
        if (v.Has("extensions") && v.Get("extensions").IsObject()) {
            const tinygltf::Value& e = v.Get("extensions");
            for (const std::string& key : e.Keys()) ext[key] = e.Get(key);
        }
        if (index < 0) fail(child(at, "index"), std::to_string(index) + " is negative");
        return binding(index, tex_coord, ext, srgb, at);
    }

    const std::string& path_;
    const tinygltf::Model& model_;
    GltfScene& out_;
    std::map<int, uint32_t> image_ids_;
    std::string material_name_;  // " (material \"Gold\")" while a named material is read
};

}  // namespace

void read_materials(const std::string& path, const tinygltf::Model& model, GltfScene& scene) {
    MaterialReader(path, model, scene).read();
}

}  // namespace wf::gltf_io
