#!/bin/bash
# Writes what the compiler produces for every example, bench model and zoo
# model into OUTDIR: the fused IR (--fuse-ops), the CPU lowering
# (--fuse-lower-to-cpu after it) and the PTX (--fuse-lower-to-nvvm, format
# isa). Two snapshots taken before and after a refactoring must be identical
# (`diff -r`): that is how a change claimed not to change behaviour is checked.
#
# usage: scripts/snapshot-outputs.sh FUSE_OPT OUTDIR [INPUT.mlir...]
# Without inputs: examples/*.mlir, bench/models/*.mlir, bench/gpu/models/*.mlir
# and build/zoo/*.small.mlir (run bench/zoo/export.py first to have those).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
fuse_opt=$1
out=$2
shift 2
if [ $# -eq 0 ]; then
  set -- "$here"/examples/*.mlir "$here"/bench/models/*.mlir \
         "$here"/bench/gpu/models/*.mlir
  for z in "$here"/build/zoo/*.small.mlir; do [ -f "$z" ] && set -- "$@" "$z"; done
fi
mkdir -p "$out"
status=0
for input in "$@"; do
  name=$(basename "$(dirname "$input")")_$(basename "$input" .mlir)
  "$fuse_opt" "$input" --fuse-ops -o "$out/$name.fused.mlir" 2>"$out/$name.fused.err" || status=1
  "$fuse_opt" "$out/$name.fused.mlir" --fuse-lower-to-cpu -o "$out/$name.cpu.mlir" \
    2>"$out/$name.cpu.err" || status=1
  "$fuse_opt" "$out/$name.fused.mlir" '--fuse-lower-to-nvvm=format=isa' \
    -o "$out/$name.nvvm.mlir" 2>"$out/$name.nvvm.err" || status=1
  # The serializer records how long it took: not part of the output.
  sed -i 's/LLVMIRToISATimeInMs = [0-9]* : i64, //' "$out/$name.nvvm.mlir"
  echo "$name done" >&2
done
exit $status
