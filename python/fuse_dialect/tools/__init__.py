"""The command lines of utils/: `utils/fuse-X` runs `fuse_dialect.tools.fuse_X`
(`python3 -m fuse_dialect.tools.fuse_X ARGS`, with python/ on PYTHONPATH).

fuse_diff          the differential numeric harness (fused vs unfused on the CPU)
fuse_random_test   fuse_diff on seeded random graphs, failures minimized
fuse_compile       a model compiled ahead of time into a library with the C ABI
                   of include/FuseDialect-runtime (or into a GPU bench bundle)
fuse_bench         a compiled model timed: latency percentiles, throughput,
                   peak memory, side by side with ONNX Runtime and PyTorch
fuse_import        the ONNX importer's command line
fuse_onnx_node_tests  ONNX's node tests through the importer and the CPU
fuse_fuzz_onnx     mutation fuzzing of the importer
fuse_to_torch      a TOSA function as a standalone PyTorch program
fuse_summary       a before/after summary of a fuse-opt run
fuse_extract_ptx   the PTX of a lowered module's gpu.binary ops
"""
