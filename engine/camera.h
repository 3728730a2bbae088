// Pinhole and thin-lens camera. Raster (x, y) starts at the top-left pixel corner,
// y grows downward. fov_y is the full vertical field of view in radians; the
// horizontal extent follows the aspect ratio (SmallVCM's 45 degree "horizontal"
// fov is the same number for its square images).
#pragma once

#include "engine/math.h"

namespace wf {

struct Camera {
    Vec3f position{0.0f};
    Vec3f forward{0.0f, 0.0f, -1.0f};  // unit
    Vec3f right{1.0f, 0.0f, 0.0f};     // unit
    Vec3f up{0.0f, 1.0f, 0.0f};        // unit
    float tan_half_fov_y = 0.41421356f;
    float aspect = 1.0f;  // width / height
    float aperture_radius = 0.0f;  // thin lens; 0 = pinhole
    float focus_distance = 1.0f;   // along forward, in scene units
    uint32_t width = 1, height = 1;

    // Builds the frame from a look direction and an up hint (same convention as SmallVCM:
    // right = normalize(cross(up_hint, -forward)), up = cross(-forward, right)).
    static Camera look(Vec3f position, Vec3f forward, Vec3f up_hint, float fov_y_radians,
                       uint32_t width, uint32_t height) {
        Camera c;
        c.position = position;
        c.forward = normalize(forward);
        c.right = normalize(cross(up_hint, -c.forward));
        c.up = cross(-c.forward, c.right);
        c.tan_half_fov_y = std::tan(0.5f * fov_y_radians);
        c.width = width;
        c.height = height;
        c.aspect = float(width) / float(height);
        return c;
    }

    // Primary ray through raster point (rx, ry); lens_u/lens_v sample the aperture.
    WF_HD Ray generate_ray(float rx, float ry, float lens_u, float lens_v) const {
        float ndc_x = (2.0f * rx / float(width) - 1.0f) * tan_half_fov_y * aspect;
        float ndc_y = (1.0f - 2.0f * ry / float(height)) * tan_half_fov_y;
        Vec3f dir = normalize(forward + right * ndc_x + up * ndc_y);
        if (aperture_radius <= 0.0f) return {position, dir};
        // Thin lens: every ray through the lens converges on the focus plane point.
        Vec3f focus_point = position + dir * (focus_distance / dot(dir, forward));
        float r = aperture_radius * std::sqrt(lens_u);
        float phi = 2.0f * kPi * lens_v;
        Vec3f lens_point = position + right * (r * std::cos(phi)) + up * (r * std::sin(phi));
        return {lens_point, normalize(focus_point - lens_point)};
    }
};

}  // namespace wf
