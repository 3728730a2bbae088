// What the camera should see of a planar glTF test model, predicted independently of the
// renderer (see gltf_render_test.cpp's header comment): this file's own texture sampling
// with glTF's sampler semantics, a brute-force ray caster over the loaded triangles, and
// the comparison of a render with two predictions.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/scene.h"
#include "engine/scene_types.h"

namespace wf::test {

// ---- This file's own texture sampling (glTF 2.0 sampler semantics) -------------------------

inline double srgb_decode(uint8_t code) {
    const double e = code / 255.0;
    return e <= 0.04045 ? e / 12.92 : std::pow((e + 0.055) / 1.055, 2.4);
}

inline int wrap_index(int i, int n, TextureWrap mode) {
    if (mode == TextureWrap::ClampToEdge) return i < 0 ? 0 : i >= n ? n - 1 : i;
    if (mode == TextureWrap::MirroredRepeat) {
        int m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    return ((i % n) + n) % n;
}

struct Sampler {
    TextureWrap s = TextureWrap::Repeat, t = TextureWrap::Repeat;
};

// Bilinear, texel centres at (i + 0.5) / w, v down the image; colour decoded from sRGB.
inline Vec3f sample_rgb(const HostTextureImage& img, double u, double v, Sampler w) {
    const double x = u * img.width - 0.5, y = v * img.height - 0.5;
    const double fx = std::floor(x), fy = std::floor(y);
    const double ax = x - fx, ay = y - fy;
    double out[3] = {0, 0, 0};
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
            const int i = wrap_index(int(fx) + dx, int(img.width), w.s), j = wrap_index(int(fy) + dy, int(img.height), w.t);
            const double weight = (dx ? ax : 1 - ax) * (dy ? ay : 1 - ay);
            const uint8_t* texel = &img.rgba[(size_t(j) * img.width + size_t(i)) * 4];
            for (int c = 0; c < 3; ++c) out[c] += weight * srgb_decode(texel[c]);
        }
    return Vec3f(float(out[0]), float(out[1]), float(out[2]));
}

inline Sampler sampler_of(int wrap_s, int wrap_t) {
    auto mode = [](int m) {
        return m == 33071 ? TextureWrap::ClampToEdge : m == 33648 ? TextureWrap::MirroredRepeat : TextureWrap::Repeat;
    };
    return {mode(wrap_s), mode(wrap_t)};
}

inline const HostTextureImage& image_named(const HostScene& s, const std::string& part) {
    for (const HostTextureImage& img : s.texture_images)
        if (img.name.find(part) != std::string::npos) return img;
    ADD_FAILURE() << "no texture image named like " << part;
    return s.texture_images.at(0);
}

// ---- What the camera sees: the loaded triangles, ray-cast here --------------------------

struct Seen {
    int mesh = -1;  // index into HostScene::meshes; -1: nothing (the environment)
    uint32_t material = 0;
    Vec3f p{0.0f};
    Vec2f uv{0.0f, 0.0f};
};

class Caster {
public:
    explicit Caster(const HostScene& s) : s_(s) {
        for (size_t m = 0; m < s.meshes.size(); ++m)
            for (size_t t = 0; t < s.meshes[m].num_triangles(); ++t) owner_.push_back({int(m), t});
    }

    // The nearest surface along `r`; mesh -2 when a second mesh lies within 1e-4 of it
    // (coplanar surfaces: which one a renderer shows is not defined).
    Seen cast(const Ray& r) const {
        Seen best;
        double best_t = 1e30, second_t = 1e30;
        int second_mesh = -1;
        for (size_t k = 0; k < owner_.size(); ++k) {
            const IndexedMesh& m = s_.meshes[size_t(owner_[k].mesh)];
            const size_t t = owner_[k].triangle;
            const Vec3f a = m.positions[m.indices[3 * t]], b = m.positions[m.indices[3 * t + 1]],
                        c = m.positions[m.indices[3 * t + 2]];
            double tt, bu, bv;
            if (!intersect(r, a, b, c, &tt, &bu, &bv)) continue;
            if (tt < best_t) {
                if (best.mesh != owner_[k].mesh) { second_t = best_t; second_mesh = best.mesh; }
                best_t = tt;
                best.mesh = owner_[k].mesh;
                best.material = s_.prims[m.first_prim + t].material;
                best.p = r.origin + float(tt) * r.dir;
                if (!m.uvs.empty()) {
                    const Vec2f ua = m.uvs[m.indices[3 * t]], ub = m.uvs[m.indices[3 * t + 1]], uc = m.uvs[m.indices[3 * t + 2]];
                    const double w0 = 1 - bu - bv;
                    best.uv = Vec2f{float(w0 * ua.x + bu * ub.x + bv * uc.x), float(w0 * ua.y + bu * ub.y + bv * uc.y)};
                }
            } else if (tt < second_t && owner_[k].mesh != best.mesh) {
                second_t = tt;
                second_mesh = owner_[k].mesh;
            }
        }
        if (best.mesh >= 0 && second_mesh >= 0 && second_t - best_t < 1e-4 * (1 + best_t)) best.mesh = -2;
        return best;
    }

private:
    static bool intersect(const Ray& r, Vec3f a, Vec3f b, Vec3f c, double* t, double* u, double* v) {
        const double e1[3] = {double(b.x) - a.x, double(b.y) - a.y, double(b.z) - a.z};
        const double e2[3] = {double(c.x) - a.x, double(c.y) - a.y, double(c.z) - a.z};
        const double d[3] = {r.dir.x, r.dir.y, r.dir.z};
        const double p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
        const double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
        if (std::fabs(det) < 1e-14) return false;
        const double s[3] = {double(r.origin.x) - a.x, double(r.origin.y) - a.y, double(r.origin.z) - a.z};
        *u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
        if (*u < 0 || *u > 1) return false;
        const double q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
        *v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
        if (*v < 0 || *u + *v > 1) return false;
        *t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
        return *t > 1e-6;
    }

    struct Owner {
        int mesh;
        size_t triangle;
    };
    const HostScene& s_;
    std::vector<Owner> owner_;
};

// A pixel whose whole footprint sees one mesh (a 5 x 5 grid over it, its edges included),
// with the 4 x 4 interior points a prediction averages over.
struct PixelSeen {
    uint32_t x = 0, y = 0;
    int mesh = -1;
    std::array<Seen, 16> points;
};

inline std::vector<PixelSeen> pure_pixels(const HostScene& s, uint32_t width, uint32_t height) {
    const Camera cam = s.camera.build(width, height);
    const Caster caster(s);
    std::vector<PixelSeen> out;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            PixelSeen px;
            px.x = x;
            px.y = y;
            bool pure = true;
            int mesh = -3;
            for (int j = 0; j <= 4 && pure; ++j)
                for (int i = 0; i <= 4 && pure; ++i) {
                    const Seen seen = caster.cast(cam.generate_ray(float(x) + i / 4.0f, float(y) + j / 4.0f, 0.5f, 0.5f));
                    if (mesh == -3) mesh = seen.mesh;
                    pure = seen.mesh == mesh && seen.mesh >= 0;
                }
            if (!pure) continue;
            px.mesh = mesh;
            for (int j = 0; j < 4; ++j)
                for (int i = 0; i < 4; ++i)
                    px.points[size_t(4 * j + i)] =
                        caster.cast(cam.generate_ray(float(x) + (i + 0.5f) / 4.0f, float(y) + (j + 0.5f) / 4.0f, 0.5f, 0.5f));
            out.push_back(px);
        }
    return out;
}

inline Vec3f predicted(const PixelSeen& px, const std::function<Vec3f(const Seen&)>& colour) {
    Vec3f sum(0.0f);
    for (const Seen& s : px.points) sum += colour(s);
    return sum * (1.0f / 16.0f);
}

// The rendered colours of the pixels seen on `material` and, for each of `hypotheses`
// hypotheses h, the prediction of them from colour(h, point).
struct MaterialPixels {
    std::vector<Vec3f> rendered;
    std::vector<std::vector<Vec3f>> predicted;  // [h][i]: hypothesis h's value of rendered[i]
};

template <class Rendered>  // Rendered(x, y) -> Vec3f: the render's pixel
MaterialPixels material_pixels(const std::vector<PixelSeen>& pixels, uint32_t material, size_t hypotheses,
                               Rendered rendered, const std::function<Vec3f(size_t, const Seen&)>& colour) {
    MaterialPixels m;
    m.predicted.resize(hypotheses);
    for (const PixelSeen& px : pixels) {
        if (px.points[0].material != material) continue;
        m.rendered.push_back(rendered(px.x, px.y));
        for (size_t h = 0; h < hypotheses; ++h)
            m.predicted[h].push_back(predicted(px, [&](const Seen& s) { return colour(h, s); }));
    }
    return m;
}

// Share of the rendered values' variance that a fit r_c = k q_c + b_c to the prediction
// q leaves unexplained (one gain k, an offset per channel: the lighting scales the
// albedo, the specular layer adds to it): 0 a perfect match, 1 no relation. Each channel
// is centred on its own mean, so only the pattern counts, not the colour of the whole.
inline double unexplained(const std::vector<Vec3f>& rendered, const std::vector<Vec3f>& prediction) {
    double mean_r[3] = {0, 0, 0}, mean_q[3] = {0, 0, 0};
    const double n = double(rendered.size());
    for (size_t i = 0; i < rendered.size(); ++i)
        for (int c = 0; c < 3; ++c) mean_r[c] += rendered[i][c] / n, mean_q[c] += prediction[i][c] / n;
    double qq = 0, qr = 0, rr = 0;
    for (size_t i = 0; i < rendered.size(); ++i)
        for (int c = 0; c < 3; ++c) {
            const double q = prediction[i][c] - mean_q[c], r = rendered[i][c] - mean_r[c];
            qq += q * q, qr += q * r, rr += r * r;
        }
    if (!(rr > 0) || !(qq > 0)) return 1.0;
    return 1.0 - qr * qr / (qq * rr);
}

// Two predictions a and b of the same pixels (each fitted to the render as above), judged
// where they disagree: the pixels where the fitted values differ by more than 0.1 in some
// channel (an eighth of a white texel's radiance here). Returns the ratio of the squared
// residuals of a to those of b there: well below 1 when the render follows a.
struct Disagreement {
    double ratio = 1.0;
    size_t pixels = 0;
};

inline Disagreement disagreement(const std::vector<Vec3f>& rendered, const std::vector<Vec3f>& a, const std::vector<Vec3f>& b) {
    auto fit = [&](const std::vector<Vec3f>& q) {
        double mean_r[3] = {0, 0, 0}, mean_q[3] = {0, 0, 0};
        const double n = double(rendered.size());
        for (size_t i = 0; i < rendered.size(); ++i)
            for (int c = 0; c < 3; ++c) mean_r[c] += rendered[i][c] / n, mean_q[c] += q[i][c] / n;
        double qq = 0, qr = 0;
        for (size_t i = 0; i < rendered.size(); ++i)
            for (int c = 0; c < 3; ++c) {
                qq += (q[i][c] - mean_q[c]) * (q[i][c] - mean_q[c]);
                qr += (q[i][c] - mean_q[c]) * (rendered[i][c] - mean_r[c]);
            }
        const double k = qq > 0 ? qr / qq : 0.0;
        std::vector<Vec3f> fitted(q.size());
        for (size_t i = 0; i < q.size(); ++i)
            for (int c = 0; c < 3; ++c) fitted[i][c] = float(mean_r[c] + k * (q[i][c] - mean_q[c]));
        return fitted;
    };
    const std::vector<Vec3f> fa = fit(a), fb = fit(b);
    double ssa = 0, ssb = 0;
    Disagreement d;
    for (size_t i = 0; i < rendered.size(); ++i) {
        float gap = 0;
        for (int c = 0; c < 3; ++c) gap = std::max(gap, std::fabs(fa[i][c] - fb[i][c]));
        if (gap <= 0.1f) continue;
        ++d.pixels;
        for (int c = 0; c < 3; ++c) {
            ssa += (rendered[i][c] - fa[i][c]) * (rendered[i][c] - fa[i][c]);
            ssb += (rendered[i][c] - fb[i][c]) * (rendered[i][c] - fb[i][c]);
        }
    }
    d.ratio = ssb > 0 ? ssa / ssb : 1.0;
    return d;
}

}  // namespace wf::test
