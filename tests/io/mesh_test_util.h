// Shared helpers for the mesh tests: analytic quantities of triangle sets, temp files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/scene.h"

// Expects `text` (anything a std::string is made from) to contain `part`, showing both if not.
#define EXPECT_CONTAINS(text, part) \
    EXPECT_NE(std::string(text).find(part), std::string::npos) << "in: " << (text) << "\nexpected: " << (part)

namespace wf::test {

inline Vec3f geometric_normal(Vec3f a, Vec3f b, Vec3f c) { return normalize(cross(b - a, c - a)); }
inline Vec3f geometric_normal(const Triangle& t) { return geometric_normal(t.p0, t.p1, t.p2); }

// Signed volume enclosed by closed triangles (divergence theorem): positive when the
// geometric normals point outward.
inline double signed_volume(const std::vector<Triangle>& tris) {
    double v = 0;
    for (const Triangle& t : tris) v += double(dot(t.p0, cross(t.p1, t.p2))) / 6.0;
    return v;
}

inline std::vector<Triangle> triangles_of(const IndexedMesh& m) {
    std::vector<Triangle> out;
    for (size_t t = 0; t < m.num_triangles(); ++t)
        out.push_back({m.positions[m.indices[3 * t]], m.positions[m.indices[3 * t + 1]], m.positions[m.indices[3 * t + 2]]});
    return out;
}

inline void expect_near(Vec3f a, Vec3f b, float tol = 1e-5f) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

// A folder of its own under the test temp dir (ctest runs tests as parallel processes).
inline std::string temp_folder(const std::string& name) {
    std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / (name + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir.string();
}

inline std::string write_file(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    EXPECT_TRUE(bool(f)) << path;
    return path;
}

}  // namespace wf::test
