"""FuseDialect's Python package: the project's one Python toolkit.

Library (nothing is imported here: `import fuse_dialect` stays cheap and
needs neither onnx nor torch):

* `fuse_dialect.compile(model, target="cpu")` and `fuse_dialect.load(path)`:
  a model compiled ahead of time into a library with the C ABI of
  include/FuseDialect-runtime, called on numpy arrays
  (`fuse_dialect.runtime`; `fuse_dialect.aot` compiles).

* `fuse_dialect.api`: fuse(), report(), run_pipeline(), import_onnx() over
  the C API (libFuseDialectCAPI.so, ctypes).
* `fuse_dialect.onnx_import`: the ONNX importer (fuse-import).
* `fuse_dialect.runner`: run an imported model on the CPU with given inputs.
* `fuse_dialect.toolchain`: where the LLVM/MLIR tools, fuse-opt and this
  package's commands are.
* `fuse_dialect.mlirtext`: MLIR text: function signatures, a synthesized
  @main, memrefs printed by mlir-runner.
* `fuse_dialect.tosa_emit`: TOSA ops as text (the importer's and the random
  graphs').
* `fuse_dialect.reference`: the upstream lowering of the unfused program.
* `fuse_dialect.random_graph`: seeded random TOSA graphs.

Commands: `fuse_dialect.tools.*` (utils/fuse-*), `fuse_dialect.bench.*`
(bench/*.py); utils/ and bench/ hold only launchers that run them with
this package's folder on PYTHONPATH.
"""


def compile(model, target="cpu", **options):
    """`model` (.onnx or .mlir) compiled and loaded: a runtime.Model."""
    from . import runtime
    return runtime.compile(model, target, **options)


def load(path, **options):
    """A library written by fuse-compile, loaded: a runtime.Model."""
    from . import runtime
    return runtime.load(path, **options)
