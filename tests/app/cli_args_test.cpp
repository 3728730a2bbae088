#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/cli_args.h"
#include "engine/integrators.h"
#include "io/scene_loader.h"

namespace wf {
namespace {

std::string usage_error_of(const std::vector<std::string>& args) {
    try {
        parse_cli_args(args);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

std::string scene_error_of(const std::string& json) {
    try {
        parse_scene(json, "inline.json", ".");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "no error";
}

bool scene_loads(const std::string& json) {
    try {
        parse_scene(json, "inline.json", ".");
        return true;
    } catch (const SceneError&) {
        return false;
    }
}

}  // namespace

TEST(CliArgs, ParsesEveryRenderOption) {
    CliArgs a = parse_cli_args({"render", "s.json", "-o", "x.exr", "--spp", "8", "--width", "64", "--height", "32",
                                "--max-depth", "5", "--seed", "9", "--integrator", "pt", "--backend", "cpu",
                                "--stats", "st.json", "--quiet"});
    EXPECT_EQ(a.command, "render");
    EXPECT_EQ(a.scene_path, "s.json");
    EXPECT_EQ(a.output_path, "x.exr");
    EXPECT_EQ(*a.spp, 8u);
    EXPECT_EQ(*a.width, 64u);
    EXPECT_EQ(*a.height, 32u);
    EXPECT_EQ(*a.max_depth, 5u);
    EXPECT_EQ(*a.seed, 9u);
    EXPECT_EQ(a.backend, BackendKind::Cpu);
    EXPECT_EQ(a.stats_path, "st.json");
    EXPECT_TRUE(a.quiet);
    EXPECT_FALSE(a.material_sort);
    for (auto [text, mode] : {std::pair{"auto", MaterialSortMode::Auto}, std::pair{"on", MaterialSortMode::On},
                              std::pair{"off", MaterialSortMode::Off}})
        EXPECT_EQ(parse_cli_args({"render", "s.json", "--material-sort", text}).material_sort, mode) << text;
    EXPECT_EQ(a.bvh_builder, BvhBuilderChoice::kAuto);
    for (auto [text, choice] : {std::pair{"auto", BvhBuilderChoice::kAuto}, std::pair{"fast", BvhBuilderChoice::kFast},
                                std::pair{"sah", BvhBuilderChoice::kSah}, std::pair{"cpu", BvhBuilderChoice::kCpu}})
        EXPECT_EQ(parse_cli_args({"render", "s.json", "--bvh", text}).bvh_builder, choice) << text;
}

TEST(CliArgs, RejectsBadArgumentsWithTheirName) {
    auto message = [](std::vector<std::string> args) {
        try {
            parse_cli_args(args);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message({"render", "s.json", "--spp", "abc"}).find("--spp"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--spp", "-3"}).find("--spp"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--spp", "0"}).find("--spp"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--width", "100000"}).find("--width"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--backend", "tpu"}).find("--backend"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--integrator", "magic"}).find("--integrator"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--bogus"}).find("--bogus"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--material-sort", "yes"}).find("--material-sort: expected auto, on or off"),
              std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--bvh", "hploc"}).find("--bvh: expected auto, fast, sah or cpu, got 'hploc'"),
              std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--seed"}).find("missing value"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--time", "-1"}).find("--time"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--time", "nan"}).find("--time"), std::string::npos);
    EXPECT_NE(message({"render"}).find("SCENE"), std::string::npos);
    EXPECT_NE(message({"paint"}).find("paint"), std::string::npos);
    EXPECT_NE(message({}).find("missing command"), std::string::npos);
}

TEST(CliArgs, MistypedOptionGetsADidYouMeanHint) {
    EXPECT_NE(usage_error_of({"render", "s.json", "--sp", "4"}).find("did you mean \"--spp\"?"), std::string::npos);
    EXPECT_NE(usage_error_of({"render", "s.json", "--outptu", "a.png"}).find("did you mean \"--output\"?"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"render", "s.json", "--max-memroy", "4"}).find("did you mean \"--max-memory\"?"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"rendr", "s.json"}).find("did you mean \"render\"?"), std::string::npos);
    // Nothing close: no hint, but still the name of the option.
    const std::string far = usage_error_of({"render", "s.json", "--frobnicate"});
    EXPECT_NE(far.find("--frobnicate"), std::string::npos) << far;
    EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST(CliArgs, MistypedValuesGetAHint) {
    EXPECT_NE(usage_error_of({"render", "s.json", "--integrator", "vcmm"}).find("did you mean \"vcm\"?"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"render", "s.json", "--backend", "cdua"}).find("did you mean \"cuda\"?"),
              std::string::npos);
}

TEST(CliArgs, BackendGpuIsRefusedNamingCuda) {
    // One name per backend: "gpu" used to be accepted and then reported as "cuda".
    const std::string message = usage_error_of({"render", "s.json", "--backend", "gpu"});
    EXPECT_NE(message.find("--backend"), std::string::npos) << message;
    EXPECT_NE(message.find("'cuda'"), std::string::npos) << message;
    EXPECT_EQ(message.find("\"cpu\""), std::string::npos) << message;  // not "did you mean cpu"
    EXPECT_EQ(parse_cli_args({"render", "s.json", "--backend", "cuda"}).backend, BackendKind::Cuda);
    EXPECT_EQ(parse_cli_args({"render", "s.json", "--backend", "auto"}).backend, BackendKind::Auto);
}

TEST(CliArgs, UsageListsTheIntegratorsOfTheTable) {
    std::string expected;
    for (const IntegratorInfo& info : kIntegrators) expected += (expected.empty() ? "" : "|") + std::string(info.name);
    EXPECT_NE(cli_usage().find("--integrator " + expected + "]"), std::string::npos) << cli_usage();
    EXPECT_NE(cli_usage().find("--max-memory MiB"), std::string::npos) << cli_usage();
    for (const IntegratorInfo& info : kIntegrators)
        EXPECT_EQ(*parse_cli_args({"render", "s.json", "--integrator", std::string(info.name)}).integrator, info.name);
}

TEST(CliArgs, SppAndDepthLimitsAreTheSceneFormats) {
    const std::string most = std::to_string(kMaxSpp), over = std::to_string(kMaxSpp + 1);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--spp", most}).spp, kMaxSpp);
    EXPECT_NE(usage_error_of({"render", "s.json", "--spp", over}).find("--spp: expected 1.." + most),
              std::string::npos);
    EXPECT_TRUE(scene_loads(R"({"render": {"spp": )" + most + "}}"));
    EXPECT_FALSE(scene_loads(R"({"render": {"spp": )" + over + "}}"));

    const std::string deepest = std::to_string(kMaxPathDepth), deeper = std::to_string(kMaxPathDepth + 1);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--max-depth", deepest}).max_depth, kMaxPathDepth);
    EXPECT_NE(usage_error_of({"render", "s.json", "--max-depth", deeper}).find("--max-depth"), std::string::npos);
    EXPECT_TRUE(scene_loads(R"({"render": {"max_depth": )" + deepest + "}}"));
    EXPECT_FALSE(scene_loads(R"({"render": {"max_depth": )" + deeper + "}}"));
}

TEST(CliArgs, MaxMemoryIsAPositiveNumberOfMiB) {
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--max-memory", "64"}).max_memory_mib, 64u);
    EXPECT_FALSE(parse_cli_args({"render", "s.json"}).max_memory_mib.has_value());
    for (const char* bad : {"0", "-1", "abc", "1e3", "", "99999999999999999999"})
        EXPECT_NE(usage_error_of({"render", "s.json", "--max-memory", bad}).find("--max-memory"), std::string::npos)
            << bad;
    try {
        parse_max_memory_mib("WF_MAX_MEMORY_MIB", "lots");
        FAIL() << "a non-number was accepted";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("WF_MAX_MEMORY_MIB"), std::string::npos) << e.what();
    }
}

TEST(CliArgs, ThreadsIsACountUpTo4096WhereZeroMeansAll) {
    EXPECT_FALSE(parse_cli_args({"render", "s.json"}).threads.has_value());
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--threads", "3"}).threads, 3u);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--threads", "0"}).threads, 0u);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--threads", "4096"}).threads, kMaxCpuThreads);
    EXPECT_NE(usage_error_of({"render", "s.json", "--threads", "4097"})
                  .find("--threads: expected 0..4096 (0: all hardware threads), got 4097"),
              std::string::npos);
    for (const char* bad : {"-1", "-0", "abc", "2.5", "", "99999999999999999999"})
        EXPECT_NE(usage_error_of({"render", "s.json", "--threads", bad}).find("--threads: expected"), std::string::npos)
            << bad;
    EXPECT_NE(usage_error_of({"render", "s.json", "--threads"}).find("--threads: missing value"), std::string::npos);
    EXPECT_NE(usage_error_of({"render", "s.json", "--thread", "2"}).find("did you mean \"--threads\"?"),
              std::string::npos);
    EXPECT_NE(cli_usage().find("[--threads N]"), std::string::npos) << cli_usage();
    EXPECT_NE(cli_usage().find("also used to load large meshes and to encode the image on either backend"),
              std::string::npos)
        << cli_usage();
}

TEST(CliArgs, TonemapIsOneOfTheCurvesAndExposureAFiniteNumberOfStops) {
    const CliArgs none = parse_cli_args({"render", "s.json"});
    EXPECT_FALSE(none.tonemap.has_value());  // the scene decides
    EXPECT_FALSE(none.exposure.has_value());
    for (const char* name : {"none", "aces", "pbr-neutral", "agx"})
        EXPECT_EQ(*parse_cli_args({"render", "s.json", "--tonemap", name}).tonemap, name);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--exposure", "-1.5"}).exposure, -1.5f);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--exposure", "32"}).exposure, 32.0f);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--exposure", "-32"}).exposure, -32.0f);

    const std::string bad_name = usage_error_of({"render", "s.json", "--tonemap", "filmic"});
    EXPECT_NE(bad_name.find("--tonemap: expected one of none, aces, pbr-neutral, agx, got 'filmic'"),
              std::string::npos)
        << bad_name;
    EXPECT_NE(usage_error_of({"render", "s.json", "--tonemap", "pbr-netural"}).find("did you mean \"pbr-neutral\"?"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"render", "s.json", "--tonemap", "ACES"}).find("--tonemap"), std::string::npos);
    for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity", "32.001", "-33", "1e9", "abc", "", "1.5x"}) {
        const std::string e = usage_error_of({"render", "s.json", "--exposure", bad});
        EXPECT_NE(e.find("--exposure: expected a number of stops in [-32, 32], got '" + std::string(bad) + "'"),
                  std::string::npos)
            << bad << ": " << e;
    }
    EXPECT_NE(usage_error_of({"render", "s.json", "--exposure"}).find("--exposure: missing value"), std::string::npos);
    EXPECT_NE(usage_error_of({"render", "s.json", "--exposur", "1"}).find("did you mean \"--exposure\"?"),
              std::string::npos);
    EXPECT_NE(cli_usage().find("[--tonemap none|aces|pbr-neutral|agx] [--exposure EV]"), std::string::npos);
    EXPECT_NE(cli_usage().find(".hdr and .exr files hold the linear radiance"), std::string::npos);
}

TEST(CliArgs, AovListIsASetOfKnownNames) {
    EXPECT_FALSE(parse_cli_args({"render", "s.json"}).aovs);
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--aov", "depth"}).aovs, aov_bit(Aov::Depth));
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--aov", "normal,albedo,normal"}).aovs,
              aov_bit(Aov::Normal) | aov_bit(Aov::Albedo));
    EXPECT_EQ(*parse_cli_args({"render", "s.json", "--aov", "albedo,normal,depth"}).aovs, 7u);
    for (const char* bad : {"", "Albedo", "albedo,", ",depth", "albedo;depth", "z"})
        EXPECT_NE(usage_error_of({"render", "s.json", "--aov", bad}).find("--aov: unknown AOV"), std::string::npos)
            << bad;
    EXPECT_NE(usage_error_of({"render", "s.json", "--aov", "albedo,dpeth"}).find("'dpeth'"), std::string::npos);
    EXPECT_NE(cli_usage().find("[--aov albedo,normal,depth]"), std::string::npos);
    // render.aov: an array of the same names; the loader names the bad element.
    EXPECT_EQ(parse_scene(R"({"render": {"aov": ["depth", "normal"]}})", "inline.json", ".").settings.aovs,
              aov_bit(Aov::Depth) | aov_bit(Aov::Normal));
    EXPECT_EQ(parse_scene(R"({"render": {}})", "inline.json", ".").settings.aovs, 0u);
    EXPECT_NE(scene_error_of(R"({"render": {"aov": ["albedo", "dpeth"]}})").find("inline.json: /render/aov/1"),
              std::string::npos);
    EXPECT_NE(scene_error_of(R"({"render": {"aov": "albedo"}})").find("inline.json: /render/aov"), std::string::npos);
}

}  // namespace wf
