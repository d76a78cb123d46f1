#!/usr/bin/env bash
# On the CPU machine: compile every bench model ahead of time (examples/,
# bench/models/, and the memory-bound bench/gpu/models/), fused and unfused
# (one kernel per op), into build/gpu-bundle/<model>/{fused,unfused}
# (utils/fuse-compile, which also writes kernels.json: bytes and class of
# every launch), the same graph as a PyTorch program (utils/fuse-to-torch)
# for the eager and torch.compile columns, and each fused kernel's
# registers and spills (ptxas -v, when the CUDA toolkit is here).
# Then, on a machine with an NVIDIA GPU (no MLIR needed there):
#   build/gpu-bundle/run.sh    (through the device tool: carry
#   ["build/gpu-bundle"], command "build/gpu-bundle/run.sh")
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-$ROOT/build/gpu-bundle}"
PY=/usr/bin/python3
PTXAS="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
rm -rf "$OUT"
mkdir -p "$OUT"
cp "$ROOT/bench/gpu/run.sh" "$ROOT/bench/gpu/report.py" "$OUT/"
for model in "$ROOT"/examples/*.mlir "$ROOT"/bench/models/*.mlir "$ROOT"/bench/gpu/models/*.mlir; do
  name="$(basename "$model" .mlir)"
  for variant in fused unfused; do
    flag=""
    [ "$variant" = unfused ] && flag="--unfused"
    "$PY" "$ROOT/utils/fuse-compile" "$model" -o "$OUT/$name/$variant" $flag
  done
  "$PY" "$ROOT/utils/fuse-to-torch" "$model" -o "$OUT/$name/torch_model.py"
  # Matmul models once more with f32 matmuls on tensor cores (TF32 inputs,
  # --fuse-lower-to-nvvm option tf32): <model>_tf32, compared with PyTorch
  # allowed TF32 too (run.sh) and with the IEEE f32 unfused program.
  case "$name" in gemm*|matmul*|tokens*)
    "$PY" "$ROOT/utils/fuse-compile" "$model" -o "$OUT/${name}_tf32/fused" --tf32
    # The baseline stays the IEEE f32 unfused program.
    cp -r "$OUT/$name/unfused" "$OUT/${name}_tf32/unfused"
    cp "$OUT/$name/torch_model.py" "$OUT/${name}_tf32/torch_model.py"
    if [ -x "$PTXAS" ]; then
      "$ROOT/build/bin/fuse-opt" "$model" --fuse-ops |
        "$ROOT/build/bin/fuse-opt" --fuse-lower-to-nvvm=tf32=true -o "$OUT/${name}_tf32/fused/nvvm.mlir"
      "$PY" "$ROOT/utils/fuse-extract-ptx" --ptxas "$PTXAS" \
        "$OUT/${name}_tf32/fused/nvvm.mlir" "$OUT/${name}_tf32/fused/ptx" | grep registers \
        > "$OUT/${name}_tf32/fused/ptxas.txt" || true
      rm -f "$OUT/${name}_tf32/fused/nvvm.mlir"
    fi
    ;;
  esac
  # The large row models once more without their rows staged in shared
  # memory (--fuse-lower-to-nvvm option stage-inputs=false):
  # <model>_nostage, each op reading the row from global memory, as before
  # staging; same baselines.
  case "$model" in */bench/gpu/models/softmax*|*/bench/gpu/models/layernorm*)
    "$PY" "$ROOT/utils/fuse-compile" "$model" -o "$OUT/${name}_nostage/fused" \
      --lower-options stage-inputs=false
    cp -r "$OUT/$name/unfused" "$OUT/${name}_nostage/unfused"
    cp "$OUT/$name/torch_model.py" "$OUT/${name}_nostage/torch_model.py"
    ;;
  esac
  # The convolution model once more with its convolution on the plain path
  # (a thread per output point; option implicit-gemm=false).
  case "$model" in */bench/gpu/models/conv*)
    "$PY" "$ROOT/utils/fuse-compile" "$model" -o "$OUT/${name}_noigemm/fused" \
      --lower-options implicit-gemm=false
    cp -r "$OUT/$name/unfused" "$OUT/${name}_noigemm/unfused"
    cp "$OUT/$name/torch_model.py" "$OUT/${name}_noigemm/torch_model.py"
    ;;
  esac
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
