// Irradiance from a Lambertian polygon in closed form, for tests of area lights
// (tests/materials/emitters_test.cpp, the textured emitters of
// tests/materials/emissive_texture_test.cpp and tests/wavefront/gltf_emissive_texture_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/math.h"

namespace wf::test {

// Irradiance at x (normal n) from a Lambertian polygon of radiance L wholly above x's
// horizon (Lambert's formula: half the sum of edge angles times the edge normals' cosines).
// Either winding: the sum's sign is dropped.
inline double polygon_irradiance(const std::vector<Vec3f>& poly, Vec3f x, Vec3f n, double L) {
    double sum = 0;
    for (size_t i = 0; i < poly.size(); ++i) {
        Vec3f a = normalize(poly[i] - x), b = normalize(poly[(i + 1) % poly.size()] - x);
        double theta = std::acos(std::clamp(double(dot(a, b)), -1.0, 1.0));
        sum += theta * dot(n, normalize(cross(a, b)));
    }
    return 0.5 * L * std::fabs(sum);
}

}  // namespace wf::test
