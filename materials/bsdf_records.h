// What every BSDF returns: a sampled direction (BsdfSample) and an evaluation of a
// given direction (BsdfEval). The conventions (fixed and generated directions, pdfs with
// lobe selection, the specular factor holding weight / |cos|) are those written at the
// top of materials/bsdf.h; every BSDF of materials/ follows them.
#pragma once

#include "engine/math.h"

namespace wf {

struct BsdfSample {
    Vec3f factor{0.0f};  // BSDF value (specular: weight / |cos_out|); black: discard the sample
    Vec3f wi_world{0.0f};  // sampled direction, unit, pointing away from the surface
    float pdf_w = 0.0f;    // solid-angle pdf incl. lobe choice (specular: the lobe probability)
    float cos_out = 0.0f;  // |cos| between wi_world and the frame normal
    bool specular = false;  // a delta lobe (mirror or refraction) was sampled
};

struct BsdfEval {
    Vec3f factor{0.0f};    // BSDF value (non-delta lobes only; delta lobes evaluate to 0)
    float cos_out = 0.0f;  // |cos| between wi_world and the frame normal
    float pdf_fwd_w = 0.0f;  // pdf of sampling wi_world from dir_fix
    float pdf_rev_w = 0.0f;  // pdf of sampling dir_fix from wi_world
};

}  // namespace wf
