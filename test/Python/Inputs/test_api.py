"""Checks python/fuse_dialect/api.py (ctypes over libFuseDialectCAPI.so)."""
import os
import sys

from fuse_dialect import api  # python/ on PYTHONPATH (test/lit.cfg.py)

ROOT = sys.argv[1]

text = open(os.path.join(ROOT, "examples", "inception_block.mlir")).read()
fused = api.fuse(text)
print("groups:", fused.count("fuse.group ins"))
print("layout off, groups:", api.fuse(text, layout=False).count("fuse.group ins"))
r = api.report(text)
print("report kernels:", r["totals"]["kernels_after"], "functions:", len(r["functions"]))
llvm = api.run_pipeline(fused, "builtin.module(fuse-lower-to-cpu)")
print("lowered:", "llvm.func @model" in llvm)
try:
    api.fuse("func.func @f() {\n  %0 = tosa.bogus\n}")
except api.FuseError as e:
    print("error:", str(e).splitlines()[0])
try:
    api.run_pipeline(text, "builtin.module(no-such-pass)")
except api.FuseError as e:
    print("bad pipeline:", "no-such-pass" in str(e))
ptx = api.run_pipeline(fused, "builtin.module(fuse-lower-to-nvvm)")
print("gpu binary:", "gpu.binary" in ptx, "launches:", ptx.count("gpu.launch_func"))
