"""The benches of bench/: `bench/X.py` runs `fuse_dialect.bench.X` (and
`bench/zoo/X.py` `fuse_dialect.bench.zoo.X`) with python/ on PYTHONPATH.

fusion      kernels, traffic, transposes per example model (and the counting
            bench/zoo uses)
cpu         CPU time per model, unfused vs fused (mlir-runner -O3)
algebraic   what algebraic simplification saves per model
zoo         the model zoo: PyTorch models through ONNX (models, export, run)
"""
