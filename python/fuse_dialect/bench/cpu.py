"""Bench: CPU time per example model, unfused vs. fused, side by side.

For every model in examples/ and bench/models/ (larger tensors, where
memory traffic shows; or the files given), compiles @model three
ways and times N calls of each under mlir-runner (-O3, one process each, one
warm-up call first):
  * unfused: the upstream TOSA -> linalg -> loops lowering, one loop nest per
    op (what utils/fuse-diff uses as its reference),
  * groups, op by op: `--fuse-ops`, then `--fuse-lower-to-cpu{tile-groups=0}`
    (algebraic and layout rewrites, but every op still its own loop nest),
  * fused: `--fuse-ops`, then `--fuse-lower-to-cpu` (one tiled loop nest per
    fuse.group; intermediates live per tile).
With LLVM's OpenMP runtime installed (Debian libomp-22-dev), two more
columns run on all cores: unfused with every op's loop nest an OpenMP
parallel loop, and fused with each group's tiles an OpenMP parallel loop
(the default `--fuse-lower-to-cpu`, whose one-thread columns run with
OMP_NUM_THREADS=1).
Inputs are constant tensors (1/8 everywhere); every result's first element
is summed and printed so that no call can be optimized away.

Usage: bench/cpu.py [--calls N] [--lower-options OPTS] [MODEL.mlir ...]
(build/bin/fuse-opt must exist; OPTS go to the fused columns'
--fuse-lower-to-cpu, e.g. "partial-tiles=false" to compare tilings)
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

from .. import mlirtext, toolchain
from ..reference import REFERENCE_PIPELINE as UNFUSED
from ..reference import REFERENCE_PIPELINE_OPENMP as UNFUSED_OMP

ROOT = toolchain.source_root()
FUSE_OPT = toolchain.fuse_opt()
MLIR_OPT = toolchain.tool("mlir-opt")
RUNNER = toolchain.tool("mlir-runner")
LIBS = toolchain.runner_libs()
LIBOMP = toolchain.libomp()


def run(cmd, stdin=None, env=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd[:3]) + " ...\n" + r.stderr[-3000:])
    return r.stdout


def timing_main(text, calls):
    """A @main that calls @model of `text` `calls` times on constant inputs
    (1/8 everywhere) and prints seconds per call, then a checksum."""
    model = mlirtext.find_func(text, "model")
    if model is None:
        raise RuntimeError("no @model")
    inputs = [mlirtext.arith_constant("dense<0.125>", t) for t in model.args]
    main, decls = mlirtext.synthesize_main([(model, inputs)], text, timed=calls)
    return main + decls


def time_variant(llvm_text, omp=False):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(llvm_text)
        path = f.name
    try:
        # The default lowering's tile loops are OpenMP loops (LIBS holds
        # libomp): one thread for the one-thread columns, all cores for the
        # OpenMP ones.
        out = run([RUNNER, path, "-e", "main", "-entry-point-result=void",
                   "-O3", "-shared-libs=" + LIBS],
                  env=None if omp else dict(os.environ, OMP_NUM_THREADS="1"))
    finally:
        os.unlink(path)
    values = [float(x) for x in out.split()]
    return values[0], values[1]


def main(argv):
    ap = argparse.ArgumentParser(prog="cpu.py")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--lower-options", default="",
                    help="more --fuse-lower-to-cpu options for the fused "
                         "columns (e.g. partial-tiles=false)")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args(argv[1:])
    models = args.models or (
        sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))) +
        sorted(glob.glob(os.path.join(ROOT, "bench", "models", "*.mlir"))))
    omp = os.path.exists(LIBOMP)
    header = ("| model | unfused (µs/call) | fuse-ops, op by op (µs/call) | "
              "fuse-ops, one nest per group (µs/call) | speed-up vs unfused |")
    if omp:
        header += (" unfused, OpenMP (µs/call) | one nest per group, OpenMP "
                   "(µs/call) | speed-up, OpenMP |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for path in models:
        parsed = run([MLIR_OPT, path])
        main_text = timing_main(parsed, args.calls)
        source = mlirtext.insert_into_module(parsed, main_text)
        fused_ir = mlirtext.insert_into_module(run([FUSE_OPT, path, "--fuse-ops"]), main_text)
        lowered = {
            "unfused": run([MLIR_OPT, "--pass-pipeline=" + UNFUSED, "-"], stdin=source),
            "opbyop": run([FUSE_OPT, "-", "--fuse-lower-to-cpu=tile-groups=false"],
                          stdin=fused_ir),
            "fused": run([FUSE_OPT, "-", "--fuse-lower-to-cpu=" + args.lower_options],
                         stdin=fused_ir),
        }
        if omp:
            lowered["unfused_omp"] = run(
                [MLIR_OPT, "--pass-pipeline=" + UNFUSED_OMP, "-"], stdin=source)
            # The same program as "fused", run on all cores.
            lowered["fused_omp"] = lowered["fused"]
        times, sums = {}, {}
        for name, text in lowered.items():
            times[name], sums[name] = time_variant(text, omp=name.endswith("_omp"))
        for name, s_ in sums.items():
            if abs(s_ - sums["unfused"]) > 1e-3 * max(1.0, abs(sums["unfused"])):
                raise RuntimeError("%s: %s checksum differs: %g vs %g"
                                   % (path, name, s_, sums["unfused"]))
        row = "| %s | %.1f | %.1f | %.1f | %.2fx |" % (
            os.path.basename(path), times["unfused"] * 1e6, times["opbyop"] * 1e6,
            times["fused"] * 1e6, times["unfused"] / times["fused"])
        if omp:
            row += " %.1f | %.1f | %.2fx |" % (
                times["unfused_omp"] * 1e6, times["fused_omp"] * 1e6,
                times["unfused_omp"] / times["fused_omp"])
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
