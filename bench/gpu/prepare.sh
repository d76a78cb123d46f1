#!/usr/bin/env bash
# On the CPU machine: compile every example model ahead of time, fused and
# unfused (one kernel per op), into build/gpu-bundle/<model>/{fused,unfused}
# (utils/fuse-compile), and record each kernel's registers and spills
# (ptxas -v, when the CUDA toolkit is here). Then run bench/gpu/run.sh on a
# machine with an NVIDIA GPU (no MLIR needed there), e.g. through the
# device tool with carry = ["build/gpu-bundle"].
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-$ROOT/build/gpu-bundle}"
PY=/usr/bin/python3
PTXAS="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
rm -rf "$OUT"
mkdir -p "$OUT"
cp "$ROOT/bench/gpu/run.sh" "$OUT/"
for model in "$ROOT"/examples/*.mlir; do
  name="$(basename "$model" .mlir)"
  for variant in fused unfused; do
    flag=""
    [ "$variant" = unfused ] && flag="--unfused"
    "$PY" "$ROOT/utils/fuse-compile" "$model" -o "$OUT/$name/$variant" $flag
  done
  if [ -x "$PTXAS" ]; then
    "$ROOT/build/bin/fuse-opt" "$model" --fuse-ops |
      "$ROOT/build/bin/fuse-opt" --fuse-lower-to-nvvm -o "$OUT/$name/fused/nvvm.mlir"
    "$PY" "$ROOT/utils/fuse-extract-ptx" --ptxas "$PTXAS" \
      "$OUT/$name/fused/nvvm.mlir" "$OUT/$name/fused/ptx" | grep registers \
      > "$OUT/$name/fused/ptxas.txt" || true
    rm -f "$OUT/$name/fused/nvvm.mlir"
  fi
done
du -sh "$OUT"
