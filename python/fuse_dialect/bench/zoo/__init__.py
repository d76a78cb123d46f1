"""The model zoo (docs/Zoo.md): PyTorch definitions (models), their ONNX
exports (export) and the comparison table (run)."""
