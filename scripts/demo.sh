#!/usr/bin/env bash
# The main job on a bundled example: builds if needed, runs
# `fuse-opt --fuse-ops` on an example model, prints a before/after summary and
# checks that the result computes the same numbers as the original on the CPU,
# then compiles it into a model library (fuse-compile) and times it through its
# C ABI (fuse-bench).
#
#   scripts/demo.sh [MODEL.mlir]      (default: examples/conv_bn_relu.mlir)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FUSE_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/bootstrap.sh" >/dev/null

MODEL="${1:-$ROOT/examples/conv_bn_relu.mlir}"
OUT="$BUILD/demo"
mkdir -p "$OUT"
FUSED="$OUT/$(basename "${MODEL%.mlir}").fused.mlir"

REPORT="${FUSED%.mlir}.report.json"
DOT="${FUSED%.mlir}.dot"
echo "== fuse-opt --fuse-ops $(realpath --relative-to="$ROOT" "$MODEL")"
"$BUILD/bin/fuse-opt" --fuse-ops="report=$REPORT dot=$DOT" "$MODEL" -o "$FUSED"
echo "   wrote $(realpath --relative-to="$ROOT" "$FUSED"), $(basename "$REPORT"), $(basename "$DOT")"
if command -v dot >/dev/null 2>&1; then
  dot -Tsvg "$DOT" -o "${DOT%.dot}.svg" && echo "   rendered $(basename "${DOT%.dot}.svg")"
else
  echo "   (install graphviz to render the plan: dot -Tsvg $DOT)"
fi
echo
python3 "$ROOT/utils/fuse-summary" "$MODEL" "$FUSED"
echo
echo "== numeric check: original vs --fuse-ops, both run on the CPU"
PATH="$BUILD/bin:${FUSE_LLVM_DIR:-/usr/lib/llvm-22}/bin:$PATH" \
  python3 "$ROOT/utils/fuse-diff" "$MODEL" -p "--fuse-ops"
echo
echo "== fuse-compile: the model as a library with a C ABI, timed by fuse-bench"
LIB="$OUT/$(basename "${MODEL%.mlir}").so"
# Debian's interpreter: fuse-bench needs numpy (python3-numpy).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" "$ROOT/utils/fuse-compile" "$MODEL" -o "$LIB" 2>/dev/null
"$PY" "$ROOT/utils/fuse-bench" "$LIB" --runs 50 --threads 1 2>/dev/null
