// A large binary PLY loads without per-triangle allocations: ~1M triangles written to a
// temp folder and loaded through load_scene. The time is printed, not asserted (machines
// differ); the bar is a 10M-triangle file in seconds.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/scene_loader.h"
#include "tests/io/mesh_test_util.h"

namespace wf {
namespace {

// A (n + 1) x (n + 1) grid of vertices in z = 0, two triangles per cell, facing +z.
std::string write_grid_ply(const std::string& path, uint32_t n) {
    const uint32_t side = n + 1;
    std::ofstream f(path, std::ios::binary);
    f << "ply\nformat binary_little_endian 1.0\ncomment a grid for the load-time test\n"
      << "element vertex " << side * side << "\nproperty float x\nproperty float y\nproperty float z\n"
      << "element face " << 2 * n * n << "\nproperty list uchar int vertex_indices\nend_header\n";
    std::vector<char> row;
    for (uint32_t j = 0; j < side; ++j) {
        row.clear();
        for (uint32_t i = 0; i < side; ++i) {
            float p[3] = {float(i) / float(n), float(j) / float(n), 0.0f};
            row.insert(row.end(), reinterpret_cast<char*>(p), reinterpret_cast<char*>(p) + 12);
        }
        f.write(row.data(), std::streamsize(row.size()));
    }
    for (uint32_t j = 0; j < n; ++j) {
        row.clear();
        for (uint32_t i = 0; i < n; ++i) {
            int32_t a = int32_t(j * side + i), b = a + 1, c = a + int32_t(side) + 1, d = a + int32_t(side);
            const int32_t tris[2][3] = {{a, b, c}, {a, c, d}};
            for (const auto& tri : tris) {
                row.push_back(3);
                row.insert(row.end(), reinterpret_cast<const char*>(tri), reinterpret_cast<const char*>(tri) + 12);
            }
        }
        f.write(row.data(), std::streamsize(row.size()));
    }
    EXPECT_TRUE(bool(f));
    return path;
}

TEST(MeshLargePly, AMillionTrianglesLoad) {
    const uint32_t n = 708;  // 2 * 708^2 = 1,002,528 triangles
    std::string path = write_grid_ply(test::temp_folder("wf_mesh_large") + "/grid.ply", n);
    auto start = std::chrono::steady_clock::now();
    HostScene s = load_scene(path);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[ info ] loaded %zu triangles of binary PLY in %.3f s\n", s.triangles.size(), seconds);
    ASSERT_EQ(s.triangles.size(), size_t(2) * n * n);
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].positions.size(), size_t(n + 1) * (n + 1));
    Aabb box = s.bounds();
    test::expect_near(box.lo, Vec3f(0, 0, 0));
    test::expect_near(box.hi, Vec3f(1, 1, 0));
    test::expect_near(test::geometric_normal(s.triangles.back()), Vec3f(0, 0, 1));
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace wf
