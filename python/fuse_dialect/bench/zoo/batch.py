"""Zoo models compiled once for every batch size: each exported with a
symbolic batch (dynamic_axes), compiled by fuse_dialect.compile (the batch
proved kept apart, the model compiled for one sample), and run at several
batch sizes against PyTorch on the same input; with --time B, the library
is timed at batch B side by side with one compiled for batch B alone
(--dim batch=B), interleaved, medians, at one thread and at every core.

Usage: bench/zoo/batch.py [--full] [--batches 1,3,16] [--time B] [--runs N]
                          [--out DIR] MODEL...
(--full: the zoo's full input size; default its reduced one.)
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch

import fuse_dialect
from ... import aot, toolchain
from . import export, models


def compare(model, module, name, shape, batches):
    """'batch N True (error)' per batch size: ours against PyTorch on one
    seeded input."""
    out = []
    for n in batches:
        x = models.example_input(name, (n,) + tuple(shape[1:]))
        with torch.no_grad():
            ref = module(x).numpy()
        [ours] = model(x.numpy())
        err = float(np.max(np.abs(ours - ref)) / max(float(np.max(np.abs(ref))), 1e-30)) \
            if ours.shape == ref.shape else float("inf")
        out.append("batch %d %s (%.1e)" % (n, err < 1e-4, err))
    return out


def timed(calls, runs):
    """Median seconds of each of `calls`, called in turn `runs` times."""
    seconds = [[] for _ in calls]
    for _ in range(runs):
        for k, call in enumerate(calls):
            start = time.perf_counter()
            call()
            seconds[k].append(time.perf_counter() - start)
    return [statistics.median(s) for s in seconds]


def main():
    ap = argparse.ArgumentParser(prog="batch.py", description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--batches", default="1,3,16")
    ap.add_argument("--time", type=int, default=0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(toolchain.source_root(), "build", "zoo"))
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        full, small = models.ZOO[name]
        shape = full if args.full else small
        path = export.export(name, args.out, small=not args.full, batch=True)
        module = models.build(name, small=not args.full)
        start = time.perf_counter()
        try:
            model = fuse_dialect.compile(path)
        except aot.CompileError as e:
            print("%s: refused: %s" % (name, e), flush=True)
            continue
        compiled = time.perf_counter() - start
        print("%s: compiled once (%.1f s) for %s: %s" % (
            name, compiled, model.inputs[0], ", ".join(compare(model, module, name, shape,
                                                               batches))), flush=True)
        if args.time:
            static = fuse_dialect.compile(path, dims={"batch": args.time})
            x = models.example_input(name, (args.time,) + tuple(shape[1:])).numpy()
            for threads in (1, os.cpu_count() or 1):
                model.set_threads(threads)
                static.set_threads(threads)
                model(x), static(x)
                dynamic_s, static_s = timed([lambda: model(x), lambda: static(x)],
                                            args.runs)
                print("%s: batch %d, %d thread(s): once for every batch %.1f ms, for "
                      "batch %d alone %.1f ms, ratio %.3f" % (
                          name, args.time, threads, dynamic_s * 1e3, args.time,
                          static_s * 1e3, dynamic_s / static_s), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
