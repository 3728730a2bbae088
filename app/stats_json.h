// Writes a render's statistics (--stats) as JSON and prints the stage table.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "app/render.h"

namespace wf {

// `image_write_seconds`: the time writing the image took, when the caller wrote one.
std::string render_stats_json(const RenderResult& result, const RenderSettings& settings, const std::string& scene,
                              std::optional<double> image_write_seconds = std::nullopt);
void print_stage_table(std::ostream& out, const RenderResult& result);

}  // namespace wf
