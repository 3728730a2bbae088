#include "app/cli_args.h"

#include <cerrno>
#include <cstdlib>

#include "engine/integrators.h"

namespace wf {

const char* cli_usage() {
    return "usage:\n"
           "  wavefront render SCENE.json [-o OUT.png|.hdr|.exr] [--spp N] [--time SECONDS]\n"
           "                  [--width W] [--height H] [--max-depth D] [--seed S]\n"
           "                  [--integrator pt|lt|bpt|ppm|bpm|vcm] [--light-paths N]\n"
           "                  [--backend auto|cuda|cpu] [--stats FILE.json] [--quiet]\n"
           "  wavefront info       list the backends and devices this build can use\n"
           "  wavefront --help | --version\n"
           "Defaults come from the scene file; OUT defaults to out/<scene name>.png.\n"
           "--time renders passes until SECONDS are spent (without --spp: no pass limit).\n"
           "--spp is the number of iterations: one sample per pixel each, and for lt, bpt,\n"
           "ppm, bpm and vcm one light pass (N light paths; default one per pixel) each.\n"
           "Exit codes: 0 success, 1 rendering failed, 2 bad arguments or bad scene.\n";
}

namespace {

uint32_t parse_uint(const std::string& flag, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE || v > 0xffffffffull)
        throw UsageError(flag + ": expected a non-negative integer, got '" + text + "'");
    return uint32_t(v);
}

double parse_seconds(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v > 0.0) || !(v <= 1e7))
        throw UsageError(flag + ": expected a number of seconds in (0, 1e7], got '" + text + "'");
    return v;
}

}  // namespace

CliArgs parse_cli_args(const std::vector<std::string>& args) {
    CliArgs out;
    if (args.empty()) throw UsageError("missing command (try 'wavefront --help')");
    const std::string& cmd = args[0];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") { out.command = "help"; return out; }
    if (cmd == "--version") { out.command = "version"; return out; }
    if (cmd == "info") {
        if (args.size() > 1) throw UsageError("info: unexpected argument '" + args[1] + "'");
        out.command = "info";
        return out;
    }
    if (cmd != "render") throw UsageError("unknown command '" + cmd + "' (expected render or info)");
    out.command = "render";

    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw UsageError(a + ": missing value");
            return args[++i];
        };
        if (a == "-o" || a == "--output") out.output_path = value();
        else if (a == "--spp") out.spp = parse_uint(a, value());
        else if (a == "--width") out.width = parse_uint(a, value());
        else if (a == "--height") out.height = parse_uint(a, value());
        else if (a == "--max-depth") out.max_depth = parse_uint(a, value());
        else if (a == "--seed") out.seed = parse_uint(a, value());
        else if (a == "--integrator") out.integrator = value();
        else if (a == "--light-paths") out.light_paths = parse_uint(a, value());
        else if (a == "--time") out.time_seconds = parse_seconds(a, value());
        else if (a == "--stats") out.stats_path = value();
        else if (a == "--quiet" || a == "-q") out.quiet = true;
        else if (a == "--backend") {
            const std::string& b = value();
            if (b == "auto") out.backend = BackendKind::Auto;
            else if (b == "cuda" || b == "gpu") out.backend = BackendKind::Cuda;
            else if (b == "cpu") out.backend = BackendKind::Cpu;
            else throw UsageError("--backend: expected auto, cuda or cpu, got '" + b + "'");
        } else if (a == "-h" || a == "--help") {
            out.command = "help";
            return out;
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError("unknown option '" + a + "'");
        } else if (out.scene_path.empty()) {
            out.scene_path = a;
        } else {
            throw UsageError("unexpected argument '" + a + "' (only one scene file)");
        }
    }
    if (out.scene_path.empty()) throw UsageError("render: missing SCENE file");
    if (out.spp && *out.spp == 0) throw UsageError("--spp: expected at least 1");
    const std::string side = "expected 1.." + std::to_string(kMaxFilmSide);
    if (out.width && (*out.width == 0 || *out.width > kMaxFilmSide)) throw UsageError("--width: " + side);
    if (out.height && (*out.height == 0 || *out.height > kMaxFilmSide)) throw UsageError("--height: " + side);
    if (out.max_depth && (*out.max_depth == 0 || *out.max_depth > 1024))
        throw UsageError("--max-depth: expected 1..1024");
    if (out.integrator && !find_integrator(*out.integrator))
        throw UsageError("--integrator: expected one of " + integrator_name_list() + ", got '" + *out.integrator +
                         "'");
    if (out.light_paths && (*out.light_paths == 0 || *out.light_paths > kMaxFilmPixels))
        throw UsageError("--light-paths: expected 1.." + std::to_string(kMaxFilmPixels));
    return out;
}

}  // namespace wf
