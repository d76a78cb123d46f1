#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, the CUDA toolkit, a C++ compiler, CMake
# and PyTorch (no MLIR): build and run every bundle that
# bench/gpu/prepare.sh made, run the same graphs in PyTorch (eager and
# torch.compile), and print one table (report.py): time per call, speed-ups,
# GPU results checked against the CPU reference, HBM bandwidth of the
# memory-bound fused kernels, registers and spills.
# Usage: run.sh [BUNDLE_DIR] [CALLS]
set -uo pipefail
DIR="${1:-$(cd "$(dirname "$0")" && pwd)}"
CALLS="${2:-200}"
JOBS="$(nproc 2>/dev/null || echo 4)"
nvidia-smi -L || echo "run.sh: nvidia-smi found no GPU"
build() {
  cmake -S "$1" -B "$1/build" -DCMAKE_BUILD_TYPE=Release >"$1/build.log" 2>&1 &&
    cmake --build "$1/build" -j 2 >>"$1/build.log" 2>&1 || echo "build failed: $1 (see $1/build.log)"
}
for d in "$DIR"/*/fused "$DIR"/*/unfused; do
  build "$d" &
  while [ "$(jobs -r | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
done
wait
for m in "$DIR"/*/; do
  for v in fused unfused; do
    "$m/$v/build/driver" "$CALLS" >"$m/$v.json" 2>"$m/$v.err" || true
  done
  if command -v python3 >/dev/null; then
    timeout 300 python3 "$m/torch_model.py" --calls "$CALLS" >"$m/torch.json" 2>"$m/torch.err" || true
  fi
done
python3 "$DIR/report.py" "$DIR"
