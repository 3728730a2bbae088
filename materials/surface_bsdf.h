// The BSDF of any material type, dispatched on Material::type: SmallVCM's model and the
// "Ray Tracing in One Weekend" lobes (materials/bsdf.h), or glTF metallic-roughness
// (materials/gltf_bsdf.h). Both follow the conventions of materials/bsdf.h, so a stage
// calls sample/evaluate/continuation_prob the same way for either. One of the two is
// held at a time (a union: the registers of one, not both).
#pragma once

#include "engine/hd.h"
#include "engine/math.h"
#include "materials/bsdf.h"
#include "materials/bsdf_records.h"
#include "materials/gltf_bsdf.h"

namespace wf {

class SurfaceBsdf {
public:
    WF_HD SurfaceBsdf() : classic_() {}

    WF_HD static SurfaceBsdf from(const Bsdf& b) {
        SurfaceBsdf s;
        s.classic_ = b;
        return s;
    }
    WF_HD static SurfaceBsdf from(const GltfBsdf& b) {
        SurfaceBsdf s;
        s.is_gltf_ = true;
        s.gltf_ = b;
        return s;
    }

    WF_HD bool is_valid() const { return is_gltf_ ? gltf_.is_valid() : classic_.is_valid(); }
    WF_HD bool is_delta() const { return is_gltf_ ? gltf_.is_delta() : classic_.is_delta(); }
    WF_HD float continuation_prob() const { return is_gltf_ ? gltf_.continuation_prob() : classic_.continuation_prob(); }
    WF_HD float continuation_prob_from(Vec3f wi_world) const {
        return is_gltf_ ? gltf_.continuation_prob_from(wi_world) : classic_.continuation_prob_from(wi_world);
    }
    WF_HD float cos_theta_fix() const { return is_gltf_ ? gltf_.cos_theta_fix() : classic_.cos_theta_fix(); }
    WF_HD Vec3f normal() const { return is_gltf_ ? gltf_.normal() : classic_.normal(); }
    WF_HD Vec3f albedo() const { return is_gltf_ ? gltf_.albedo() : classic_.albedo(); }
    WF_HD Vec3f world_dir_fix() const { return is_gltf_ ? gltf_.world_dir_fix() : classic_.world_dir_fix(); }
    WF_HD BsdfSample sample(float u0, float u1, float u2) const {
        return is_gltf_ ? gltf_.sample(u0, u1, u2) : classic_.sample(u0, u1, u2);
    }
    WF_HD BsdfEval evaluate(Vec3f wi_world) const { return is_gltf_ ? gltf_.evaluate(wi_world) : classic_.evaluate(wi_world); }

private:
    bool is_gltf_ = false;
    union {
        Bsdf classic_;
        GltfBsdf gltf_;
    };
};

}  // namespace wf
