// What the bidirectional stages share about a sub-path vertex: its MIS quantities in
// the state records, and the BSDF of a stored light vertex.
#pragma once

#include "materials/bsdf.h"
#include "wavefront/scene_view.h"
#include "wavefront/stages/path_vertex.h"
#include "wavefront/state/light_vertex.h"
#include "wavefront/vcm_mis.h"

namespace wf {

template <class PathView>
WF_HD_INLINE SubpathMis load_mis(const PathView& p, uint32_t slot) {
    return SubpathMis{p.d_vcm[slot], p.d_vc[slot], p.d_vm[slot]};
}

template <class PathView>
WF_HD_INLINE void store_mis(const PathView& p, uint32_t slot, const SubpathMis& m) {
    p.d_vcm[slot] = m.d_vcm;
    p.d_vc[slot] = m.d_vc;
    p.d_vm[slot] = m.d_vm;
}

// The light vertex stored at `entry`, as the BSDF that scatters light there.
WF_HD_INLINE Bsdf light_vertex_bsdf(const SceneView& scene, const LightVertexView& lv, uint32_t entry) {
    return Bsdf::make(scene.materials[lv.material[entry]], -lv.dir_fix[entry], lv.normal[entry], false);
}

}  // namespace wf
