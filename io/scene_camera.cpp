#include "io/scene_camera.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace wf::scene_json {
namespace {

// An up vector closer than this (sine of the angle) to the view direction cannot orient the camera.
constexpr float kMinUpSine = 1e-4f;

// The float field of view (degrees) must give the camera a tangent T = tan(fov / 2) with
// 2^-19 <= T < inf. 179.999999 degrees is 180 as a float, whose angle in radians rounds
// above pi, so T = tan(pi/2 + a little) is negative: the image comes out rotated by 180
// degrees (the largest float below 180, 179.99998, still gives T > 0: accepted). At
// the small end, the pinhole importance (h / 2T)^2 / cos^3 must stay finite with room to
// spare for any film height h <= 2^14: T >= 2^-19 keeps (h / 2T)^2 <= 2^64.
constexpr float kMinTanHalfFov = 0x1p-19f;

bool fov_is_usable(float degrees) {
    CameraDesc probe;  // the exact arithmetic of CameraDesc::build and Camera::look
    probe.fov_y_degrees = degrees;
    float t = probe.build(1, 1).tan_half_fov_y;
    return t >= kMinTanHalfFov && std::isfinite(t);
}

struct FovRange {
    float lo, hi;
};

// The usable floats form one interval (T grows with the angle up to pi/2); its ends are
// found by bisection over the float bit patterns of (0, 180).
FovRange usable_fov_range() {
    static const FovRange range = [] {
        auto bits = [](float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; };
        auto value = [](uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; };
        uint32_t inside = bits(45.0f);
        // Largest usable: usable at lo, not at hi.
        uint32_t lo = inside, hi = bits(180.0f);
        while (hi - lo > 1) { uint32_t mid = lo + (hi - lo) / 2; (fov_is_usable(value(mid)) ? lo : hi) = mid; }
        float largest = value(lo);
        // Smallest usable: not usable at lo, usable at hi.
        lo = 0, hi = inside;
        while (hi - lo > 1) { uint32_t mid = lo + (hi - lo) / 2; (fov_is_usable(value(mid)) ? hi : lo) = mid; }
        return FovRange{value(hi), largest};
    }();
    return range;
}

// "projection": "orthographic" with the view's "height" (scene units); then neither a
// field of view nor a lens. Returns whether the camera is orthographic.
bool read_orthographic_projection(const Reader& r, const Node& n, CameraDesc& cam) {
    auto projection = r.member(n, "projection");
    const bool orthographic = projection && r.choice(*projection, {"perspective", "orthographic"}) == "orthographic";
    auto height = r.member(n, "height");
    if (!orthographic) {
        if (height) r.fail(height->pointer, "\"height\" only with \"projection\": \"orthographic\"", describe(**height));
        return false;
    }
    for (const char* key : {"fov", "aperture_radius", "focus_distance"})
        if (auto extra = r.member(n, key))
            r.fail(extra->pointer, "no \"" + std::string(key) + "\" on an orthographic camera (its \"height\" sets the view)",
                   describe(**extra));
    const Node h = r.required(n, "height", "an orthographic camera");
    cam.ortho_height = r.real(h, Interval{0.0, kMaxCoordinate, true, false});
    // Rays start at position + offsets up to the height: an offset below the float spacing
    // of the position's coordinates (~2^-23 of them) would collapse the view to one ray.
    const double least = std::max(kMinSphereRadius, kMinSphereRadiusRelative * double(max_component(abs(cam.position))));
    if (cam.ortho_height < least)
        r.fail(h, Interval{least, kMaxCoordinate}.describe() + " (2^-20 of the camera position's largest coordinate: a "
                  "smaller view is below float resolution there)");
    return true;
}

}  // namespace

void read_camera(const Reader& r, const Node& n, CameraDesc& cam) {
    r.expect_object(n, "camera");
    r.check_keys(n, {"position", "look_at", "forward", "up", "fov", "aperture_radius", "focus_distance", "projection",
                     "height"},
                 "camera");
    if (auto p = r.member(n, "position")) cam.position = r.point(*p);
    auto look_at = r.member(n, "look_at");
    auto forward = r.member(n, "forward");
    float default_focus = 1.0f;
    if (look_at && forward)
        r.fail(forward->pointer, "either \"look_at\" or \"forward\", not both", "both");
    if (look_at) {
        Vec3f d = r.point(*look_at) - cam.position;
        if (!(max_component(abs(d)) > 0.0f) || !is_finite(normalize(rescaled_if_tiny(d))))
            r.fail(*look_at, "a point away from the camera position");
        cam.forward = rescaled_if_tiny(d);  // a tiny d squared would underflow
        default_focus = float(std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z));
    } else if (forward) {
        cam.forward = r.direction(*forward);
    }
    auto up = r.member(n, "up");
    if (up) cam.up = r.direction(*up);
    if (length(cross(normalize(cam.up), normalize(cam.forward))) < kMinUpSine) {
        if (up) r.fail(*up, "an up vector not parallel to the view direction");
        r.fail(n.pointer, "\"up\" (the default [0, 1, 0] is parallel to the view direction)", "none");
    }
    if (read_orthographic_projection(r, n, cam)) return;
    if (auto fov = r.member(n, "fov")) {
        cam.fov_y_degrees = r.real(*fov, Interval{0.0, 180.0, true, true});
        FovRange ok = usable_fov_range();
        if (!(cam.fov_y_degrees >= ok.lo && cam.fov_y_degrees <= ok.hi))
            r.fail(*fov, Interval{ok.lo, ok.hi}.describe() + " (as a float; outside it the camera's tan(fov / 2) " +
                   "is negative, 0 or too small: " + "an image upside down or an unbounded importance)");
    }
    cam.aperture_radius = r.real_or(n, "aperture_radius", 0.0f, Interval{0.0, kMaxCoordinate});
    cam.focus_distance = r.real_or(n, "focus_distance", default_focus, Interval{0.0, kMaxCoordinate, true, false});
}

}  // namespace wf::scene_json
