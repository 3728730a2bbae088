#!/usr/bin/env bash
# One device call: GPU tests, renders of every integrator, and the benchmarks.
# Run from the repository root on the GPU machine with a carried build folder:
#   bash bench/device_run.sh BUILD_DIR OUT_DIR
# Everything it writes is packed into OUT_DIR/results.tar.gz (the device tool
# returns at most 8 files).
set -uo pipefail
build=${1:-build}
out=${2:-${OUT:-out/device}}
res=$(mktemp -d)
export WF_SOURCE_DIR=$PWD
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$res/gpu.txt"
"$build/bin/wavefront" info | tee -a "$res/gpu.txt"
echo "== gpu tests"
"$build/bin/wf_gpu_tests" > "$res/gpu_tests.log" 2>&1; echo "gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED TEST|tests? ran" "$res/gpu_tests.log" | tail -30
echo "== renders"
"$build/bin/wavefront" render scenes/cornell-box.json -o "$res/cornell-box.png" --stats "$res/cornell_stats.json" 2>&1 | tail -1
for alg in lt bpt ppm bpm vcm pt; do
  for s in s0-sun s1-area s2-point s3-background; do
    "$build/bin/wavefront" render scenes/smallvcm/$s.json --integrator $alg --width 128 --height 128 --spp 256 \
      --backend cuda -o "$res/${s}_${alg}.exr" --quiet
  done
done
echo "== benchmarks"
if [ -x "$build/bin/bench_pt_old" ]; then
  for rep in 1 2; do
    "$build/bin/bench_pt_old" --backend cuda --passes 200 --warmup 10 2>&1 | grep -E "^==|^ms/pass" | sed 's/^/old: /'
    "$build/bin/bench_pt" --backend cuda --passes 200 --warmup 10 --json "$res/bench_pt.json" 2>&1 | grep -E "^==|^ms/pass" | sed 's/^/new: /'
  done
fi
"$build/bin/bench_bvh" --json "$res/bench_bvh.json" 2>&1 | tee "$res/bench_bvh.log" | head -5
"$build/bin/bench_hash_grid" --backend cuda --json "$res/bench_hash_grid.json" 2>&1 | tee "$res/bench_hash_grid.log" | tail -8
"$build/bin/bench_bidirectional" --backend cuda --iterations 64 --json "$res/bench_bidirectional.json" > "$res/bench_bidirectional.log" 2>&1
sed -n '/== summary/,$p' "$res/bench_bidirectional.log"
echo "== equal-iteration noise renders (s1, 512x512, 100 iterations)"
bash bench/noise_renders.sh "$build" "$res/noise"
mkdir -p "$out"
tar -czf "$out/results.tar.gz" -C "$res" .
