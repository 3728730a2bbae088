#!/usr/bin/env bash
# Equal-iteration noise comparison with SmallVCM: renders SmallVCM scene 1 at
# 512x512 with every algorithm for 100 iterations (SmallVCM's s1_*_i100 renders),
# for comparing the error against the converged reference off the device:
#   bash bench/noise_renders.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:-build}
out=${2:-out/noise}
mkdir -p "$out"
for alg in pt lt bpt ppm bpm vcm; do
  "$build/bin/wavefront" render scenes/smallvcm/s1-area.json --integrator "$alg" --width 512 --height 512 \
    --spp 100 --seed 1234 --backend cuda -o "$out/s1_${alg}_i100.hdr" | tail -1
done
