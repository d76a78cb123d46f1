"""FuseDialect's Python package.

* `fuse_dialect.api`: fuse(), report(), run_pipeline(), import_onnx() over
  the C API (libFuseDialectCAPI.so, ctypes).
* `fuse_dialect.onnx_import`: the ONNX importer (fuse-import).
* `fuse_dialect.runner`: run an imported model on the CPU with given inputs.
"""
