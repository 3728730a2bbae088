// The integrator registry: the one place that maps an integrator of the table in
// engine/integrators.h to the class that implements it. Included by the backend
// translation units (app/render_cpu.cpp, app/render_cuda.cu).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "engine/integrators.h"
#include "wavefront/integrator.h"
#include "wavefront/integrators/pt.h"
#include "wavefront/integrators/vcm.h"

namespace wf {

template <class Backend>
std::unique_ptr<Integrator<Backend>> make_integrator(const RenderResources<Backend>& res) {
    const IntegratorInfo* info = find_integrator(res.settings.integrator);
    if (!info)
        throw std::invalid_argument("unknown integrator '" + res.settings.integrator + "' (expected one of " +
                                    integrator_name_list() + ")");
    switch (info->kind) {
        case IntegratorKind::Pt: return std::make_unique<PathTracer<Backend>>(res);
        case IntegratorKind::Lt:
        case IntegratorKind::Bpt:
        case IntegratorKind::Ppm:
        case IntegratorKind::Bpm:
        case IntegratorKind::Vcm: return std::make_unique<VertexConnectionMerging<Backend>>(res, info->kind);
    }
    throw std::invalid_argument("integrator '" + res.settings.integrator + "' has no implementation");
}

}  // namespace wf
