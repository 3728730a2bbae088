#!/usr/bin/env bash
# Regenerates tests/data/smallvcm/*_128.exr: SmallVCM's 512x512 renders averaged over
# 4x4 blocks (float EXR, so no RGBE rounding enters the tests): the converged
# 1000-iteration pt and vcm renders, and the 100-iteration lt, bpt, ppm and bpm renders of
# scene 1 (noisy: tests that use them count their noise in, as 1600 of our 128x128
# iterations).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${WF_SHARED_DIR:-$root/../shared}
tool=$root/build/bin/downsample_image
[ -x "$tool" ] || { echo "build first: cmake --build build --target downsample_image" >&2; exit 1; }
for name in s1_pt_i1000 s3_pt_i1000 s1_vcm_i1000 s3_vcm_i1000 s1_lt_i100 s1_bpt_i100 s1_ppm_i100 s1_bpm_i100; do
  "$tool" "$shared/reference/smallvcm/$name.hdr" "$root/tests/data/smallvcm/${name}_128.exr" 4
done
