"""Bench: what algebraic simplification saves on the example models.

For every model in examples/ (or the files given), runs
`fuse-algebraic-simplify{report=true}` and prints, side by side, flops and
bytes moved (the cost model's counts, with tensor sizes), compute ops, and
scalar ops per output element, before and after, plus the rules that fired.

Usage: bench/algebraic.py [MODEL.mlir ...]   (build/bin/fuse-opt must exist)
"""

import glob
import os
import re
import subprocess
import sys

from .. import toolchain

ROOT = toolchain.source_root()
FUSE_OPT = toolchain.fuse_opt()
PIPELINE = "builtin.module(func.func(fuse-algebraic-simplify{report=true}))"
REPORT = re.compile(r"fuse-algebraic-simplify @(\w+): fired (\d+) .*; folded (\d+); "
                    r"flops (\d+) -> (\d+); bytes (\d+) -> (\d+)")
COMPUTE = re.compile(r"=\s*(tosa\.(?!const)[a-z_0-9]+|linalg\.[a-z_0-9]+|arith\.(?!constant)[a-z]+|math\.[a-z]+)")
RESULT = re.compile(r"return .*: (tensor<[^>]*>)")


def elements(ty):
    dims = ty[len("tensor<"):-1].split("x")[:-1]
    n = 1
    for d in dims:
        n *= int(d)
    return n


def count_ops(text):
    return len(COMPUTE.findall(text))


def main(argv):
    models = argv[1:] or sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    print("| model | compute ops | flops | bytes moved | flops / output element | rules fired |")
    print("|---|---|---|---|---|---|")
    for path in models:
        src = open(path).read()
        run = subprocess.run([FUSE_OPT, path, "--pass-pipeline=" + PIPELINE],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print("| %s | failed: %s |" % (os.path.basename(path), run.stderr.strip()[:80]))
            continue
        m = REPORT.search(run.stderr)
        fired, folded, f0, f1, b0, b1 = (int(x) for x in m.groups()[1:])
        rules = ", ".join(l.strip() for l in run.stderr.splitlines()[1:] if l.startswith("  "))
        out = sum(elements(t) for t in RESULT.findall(src)[:1]) or 1
        print("| %s | %d → %d | %d → %d (%.0f%%) | %d → %d (%.0f%%) | %.1f → %.1f | %d (+%d folded) %s |" % (
            os.path.basename(path), count_ops(src), count_ops(run.stdout),
            f0, f1, 100.0 * (f1 - f0) / max(f0, 1), b0, b1, 100.0 * (b1 - b0) / max(b0, 1),
            f0 / out, f1 / out, fired, folded, rules))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
