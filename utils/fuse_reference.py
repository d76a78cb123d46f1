"""The upstream lowering of the unfused program, shared by the tools.

`REFERENCE_PIPELINE` is what `utils/fuse-diff` compares against,
`bench/cpu.py` times as "unfused" and `utils/fuse-compile` builds as the
bundle's CPU reference. It must match what `fuse-opt --fuse-lower-to-cpu`
does once fuse.groups are dissolved and lowered op by op.
"""

REFERENCE_PIPELINE = (
    "builtin.module("
    "func.func(tosa-to-scf,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale=true},tosa-to-tensor,"
    "convert-elementwise-to-linalg),"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,"
    "func.func(convert-linalg-to-loops),"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,"
    "convert-to-llvm,"
    "reconcile-unrealized-casts)"
)

# The step the variants change: the loops of each structured op.
LOOPS_STEP = "func.func(convert-linalg-to-loops),"
