#!/usr/bin/env bash
# Regenerates tests/data/smallvcm/*_128.exr: SmallVCM's converged 512x512 renders
# averaged over 4x4 blocks (float EXR, so no RGBE rounding enters the tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${WF_SHARED_DIR:-$root/../shared}
tool=$root/build/bin/downsample_image
[ -x "$tool" ] || { echo "build first: cmake --build build --target downsample_image" >&2; exit 1; }
for name in s1_pt_i1000 s3_pt_i1000 s1_vcm_i1000 s3_vcm_i1000; do
  "$tool" "$shared/reference/smallvcm/$name.hdr" "$root/tests/data/smallvcm/${name}_128.exr" 4
done
