//===- Passes.td - what a compiled model library holds -----*- tablegen -*-===//

#ifndef FUSEDIALECT_CODEGEN_ARTIFACT_PASSES_TD
#define FUSEDIALECT_CODEGEN_ARTIFACT_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseReadOnlyArgumentsPass
    : Pass<"fuse-read-only-arguments", "::mlir::ModuleOp"> {
  let summary = "Promise that a public function never writes its arguments";
  let description = [{
    Runs on tensors, before a lowering: every argument of every public
    `func.func` with a body gets `bufferization.writable = false`, so that
    bufferization copies an argument before writing into it in place (a
    scatter into an input, an input updated by a fused group). What
    `fuse-compile` runs first: a model library's caller owns its inputs,
    which the ABI takes as `const` and may share between threads. Without
    it, one-shot bufferization treats a function's arguments as writable
    (upstream's default), and the lowered model may overwrite them.
    An argument already annotated is left as it is.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def FuseSafeIntegerDivisionPass
    : Pass<"fuse-safe-integer-division", "::mlir::ModuleOp"> {
  let summary = "Integer division by zero, and of the least value by -1, "
                "made defined";
  let description = [{
    Runs on tensors, before a lowering. An integer division by zero, or of
    the least signed value by -1, traps on x86 (SIGFPE): an input value a
    program passes to a model library would kill the program. Every
    `tosa.intdiv` and every integer `arith` division and remainder
    (`divsi`, `divui`, `remsi`, `remui`, `floordivsi`, `ceildivsi`,
    `ceildivui`) whose divisor is not a constant known to be safe gets the
    divisor `select(b == 0, 1, b)`, and for signed ones also
    `select(a == MIN and b == -1, 1, b)`: such a division yields its
    dividend (`MIN / -1` is `MIN`, what two's complement wraps to) and a
    remainder 0. Where the division is defined nothing changes (ONNX and
    TOSA leave the two cases undefined). What `fuse-compile` runs.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tosa::TosaDialect"];
}

def FuseExternalizeWeightsPass
    : Pass<"fuse-externalize-weights", "::mlir::ModuleOp"> {
  let summary = "Move the large constants of a lowered module into a "
                "weights file";
  let description = [{
    Runs on the LLVM dialect, after `--fuse-lower-to-cpu` or
    `--fuse-lower-to-nvvm` (whose host code keeps weights as host globals):
    what `fuse-compile --weights=external` runs before it links the model
    library, so that the library holds code and the weights live in a side
    file (include/FuseDialect-runtime/ModelDescription.h gives its format).

    Every top-level `llvm.mlir.global` that is constant, initialized by
    dense elements of a type of whole bytes, and at least `min-bytes` large,
    has its bytes appended to `file` (64-byte aligned). Then:

    * by default each becomes a writable global initialized to zero (so it
      takes no room in the library), and the module gains
      `__fuse_weights_header` (count, data bytes, digest) and
      `__fuse_weights`, one {address, offset, bytes} per moved global, from
      which the model's runtime loads the file once before the first run,
      refusing a file whose header or digest differs;
    * with `link`, each becomes a declaration, defined by the module's
      assembly (`llvm.module_asm`) in read-only data as the file's bytes at
      its offset (`.incbin`): the object the module compiles to holds the
      weights as the module did, without their text going through LLVM IR
      (GPT-2's 2.4 GB of `.ll` text, 270 s of `mlir-translate` and 130 s
      of `opt`, become 0.2 GB). `file` must stay where it is until the
      module is assembled.

    Values are unchanged; nothing is written unless `file` is given (an
    error otherwise), and a module the pass cannot rewrite (a second run, a
    global of that name already there) is refused with a diagnostic.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"",
           "The weights file to write (required)">,
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1024",
           "Constants smaller than this stay in the module">,
    Option<"link", "link", "bool", /*default=*/"false",
           "Define the moved constants in the module's assembly from the "
           "file (read-only data) instead of loading them at run time">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FUSEDIALECT_CODEGEN_ARTIFACT_PASSES_TD
