// Scene-file materials: the "materials" object and the name lookup shapes use.
// Internal to the scene loader; the mapping onto wf::Material is documented in
// docs/scene-format.md and in engine/scene_types.h.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/scene_types.h"
#include "io/scene_json.h"

namespace wf::scene_json {

// Name of the material used by shapes that name none; built in unless the file defines it.
inline constexpr std::string_view kDefaultMaterialName = "default";

class MaterialTable {
public:
    // Reads the "materials" object: name -> material description, kept in file order.
    void read(const Reader& r, const Node& materials);
    // Material index for a shape's "material" member (absent: the default material).
    uint32_t resolve(const Reader& r, const std::optional<Node>& name);

    // The JSON's materials by name, and the glTF files' (gltf shapes append them: they
    // are not named in the JSON, so resolve() does not find them).
    std::vector<Material> materials;
    std::vector<std::string> names;

private:
    uint32_t add(std::string name, const Material& m);
    std::unordered_map<std::string, uint32_t> index_;
};

// The built-in default: grey diffuse 0.8, two-sided.
Material default_material();

}  // namespace wf::scene_json
