"""fuse-random-test: differential testing of --fuse-ops on random graphs.

For seeds START .. START+COUNT-1: generates a random TOSA graph
(python/fuse_dialect/random_graph.py), runs it through utils/fuse-diff
(the program after `fuse-opt --fuse-ops` lowered by --fuse-lower-to-cpu vs
the unfused program through upstream mlir-opt, both run on the CPU on
seeded inputs), and checks that a second `--fuse-ops` changes nothing
(idempotence). A failing graph is minimized (nodes dropped while the
failure stays the same kind) and written to --save-dir as a lit regression
test.

Prints one line per failure and a summary line:
  random graphs: N compared, K failed (M mismatches, E tool errors, I not idempotent)
and exits 1 if any failed. Usage:
  fuse-random-test [--start S] [--count N] [--jobs J] [--batch B] [--save-dir DIR]
                   [--mixed-precision] [--large] [--batch-proof]

--mixed-precision draws another stream of graphs, with f16/bf16 islands
(casts, elementwise ops, matmuls, convolutions in the low type), compared
within 1e-2: a sum rounded to f16 or bf16 in another order differs by an
ulp of the low type. --large draws graphs with dims up to 64 (GPU tiles
staged, register-tiled, on tensor cores), compared within 1e-3 (longer
sums, reassociated).

--batch-proof checks instead `--fuse-prove-batch-separable` (the proof
behind one library for every batch size) on the graphs whose first argument
has a first dimension B >= 2: a graph it accepts (batch B, argument 0) is
compiled into a model library and run three times, on seeded inputs, with
the samples of argument 0 reversed, and with sample 0 changed: every
result must be reversed alike, and every other sample of every result
unchanged. A graph the proof accepts that mixes samples fails.
--winograd runs fuse-winograd (min-channels=1: the graphs' convolutions
are narrow) before --fuse-ops, so that every 3x3 convolution of stride 1
is checked as Winograd's F(2x2, 3x3) against the unfused program (a
mismatch is not reclassified as "inexact"; idempotence is still checked
on plain --fuse-ops).
--parallel-threads N compares instead the OpenMP CPU lowering at N threads
(three runs) with the one-thread lowering of the same fused program: they
must agree exactly.

A graph that mismatches with the default rules but matches with
--fuse-ops=strict=true (only the value-changing, reassociating rule
families -- associative, distributive, commutative reorderings of float
sums and products -- are off there) is counted "inexact" only within
those families' bound (docs/Reliability.md):
  * every value within rtol 1e-3, atol 1e-4 (5e-2 for --mixed-precision):
    a reordered sum differs by a few ulps of its terms; or
  * the graph holds a discontinuous op (floor, ceil, a comparison, a cast
    to an integer), which turns such an ulp into a step, and one value or
    at most 1% of the values differ.
Beyond that bound it is a mismatch, a failure.
"""


import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

from .. import random_graph as rg
from .. import toolchain

# utils/fuse-diff, run as this package's module.
FUSE_DIFF = toolchain.module_command("fuse_dialect.tools.fuse_diff")

# Set by --mixed-precision: which graphs, and the tolerance they are compared
# within.
MIXED_PRECISION = False
LARGE = False
PARALLEL = False
DIFF_ARGS = []


def generate_nodes(seed):
    return rg.generate_nodes(seed, mixed_precision=MIXED_PRECISION, large=LARGE)


def generate(seed):
    return rg.render(*generate_nodes(seed))


def check(text, fuse_opt, timeout, entry="model", pipeline="--fuse-ops"):
    """'ok', 'mismatch', 'error', 'idempotence' or 'inexact' (a mismatch
    that goes away with strict=true: a reassociating rule's rounding,
    amplified by a discontinuous op such as floor), with the detail."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.mlir")
        with open(path, "w") as f:
            f.write(text)
        try:
            r = subprocess.run(FUSE_DIFF + [path, "-p", pipeline,
                                "--fuse-opt", fuse_opt, "--timeout", str(timeout),
                                "--entry", entry] + DIFF_ARGS,
                               capture_output=True, text=True, timeout=4 * timeout,
                               env=toolchain.module_env())
        except subprocess.TimeoutExpired:
            return "error", "timeout"
        if r.returncode == 1:
            detail = r.stdout.strip().splitlines()[0] if r.stdout.strip() else ""
            if pipeline == "--fuse-ops" and not PARALLEL and check(
                    text, fuse_opt, timeout, entry, "--fuse-ops=strict=true")[0] == "ok" \
                    and within_inexact_bound(text, path, fuse_opt, timeout, entry, detail):
                return "inexact", detail
            return "mismatch", detail
        if r.returncode != 0:
            return "error", (r.stderr.strip() or r.stdout.strip())[-300:]
        once = subprocess.run([fuse_opt, path, "--fuse-ops"], capture_output=True, text=True)
        twice = subprocess.run([fuse_opt, "--fuse-ops"], input=once.stdout,
                               capture_output=True, text=True)
        if once.returncode or twice.returncode:
            return "error", (once.stderr + twice.stderr)[-300:]
        if once.stdout != twice.stdout:
            return "idempotence", "a second --fuse-ops changed the IR"
    return "ok", ""


# Ops after which a reordered sum's last-bit difference can become a step.
DISCONTINUOUS = re.compile(r"tosa\.(floor|ceil|greater|greater_equal|equal|argmax)\b|"
                           r"tosa\.cast [^:]*: \([^)]*\) -> tensor<[^>]*x?i\d+>")
MISMATCH_COUNT = re.compile(r"MISMATCH (\d+) of (\d+) values differ")


def within_inexact_bound(text, path, fuse_opt, timeout, entry, detail):
    """Whether a mismatch that strict=true removes stays within the bound of
    the reassociating rule families (see the module docstring)."""
    loose = ["--rtol", "5e-2", "--atol", "5e-2"] if MIXED_PRECISION else \
        ["--rtol", "1e-3", "--atol", "1e-4"]
    r = subprocess.run(FUSE_DIFF + [path, "-p", "--fuse-ops",
                        "--fuse-opt", fuse_opt, "--timeout", str(timeout),
                        "--entry", entry] + DIFF_ARGS + loose,
                       capture_output=True, text=True, timeout=4 * timeout,
                       env=toolchain.module_env())
    if r.returncode == 0:
        return True
    m = MISMATCH_COUNT.search(detail)
    return bool(DISCONTINUOUS.search(text) and m and
                int(m.group(1)) <= max(1, int(m.group(2)) // 100))


def minimize(seed, kind, detail, fuse_opt, timeout):
    args, nodes, outputs = generate_nodes(seed)
    changed = True
    while changed:
        changed = False
        for i in range(len(nodes) - 1, -1, -1):
            if i >= len(nodes) or not nodes[i].inputs:
                continue
            smaller = rg.drop_node(args, nodes, outputs, i)
            if smaller is None:
                continue
            result = check(rg.render(*smaller), fuse_opt, timeout)
            # The same failure: same kind, same first line of detail.
            if result[0] == kind and result[1].splitlines()[:1] == detail.splitlines()[:1]:
                args, nodes, outputs = smaller
                changed = True
    return rg.render(args, nodes, outputs)


REGRESSION = """// Found by utils/fuse-random-test (seed {seed}: {kind}; {detail}),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops"{diff_args} | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

"""


def check_separable(seed, fuse_opt, timeout):
    """--batch-proof on one graph: 'skipped' (no batch), 'refused' (by the
    proof), 'ok', 'mismatch' (accepted, yet samples mix) or 'error'."""
    import numpy as np
    from .. import aot, mlirtext, runtime
    text = generate(seed)
    first = mlirtext.call_types(mlirtext.find_func(text, "model"), any_element=True)[0][0]
    if not first.is_tensor or not first.shape or first.shape[0] < 2:
        return "skipped", ""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.mlir")
        with open(path, "w") as f:
            f.write(text)
        try:
            r = subprocess.run([fuse_opt, path, aot.batch_proof_pipeline(first.shape[0], [0]),
                                "--mlir-print-op-on-diagnostic=false", "-o", os.devnull],
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "error", "the proof timed out"
        if r.returncode:
            why = [line for line in r.stderr.splitlines() if "error:" in line]
            return ("refused", why[0].split("error: ", 1)[1]) if why else \
                ("error", r.stderr.strip()[-300:])
        try:
            aot.compile_library(path, os.path.join(d, "g.so"))
            model = runtime.load(os.path.join(d, "g.so"))
        except (aot.CompileError, runtime.FuseError) as e:
            return "error", str(e)[-300:]
        rng = np.random.default_rng(seed)

        def draw(b):
            return rng.uniform(-1, 1, b.shape).astype(b.dtype) if b.dtype.startswith("float") \
                else rng.integers(0, 3, b.shape).astype(b.dtype)
        xs = [draw(b) for b in model.inputs]
        base = model(*xs)
        reversed_ = model(np.ascontiguousarray(xs[0][::-1]), *xs[1:])
        changed = xs[0].copy()
        changed[0] = draw(model.inputs[0])[0]
        perturbed = model(changed, *xs[1:])

        def same(a, b):
            return np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)
        for k, (y, yr, yp) in enumerate(zip(base, reversed_, perturbed)):
            if not same(y[::-1], yr):
                return "mismatch", "result %d: reversing the samples does not reverse it" % k
            if not same(y[1:], yp[1:]):
                return "mismatch", "result %d: changing sample 0 changes other samples" % k
    return "ok", ""


def batch_proof(seeds, args):
    counts = {"skipped": 0, "refused": 0, "ok": 0, "mismatch": 0, "error": 0}
    reasons = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for seed, (kind, detail) in zip(seeds, pool.map(
                lambda s: check_separable(s, args.fuse_opt, args.timeout), seeds)):
            counts[kind] += 1
            if kind == "refused":
                reasons[detail] = reasons.get(detail, 0) + 1
            elif kind in ("mismatch", "error"):
                print("seed %d: %s: %s" % (seed, kind, detail.splitlines()[0] if detail else ""),
                      flush=True)
    for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:8]:
        print("refused %d: %s" % (n, why))
    print("batch proof on random graphs: %d with a batch, %d accepted and checked, %d refused, "
          "%d failed (%d mismatches, %d tool errors)" % (
              len(seeds) - counts["skipped"], counts["ok"] + counts["mismatch"], counts["refused"],
              counts["mismatch"] + counts["error"], counts["mismatch"], counts["error"]))
    return 1 if counts["mismatch"] + counts["error"] else 0


def main():
    ap = argparse.ArgumentParser(prog="fuse-random-test", description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--fuse-opt", default=toolchain.fuse_opt())
    ap.add_argument("--save-dir", default=None,
                    help="write minimized failures here as lit tests")
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--winograd", action="store_true",
                    help="fuse-winograd (min-channels=1) before --fuse-ops: every "
                         "3x3 convolution of stride 1 as Winograd's F(2x2, 3x3)")
    ap.add_argument("--mixed-precision", action="store_true",
                    help="graphs with f16/bf16 islands, compared within 1e-2")
    ap.add_argument("--large", action="store_true",
                    help="graphs with dims up to 64, compared within 1e-3")
    ap.add_argument("--parallel-threads", type=int, default=0,
                    help="compare the OpenMP lowering at this many threads with "
                         "the one-thread lowering, exactly")
    ap.add_argument("--libomp", default=toolchain.libomp())
    ap.add_argument("--extra-libs", default="",
                    help="more shared libraries for the fused program's run "
                         "(fuse-diff --extra-libs)")
    ap.add_argument("--batch-proof", action="store_true",
                    help="check --fuse-prove-batch-separable instead (see above)")
    ap.add_argument("--batch", type=int, default=1,
                    help="graphs per module (one compile and run for all; a "
                         "failing batch is rechecked graph by graph)")
    args = ap.parse_args()
    global MIXED_PRECISION, LARGE, DIFF_ARGS, PARALLEL
    MIXED_PRECISION, LARGE = args.mixed_precision, args.large
    if args.mixed_precision:
        DIFF_ARGS = ["--rtol", "1e-2", "--atol", "1e-2"]
    elif args.large:
        DIFF_ARGS = ["--rtol", "1e-3", "--atol", "1e-4"]
    if args.parallel_threads:
        PARALLEL = True
        # Every tile loop on the cores (min-parallel-work=0), against the
        # one-thread lowering without OpenMP.
        DIFF_ARGS = ["--ref-lower=--fuse-lower-to-cpu=parallel=false",
                     "--lower=--fuse-lower-to-cpu=min-parallel-work=0",
                     "--extra-libs", args.libomp,
                     "--threads", str(args.parallel_threads), "--repeat", "3",
                     "--rtol", "0", "--atol", "0"]
    if args.extra_libs:
        DIFF_ARGS = DIFF_ARGS + ["--extra-libs", args.extra_libs]
    seeds = range(args.start, args.start + args.count)
    if args.batch_proof:
        return batch_proof(list(seeds), args)
    counts = {"ok": 0, "mismatch": 0, "error": 0, "idempotence": 0, "inexact": 0}
    pipeline = "--fuse-winograd=min-channels=1 --fuse-ops" if args.winograd else "--fuse-ops"

    def check_batch(batch):
        """Several graphs in one module (one compile and run for all); a
        failing batch is checked graph by graph."""
        if len(batch) > 1:
            text = "\n".join(generate(s).replace("func.func @model(", "func.func @g%d(" % s, 1)
                              for s in batch)
            if check(text, args.fuse_opt, args.timeout, entry="all",
                     pipeline=pipeline)[0] == "ok":
                return [(s, ("ok", "")) for s in batch]
        return [(s, check(generate(s), args.fuse_opt, args.timeout, pipeline=pipeline))
                for s in batch]

    batches = [list(seeds[i:i + args.batch]) for i in range(0, len(seeds), args.batch)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = [r for rs in pool.map(check_batch, batches) for r in rs]
        failures = []
        for seed, (kind, detail) in results:
            counts[kind] += 1
            if kind == "inexact":
                print("seed %d: inexact (default rules reassociate; exact with strict=true): %s"
                      % (seed, detail), flush=True)
            elif kind != "ok":
                print("seed %d: %s: %s" % (seed, kind, detail.splitlines()[0] if detail else ""),
                      flush=True)
                failures.append((seed, kind, detail))
    for seed, kind, detail in failures:
        if args.save_dir and not args.no_minimize:
            text = minimize(seed, kind, detail, args.fuse_opt, args.timeout)
            os.makedirs(args.save_dir, exist_ok=True)
            path = os.path.join(args.save_dir, "random-%d.mlir" % seed)
            with open(path, "w") as f:
                f.write(REGRESSION.format(seed=seed, kind=kind, diff_args=" " + " ".join(DIFF_ARGS) if DIFF_ARGS else "",
                                          detail=(detail.splitlines() or [""])[0][:80]) + text)
            print("seed %d: minimized to %s" % (seed, path))
    failed = len(seeds) - counts["ok"] - counts["inexact"]
    print("random graphs: %d compared, %d failed (%d mismatches, %d tool errors, %d not idempotent; "
          "%d differ only through reassociating rules)"
          % (len(seeds), failed, counts["mismatch"], counts["error"], counts["idempotence"],
             counts["inexact"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
