#!/usr/bin/env python3
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
(`--fuse-lower-to-cpu=parallel=true`).
Inputs are constant tensors (1/8 everywhere); every result's first element
is summed and printed so that no call can be optimized away.

Usage: bench/cpu.py [--calls N] [--lower-options OPTS] [MODEL.mlir ...]
(build/bin/fuse-opt must exist; OPTS go to the fused columns'
--fuse-lower-to-cpu, e.g. "partial-tiles=false" to compare tilings)
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
FUSE_OPT = os.path.join(ROOT, "build", "bin", "fuse-opt")
LLVM = "/usr/lib/llvm-22"
MLIR_OPT = os.path.join(LLVM, "bin", "mlir-opt")
RUNNER = os.path.join(LLVM, "bin", "mlir-runner")
LIBS = ",".join(os.path.join(LLVM, "lib", l) for l in
                ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
LIBOMP = os.path.join(LLVM, "lib", "libomp.so")

sys.path.insert(0, os.path.join(ROOT, "utils"))
from fuse_reference import LOOPS_STEP, REFERENCE_PIPELINE as UNFUSED  # noqa: E402
UNFUSED_OMP = UNFUSED.replace(
    LOOPS_STEP,
    "func.func(convert-linalg-to-parallel-loops),convert-scf-to-openmp,canonicalize,")

def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd[:3]) + " ...\n" + r.stderr[-3000:])
    return r.stdout


def signature(text):
    m = re.search(r"func\.func @model\(([^)]*)\)\s*->\s*\(?([^{]*?)\)?\s*\{", text)
    if not m:
        raise RuntimeError("no @model")
    args = re.findall(r"tensor<[^>]*>", m.group(1))
    results = re.findall(r"tensor<[^>]*>", m.group(2))
    return args, results


def timing_main(args, results, calls):
    """A @main that calls @model `calls` times and prints seconds per call."""
    lines = ["  func.func private @rtclock() -> f64",
             "  func.func private @printF64(f64)",
             "  func.func private @printNewline()",
             "  func.func @main() {"]
    for i, t in enumerate(args):
        lines.append("    %%a%d = arith.constant dense<0.125> : %s" % (i, t))
    lines += ["    %c0 = arith.constant 0 : index",
              "    %c1 = arith.constant 1 : index",
              "    %%n = arith.constant %d : index" % calls,
              "    %zero = arith.constant 0.0 : f32"]
    sig = "(%s) -> (%s)" % (", ".join(args), ", ".join(results))
    call = "func.call @model(%s) : %s" % (
        ", ".join("%%a%d" % i for i in range(len(args))), sig)
    def firsts(res_prefix):
        out = []
        acc = "%acc"
        for k, t in enumerate(results):
            rank = t.count("x")
            name = res_prefix if len(results) == 1 else "%s#%d" % (res_prefix, k)
            idx = ", ".join(["%c0"] * rank)
            out.append("      %%e%d = tensor.extract %s[%s] : %s" % (k, name, idx, t))
            out.append("      %%s%d = arith.addf %s, %%e%d : f32" % (k, acc, k))
            acc = "%%s%d" % k
        return out, acc
    lines.append("    %%w = %s" % call)   # warm-up
    lines.append("    %t0 = func.call @rtclock() : () -> f64")
    lines.append("    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {")
    lines.append("      %%r%s = %s" % ("" if len(results) == 1 else ":%d" % len(results), call))
    body, acc = firsts("%r")
    lines += body
    lines.append("      scf.yield %s : f32" % acc)
    lines.append("    }")
    lines += ["    %t1 = func.call @rtclock() : () -> f64",
              "    %dt = arith.subf %t1, %t0 : f64",
              "    %%nf = arith.constant %d.0 : f64" % calls,
              "    %per = arith.divf %dt, %nf : f64",
              "    func.call @printF64(%per) : (f64) -> ()",
              "    func.call @printNewline() : () -> ()",
              "    %sum64 = arith.extf %sum : f32 to f64",
              "    func.call @printF64(%sum64) : (f64) -> ()",
              "    func.call @printNewline() : () -> ()",
              "    return", "  }"]
    return "\n".join(lines) + "\n"


def with_main(module_text, main_text):
    end = module_text.rstrip()
    if end.startswith("module") or re.search(r"^module", end, re.M):
        pos = end.rfind("}")
        return end[:pos] + main_text + "}\n"
    return "module {\n" + module_text + main_text + "}\n"


def time_variant(llvm_text, omp=False):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(llvm_text)
        path = f.name
    try:
        out = run([RUNNER, path, "-e", "main", "-entry-point-result=void",
                   "-O3", "-shared-libs=" + LIBS + ("," + LIBOMP if omp else "")])
    finally:
        os.unlink(path)
    values = [float(x) for x in out.split()]
    return values[0], values[1]


def main(argv):
    ap = argparse.ArgumentParser()
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
        fargs, fres = signature(run([MLIR_OPT, path]))
        main_text = timing_main(fargs, fres, args.calls)
        source = with_main(run([MLIR_OPT, path]), main_text)
        fused_ir = with_main(run([FUSE_OPT, path, "--fuse-ops"]), main_text)
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
            lowered["fused_omp"] = run(
                [FUSE_OPT, "-", ("--fuse-lower-to-cpu=parallel=true " +
                                 args.lower_options).strip()], stdin=fused_ir)
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
