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

# With C wrappers (`_mlir_ciface_*`) for a C++ driver: fuse-compile's
# bundle reference.
REFERENCE_PIPELINE_C_WRAPPERS = REFERENCE_PIPELINE.replace(
    LOOPS_STEP, "func.func(convert-linalg-to-loops,llvm-request-c-wrappers),")

# Every op's loop nest an OpenMP parallel loop: bench/cpu.py's unfused
# OpenMP column.
REFERENCE_PIPELINE_OPENMP = REFERENCE_PIPELINE.replace(
    LOOPS_STEP,
    "func.func(convert-linalg-to-parallel-loops),convert-scf-to-openmp,canonicalize,")
