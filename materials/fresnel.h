// Smooth-interface optics shared by every BSDF: exact dielectric Fresnel reflectance,
// refraction and mirror reflection of directions in a local frame (normal = +z).
#pragma once

#include <cmath>

#include "engine/hd.h"
#include "engine/math.h"

namespace wf {

// Unpolarised Fresnel reflectance of a smooth dielectric (exact, not Schlick).
// cos_inc: cosine between the incident direction and the normal; negative means the
// direction is inside the medium (the normal points to the IOR-1 side). ior < 0: returns 1
// (SmallVCM's "mirror without Fresnel"). Total internal reflection returns 1.
WF_HD_INLINE float fresnel_dielectric(float cos_inc, float ior) {
    if (ior < 0.0f) return 1.0f;
    float eta = 1.0f / ior;  // eta_incident / eta_transmitted
    if (cos_inc < 0.0f) {
        cos_inc = -cos_inc;
        eta = ior;
    }
    float sin_t2 = eta * eta * (1.0f - cos_inc * cos_inc);
    if (sin_t2 >= 1.0f) return 1.0f;
    float cos_t = sqrtf(fmaxf(0.0f, 1.0f - sin_t2));
    float r_par = (cos_inc - eta * cos_t) / (cos_inc + eta * cos_t);
    float r_perp = (eta * cos_inc - cos_t) / (eta * cos_inc + cos_t);
    return 0.5f * (r_par * r_par + r_perp * r_perp);
}

// Refraction of a local direction `w` (pointing away from the surface, on the incident
// side, either hemisphere) through the plane z = 0. eta = eta_incident / eta_transmitted.
// Returns false under total internal reflection.
WF_HD_INLINE bool refract_local(Vec3f w, float eta, Vec3f* transmitted) {
    float cos_i = fabsf(w.z);
    float sin_t2 = eta * eta * (1.0f - cos_i * cos_i);
    if (sin_t2 >= 1.0f) return false;
    float cos_t = sqrtf(fmaxf(0.0f, 1.0f - sin_t2));
    *transmitted = {-eta * w.x, -eta * w.y, w.z > 0.0f ? -cos_t : cos_t};
    return true;
}

// Mirror of a local direction about the normal (+z).
WF_HD_INLINE Vec3f reflect_local(Vec3f w) { return {-w.x, -w.y, w.z}; }

}  // namespace wf
