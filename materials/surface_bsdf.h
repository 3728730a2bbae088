// The BSDF of any material type, dispatched on Material::type: SmallVCM's model and the
// "Ray Tracing in One Weekend" lobes (materials/bsdf.h), the microfacet types
// (materials/microfacet_bsdf.h), or glTF metallic-roughness (materials/gltf_bsdf.h). All
// follow the conventions of materials/bsdf.h, so a stage calls sample/evaluate/
// continuation_prob the same way for any. One of them is held at a time (a union: the
// registers of one, not all).
#pragma once

#include "engine/hd.h"
#include "engine/math.h"
#include "materials/bsdf.h"
#include "materials/bsdf_records.h"
#include "materials/gltf_bsdf.h"
#include "materials/microfacet_bsdf.h"

namespace wf {

class SurfaceBsdf {
    enum class Kind : uint8_t { Classic, Microfacet, Gltf };

    // Calls f on the held BSDF (defined before its callers: they deduce its return type).
    template <class F>
    WF_HD auto dispatch(F&& f) const {
        switch (kind_) {
            case Kind::Gltf: return f(gltf_);
            case Kind::Microfacet: return f(microfacet_);
            default: return f(classic_);
        }
    }

public:
    WF_HD SurfaceBsdf() : classic_() {}

    WF_HD static SurfaceBsdf from(const Bsdf& b) {
        SurfaceBsdf s;
        s.classic_ = b;
        return s;
    }
    WF_HD static SurfaceBsdf from(const MicrofacetBsdf& b) {
        SurfaceBsdf s;
        s.kind_ = Kind::Microfacet;
        s.microfacet_ = b;
        return s;
    }
    WF_HD static SurfaceBsdf from(const GltfBsdf& b) {
        SurfaceBsdf s;
        s.kind_ = Kind::Gltf;
        s.gltf_ = b;
        return s;
    }

    WF_HD bool is_valid() const {
        return dispatch([](const auto& b) { return b.is_valid(); });
    }
    WF_HD bool is_delta() const {
        return dispatch([](const auto& b) { return b.is_delta(); });
    }
    WF_HD float continuation_prob() const {
        return dispatch([](const auto& b) { return b.continuation_prob(); });
    }
    WF_HD float continuation_prob_from(Vec3f wi_world) const {
        return dispatch([&](const auto& b) { return b.continuation_prob_from(wi_world); });
    }
    WF_HD float cos_theta_fix() const {
        return dispatch([](const auto& b) { return b.cos_theta_fix(); });
    }
    WF_HD Vec3f normal() const {
        return dispatch([](const auto& b) { return b.normal(); });
    }
    WF_HD Vec3f albedo() const {
        return dispatch([](const auto& b) { return b.albedo(); });
    }
    WF_HD Vec3f world_dir_fix() const {
        return dispatch([](const auto& b) { return b.world_dir_fix(); });
    }
    WF_HD BsdfSample sample(float u0, float u1, float u2) const {
        return dispatch([&](const auto& b) { return b.sample(u0, u1, u2); });
    }
    WF_HD BsdfEval evaluate(Vec3f wi_world) const {
        return dispatch([&](const auto& b) { return b.evaluate(wi_world); });
    }

private:
    Kind kind_ = Kind::Classic;
    union {
        Bsdf classic_;
        MicrofacetBsdf microfacet_;
        GltfBsdf gltf_;
    };
};

}  // namespace wf
