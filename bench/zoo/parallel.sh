#!/usr/bin/env bash
# The OpenMP CPU lowering (every tile loop on the cores) against the
# one-thread lowering (parallel=false) on the zoo's
# models at their reduced input size (bench/zoo/export.py --no-full): each
# model imported, fused, lowered both ways and run at 2 and 4 threads, three
# runs each, every value equal as printed. Too slow for the suite (the
# exports alone take minutes); the suite runs the examples, bench models and
# random graphs the same way (test/Integration/cpu-parallel.mlir).
#
#   bench/zoo/parallel.sh [MODEL ...]      (default: every zoo model)
#   FUSE_ZOO_DIR (default build/zoo) holds the exports; FUSE_OPT the tool.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY=/usr/bin/python3
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"  # the fuse_dialect package
OUT="${FUSE_ZOO_DIR:-$ROOT/build/zoo}"
FUSE_OPT="${FUSE_OPT:-$ROOT/build/bin/fuse-opt}"
LIBOMP="$($PY -m fuse_dialect.toolchain libomp)"
models=("$@")
if ((${#models[@]} == 0)); then
  mapfile -t models < <($PY -c \
    'from fuse_dialect.bench.zoo import models; print("\n".join(models.ZOO))')
fi
status=0
for m in "${models[@]}"; do
  [[ -f "$OUT/$m.small.onnx" ]] ||
    $PY "$ROOT/bench/zoo/export.py" --out "$OUT" --no-full "$m" >/dev/null 2>&1
  $PY "$ROOT/utils/fuse-import" "$OUT/$m.small.onnx" -o "$OUT/$m.small.mlir"
  for t in 2 4; do
    if line=$($PY "$ROOT/utils/fuse-diff" "$OUT/$m.small.mlir" -p --fuse-ops \
        --fuse-opt "$FUSE_OPT" --ref-lower=--fuse-lower-to-cpu=parallel=false \
        --lower=--fuse-lower-to-cpu=min-parallel-work=0 --extra-libs "$LIBOMP" \
        --threads "$t" --repeat 3 --exact 2>&1 | head -2 | tr '\n' ' '); then
      echo "$m, $t threads: $line"
    else
      echo "$m, $t threads: FAILED $line"
      status=1
    fi
  done
done
exit $status
