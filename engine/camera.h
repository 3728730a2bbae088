// Pinhole, thin-lens and orthographic camera. Raster (x, y) starts at the top-left pixel
// corner, y grows downward. fov_y is the full vertical field of view in radians; the
// horizontal extent follows the aspect ratio (SmallVCM's 45 degree "horizontal"
// fov is the same number for its square images). An orthographic camera sends every
// ray along `forward` from a point of the rectangle of half-height ortho_half_height
// (and half-width that times the aspect ratio) centred on `position`.
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
    float ortho_half_height = 0.0f;  // > 0: orthographic, in scene units (fov and lens unused)
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

    WF_HD bool is_orthographic() const { return ortho_half_height > 0.0f; }

    // Primary ray through raster point (rx, ry); lens_u/lens_v sample the aperture.
    WF_HD Ray generate_ray(float rx, float ry, float lens_u, float lens_v) const {
        const float sx = 2.0f * rx / float(width) - 1.0f, sy = 1.0f - 2.0f * ry / float(height);  // [-1, 1], y up
        if (is_orthographic())
            return {position + right * (sx * ortho_half_height * aspect) + up * (sy * ortho_half_height), forward};
        float ndc_x = sx * tan_half_fov_y * aspect;
        float ndc_y = sy * tan_half_fov_y;
        Vec3f dir = normalize(forward + right * ndc_x + up * ndc_y);
        if (aperture_radius <= 0.0f) return {position, dir};
        // Thin lens: every ray through the lens converges on the focus plane point.
        Vec3f focus_point = position + dir * (focus_distance / dot(dir, forward));
        float r = aperture_radius * std::sqrt(lens_u);
        float phi = 2.0f * kPi * lens_v;
        Vec3f lens_point = position + right * (r * std::cos(phi)) + up * (r * std::sin(phi));
        return {lens_point, normalize(focus_point - lens_point)};
    }

    // ---- What light tracing needs (pinhole cameras) -------------------------------------
    // The bidirectional integrators connect light vertices to the camera; they need the
    // projection, the pdf and the importance of a pinhole. (An orthographic camera sees
    // one direction only, a delta distribution no light vertex can connect to: bpt and
    // vcm drop that technique, wavefront/vcm_context.h; lt refuses it.) Pixels are square: the image
    // plane placed image_plane_distance() pixels from the eye has pixels of area 1, so
    // sampling a point uniformly in a pixel has density 1 there (SmallVCM's convention).

    WF_HD bool is_pinhole() const { return !(aperture_radius > 0.0f); }

    // Distance from the eye to the image plane, in pixels.
    WF_HD float image_plane_distance() const { return 0.5f * float(height) / tan_half_fov_y; }

    // Raster position (x right, y down, in pixels; the inverse of generate_ray for a
    // pinhole) of world point p. False when p is not strictly in front of the eye.
    // The point may still fall outside the film (see FilmView::pixel_at).
    WF_HD bool world_to_raster(Vec3f p, float* x, float* y) const {
        Vec3f d = p - position;
        float z = dot(d, forward);
        if (!(z > 0.0f)) return false;
        float ndc_x = dot(d, right) / z;
        float ndc_y = dot(d, up) / z;
        *x = (ndc_x / (tan_half_fov_y * aspect) + 1.0f) * 0.5f * float(width);
        *y = (1.0f - ndc_y / tan_half_fov_y) * 0.5f * float(height);
        return true;
    }

    // Solid-angle density with which generate_ray (pinhole) produces the unit direction
    // `dir` when the raster point is uniform over one pixel: the image-plane-area to
    // solid-angle factor d^2 / cos^3, d the image-plane distance, cos = dot(dir, forward).
    // It is also the camera's importance W_e(dir) per unit pixel area, and 0 behind the eye.
    WF_HD float pdf_direction_per_pixel(Vec3f dir) const {
        float cos_theta = dot(dir, forward);
        if (!(cos_theta > 0.0f)) return 0.0f;
        float dist = image_plane_distance() / cos_theta;
        return dist * dist / cos_theta;
    }
};

}  // namespace wf
