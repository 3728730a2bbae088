// The closest hit of the ray a path traced this bounce, as scratch fields of the path
// records (camera_path.h, light_path.h): intersect_closest writes them before any stage
// reads them, so paths that move between slots (compact_moving_paths.h) leave them
// (WF_DECLARE_SOA_WITH_SCRATCH, engine/soa.h).
#pragma once

// X(type, name, comment)
#define WF_PATH_HIT_FIELDS(X)                                                                      \
    X(float, hit_t, "closest-hit distance along ray_dir")                                          \
    X(uint32_t, hit_prim, "closest-hit primitive id")                                              \
    X(float, hit_u, "closest-hit barycentric u (triangles)")                                       \
    X(float, hit_v, "closest-hit barycentric v (triangles)")
