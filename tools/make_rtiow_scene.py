#!/usr/bin/env python3
"""Writes scenes/rtiow/final.json: the final scene of "Ray Tracing in One Weekend" as the
CUDA renderer of Roger Allen's "Accelerated Ray Tracing in One Weekend in CUDA" (branch
ch12_where_next_cuda) builds it, from a dump of its 488 spheres (a JSON list of
{"center", "radius", "material": "lambertian"|"metal"|"dielectric", "albedo", "fuzz", "ior"}).

    python3 tools/make_rtiow_scene.py SPHERES.json > scenes/rtiow/final.json

Camera, sky, resolution, samples and depth are that renderer's (hard-coded in its main.cu).
"""
import json
import sys


def fmt(v):
    return json.dumps(v, separators=(", ", ": "))


def material_of(s):
    kind = s["material"]
    if kind == "lambertian":
        return {"type": "rtiow_lambertian", "albedo": s["albedo"]}
    if kind == "metal":
        return {"type": "rtiow_metal", "albedo": s["albedo"], "fuzz": min(s["fuzz"], 1.0)}
    if kind == "dielectric":
        return {"type": "rtiow_dielectric", "ior": s["ior"]}
    raise SystemExit(f"unknown material {kind!r}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    spheres = json.load(open(sys.argv[1]))
    names, materials, shapes = {}, [], []
    for s in spheres:
        m = material_of(s)
        key = fmt(m)
        if key not in names:
            names[key] = f"m{len(names)}"
            materials.append((names[key], m))
        shapes.append({"type": "sphere", "material": names[key], "center": s["center"], "radius": s["radius"]})
    head = {
        "description": "The final scene of \"Ray Tracing in One Weekend\" (2016 edition) as the CUDA renderer of "
                       "\"Accelerated Ray Tracing in One Weekend in CUDA\" (R. Allen, 2018) builds it: its 488 "
                       "spheres exactly (a ground sphere, 484 small ones, three large ones), the book's lambertian, "
                       "fuzzy metal and Schlick dielectric (rtiow_* materials), the sky gradient as the only light, "
                       "and its thin-lens camera. Written by tools/make_rtiow_scene.py.",
        "camera": {"position": [13, 2, 3], "look_at": [0, 0, 0], "up": [0, 1, 0], "fov": 30,
                   "aperture_radius": 0.05, "focus_distance": 10},
        "film": {"width": 1200, "height": 800},
        "render": {"spp": 10, "max_depth": 50, "seed": 0, "integrator": "pt"},
    }
    out = ["{"]
    for k, v in head.items():
        out.append(f"  {json.dumps(k)}: {fmt(v)},")
    out.append('  "lights": [')
    out.append('    {"type": "environment", "name": "sky: white at the nadir to (0.5, 0.7, 1) at the zenith", '
               '"zenith": [0.5, 0.7, 1.0], "nadir": [1, 1, 1], "up": [0, 1, 0]}')
    out.append("  ],")
    out.append('  "materials": {')
    out.append(",\n".join(f"    {json.dumps(n)}: {fmt(m)}" for n, m in materials))
    out.append("  },")
    out.append('  "shapes": [')
    out.append(",\n".join(f"    {fmt(s)}" for s in shapes))
    out.append("  ]")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
