#include <gtest/gtest.h>

#include "app/cli_args.h"

namespace wf {

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
    EXPECT_NE(message({"render", "s.json", "--seed"}).find("missing value"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--time", "-1"}).find("--time"), std::string::npos);
    EXPECT_NE(message({"render", "s.json", "--time", "nan"}).find("--time"), std::string::npos);
    EXPECT_NE(message({"render"}).find("SCENE"), std::string::npos);
    EXPECT_NE(message({"paint"}).find("paint"), std::string::npos);
    EXPECT_NE(message({}).find("missing command"), std::string::npos);
}

}  // namespace wf
