// Entry points of the two backend translation units (render_cpu.cpp, render_cuda.cu).
#pragma once

#include "app/render.h"

namespace wf {

RenderResult render_on_cpu(const HostScene& scene, const RenderOptions& options);
#if defined(WF_HAVE_CUDA)
RenderResult render_on_cuda(const HostScene& scene, const RenderOptions& options);
#endif

}  // namespace wf
