"""FuseDialect's Python package: tools around `fuse-opt`.

`fuse_dialect.onnx_import.import_model(model) -> str` imports an ONNX model
as TOSA (see utils/fuse-import)."""
