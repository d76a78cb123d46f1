"""Bench: kernels and intermediate bytes per example model, side by side.

For every model in examples/ (or the files given) prints one row with:
  * TOSA compute ops in the model,
  * kernels after plain TOSA -> linalg (every linalg op and tensor.pad is a
    kernel; reshapes are views),
  * kernels after upstream `-linalg-fuse-elementwise-ops` on that,
  * kernels after `fuse-opt --fuse-ops` (fuse.groups plus ops left outside),
  * bytes of intermediates written to and read from memory between kernels
    (unfused TOSA vs. ours; from fuse-opt's --fuse-report),
  * copies through a permutation (tosa.transpose, linalg.transpose, generic
    permutation copies) after upstream linalg fusion, and in our pipeline
    before -> at planning -> after --fuse-ops (from --fuse-report; after:
    those not turned into kernel index changes or indexing maps),
  * reshapes before -> after --fuse-ops (views, no copy, in either case),
  * GPU kernel launches after `--fuse-lower-to-nvvm` (one per loop nest of
    a group: more than the groups where a group's results share no root),
  * fuse-opt's compile time for --fuse-ops.

Usage: bench/fusion.py [MODEL.mlir ...]   (build/bin/fuse-opt must exist)
"""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from .. import toolchain

ROOT = toolchain.source_root()
FUSE_OPT = toolchain.fuse_opt()
MLIR_OPT = toolchain.tool("mlir-opt")
TO_LINALG = ("builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,"
             "tosa-to-arith,tosa-to-tensor),canonicalize)")
UPSTREAM = ("builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,"
            "tosa-to-arith,tosa-to-tensor),canonicalize,"
            "func.func(linalg-fuse-elementwise-ops),canonicalize)")
OP = re.compile(r"^\s*(?:%[\w#:, %]+=\s*)?([a-z_]+\.[a-z_0-9.]+)")
NOT_COMPUTE_TOSA = {"tosa.const", "tosa.const_shape"}
TENSOR_TYPE = re.compile(r"tensor<([0-9x]+)x(f32|f16|bf16|i32|i8|i1)>")
BYTES = {"f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i8": 1, "i1": 1}


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + "\n" + r.stderr[-2000:])
    return r.stdout


def ops(text):
    for line in text.splitlines():
        m = OP.match(line)
        if m:
            yield m.group(1), line


def count_tosa(text):
    return sum(1 for name, _ in ops(text)
               if name.startswith("tosa.") and name not in NOT_COMPUTE_TOSA)


def count_kernels_linalg(text):
    return sum(1 for name, _ in ops(text)
               if (name.startswith("linalg.") and name != "linalg.yield"
                   and name != "linalg.index") or name == "tensor.pad")


PERMUTED_MAP = re.compile(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>")


def count_permutation_copies(text):
    """linalg.transpose ops, and generics with one input and one output whose
    body only yields its input, read through a permuted map."""
    maps = {}
    for m in re.finditer(r"^(#map\d*) = affine_map<\(([^)]*)\) -> \(([^)]*)\)>", text, re.M):
        maps[m.group(1)] = (m.group(2), m.group(3))
    count = text.count("linalg.transpose")
    for m in re.finditer(r"linalg\.generic \{indexing_maps = \[(#map\d*), (#map\d*)\][^\n]*\n\s*\^bb0\(%in: \w+, %out: \w+\):\n\s*linalg\.yield %in ", text):
        a, b = maps.get(m.group(1)), maps.get(m.group(2))
        if a and b and a[1] != b[1] and sorted(a[1].split(", ")) == sorted(b[1].split(", ")):
            count += 1
    return count


def tensor_bytes(type_text):
    m = TENSOR_TYPE.search(type_text)
    if not m:
        return 0
    n = 1
    for d in m.group(1).split("x"):
        n *= int(d)
    return n * BYTES[m.group(2)]


def unfused_intermediate_bytes(text):
    """Results of TOSA compute ops that are not returned: each is written
    once and read back at least once."""
    returned = set(re.findall(r"return ([^:]*):", text)[0].replace(" ", "").split(","))
    total = 0
    for name, line in ops(text):
        if not name.startswith("tosa.") or name in NOT_COMPUTE_TOSA:
            continue
        res = re.match(r"\s*(%[\w]+)", line)
        if res and res.group(1) in returned:
            continue
        total += 2 * tensor_bytes(line.rsplit("->", 1)[-1])
    return total


def main(argv):
    models = argv[1:] or sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    print("| model | TOSA ops | kernels: TOSA→linalg | + upstream linalg-fuse-elementwise-ops | + fuse-opt --fuse-ops | intermediate bytes moved: unfused → ours | transposes: upstream fused | transposes: ours before → planning → after | reshapes before → after | GPU launches (--fuse-lower-to-nvvm) | fuse-opt time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for path in models:
        src = open(path).read()
        linalg = run([MLIR_OPT, path, "--pass-pipeline=" + TO_LINALG])
        upstream = run([MLIR_OPT, path, "--pass-pipeline=" + UPSTREAM])
        with tempfile.NamedTemporaryFile(suffix=".json") as rep:
            t0 = time.perf_counter()
            run([FUSE_OPT, path, "--fuse-ops=report=" + rep.name, "-o", os.devnull])
            dt = time.perf_counter() - t0
            report = json.load(open(rep.name))
        ours = report["totals"]["kernels_after"]
        ours_bytes = report["totals"]["bytes_between_kernels"]
        t = report["totals"]
        fused = run([FUSE_OPT, path, "--fuse-ops"])
        launches = run([FUSE_OPT, "-", "--fuse-lower-to-nvvm"],
                       stdin=fused).count("gpu.launch_func")
        row = [count_tosa(src), count_kernels_linalg(linalg),
               count_kernels_linalg(upstream), ours]
        totals = [a + b for a, b in zip(totals, row)]
        print("| %s | %d | %d | %d | %d | %d → %d | %d | %d → %d → %d | %d → %d | %d | %.2f s |" % (
            os.path.basename(path), *row, unfused_intermediate_bytes(src),
            ours_bytes, count_permutation_copies(upstream),
            t["transposes_before"], t["transposes_at_planning"],
            t["transposes_after"], t["reshapes_before"], t["reshapes_after"],
            launches, dt))
    print("| **total** | %d | %d | %d | %d | | | | | | |" % tuple(totals))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
