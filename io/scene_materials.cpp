#include "io/scene_materials.h"

#include <algorithm>

#include "materials/rtiow_lobes.h"

namespace wf::scene_json {
namespace {

// Reflectance sums above 1 would create energy; a little slack for decimal round-off.
constexpr float kEnergySlack = 1e-5f;

// Largest Phong exponent n. The lobe cos^n is evaluated at float cosines, and near 1 these
// are spaced 2^-24 apart (2^-23 above 1, where rounding can put a computed cos_r): the
// lobe changes by a factor (1 - 2^-24)^n ~ exp(-n 2^-24) from one representable cosine
// to the next. Its normalisation (n + 2) / (2 pi) assumes a continuous lobe, so the
// step must stay small: n <= 2^17 keeps it within 1% (exp(2^-7)). At n = 1e9 the whole
// lobe falls between two cosines, and cos_r = 1 + 2^-23 gives cos^n = exp(119) = inf:
// NaN samples.
constexpr double kMaxPhongExponent = 0x1p17;

// "Ray Tracing in One Weekend" (2016) materials, as its CUDA renderer has them
// (materials/rtiow_lobes.h): albedo in [0, 1], fuzz in [0, 1] (the book clamps it to 1).
Material read_rtiow_material(const Reader& r, const Node& n, const std::string& type) {
    if (type == "rtiow_lambertian") {
        r.check_keys(n, {"type", "albedo"}, "an rtiow_lambertian material");
        return rtiow_lambertian_material(r.color_or(n, "albedo", Vec3f(0.5f), kUnit));
    } else if (type == "rtiow_metal") {
        r.check_keys(n, {"type", "albedo", "fuzz"}, "an rtiow_metal material");
        Vec3f albedo = r.color_or(n, "albedo", Vec3f(0.8f), kUnit);
        float fuzz = r.real_or(n, "fuzz", 0.0f, kUnit);
        if (fuzz > 0.0f && fuzz < kMinRtiowFuzz)
            r.fail(pointer_append(n.pointer, "fuzz"),
                   "0 (a mirror) or a number in [1e-4, 1] (below 1e-4 the lobe is narrower than float "
                   "angles resolve)",
                   describe(Json(fuzz)));
        return rtiow_metal_material(albedo, fuzz);
    }
    r.check_keys(n, {"type", "ior"}, "an rtiow_dielectric material");
    return rtiow_dielectric_material(r.real_or(n, "ior", 1.5f, kPositive));
}

// Reflectance at normal incidence of a conductor of complex index eta + i k (per channel),
// the F0 its Schlick Fresnel starts from (exact at normal incidence). In double: the
// squares of a float eta or k above 1.8e19 overflow a float.
Vec3f conductor_f0(Vec3f eta, Vec3f k) {
    auto f0 = [](double n, double kk) { return float(((n - 1) * (n - 1) + kk * kk) / ((n + 1) * (n + 1) + kk * kk)); };
    return {f0(eta.x, k.x), f0(eta.y, k.y), f0(eta.z, k.z)};
}

// The microfacet types (materials/microfacet_bsdf.h). Roughness is required where it
// shapes the lobe: a default would pick the look for the user.
Material read_microfacet_material(const Reader& r, const Node& n, const std::string& type) {
    Material m;
    if (type == "rough_conductor") {
        r.check_keys(n, {"type", "roughness", "reflectance", "eta", "k"}, "a rough_conductor material");
        m.type = MaterialType::RoughConductor;
        m.roughness = r.real(r.required(n, "roughness", "a rough_conductor material"), kUnit);
        auto eta = r.member(n, "eta"), k = r.member(n, "k");
        if (eta || k) {
            if (r.member(n, "reflectance"))
                r.fail(n.pointer, "either reflectance or the complex index (eta and k), not both",
                       std::string("reflectance and ") + (eta && k ? "eta and k" : eta ? "eta" : "k"));
            Vec3f eta_v = r.color(eta ? *eta : r.required(n, "eta", "a rough_conductor material with k"), kPositive);
            Vec3f k_v = r.color(k ? *k : r.required(n, "k", "a rough_conductor material with eta"), kNonNegative);
            m.km = conductor_f0(eta_v, k_v);
        } else {
            m.km = r.color_or(n, "reflectance", Vec3f(1.0f), kUnit);
        }
    } else if (type == "rough_dielectric") {
        r.check_keys(n, {"type", "roughness", "ior"}, "a rough_dielectric material");
        m.type = MaterialType::RoughDielectric;
        m.roughness = r.real(r.required(n, "roughness", "a rough_dielectric material"), kUnit);
        m.ior = r.real_or(n, "ior", 1.5f, kPositive);
    } else {
        r.check_keys(n, {"type", "ior"}, "a thin_dielectric material");
        m.type = MaterialType::ThinDielectric;
        m.ior = r.real_or(n, "ior", 1.5f, kPositive);
    }
    return m;
}

Material read_material(const Reader& r, const Node& n) {
    r.expect_object(n, "material");
    std::string type = r.choice(r.required(n, "type", "a material"),
                                {"diffuse", "mirror", "dielectric", "smallvcm", "rough_conductor", "rough_dielectric",
                                 "thin_dielectric", "rtiow_lambertian", "rtiow_metal", "rtiow_dielectric"});
    Material m;
    if (type == "diffuse") {
        r.check_keys(n, {"type", "albedo", "two_sided"}, "a diffuse material");
        m.kd = r.color_or(n, "albedo", Vec3f(0.8f), kUnit);
        m.two_sided = r.boolean_or(n, "two_sided", true);
    } else if (type == "mirror") {
        r.check_keys(n, {"type", "reflectance"}, "a mirror material");
        m.km = r.color_or(n, "reflectance", Vec3f(1.0f), kUnit);
        m.ior = -1.0f;
    } else if (type == "dielectric") {
        r.check_keys(n, {"type", "ior", "reflectance"}, "a dielectric material");
        m.ior = r.real_or(n, "ior", 1.5f, kPositive);
        m.km = r.color_or(n, "reflectance", Vec3f(1.0f), kUnit);
    } else if (type.starts_with("rough_") || type == "thin_dielectric") {
        m = read_microfacet_material(r, n, type);
    } else if (type.starts_with("rtiow_")) {
        m = read_rtiow_material(r, n, type);
    } else {  // smallvcm: SmallVCM's material record as it is
        r.check_keys(n, {"type", "kd", "ks", "phong_exponent", "km", "ior", "two_sided"},
                     "a smallvcm material");
        m.kd = r.color_or(n, "kd", Vec3f(0.0f), kUnit);
        m.ks = r.color_or(n, "ks", Vec3f(0.0f), kUnit);
        m.km = r.color_or(n, "km", Vec3f(0.0f), kUnit);
        m.phong_exponent = r.real_or(n, "phong_exponent", 1.0f, Interval{0.0, kMaxPhongExponent});
        m.ior = -1.0f;
        if (auto ior = r.member(n, "ior")) {
            m.ior = r.real(*ior);
            if (m.ior == 0.0f) r.fail(*ior, "number != 0 (< 0: no refraction, > 0: index of refraction)");
        }
        m.two_sided = r.boolean_or(n, "two_sided", false);
        Vec3f sum = m.kd + m.ks + m.km;
        if (max_component(sum) > 1.0f + kEnergySlack) {
            r.fail(n.pointer, "kd + ks + km <= 1 in every channel (energy conservation)",
                   "kd + ks + km = " + describe(Json::array({sum.x, sum.y, sum.z})));
        }
    }
    return m;
}

}  // namespace

Material default_material() {
    Material m;
    m.kd = Vec3f(0.8f);
    m.two_sided = 1;
    return m;
}

void MaterialTable::read(const Reader& r, const Node& materials_node) {
    r.expect_object(materials_node, "material name -> material");
    for (const auto& [name, value] : materials_node->items()) {
        Node n{&value, pointer_append(materials_node.pointer, name)};
        if (name.empty()) r.fail(n.pointer, "a non-empty material name", "an empty name");
        add(name, read_material(r, n));
    }
}

uint32_t MaterialTable::add(std::string name, const Material& m) {
    uint32_t id = uint32_t(materials.size());
    index_.emplace(name, id);
    materials.push_back(m);
    names.push_back(std::move(name));
    return id;
}

uint32_t MaterialTable::resolve(const Reader& r, const std::optional<Node>& name_node) {
    std::string name(kDefaultMaterialName);
    if (name_node) name = r.string(*name_node);
    if (auto it = index_.find(name); it != index_.end()) return it->second;
    if (name == kDefaultMaterialName) return add(name, default_material());
    std::vector<std::string_view> defined;  // by name: the JSON's materials, not the glTF files'
    for (size_t i = 0; i < names.size(); ++i)
        if (auto it = index_.find(names[i]); it != index_.end() && it->second == i) defined.push_back(names[i]);
    std::string list = defined.empty() ? "none defined" : quoted_list(defined, 8);
    r.fail(name_node->pointer, "the name of a material in /materials (" + list + ") or \"default\"",
           describe(**name_node) + suggestion(name, defined));
}

}  // namespace wf::scene_json
