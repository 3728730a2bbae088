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
# A call may carry only some benchmarks (the 64 MiB limit): each runs when it is there.
[ -x "$build/bin/bench_bvh" ] && "$build/bin/bench_bvh" --json "$res/bench_bvh.json" 2>&1 | tee "$res/bench_bvh.log" |
  sed -n '1,5p;/^SAH by subtree size/,$p'
[ -x "$build/bin/bench_hash_grid" ] && "$build/bin/bench_hash_grid" --backend cuda --json "$res/bench_hash_grid.json" 2>&1 |
  tee "$res/bench_hash_grid.log" | tail -8
if [ -x "$build/bin/bench_bidirectional" ]; then
  "$build/bin/bench_bidirectional" --backend cuda --iterations 64 --json "$res/bench_bidirectional.json" > "$res/bench_bidirectional.log" 2>&1
  sed -n '/== summary/,$p' "$res/bench_bidirectional.log"
fi
if [ -x "$build/bin/bench_traversal" ]; then
  echo "== traversal per ray kind (pt rays, 1024x1024, 4 spp, max path length 1..8)"
  mesh_args=(); [ -f "$build/assets/MetalRoughSpheresNoTextures.glb" ] && mesh_args=(--mesh "$build/assets/MetalRoughSpheresNoTextures.glb")
  "$build/bin/bench_traversal" --backend cuda "${mesh_args[@]}" --tris 1e6,1e7 --json "$res/bench_traversal.json" \
    > "$res/bench_traversal.log" 2>&1; echo "bench_traversal exit $?"
  sed -n '/== summary/,$p' "$res/bench_traversal.log"
fi
if [ -x "$build/bin/bench_sphere_field" ]; then
  echo "== sphere field (1024x1024, 16 spp, max path length 8)"
  "$build/bin/bench_sphere_field" --backend cuda --counts 1k,8k,64k,512k,4M --json "$res/bench_sphere_field.json" 2>&1 |
    tee "$res/bench_sphere_field.log"
fi
echo "== glTF models (pt, 1024x1024, 64 spp, GPU): the bundled test models and, when carried, MetalRoughSpheres"
gltf_models=(tests/data/gltf/*/*.glb tests/data/gltf/TextureTransformTest/TextureTransformTest.gltf)
[ -f "$build/assets/MetalRoughSpheresNoTextures.glb" ] && gltf_models+=("$build/assets/MetalRoughSpheresNoTextures.glb")
for m in "${gltf_models[@]}"; do
  name=$(basename "${m%.*}")
  "$build/bin/wavefront" render "$m" --backend cuda --width 1024 --height 1024 --spp 64 -o "$res/gltf_$name.png" \
    --stats "$res/gltf_${name}_stats.json" 2>&1 | tail -1
done
if [ -x "$build/bin/bench_gltf" ]; then
  echo "== bench_gltf (pt, 1024x1024, 32 passes, surface queue unsorted vs sorted by material)"
  gmodels=(tests/data/gltf/TextureSettingsTest/TextureSettingsTest.glb)
  for m in "$build"/assets/*.glb "$build"/assets/*/*.gltf; do [ -f "$m" ] && gmodels+=("$m"); done
  "$build/bin/bench_gltf" --backend cuda --passes 32 --json "$res/bench_gltf.json" "${gmodels[@]}" \
    > "$res/bench_gltf.log" 2>&1; echo "bench_gltf exit $?"
  grep -E "^==|^ms/pass|^(shade_surface|material_keys|sort_by_material|intersect_closest) " "$res/bench_gltf.log"
  for m in "$build"/assets/*/*.gltf; do  # the extensions' sample models, as rendered directly
    [ -f "$m" ] && "$build/bin/wavefront" render "$m" --backend cuda --width 512 --height 512 --spp 64 \
      -o "$res/gltf_$(basename "${m%.*}").png" 2>&1 | tail -1
  done
fi
if [ -f "$build/assets/studio.exr" ]; then
  echo "== environment map (studio.exr, DWAB) lighting MetalRoughSpheres and the Cornell box"
  [ -f "$build/assets/MetalRoughSpheresNoTextures.glb" ] &&
    "$build/bin/wavefront" render "$build/assets/MetalRoughSpheresNoTextures.glb" --backend cuda --env "$build/assets/studio.exr" \
      --width 1024 --height 1024 --spp 64 -o "$res/metalrough_studio.png" --stats "$res/metalrough_studio_stats.json" 2>&1 | tail -1
  for alg in pt vcm; do
    "$build/bin/wavefront" render scenes/smallvcm/s1-area.json --integrator $alg --env "$build/assets/studio.exr" --backend cuda \
      --width 512 --height 512 --spp 64 -o "$res/s1_studio_$alg.png" 2>&1 | tail -1
  done
fi
echo "== rtiow final scene (1200x800, 10 spp): ours, then the book's CUDA port when carried"
"$build/bin/bench_rtiow" --backend cuda --repeats 10 --image "$res/rtiow_final.exr" --json "$res/bench_rtiow.json" \
  2>&1 | tee "$res/bench_rtiow.log" | head -4
if [ -f "$build/ref/peer_10spp.png" ]; then
  "$build/bin/compare_blocks" "$res/rtiow_final.exr" "$build/ref/peer_10spp.png" 40 --reference-gamma 2 \
    --json "$res/rtiow_compare.json" | head -2
fi
rm -f "$res/rtiow_final.exr"  # 8 MB: keeps results.tar.gz within what the device call returns
if [ -x "$build/peer/cudart" ]; then  # nvcc -arch=sm_90 -O3 main.cu of rogerallen/raytracinginoneweekendincuda@ch12_where_next_cuda
  for rep in 1 2 3; do
    start=$(date +%s%N); "$build/peer/cudart" > "$res/peer.ppm" 2> "$res/peer_$rep.log"; end=$(date +%s%N)
    echo "peer run $rep: $(grep -o 'took [0-9.]* seconds' "$res/peer_$rep.log"), process wall $(( (end - start) / 1000000 )) ms"
  done
  rm -f "$res/peer.ppm"
fi
echo "== equal-iteration noise renders (s1, 512x512, 100 iterations)"
bash bench/noise_renders.sh "$build" "$res/noise"
mkdir -p "$out"
tar -czf "$out/results.tar.gz" -C "$res" .
