#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, the CUDA toolkit, a C++ compiler, CMake
# and PyTorch (no MLIR): build and run every bundle that
# bench/gpu/prepare.sh made, run the same graphs in PyTorch (eager and
# torch.compile), and print one table (report.py): time per call, speed-ups,
# GPU results checked against the CPU reference, HBM bandwidth of the
# memory-bound fused kernels, registers and spills.
# Usage: run.sh [BUNDLE_DIR] [CALLS]
# With FUSE_BENCH_TORCH=0 the PyTorch programs are not run (the table then
# uses any torch.json an earlier run left in BUNDLE_DIR/<model>/). With
# FUSE_BENCH_NCU="model ..." each named model's fused program runs once
# more under Nsight Compute (memory throughput, occupancy, warp stalls of
# each kernel; BUNDLE_DIR/<model>/ncu.txt), where ncu can read counters.
# Stages: (1) on the CPUs, the bundles build while torch.compile compiles
# every graph once (warming its caches); (2) on the GPU, one program at a
# time: ours fused and unfused, then PyTorch eager and torch.compile. Each
# program has a time limit; a model whose program fails or times out shows
# "—" and its log stays in BUNDLE_DIR/<model>/*.err.
set -uo pipefail
DIR="${1:-$(cd "$(dirname "$0")" && pwd)}"
CALLS="${2:-200}"
JOBS="$(nproc 2>/dev/null || echo 4)"
PY="$(command -v python3 || true)"
TORCH="${FUSE_BENCH_TORCH:-1}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv ||
  echo "run.sh: nvidia-smi found no GPU"
start=$(date +%s)
build() {
  cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=Release >"$1/build.log" 2>&1 &&
    cmake --build "$1/build" -j 2 >>"$1/build.log" 2>&1 || echo "build failed: $1 (see $1/build.log)"
}
if [ -n "$PY" ] && [ "$TORCH" != 0 ]; then
  for m in "$DIR"/*/; do
    [ -f "$m/torch_model.py" ] &&
      timeout 240 "$PY" "$m/torch_model.py" --calls 1 $(case "$m" in *_tf32/) echo --tf32 ;; esac) \
        >/dev/null 2>"$m/torch-warm.err" &
  done
fi
for d in "$DIR"/*/fused "$DIR"/*/unfused; do
  build "$d" &
  while [ "$(jobs -r | wc -l)" -ge "$((JOBS + 16))" ]; do sleep 0.2; done
done
wait
echo "run.sh: built and warmed in $(($(date +%s) - start)) s"
for m in "$DIR"/*/; do
  for v in fused unfused; do
    timeout 120 "$m/$v/build/driver" "$CALLS" >"$m/$v.json" 2>"$m/$v.err" ||
      echo "run.sh: $(basename "$m") $v exited $? (see $m$v.err)"
  done
  if [ -n "$PY" ] && [ "$TORCH" != 0 ]; then
    tf32=""
    case "$(basename "$m")" in *_tf32) tf32="--tf32" ;; esac
    timeout 120 "$PY" "$m/torch_model.py" --calls "$CALLS" $tf32 >"$m/torch.json" 2>"$m/torch.err" ||
      echo "run.sh: $(basename "$m") torch exited $? (see ${m}torch.err)"
  fi
done
for name in ${FUSE_BENCH_NCU:-}; do
  m="$DIR/$name"
  timeout 120 ncu --clock-control none --section SpeedOfLight \
    --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    "$m/fused/build/driver" 1 >"$m/ncu.txt" 2>&1 ||
    echo "run.sh: ncu on $name exited $? (see $m/ncu.txt)"
  grep -E "Memory Throughput|DRAM Throughput|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" \
    "$m/ncu.txt" | sed "s|^|$name: |"
done
echo "run.sh: measured in $(($(date +%s) - start)) s"
"${PY:-python3}" "$DIR/report.py" "$DIR"
