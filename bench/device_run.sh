#!/usr/bin/env bash
# One device call: GPU tests, the default render on the GPU, and the benchmark.
# Run from the repository root on the GPU machine with a carried build folder:
#   bash bench/device_run.sh BUILD_DIR OUT_DIR
set -uo pipefail
build=${1:-build}
out=${2:-${OUT:-out/device}}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/gpu.txt"
"$build/bin/wavefront" info | tee -a "$out/gpu.txt"
echo "== gpu tests"
"$build/bin/wf_gpu_tests" --gtest_brief=0 2>&1 | tee "$out/gpu_tests.log" | tail -40
echo "== default render"
"$build/bin/wavefront" render scenes/cornell-box.json -o "$out/cornell-box.png" --stats "$out/cornell_stats.json" 2>&1 | tail -3
"$build/bin/wavefront" render scenes/smallvcm/s1-area.json -o "$out/s1-area.exr" --spp 1000 --quiet
echo "== benchmark"
"$build/bin/bench_pt" --backend cuda --passes 200 --warmup 10 --json "$out/bench_pt.json" 2>&1 | tee "$out/bench.log"
