// MIS weights of the bidirectional family (wavefront/vcm_mis.h), pure math.
//
// For random full paths x_0 (on a light) .. x_k (the camera), with random distances,
// cosines, BSDF pdfs in both directions, Russian-roulette probabilities, light pick
// and light pdfs, the sub-path quantities are built with camera_subpath_start /
// light_subpath_start / subpath_at_hit / subpath_after_scatter / subpath_after_specular
// exactly as the stages do (generate, generate_light, store_light_vertex,
// vcm_shade_surface, scatter, shade_light), and every technique's weight for the same
// full path is evaluated with the named weight functions, with the arguments the stages
// pass (vcm_shade_background / vcm_shade_surface, connect, connect_to_camera, merge).
//
// Independent reference (Georgiev, "Implementing Vertex Connection and Merging", and
// Veach's balance heuristic): technique s (s light vertices x_0..x_{s-1}, t = k + 1 - s
// camera vertices x_k..x_s) has the path pdf
//     p_s = n_s * P_L(s) * P_C(t)
// where P_L(s) is the product of the area pdfs of the light sub-path generating its s
// vertices (s = 1: next-event estimation picking x_0, pick * direct pdf; s >= 2: the
// emission pdf of (x_0, x_1), then the BSDF pdfs x RR along the path), P_C(t) the same
// for the camera sub-path (t = 1: the pinhole itself, pdf 1; t >= 2: the camera's
// per-pixel pdf of x_{k-1}, then BSDF pdfs x RR), and n_s = N_light for light tracing
// (t = 1) and 1 otherwise. Merging at x_j (light sub-path x_0..x_j, camera sub-path
// x_k..x_j) has p_VM,j = eta_VCM * P_L(j + 1) * P_C(k - j + 1), eta_VCM = pi r^2 N_light.
// Each weight must equal p_technique / sum over the integrator's techniques, so this
// tests every weight, not only their sum. All in double, independent of vcm_mis.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "wavefront/vcm_mis.h"

namespace wf {
namespace {

enum class LightKind { Area, Point, Directional, Environment };
enum class Mode { Vcm, Bpt, Bpm };

const char* mode_name(Mode m) { return m == Mode::Vcm ? "vcm" : m == Mode::Bpt ? "bpt" : "bpm"; }
const char* light_name(LightKind l) {
    switch (l) {
        case LightKind::Area: return "area";
        case LightKind::Point: return "point";
        case LightKind::Directional: return "directional";
        case LightKind::Environment: return "environment";
    }
    return "?";
}

bool is_delta(LightKind l) { return l == LightKind::Point || l == LightKind::Directional; }
bool is_finite(LightKind l) { return l == LightKind::Area || l == LightKind::Point; }

// A full path x_0 (light) .. x_k (camera). Per interior vertex i (1..k-1):
//   cos_l[i]: |cos| at x_i of the edge toward x_{i-1}, cos_c[i]: toward x_{i+1};
//   fwd[i]: solid-angle pdf at x_i of sampling x_{i+1} having come from x_{i-1} (light direction),
//   rev[i]: of sampling x_{i-1} having come from x_{i+1} (camera direction);
//   cont[i]: Russian-roulette continuation at x_i; specular[i]: a delta lobe (mirror-like:
//   fwd = rev and cos_l = cos_c, the tech report's convention for delta lobes).
// dist[i]: |x_i - x_{i+1}|, i = 0..k-1 (dist[0] unused at infinity).
struct RandomPath {
    int k = 0;
    LightKind light = LightKind::Area;
    double pick = 1, direct = 1, emission = 1, cos_light = 1;
    double camera_pdf_w = 1, light_paths = 1, radius = 1;
    std::vector<double> dist, cos_l, cos_c, fwd, rev, cont;
    std::vector<bool> specular;
};

struct Rng {
    std::mt19937_64 gen;
    explicit Rng(uint64_t seed) : gen(seed) {}
    double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(gen); }
    double log_uniform(double a, double b) { return std::exp(uniform(std::log(a), std::log(b))); }
    int integer(int a, int b) { return std::uniform_int_distribution<int>(a, b)(gen); }
    bool chance(double p) { return uniform(0, 1) < p; }
};

RandomPath random_path(Rng& rng, LightKind light, double specular_chance) {
    RandomPath p;
    p.k = rng.integer(2, 8);
    p.light = light;
    p.pick = 1.0 / rng.integer(1, 200);
    switch (light) {
        case LightKind::Area:
            p.direct = rng.log_uniform(0.1, 100.0);   // 1 / area
            p.emission = rng.log_uniform(0.01, 50.0); // position x direction pdf
            p.cos_light = rng.uniform(0.02, 1.0);
            break;
        case LightKind::Point:
            p.direct = 1.0;  // delta: the "area" pdf of choosing its only point
            p.emission = rng.log_uniform(0.01, 1.0);
            break;
        case LightKind::Directional:
            p.direct = 1.0;
            p.emission = rng.log_uniform(0.01, 1.0);  // the disc's 1 / (pi R^2)
            break;
        case LightKind::Environment:
            p.direct = rng.log_uniform(0.01, 1.0);  // per solid angle
            p.emission = rng.log_uniform(0.001, 1.0);
            break;
    }
    const int n = p.k + 1;
    p.dist.resize(n);
    p.cos_l.assign(n, 1.0);
    p.cos_c.assign(n, 1.0);
    p.fwd.assign(n, 1.0);
    p.rev.assign(n, 1.0);
    p.cont.assign(n, 1.0);
    p.specular.assign(n, false);
    for (int i = 0; i < p.k; ++i) p.dist[i] = rng.log_uniform(0.05, 5.0);
    for (int i = 1; i < p.k; ++i) {
        p.specular[i] = rng.chance(specular_chance);
        p.cont[i] = rng.chance(0.3) ? 1.0 : rng.uniform(0.2, 1.0);
        if (p.specular[i]) {
            p.fwd[i] = p.rev[i] = rng.log_uniform(0.5, 2.0);
            p.cos_l[i] = p.cos_c[i] = rng.uniform(0.02, 1.0);
        } else {
            p.fwd[i] = rng.log_uniform(0.02, 30.0);
            p.rev[i] = rng.log_uniform(0.02, 30.0);
            p.cos_l[i] = rng.uniform(0.02, 1.0);
            p.cos_c[i] = rng.uniform(0.02, 1.0);
        }
    }
    const double n_light[] = {1.0, 64.0, 16384.0, 262144.0};
    p.light_paths = n_light[rng.integer(0, 3)];
    p.camera_pdf_w = p.light_paths * rng.log_uniform(0.1, 10.0);  // keeps N_light / camera pdf near 1
    const double eta = rng.log_uniform(1e-3, 1e3);
    p.radius = std::sqrt(eta / (kPi * p.light_paths));
    return p;
}

// ---- The reference: technique pdfs from per-vertex area pdfs --------------------------------

// Area pdf (at x_{i+1}) of the light sub-path sampling x_{i+1} from x_i, i >= 1.
double light_step(const RandomPath& p, int i) {
    return p.fwd[i] * p.cont[i] * p.cos_l[i + 1] / (p.dist[i] * p.dist[i]);
}
// Area pdf (at x_{i-1}) of the camera sub-path sampling x_{i-1} from x_i, i <= k-1. x_0 at
// infinity is measured per solid angle (as the light's own pdfs are).
double camera_step(const RandomPath& p, int i) {
    if (i - 1 == 0 && !is_finite(p.light)) return p.rev[i] * p.cont[i];
    double cos_there = i - 1 == 0 ? p.cos_light : p.cos_c[i - 1];
    return p.rev[i] * p.cont[i] * cos_there / (p.dist[i - 1] * p.dist[i - 1]);
}

// P_L(s): the light sub-path generating x_0 .. x_{s-1}.
double light_pdf(const RandomPath& p, int s) {
    if (s == 0) return 1.0;
    if (s == 1) return p.pick * p.direct;  // next-event estimation
    double g = is_finite(p.light) ? p.cos_l[1] / (p.dist[0] * p.dist[0]) : p.cos_l[1];
    double pdf = p.pick * p.emission * g;  // emission of (x_0, x_1)
    for (int i = 1; i <= s - 2; ++i) pdf *= light_step(p, i);
    return pdf;
}

// P_C(t): the camera sub-path generating x_k .. x_{k-t+1}.
double camera_pdf(const RandomPath& p, int t) {
    if (t == 1) return 1.0;
    const int k = p.k;
    double pdf = p.camera_pdf_w * p.cos_c[k - 1] / (p.dist[k - 1] * p.dist[k - 1]);
    for (int i = k - 1; i >= k - t + 2; --i) pdf *= camera_step(p, i);
    return pdf;
}

struct Techniques {
    std::vector<double> connect;  // index s = 0..k (0: emitter hit, 1: NEE, k: light tracing); 0: not used
    std::vector<double> merge;    // index j = 1..k-1
};

bool camera_path_all_specular(const RandomPath& p) {
    for (int i = 1; i < p.k; ++i)
        if (!p.specular[i]) return false;
    return true;
}

Techniques reference_pdfs(const RandomPath& p, Mode mode) {
    const int k = p.k;
    Techniques t;
    t.connect.assign(k + 1, 0.0);
    t.merge.assign(k + 1, 0.0);
    const bool vc = mode != Mode::Bpm, vm = mode != Mode::Bpt;
    const double eta = kPi * p.radius * p.radius * p.light_paths;
    for (int s = 0; s <= k; ++s) {
        bool possible;
        if (s == 0) possible = !is_delta(p.light);
        else if (s == 1) possible = !p.specular[1];
        else if (s == k) possible = !p.specular[k - 1];
        else possible = !p.specular[s - 1] && !p.specular[s];
        // bpm: an emitter hit counts only on an all-specular camera path, where it is the
        // only technique (weight 1); no NEE, connections or light tracing.
        bool used = vc || (s == 0 && camera_path_all_specular(p));
        if (possible && used)
            t.connect[s] = (s == k ? p.light_paths : 1.0) * light_pdf(p, s) * camera_pdf(p, k + 1 - s);
    }
    if (vm)
        for (int j = 1; j < k; ++j)
            if (!p.specular[j]) t.merge[j] = eta * light_pdf(p, j + 1) * camera_pdf(p, k - j + 1);
    return t;
}

// ---- The integrator's evaluation, with vcm_mis.h -----------------------------------------

Techniques integrator_weights(const RandomPath& p, Mode mode) {
    const int k = p.k;
    const bool vc = mode != Mode::Bpm, vm = mode != Mode::Bpt;
    const VcmWeights w = VcmWeights::make(vc, vm, float(p.radius), float(p.light_paths));
    const float pick = float(p.pick);
    auto f = [](double x) { return float(x); };

    // Light sub-path (generate_light, store_light_vertex, shade_light): L[i] at x_i after the hit.
    std::vector<SubpathMis> L(k + 1), C(k + 1);
    SubpathMis m = light_subpath_start(pick * f(p.direct), pick * f(p.emission), f(p.cos_light),
                                       is_delta(p.light), is_finite(p.light), w);
    for (int i = 1; i < k; ++i) {
        bool apply_distance = i > 1 || is_finite(p.light);
        m = subpath_at_hit(m, f(p.dist[i - 1]), f(p.cos_l[i]), apply_distance);
        L[i] = m;
        if (p.specular[i]) m = subpath_after_specular(m, f(p.cos_c[i]));
        else m = subpath_after_scatter(m, f(p.cos_c[i]), f(p.fwd[i] * p.cont[i]), f(p.rev[i] * p.cont[i]), w);
    }
    // Camera sub-path (generate, vcm_shade_surface, scatter): C[i] at x_i after the hit; C[0] at
    // the light (area: after the hit; environment: the quantities after the last scattering).
    m = camera_subpath_start(f(p.light_paths), f(p.camera_pdf_w));
    for (int i = k - 1; i >= 1; --i) {
        m = subpath_at_hit(m, f(p.dist[i]), f(p.cos_c[i]), true);
        C[i] = m;
        if (p.specular[i]) m = subpath_after_specular(m, f(p.cos_l[i]));
        else m = subpath_after_scatter(m, f(p.cos_l[i]), f(p.rev[i] * p.cont[i]), f(p.fwd[i] * p.cont[i]), w);
    }
    C[0] = is_finite(p.light) ? subpath_at_hit(m, f(p.dist[0]), f(p.cos_light), true) : m;

    Techniques t;
    t.connect.assign(k + 1, 0.0);
    t.merge.assign(k + 1, 0.0);
    // s = 0: the camera path finds the emitter (vcm_emitter_weight).
    if (!is_delta(p.light)) {
        if (vm && !vc) t.connect[0] = camera_path_all_specular(p) ? 1.0 : 0.0;
        else t.connect[0] = mis_weight_emitter_hit(C[0], pick * f(p.direct), pick * f(p.emission));
    }
    if (vc) {
        // s = 1: next-event estimation from x_1 (connect_to_light_source).
        if (!p.specular[1]) {
            double direct_w = is_finite(p.light) ? p.direct * p.dist[0] * p.dist[0] / p.cos_light : p.direct;
            float bsdf_dir = is_delta(p.light) ? 0.0f : f(p.rev[1] * p.cont[1]);
            t.connect[1] = mis_weight_light_sample(C[1], bsdf_dir, f(p.fwd[1] * p.cont[1]), pick * f(direct_w),
                                                   pick * f(p.emission), f(p.cos_l[1]), f(p.cos_light), w);
        }
        // 2 <= s <= k-1: light vertex x_{s-1} to camera vertex x_s (connect_to_light_vertex).
        for (int s = 2; s < k; ++s) {
            if (p.specular[s - 1] || p.specular[s]) continue;
            const double d = p.dist[s - 1];
            float camera_dir_pdf_a = f(p.rev[s] * p.cont[s] * p.cos_c[s - 1] / (d * d));
            float light_dir_pdf_a = f(p.fwd[s - 1] * p.cont[s - 1] * p.cos_l[s] / (d * d));
            t.connect[s] = mis_weight_connection(C[s], L[s - 1], camera_dir_pdf_a, f(p.fwd[s] * p.cont[s]),
                                                 light_dir_pdf_a, f(p.rev[s - 1] * p.cont[s - 1]), w);
        }
        // s = k: light vertex x_{k-1} to the camera (connect_to_camera).
        if (!p.specular[k - 1]) {
            const double d = p.dist[k - 1];
            float camera_pdf_a = f(p.camera_pdf_w * p.cos_c[k - 1] / (d * d));
            t.connect[k] = mis_weight_camera_connection(L[k - 1], camera_pdf_a, f(p.rev[k - 1] * p.cont[k - 1]), w);
        }
    }
    if (vm)
        // Merging at x_j (merge): the camera BSDF toward the light vertex's predecessor.
        for (int j = 1; j < k; ++j)
            if (!p.specular[j])
                t.merge[j] = mis_weight_merge(C[j], L[j], f(p.rev[j] * p.cont[j]), f(p.fwd[j] * p.cont[j]), w);
    return t;
}

std::string describe(const RandomPath& p) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "k=%d light=%s pick=%g N=%g r=%g", p.k, light_name(p.light), p.pick,
                  p.light_paths, p.radius);
    std::string s = buf;
    s += " specular:";
    for (int i = 1; i < p.k; ++i) s += p.specular[i] ? "S" : "D";
    return s;
}

// Checks `count` random paths; each weight against p_technique / sum p, and the sum of the
// weights against 1. Returns the number of paths checked (some have no technique at all).
int check_random_paths(Mode mode, LightKind light, double specular_chance, int count, uint64_t seed) {
    Rng rng(seed);
    int checked = 0, reported = 0;
    for (int n = 0; n < count; ++n) {
        RandomPath p = random_path(rng, light, specular_chance);
        Techniques ref = reference_pdfs(p, mode);
        Techniques got = integrator_weights(p, mode);
        double total = 0;
        for (double x : ref.connect) total += x;
        for (double x : ref.merge) total += x;
        if (!(total > 0)) continue;  // no technique can sample this path (e.g. delta light, all specular)
        ++checked;
        double sum = 0;
        bool ok = true;
        std::string detail;
        auto check = [&](const char* what, int index, double weight, double pdf) {
            sum += weight;
            double expected = pdf / total;
            if (!(std::fabs(weight - expected) <= 1e-4 * expected + 1e-6)) {
                ok = false;
                char buf[160];
                std::snprintf(buf, sizeof buf, " %s[%d]: weight %.7g, expected %.7g;", what, index, weight, expected);
                detail += buf;
            }
        };
        for (int s = 0; s <= p.k; ++s) check("s", s, got.connect[s], ref.connect[s]);
        for (int j = 1; j < p.k; ++j) check("merge", j, got.merge[j], ref.merge[j]);
        if (!(std::fabs(sum - 1.0) <= 1e-4)) {
            ok = false;
            detail += " sum of weights " + std::to_string(sum);
        }
        if (!ok && reported++ < 5)
            ADD_FAILURE() << mode_name(mode) << ", path " << n << " (" << describe(p) << "):" << detail;
    }
    EXPECT_EQ(reported, 0) << mode_name(mode) << " " << light_name(light) << ": " << reported << " of " << checked
                           << " paths have wrong weights";
    return checked;
}

constexpr int kPaths = 20000;

TEST(VcmMis, VcmWeightsOfEveryTechniqueEqualPdfRatioAndSumToOne) {
    EXPECT_GT(check_random_paths(Mode::Vcm, LightKind::Area, 0.0, kPaths, 11), kPaths * 9 / 10);
}
TEST(VcmMis, BptWeightsOfEveryTechniqueEqualPdfRatioAndSumToOne) {
    EXPECT_GT(check_random_paths(Mode::Bpt, LightKind::Area, 0.0, kPaths, 12), kPaths * 9 / 10);
}
TEST(VcmMis, BpmMergeWeightsEqualPdfRatioAndSumToOne) {
    EXPECT_GT(check_random_paths(Mode::Bpm, LightKind::Area, 0.0, kPaths, 13), kPaths * 9 / 10);
}

// Point and directional lights: no emitter hit (dVC = 0 at the light); the environment:
// its first segment is per solid angle (no distance, cosine 1 at the light).
TEST(VcmMis, DeltaAndInfiniteLightsWeightsEqualPdfRatioAndSumToOne) {
    for (LightKind light : {LightKind::Point, LightKind::Directional, LightKind::Environment})
        for (Mode mode : {Mode::Vcm, Mode::Bpt, Mode::Bpm}) {
            SCOPED_TRACE(std::string(mode_name(mode)) + " " + light_name(light));
            EXPECT_GT(check_random_paths(mode, light, 0.0, kPaths / 4, 21 + int(light) * 3 + int(mode)), kPaths / 8);
        }
}

// Delta (mirror-like) vertices: techniques that would connect or merge there are impossible;
// the remaining weights still equal pdf ratios (the delta pdfs cancel) and sum to one.
TEST(VcmMis, SpecularVerticesLeaveWeightsEqualToPdfRatios) {
    for (LightKind light : {LightKind::Area, LightKind::Point, LightKind::Environment})
        for (Mode mode : {Mode::Vcm, Mode::Bpt, Mode::Bpm}) {
            SCOPED_TRACE(std::string(mode_name(mode)) + " " + light_name(light));
            EXPECT_GT(check_random_paths(mode, light, 0.35, kPaths / 4, 51 + int(light) * 3 + int(mode)), kPaths / 10);
        }
}

// A pass-through of glTF alpha is a delta vertex whose outgoing cosine is its arriving one.
// At a cut-out point the stages apply subpath_after_pass_through in place of the at-hit
// update; at a partly covered one (BLEND) subpath_at_hit, then subpath_after_specular with
// the arriving cosine (wavefront/stages/vcm_vertex.h). Both must give the same quantities.
TEST(VcmMis, PassThroughIsASpecularVertexWithItsArrivingCosine) {
    Rng rng(7);
    for (int n = 0; n < 1000; ++n) {
        const SubpathMis m{float(rng.log_uniform(1e-3, 1e3)), float(rng.log_uniform(1e-3, 1e3)),
                           float(rng.log_uniform(1e-3, 1e3))};
        const float distance = float(rng.log_uniform(0.05, 5.0)), cosine = float(rng.uniform(0.02, 1.0));
        const SubpathMis cut = subpath_after_pass_through(m);
        const SubpathMis blend = subpath_after_specular(subpath_at_hit(m, distance, cosine, true), cosine);
        EXPECT_EQ(cut.d_vcm, 0.0f);
        EXPECT_EQ(blend.d_vcm, 0.0f);
        EXPECT_NEAR(blend.d_vc, cut.d_vc, 1e-6f * cut.d_vc);
        EXPECT_NEAR(blend.d_vm, cut.d_vm, 1e-6f * cut.d_vm);
    }
}

// The check itself must fail on a wrong weight: dropping the pick probability from the
// emitter-hit weight (the mistake the issue names) is detected.
TEST(VcmMis, ReferenceDetectsEmitterHitWeightWithoutPickProbability) {
    Rng rng(99);
    int detected = 0, tried = 0;
    for (int n = 0; n < 2000; ++n) {
        RandomPath p = random_path(rng, LightKind::Area, 0.0);
        if (p.pick == 1.0) continue;
        ++tried;
        Techniques ref = reference_pdfs(p, Mode::Vcm);
        Techniques got = integrator_weights(p, Mode::Vcm);
        double total = 0;
        for (double x : ref.connect) total += x;
        for (double x : ref.merge) total += x;
        // The weight the stage would compute with the light-pick probability left out.
        SubpathMis c0;
        {
            // Recompute C[0] as integrator_weights does.
            const VcmWeights w = VcmWeights::make(true, true, float(p.radius), float(p.light_paths));
            SubpathMis m = camera_subpath_start(float(p.light_paths), float(p.camera_pdf_w));
            for (int i = p.k - 1; i >= 1; --i) {
                m = subpath_at_hit(m, float(p.dist[i]), float(p.cos_c[i]), true);
                m = subpath_after_scatter(m, float(p.cos_l[i]), float(p.rev[i] * p.cont[i]),
                                          float(p.fwd[i] * p.cont[i]), w);
            }
            c0 = subpath_at_hit(m, float(p.dist[0]), float(p.cos_light), true);
        }
        double wrong = mis_weight_emitter_hit(c0, float(p.direct), float(p.emission));
        double right = got.connect[0];
        if (std::fabs(wrong - ref.connect[0] / total) > 1e-4 * ref.connect[0] / total + 1e-6) ++detected;
        EXPECT_NEAR(right, ref.connect[0] / total, 1e-4 * ref.connect[0] / total + 1e-6);
    }
    // All but the paths whose emitter-hit weight is below the absolute tolerance (1e-6).
    EXPECT_GT(detected, tried * 9 / 10) << detected << " of " << tried;
}

// ---- Merging radius ------------------------------------------------------------------------

TEST(MergeRadius, FollowsSmallVcmScheduleR0OverIPlusOneToTheOneMinusAlphaOverTwo) {
    const float r0 = 0.003f * 2.2170597f;
    struct Case { uint32_t iteration; double expected; };
    for (Case c : {Case{9, 0.0049877}, Case{99, 0.0037402}, Case{999, 0.0028048}}) {
        double r = merge_radius(r0, 0.75f, c.iteration);
        EXPECT_NEAR(r, c.expected, 1e-4 * c.expected) << "iteration " << c.iteration;
    }
    EXPECT_FLOAT_EQ(merge_radius(r0, 0.75f, 0), r0);  // the first iteration uses r0
    // The formula itself, for other alphas (alpha = 1: constant radius).
    for (float alpha : {0.5f, 0.75f, 1.0f})
        for (uint32_t i : {0u, 1u, 7u, 123u, 100000u}) {
            double expected = double(r0) / std::pow(double(i) + 1.0, 0.5 * (1.0 - alpha));
            EXPECT_NEAR(merge_radius(r0, alpha, i), expected, 1e-5 * expected) << "alpha " << alpha << " i " << i;
        }
}

TEST(MergeRadius, IsClampedAtOneTenMillionth) {
    EXPECT_FLOAT_EQ(merge_radius(1e-9f, 0.75f, 0), 1e-7f);
    EXPECT_FLOAT_EQ(merge_radius(0.0f, 0.75f, 5), 1e-7f);
    // 2e-7 / (2^32)^(1/8) = 2e-7 / 16 is below the clamp.
    EXPECT_FLOAT_EQ(merge_radius(2e-7f, 0.75f, 0xffffffffu), 1e-7f);
    // Just above the clamp it is not clamped.
    EXPECT_NEAR(merge_radius(2e-7f, 0.75f, 0), 2e-7f, 1e-12f);
}

}  // namespace
}  // namespace wf
