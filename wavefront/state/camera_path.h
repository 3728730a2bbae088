// Camera sub-path state, declared once (one SoA array per line, one element per
// path slot). Used by `pt` and by the camera pass of the bidirectional family.
#pragma once

#include <cstdint>

#include "engine/math.h"
#include "engine/soa.h"
#include "wavefront/state/path_hit.h"

// X(type, name, comment)
#define WF_CAMERA_PATH_FIELDS(X)                                                                   \
    X(wf::Vec3f, ray_origin, "origin of the ray to trace next (already offset off the surface)")   \
    X(wf::Vec3f, ray_dir, "unit direction of the ray to trace next")                               \
    X(wf::Vec3f, throughput, "path throughput: product of f*cos/pdf (and 1/RR) so far")            \
    X(wf::Vec3f, radiance, "radiance gathered by this path so far, in W/sr/m^2")                   \
    X(uint32_t, pixel, "pixel index y*width+x this path belongs to")                               \
    X(uint32_t, sample, "which sample (pass, iteration) of its pixel this path is")                \
    X(uint32_t, path_length, "segments traced so far; the camera ray is segment 1")                \
    X(float, last_pdf_w, "pt: solid-angle pdf (times RR) of the last BSDF sample, for MIS on hits")\
    X(uint8_t, last_specular, "1 when the last scattering was a delta lobe (or the camera)")       \
    X(uint8_t, alive, "1 when the path continues after this bounce; compact selects these")       \
    X(float, d_vcm, "bidirectional MIS: dVCM of Georgiev's recurrences (wavefront/vcm_mis.h)")     \
    X(float, d_vc, "bidirectional MIS: dVC")                                                        \
    X(float, d_vm, "bidirectional MIS: dVM")                                                        \
    X(uint8_t, specular_path, "1 while every scattering so far was specular (ppm, bpm)")

namespace wf {
WF_DECLARE_SOA_WITH_SCRATCH(CameraPath, WF_CAMERA_PATH_FIELDS, WF_PATH_HIT_FIELDS)
}  // namespace wf
