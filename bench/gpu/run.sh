#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, the CUDA toolkit, a C++ compiler and
# CMake (no MLIR): build and run every bundle that bench/gpu/prepare.sh
# made, and print one table: time per call fused vs unfused (one kernel per
# op), kernel launches, and whether the GPU result matches the CPU
# reference. Usage: run.sh [BUNDLE_DIR] [CALLS]
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
printf '| model | fused µs/call | unfused µs/call | speed-up | fused matches CPU | unfused matches CPU | fused kernels: max registers, spill bytes |\n|---|---|---|---|---|---|---|\n'
for m in "$DIR"/*/; do
  name="$(basename "$m")"
  f="$("$m/fused/build/driver" "$CALLS" 2>"$m/fused/run.err")"
  u="$("$m/unfused/build/driver" "$CALLS" 2>"$m/unfused/run.err")"
  get() { echo "$1" | sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p"; }
  fu="$(get "$f" us_per_call)"; uu="$(get "$u" us_per_call)"
  sp="$(awk -v a="$uu" -v b="$fu" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }')"
  regs="-"
  if [ -f "$m/fused/ptxas.txt" ]; then
    regs="$(awk '{ r = ($3 > r) ? $3 : r; s += $5 + $7 } END { printf "%d, %d", r, s }' "$m/fused/ptxas.txt")"
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "${fu:-failed}" "${uu:-failed}" "$sp" \
    "$(get "$f" match)" "$(get "$u" match)" "$regs"
done
