// Writes a render's statistics (--stats) as JSON and prints the stage table.
#pragma once

#include <ostream>
#include <string>

#include "app/render.h"

namespace wf {

std::string render_stats_json(const RenderResult& result, const RenderSettings& settings, const std::string& scene);
void print_stage_table(std::ostream& out, const RenderResult& result);

}  // namespace wf
