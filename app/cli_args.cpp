#include "app/cli_args.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "engine/integrators.h"
#include "io/image.h"
#include "io/scene_json.h"
#include "io/tonemap.h"

namespace wf {

namespace {

// Every option of `render`, for "did you mean" hints.
constexpr std::string_view kRenderOptions[] = {
    "-o",     "--output",      "--spp",  "--time",    "--width",      "--height",     "--max-depth", "--seed",
    "--integrator", "--light-paths", "--backend", "--stats", "--max-memory", "--threads", "--quiet", "-q", "--help",
    "-h", "--tonemap", "--exposure", "--env", "--camera", "--light-selection", "--aov", "--material-sort", "--bvh"};

// The largest --max-memory: 2^40 MiB (an exbibyte) keeps the byte count far from overflow.
constexpr uint64_t kMaxMemoryMib = uint64_t(1) << 40;

std::string build_usage() {
    std::string integrators;
    for (const IntegratorInfo& info : kIntegrators) {
        if (!integrators.empty()) integrators += '|';
        integrators += info.name;
    }
    std::string curves;
    for (const ToneCurveInfo& info : kToneCurves) {
        if (!curves.empty()) curves += '|';
        curves += info.name;
    }
    return "usage:\n"
           "  wavefront render SCENE [-o OUT.png|.hdr|.exr] [--spp N] [--time SECONDS]\n"
           "                  [--width W] [--height H] [--max-depth D] [--seed S]\n"
           "                  [--integrator " + integrators + "] [--light-paths N]\n"
           "                  [--backend auto|cuda|cpu] [--max-memory MiB] [--threads N]\n"
           "                  [--tonemap " + curves + "] [--exposure EV]\n"
           "                  [--env MAP.hdr|.exr] [--camera N] [--light-selection power|uniform]\n"
           "                  [--aov albedo,normal,depth] [--material-sort auto|on|off]\n"
           "                  [--bvh auto|fast|sah|cpu]\n"
           "                  [--stats FILE.json] [--quiet]\n"
           "  wavefront info       list the backends, the GPU code of this build and the devices\n"
           "  wavefront --help | --version\n"
           "SCENE: a scene file (.json) or a mesh file (.obj, .ply, .gltf, .glb). An OBJ or PLY file\n"
           "renders with a camera framing it, a neutral environment and a diffuse material; a glTF\n"
           "file with its own materials, textures, lights and first camera (--camera N picks\n"
           "another, from 0), framed and lit by a neutral environment where it has none. In a\n"
           ".json scene, --camera N picks a camera of the glTF files it includes (gltf shapes).\n"
           "Defaults come from the scene file; OUT defaults to out/<scene name>.png.\n"
           "--time renders passes until SECONDS are spent (without --spp: no pass limit).\n"
           "--spp is the number of iterations: one sample per pixel each, and for lt, bpt,\n"
           "ppm, bpm and vcm one light pass (N light paths; default one per pixel) each.\n"
           "--max-memory caps the backend's buffers (also WF_MAX_MEMORY_MIB); more is an error.\n"
           "--threads is the CPU backend's thread count (0, the default: all hardware threads),\n"
           "also used to load large meshes and to encode the image on either backend.\n"
           "--exposure scales the radiance by 2^EV (EV in [-32, 32], default 0), then --tonemap's\n"
           "curve maps it to the display (default: none, a clamp, for a .json scene; pbr-neutral\n"
           "for a .gltf or .glb file; the scene's render.tonemap and render.exposure when set).\n"
           "Both shape PNG output only: .hdr and .exr files hold the linear radiance.\n"
           "--env replaces the scene's environment light (or adds one) with an equirectangular map\n"
           "(intensity 1, no rotation, up +y; docs/scene-format.md).\n"
           "--light-selection picks the light of each light sample in proportion to its power\n"
           "(default) or uniformly (SmallVCM's choice; render.light_selection in a scene).\n"
           "--aov adds layers to an .exr output (OUT then defaults to out/<scene name>.exr): the\n"
           "albedo (albedo.R/G/B), shading normal facing the camera (normal.X/Y/Z) and ray distance\n"
           "(depth.Z) of the first surface each camera ray hits, averaged over the pixel's samples;\n"
           "0 where the ray leaves the scene (docs/aov.md). Not with lt, which traces no camera rays.\n"
           "--material-sort on makes pt sort each bounce's hits by material before shading (the\n"
           "same image; faster where materials take very different shading code, as glTF clear\n"
           "coats among plain materials: bench/NOTES.md); auto, the default, sorts where the scene\n"
           "has clear-coated glTF materials beside uncoated ones and nowhere else. pt only.\n"
           "--bvh picks the GPU's BVH builder: fast (H-PLOC, about 0.8 ms per million triangles\n"
           "on an H200), sah (binned SAH on the GPU, about 3.5 ms per million, a tree that traces\n"
           "up to 9% faster), cpu (the CPU builder, the reference) or auto, the default: sah\n"
           "where the render traces at least 64 paths per primitive (width x height x spp), else\n"
           "fast. The CPU backend always builds on the CPU. docs/bvh.md.\n"
           "Exit codes: 0 success, 1 rendering failed, 2 bad arguments or bad scene.\n";
}

uint32_t parse_uint(const std::string& flag, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE || v > 0xffffffffull)
        throw UsageError(flag + ": expected a non-negative integer, got '" + text + "'");
    return uint32_t(v);
}

static_assert(kMaxExposureStops == 32.0f, "the --exposure message and help say [-32, 32]");
float parse_exposure(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v >= -kMaxExposureStops && v <= kMaxExposureStops))
        throw UsageError(flag + ": expected a number of stops in [-32, 32], got '" + text + "'");
    return float(v);
}

double parse_seconds(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v > 0.0) || !(v <= 1e7))
        throw UsageError(flag + ": expected a number of seconds in (0, 1e7], got '" + text + "'");
    return v;
}

BackendKind parse_backend(const std::string& text) {
    if (text == "auto") return BackendKind::Auto;
    if (text == "cuda") return BackendKind::Cuda;
    if (text == "cpu") return BackendKind::Cpu;
    static constexpr std::string_view kNames[] = {"auto", "cuda", "cpu"};
    // "gpu" is one letter from "cpu": name the GPU backend rather than suggest the CPU.
    const std::string hint = text == "gpu" ? " (the GPU backend is 'cuda')" : scene_json::suggestion(text, kNames);
    throw UsageError("--backend: expected auto, cuda or cpu, got '" + text + "'" + hint);
}

// The same file as far as the file system can tell: same device and inode when both
// exist (hard links, symbolic links, "./a" and "a"), else the same absolute path.
bool same_file(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
    const fs::path pa = fs::weakly_canonical(fs::absolute(a, ec), ec);
    const fs::path pb = fs::weakly_canonical(fs::absolute(b, ec), ec);
    return pa == pb;
}

}  // namespace

const std::string& cli_usage() {
    static const std::string usage = build_usage();
    return usage;
}

MaterialSortMode parse_material_sort(const std::string& flag, const std::string& text) {
    if (text == "auto") return MaterialSortMode::Auto;
    if (text == "on") return MaterialSortMode::On;
    if (text == "off") return MaterialSortMode::Off;
    throw UsageError(flag + ": expected auto, on or off, got '" + text + "'");
}

BvhBuilderChoice parse_bvh_builder(const std::string& flag, const std::string& text) {
    if (text == "auto") return BvhBuilderChoice::kAuto;
    if (text == "fast") return BvhBuilderChoice::kFast;
    if (text == "sah") return BvhBuilderChoice::kSah;
    if (text == "cpu") return BvhBuilderChoice::kCpu;
    throw UsageError(flag + ": expected auto, fast, sah or cpu, got '" + text + "'");
}

AovSet parse_aov_list(const std::string& flag, const std::string& text) {
    AovSet set = 0;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string entry = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const AovInfo* info = find_aov(entry);
        if (!info)
            throw UsageError(flag + ": unknown AOV '" + entry + "' in '" + text + "' (expected a comma-separated list of " +
                             aov_name_list() + ")" + scene_json::suggestion(entry, kAovNames));
        set |= aov_bit(info->aov);
        if (comma == std::string::npos) return set;
        start = comma + 1;
    }
}

void check_aov_output(AovSet aovs, const std::string& output, const std::string& asked_by) {
    if (aovs && !is_exr_path(output))
        throw UsageError(asked_by + ": AOV layers need an OpenEXR output, but the output is '" + output +
                         "' (PNG and .hdr hold one RGB image); use -o OUT.exr");
}

uint64_t parse_max_memory_mib(const std::string& source, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE || v == 0 || v > kMaxMemoryMib)
        throw UsageError(source + ": expected a number of MiB in 1.." + std::to_string(kMaxMemoryMib) + ", got '" +
                         text + "'");
    return v;
}

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
    if (cmd != "render") {
        static constexpr std::string_view kCommands[] = {"render", "info", "help"};
        throw UsageError("unknown command '" + cmd + "' (expected render or info)" +
                         scene_json::suggestion(cmd, kCommands));
    }
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
        else if (a == "--env") {
            out.env_path = value();
            if (out.env_path.empty()) throw UsageError("--env: expected a .hdr or .exr file, got ''");
        }
        else if (a == "--max-memory") out.max_memory_mib = parse_max_memory_mib(a, value());
        else if (a == "--threads") out.threads = parse_uint(a, value());
        else if (a == "--camera") out.camera = parse_uint(a, value());
        else if (a == "--tonemap") out.tonemap = value();
        else if (a == "--exposure") out.exposure = parse_exposure(a, value());
        else if (a == "--light-selection") out.light_selection = value();
        else if (a == "--aov") out.aovs = parse_aov_list(a, value());
        else if (a == "--material-sort") out.material_sort = parse_material_sort(a, value());
        else if (a == "--bvh") out.bvh_builder = parse_bvh_builder(a, value());
        else if (a == "--quiet" || a == "-q") out.quiet = true;
        else if (a == "--backend") out.backend = parse_backend(value());
        else if (a == "-h" || a == "--help") {
            out.command = "help";
            return out;
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError("unknown option '" + a + "'" + scene_json::suggestion(a, kRenderOptions));
        } else if (out.scene_path.empty()) {
            out.scene_path = a;
        } else {
            throw UsageError("unexpected argument '" + a + "' (only one scene file)");
        }
    }
    if (out.scene_path.empty()) throw UsageError("render: missing SCENE file");
    if (out.spp && (*out.spp == 0 || *out.spp > kMaxSpp))
        throw UsageError("--spp: expected 1.." + std::to_string(kMaxSpp) + ", got " + std::to_string(*out.spp));
    const std::string side = "expected 1.." + std::to_string(kMaxFilmSide);
    if (out.width && (*out.width == 0 || *out.width > kMaxFilmSide)) throw UsageError("--width: " + side);
    if (out.height && (*out.height == 0 || *out.height > kMaxFilmSide)) throw UsageError("--height: " + side);
    if (out.max_depth && (*out.max_depth == 0 || *out.max_depth > kMaxPathDepth))
        throw UsageError("--max-depth: expected 1.." + std::to_string(kMaxPathDepth));
    if (out.integrator && !find_integrator(*out.integrator))
        throw UsageError("--integrator: expected one of " + integrator_name_list() + ", got '" + *out.integrator +
                         "'" + scene_json::suggestion(*out.integrator, kIntegratorNames));
    if (out.tonemap && !find_tone_curve(*out.tonemap))
        throw UsageError("--tonemap: expected one of " + tone_curve_name_list() + ", got '" + *out.tonemap + "'" +
                         scene_json::suggestion(*out.tonemap, kToneCurveNames));
    if (out.light_selection && *out.light_selection != "power" && *out.light_selection != "uniform")
        throw UsageError("--light-selection: expected power or uniform, got '" + *out.light_selection + "'" +
                         scene_json::suggestion(*out.light_selection, kLightSelectionNames));
    if (out.light_paths && (*out.light_paths == 0 || *out.light_paths > kMaxFilmPixels))
        throw UsageError("--light-paths: expected 1.." + std::to_string(kMaxFilmPixels));
    if (out.threads && *out.threads > kMaxCpuThreads)
        throw UsageError("--threads: expected 0.." + std::to_string(kMaxCpuThreads) +
                         " (0: all hardware threads), got " + std::to_string(*out.threads));
    return out;
}

void check_render_outputs(const std::vector<std::string>& inputs, const std::vector<RenderOutput>& outputs) {
    namespace fs = std::filesystem;
    for (size_t i = 0; i < outputs.size(); ++i) {
        const RenderOutput& out = outputs[i];
        const std::string named = out.flag + " '" + out.path + "'";
        for (const std::string& input : inputs)
            if (same_file(out.path, input))
                throw UsageError(named + " is the input file '" + input + "': writing it would destroy it");
        for (size_t j = 0; j < i; ++j)
            if (same_file(out.path, outputs[j].path))
                throw UsageError(named + " is also the output of " + outputs[j].flag + " '" + outputs[j].path + "'");
    }
    for (const RenderOutput& out : outputs) {
        const fs::path dir = fs::path(out.path).parent_path();
        std::error_code ec;
        if (!dir.empty()) fs::create_directories(dir, ec);
        if (ec) throw UsageError(out.flag + " '" + out.path + "': cannot create folder '" + dir.string() + "': " +
                                 ec.message());
        try {
            check_file_replaceable(out.path);
        } catch (const ImageError& e) {
            throw UsageError(out.flag + " " + e.what());
        }
    }
}

}  // namespace wf
