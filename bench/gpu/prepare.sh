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
# The kernels' registers and spills (ptxas -v) of MODEL lowered with
# --fuse-lower-to-nvvm options OPTIONS (key=value ...), into DIR/ptxas.txt.
ptxas_report() {
  local model="$1" dir="$2" options="${3:-}"
  [ -x "$PTXAS" ] || return 0
  "$ROOT/build/bin/fuse-opt" "$model" --fuse-ops |
    "$ROOT/build/bin/fuse-opt" "--fuse-lower-to-nvvm${options:+=$options}" -o "$dir/nvvm.mlir"
  "$PY" "$ROOT/utils/fuse-extract-ptx" --ptxas "$PTXAS" \
    "$dir/nvvm.mlir" "$dir/ptx" | grep registers > "$dir/ptxas.txt" || true
  rm -f "$dir/nvvm.mlir"
}
# MODEL (named NAME) compiled once more as <NAME>_SUFFIX, fused with the
# fuse-compile arguments that follow, against the same baselines (the
# IEEE f32 unfused program, the same PyTorch program).
variant() {
  local model="$1" name="$2" suffix="$3"
  shift 3
  "$PY" "$ROOT/utils/fuse-compile" "$model" --bundle -o "$OUT/${name}_$suffix/fused" "$@"
  cp -r "$OUT/$name/unfused" "$OUT/${name}_$suffix/unfused"
  cp "$OUT/$name/torch_model.py" "$OUT/${name}_$suffix/torch_model.py"
}
for model in "$ROOT"/examples/*.mlir "$ROOT"/bench/models/*.mlir "$ROOT"/bench/gpu/models/*.mlir; do
  name="$(basename "$model" .mlir)"
  for variant in fused unfused; do
    flag=""
    [ "$variant" = unfused ] && flag="--unfused"
    "$PY" "$ROOT/utils/fuse-compile" "$model" --bundle -o "$OUT/$name/$variant" $flag
  done
  "$PY" "$ROOT/utils/fuse-to-torch" "$model" -o "$OUT/$name/torch_model.py"
  # Matmul models once more with f32 matmuls on tensor cores (TF32 inputs,
  # --fuse-lower-to-nvvm option tf32): <model>_tf32, compared with PyTorch
  # allowed TF32 too (run.sh) and with the IEEE f32 unfused program.
  case "$name" in *f16*) ;; gemm*|matmul*|tokens*)
    variant "$model" "$name" tf32 --tf32
    ptxas_report "$model" "$OUT/${name}_tf32/fused" tf32=true
    ;;
  esac
  # f16 matmul models once more with their tensor cores off
  # (--fuse-lower-to-nvvm option tensor-cores=false): <model>_nocores, the
  # scalar path on the same tiles.
  case "$name" in *f16*)
    variant "$model" "$name" nocores --lower-options tensor-cores=false
    ptxas_report "$model" "$OUT/${name}_nocores/fused" tensor-cores=false
    ;;
  esac
  # The large row models once more without their rows staged in shared
  # memory (--fuse-lower-to-nvvm option stage-inputs=false):
  # <model>_nostage, each op reading the row from global memory, as before
  # staging.
  case "$model" in */bench/gpu/models/softmax*|*/bench/gpu/models/layernorm*)
    variant "$model" "$name" nostage --lower-options stage-inputs=false
    ;;
  esac
  # The convolution model once more with its convolution on the plain path
  # (a thread per output point; option implicit-gemm=false).
  case "$model" in */bench/gpu/models/conv*)
    variant "$model" "$name" noigemm --lower-options implicit-gemm=false
    ;;
  esac
  ptxas_report "$model" "$OUT/$name/fused"
done
du -sh "$OUT"
