"""A library compiled for another CPU (`fuse-compile --cpu CPU`) on this
machine: it runs if this CPU has every instruction set extension the C
compiler enables for CPU (aot.CPU_FEATURES), and otherwise refuses to
create a session, naming the first one missing, instead of dying of
SIGILL. The expectation comes from /proc/cpuinfo.
    check-cpu-features.py MODEL.so CPU"""
import subprocess
import sys

import numpy as np

import fuse_dialect
from fuse_dialect import aot, runtime

library, cpu = sys.argv[1:3]
macros = subprocess.run(["cc", "-march=" + cpu, "-dM", "-E", "-"], input="",
                        capture_output=True, text=True, check=True).stdout
flags = set()
for line in open("/proc/cpuinfo"):
    if line.startswith("flags"):
        flags = set(line.split(":", 1)[1].split())
        break
# cpuinfo's spelling of __builtin_cpu_supports's names.
spelled = {"bmi": "bmi1", "amx-tile": "amx_tile", "amx-bf16": "amx_bf16",
           "amx-int8": "amx_int8", "sse3": "pni", "sse4.1": "sse4_1", "sse4.2": "sse4_2",
           "pclmul": "pclmulqdq", "lzcnt": "abm", "avxvnni": "avx_vnni", "sha": "sha_ni"}
expected = None
for macro, feature in aot.CPU_FEATURES:
    name = spelled.get(feature, feature.replace("avx512", "avx512_", 1)
                       if feature not in ("avx512f", "avx512bw", "avx512dq", "avx512vl",
                                          "avx512cd", "avx512vbmi", "avx512ifma")
                       else feature)
    if "#define __%s__ 1" % macro in macros and name not in flags:
        expected = feature
        break
try:
    model = fuse_dialect.load(library)
    model(*[np.zeros(b.shape, b.dtype) for b in model.inputs])
    got = None
except runtime.FuseError as e:
    got = str(e)
if expected is None:
    print("consistent:", got is None, got or "")
else:
    print("consistent:", got is not None and ("with %s," % expected) in got, got)
