// What the bidirectional family scatters with at a surface that glTF alpha covers only in
// part. A point of coverage a (0 < a < 1, alphaMode BLEND) is the mixture
//     a f + (1 - a) delta_pass,
// f the surface's BSDF and delta_pass a delta lobe that lets the path go on straight
// through, unchanged. As SmallVCM does with the delta lobes of its own materials, the
// mixture's non-delta part is what the BSDF evaluates (next-event estimation, connections,
// merging) and the delta part is sampled alone (wavefront/stages/vcm_vertex.h,
// blend_pass_through). So this class is f with every value and every pdf times a: the
// techniques that evaluate it cannot leave the coverage out of their contribution or out
// of their MIS pdfs, and a lobe sampled from it (with probability a, by the stage that
// picks between f and the pass-through) carries a in its pdf and its value, which cancel
// in the throughput but not in the MIS recurrences.
// pt keeps SurfaceBsdf: it decides "through or not" first and then sees an opaque surface,
// which has no merging or connection weights to keep consistent.
#pragma once

#include "engine/hd.h"
#include "engine/math.h"
#include "materials/bsdf_records.h"
#include "materials/surface_bsdf.h"

namespace wf {

class CoverageBsdf {
public:
    // coverage: the glTF alpha of the point, in [0, 1] (1 for every non-glTF material).
    WF_HD static CoverageBsdf make(const SurfaceBsdf& b, float coverage) {
        CoverageBsdf c;
        c.bsdf_ = b;
        c.coverage_ = coverage;
        return c;
    }

    WF_HD float coverage() const { return coverage_; }
    WF_HD bool is_valid() const { return bsdf_.is_valid(); }
    // The mixture's non-delta part is empty where f's is: the delta pass-through does not count.
    WF_HD bool is_delta() const { return bsdf_.is_delta(); }
    // Russian roulette on f's lobes, once the stage has picked them over the pass-through.
    WF_HD float continuation_prob() const { return bsdf_.continuation_prob(); }
    WF_HD float continuation_prob_from(Vec3f wi_world) const { return bsdf_.continuation_prob_from(wi_world); }
    WF_HD float cos_theta_fix() const { return bsdf_.cos_theta_fix(); }
    WF_HD Vec3f normal() const { return bsdf_.normal(); }
    WF_HD Vec3f albedo() const { return bsdf_.albedo(); }
    WF_HD Vec3f world_dir_fix() const { return bsdf_.world_dir_fix(); }
    WF_HD BsdfSample sample(float u0, float u1, float u2) const {
        BsdfSample s = bsdf_.sample(u0, u1, u2);
        if (coverage_ < 1.0f) {
            s.factor *= coverage_;
            s.pdf_w *= coverage_;
        }
        return s;
    }
    WF_HD BsdfEval evaluate(Vec3f wi_world) const {
        BsdfEval e = bsdf_.evaluate(wi_world);
        if (coverage_ < 1.0f) {
            e.factor *= coverage_;
            e.pdf_fwd_w *= coverage_;
            e.pdf_rev_w *= coverage_;
        }
        return e;
    }

private:
    SurfaceBsdf bsdf_;
    float coverage_ = 1.0f;
};

}  // namespace wf
