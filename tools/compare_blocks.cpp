// compare_blocks TEST REFERENCE BLOCK [--reference-gamma G] [--json FILE]
//
// Compares two renders of one scene block by block (io/image_metrics.h
// compare_block_means): prints the per-channel means of both images and the blocks whose
// difference exceeds 4 standard errors. Exit 0 when the images agree (at most 1% of the
// block-channels beyond 4 sigma and every channel mean within 1%), 1 when not, 2 on bad input.
//
// --reference-gamma G: the reference comes from 8-bit codes floor(255.99 linear^(1/G))
// ("Ray Tracing in One Weekend" writes G = 2), not sRGB: a .png reference is decoded from
// them (decode_gamma_codes), and any reference (a linear thumbnail made from such a PNG by
// downsample_image, too) gets their half-code-step error bound.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/image.h"
#include "io/image_metrics.h"

int main(int argc, char** argv) {
    std::string json_path;
    double gamma = 0.0;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--json" && i + 1 < argc) json_path = argv[++i];
        else if (a == "--reference-gamma" && i + 1 < argc) gamma = std::atof(argv[++i]);
        else positional.push_back(a);
    }
    if (positional.size() != 3 || gamma < 0.0) {
        std::fprintf(stderr, "usage: compare_blocks TEST REFERENCE BLOCK [--reference-gamma G] [--json FILE]\n");
        return 2;
    }
    try {
        wf::Image test = wf::read_image(positional[0]);
        wf::Image ref = wf::read_image(positional[1]);
        const std::string& rp = positional[1];
        if (gamma > 0.0 && rp.size() > 4 && rp.compare(rp.size() - 4, 4, ".png") == 0)
            ref = wf::decode_gamma_codes(ref, gamma);
        const wf::BlockComparison c = wf::compare_block_means(test, ref, uint32_t(std::stoul(positional[2])), gamma);
        const wf::Vec3f mt = c.test_mean, mr = c.reference_mean;
        std::printf("means: test %.5f %.5f %.5f   reference %.5f %.5f %.5f   ratio %.4f %.4f %.4f\n", mt.x, mt.y,
                    mt.z, mr.x, mr.y, mr.z, mt.x / mr.x, mt.y / mr.y, mt.z / mr.z);
        std::printf("%ux%u blocks: rms z %.3f, max |z| %.2f, %.3f%% of block-channels beyond 4 sigma -> %s\n",
                    c.blocks_x, c.blocks_y, c.rms_z, c.max_abs_z, 100.0 * c.fraction_beyond,
                    c.agree ? "agree" : "DIFFER");
        nlohmann::json outliers = nlohmann::json::array();
        for (const auto& o : c.outliers) {
            outliers.push_back({{"block", {o.x, o.y}}, {"channel", o.channel}, {"test", o.test},
                                {"reference", o.reference}, {"z", o.z}});
            std::printf("  %s\n", outliers.back().dump().c_str());
        }
        if (!json_path.empty()) {
            nlohmann::json j = {{"test", positional[0]}, {"reference", positional[1]}, {"block", positional[2]},
                                {"test_mean", {mt.x, mt.y, mt.z}}, {"reference_mean", {mr.x, mr.y, mr.z}},
                                {"rms_z", c.rms_z}, {"max_abs_z", c.max_abs_z},
                                {"fraction_beyond_4_sigma", c.fraction_beyond}, {"agree", c.agree},
                                {"outliers", outliers}};
            std::ofstream(json_path) << j.dump(2) << "\n";
        }
        return c.agree ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "compare_blocks: %s\n", e.what());
        return 2;
    }
}
