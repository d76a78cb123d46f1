"""Time a compiled model: latency percentiles, throughput, peak memory.

usage: fuse-bench MODEL.so|MODEL.onnx|MODEL.mlir [--runs N] [--warmup N]
                  [--threads N] [--weights FILE] [--source MODEL.onnx|.mlir]
                  [--compare-onnxruntime] [--compare-torch] [--seed S] [--batch N]
                  [--json]

A model library (fuse-compile's) is loaded as it is; an .onnx or .mlir file
is compiled first, for this CPU, into a temporary folder (removed). Inputs
are seeded random values (floats uniform in [-1, 1), integers in [0, 10)),
with `--batch` samples (default 1) for a model compiled for any batch size.
After `--warmup` calls (default 5), `--runs` calls (default 100) are timed
one by one, each call through the model's C ABI from this process (the
Python call adds about 10 us); the report gives the latency's p50, p90,
p99, mean and min, the throughput (calls per second at the mean), and the
process's peak resident memory with the model loaded and run once (before
any peer is imported) and at the end.
Per-kernel times are not available: on the CPU every group is a loop nest
inside one function, and the CUDA artifact has no profiling entry point yet.

Peers, interleaved with ours call by call on the same inputs (outputs
checked against ours):
  --compare-onnxruntime  ONNX Runtime's CPU provider, all graph
                         optimizations (needs the .onnx: the model, or
                         --source, and `onnxruntime` importable);
  --compare-torch        PyTorch eager on the same graph: fuse-to-torch's
                         translation of the imported TOSA (an ONNX file
                         carries no nn.Module; needs `torch`).
A peer that is not installed is reported as such, not an error. Progress
goes to stderr when a phase takes more than a second; --json prints the
report as one JSON object instead of the table.
"""

import argparse
import importlib.util
import json
import os
import resource
import sys
import tempfile
import time

from .. import aot, runtime, toolchain


class Progress:
    """One stderr line per phase that runs more than a second."""

    def __init__(self):
        self.t0 = self.last = time.perf_counter()

    def tick(self, what, done, total):
        now = time.perf_counter()
        if now - self.last >= 1.0:
            sys.stderr.write("fuse-bench: %s %d/%d\n" % (what, done, total))
            sys.stderr.flush()
            self.last = now


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def make_inputs(model, seed, batch=1):
    import numpy as np
    rng = np.random.default_rng(seed)
    out = []
    for b in model.inputs:
        shape = [batch if d is None else d for d in b.shape]
        if b.dtype is None:
            raise SystemExit("fuse-bench: input '%s' is bfloat16, which numpy lacks" % b.name)
        if b.dtype.startswith(("float",)):
            out.append(rng.uniform(-1, 1, shape).astype(b.dtype))
        elif b.dtype == "bool":
            out.append(rng.integers(0, 2, shape).astype(bool))
        else:
            out.append(rng.integers(0, 10, shape).astype(b.dtype))
    return out


def stats(seconds):
    import numpy as np
    ms = np.array(seconds) * 1e3
    return {"p50_ms": float(np.percentile(ms, 50)), "p90_ms": float(np.percentile(ms, 90)),
            "p99_ms": float(np.percentile(ms, 99)), "mean_ms": float(ms.mean()),
            "min_ms": float(ms.min()), "throughput_per_s": float(1e3 / ms.mean())}


def onnxruntime_peer(source, threads):
    if not source or not source.endswith(".onnx"):
        return None, "needs the .onnx file (the model or --source)"
    try:
        import onnxruntime as ort
    except ImportError:
        return None, "onnxruntime is not installed for %s" % sys.executable
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if threads:
        opts.intra_op_num_threads = threads
    session = ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return (lambda *xs: session.run(None, dict(zip(names, xs)))), None


def torch_peer(source, work, threads):
    if not source:
        return None, "needs the .onnx or .mlir file (the model or --source)"
    try:
        import torch
    except ImportError:
        return None, "torch is not installed for %s" % sys.executable
    from . import fuse_to_torch
    mlir = source
    if source.endswith(".onnx"):
        mlir = os.path.join(work, "imported.mlir")
        aot.run_tool([toolchain.launcher("fuse-import"), source, "-o", mlir], "fuse-import")
    try:
        # As fuse-opt prints it, which fuse-to-torch reads.
        printed = aot.run_tool([toolchain.fuse_opt(), mlir], "fuse-opt")
        program = fuse_to_torch.program(printed)
    except (fuse_to_torch.Unsupported, aot.CompileError, ValueError) as e:
        return None, "fuse-to-torch cannot translate it: %s" % str(e)[:200]
    path = os.path.join(work, "model_torch.py")
    with open(path, "w") as f:
        f.write(program)
    spec = importlib.util.spec_from_file_location("fuse_bench_torch_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if threads:
        torch.set_num_threads(threads)
    consts = module.load_consts(torch.device("cpu"))

    def call(*xs):
        with torch.no_grad():
            return [o.numpy() for o in module.model(consts, *[torch.from_numpy(x) for x in xs])]
    return call, None


def max_rel_error(ours, theirs):
    import numpy as np
    worst = 0.0
    for a, b in zip(ours, theirs):
        a = np.asarray(a, dtype=np.float64).ravel()
        b = np.asarray(b, dtype=np.float64).ravel()
        if a.size != b.size:
            return float("inf")
        if a.size:
            worst = max(worst, float(np.max(np.abs(a - b))) / max(float(np.max(np.abs(a))), 1e-30))
    return worst


def main(argv):
    ap = argparse.ArgumentParser(prog="fuse-bench", description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="0: OpenMP's default")
    ap.add_argument("--weights", help="the weights file of a model compiled with "
                    "--weights=external (default: beside it)")
    ap.add_argument("--source", help="the model's .onnx or .mlir, for the peers")
    ap.add_argument("--compare-onnxruntime", action="store_true")
    ap.add_argument("--compare-torch", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=1,
                    help="the batch of a model compiled for any batch size")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv[1:])
    if args.runs < 1 or args.warmup < 0 or not 0 <= args.threads <= aot.MAX_THREADS or \
            args.batch < 1:
        ap.error("--runs and --batch must be at least 1, --warmup at least 0, --threads in "
                 "[0, %d]" % aot.MAX_THREADS)
    source = args.source or (args.model if args.model.endswith((".onnx", ".mlir")) else None)
    with tempfile.TemporaryDirectory(prefix="fuse-bench-") as work:
        try:
            if args.model.endswith((".onnx", ".mlir")):
                library = os.path.join(work, "model.so")
                aot.compile_library(args.model, library, log=lambda m: sys.stderr.write(
                    "fuse-bench: compiling: %s\n" % m))
            else:
                library = args.model
            model = runtime.load(library, weights=args.weights, threads=args.threads)
        except (aot.CompileError, runtime.FuseError) as e:
            sys.stderr.write("fuse-bench: %s\n" % e)
            return 1
        try:
            inputs = make_inputs(model, args.seed, args.batch)
        except MemoryError:
            sys.stderr.write("fuse-bench: the inputs (--batch %d) do not fit in memory\n"
                             % args.batch)
            return 1
        reference = model(*inputs)
        # Ours alone: before any peer is imported into this process.
        loaded_mb = peak_mb()
        engines = [("ours", lambda: model(*inputs))]
        notes = {}
        for flag, name, make in (
                (args.compare_onnxruntime, "onnxruntime",
                 lambda: onnxruntime_peer(source, args.threads)),
                (args.compare_torch, "torch", lambda: torch_peer(source, work, args.threads))):
            if not flag:
                continue
            call, why = make()
            if call is None:
                notes[name] = why
                continue
            err = max_rel_error(reference, call(*inputs))
            notes[name] = "max rel. error vs ours %.1e" % err
            engines.append((name, lambda call=call: call(*inputs)))
        progress = Progress()
        for k in range(args.warmup):
            for _, fn in engines:
                fn()
            progress.tick("warm-up", k + 1, args.warmup)
        progress = Progress()
        times = {name: [] for name, _ in engines}
        for k in range(args.runs):
            for name, fn in engines:
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)
            progress.tick("runs", k + 1, args.runs)
    report = {"model": model.name, "library": args.model, "target": model.target,
              "inputs": [repr(b) for b in model.inputs],
              "outputs": [repr(b) for b in model.outputs],
              "runs": args.runs, "warmup": args.warmup, "threads": args.threads or "default",
              "peak_rss_mb_ours": loaded_mb, "peak_rss_mb": peak_mb(),
              "per_kernel": "not available on this target",
              "engines": {name: stats(v) for name, v in times.items()}, "peers": notes}
    if args.json:
        print(json.dumps(report))
        return 0
    print("model %s (%s): %s -> %s" % (model.name, model.target, ", ".join(report["inputs"]),
                                        ", ".join(report["outputs"])))
    print("%d runs after %d warm-up, threads %s" % (args.runs, args.warmup, report["threads"]))
    print("| engine | p50 ms | p90 ms | p99 ms | mean ms | min ms | runs/s | time / ours |")
    print("|---|---|---|---|---|---|---|---|")
    ours = report["engines"]["ours"]["p50_ms"]
    for name, s in report["engines"].items():
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %.2f |" % (
            name, s["p50_ms"], s["p90_ms"], s["p99_ms"], s["mean_ms"], s["min_ms"],
            s["throughput_per_s"], s["p50_ms"] / ours))
    print("peak memory (process RSS): %.0f MB with the model loaded and run once, "
          "%.0f MB at the end%s" % (loaded_mb, report["peak_rss_mb"],
                                    " (with the peers)" if len(engines) > 1 else ""))
    print("per-kernel times: %s" % report["per_kernel"])
    for name, note in notes.items():
        print("%s: %s" % (name, note))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
