#!/usr/bin/env python3
"""Turns the GPU bench's results into one Markdown table (run by run.sh on
the GPU machine, which has Python with PyTorch but no MLIR).

Per model: µs per call of our fused kernels, of one kernel per op
(unfused), of PyTorch eager and torch.compile on the same graph (the
program utils/fuse-to-torch wrote), the speed-ups, whether our GPU results
match the CPU reference, and, for the fused program, the achieved HBM
bandwidth of its memory-bound kernels (bytes of the buffers each is passed,
from kernels.json, over its CUDA-event time; the H200's device-to-device
copy reaches about 4.3 TB/s) and the kernels' registers and spills.

Usage: report.py BUNDLE_DIR   (after run.sh has written */*.json)
"""
import glob
import json
import os
import sys

PEAK_GBS = 4300.0


def load(path):
    try:
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if l.startswith("{")]
        return json.loads(lines[-1]) if lines else None
    except (OSError, ValueError):
        return None


def fmt(v, spec="%.1f"):
    return spec % v if isinstance(v, (int, float)) else "—"


def main(d):
    print("| model | fused µs | unfused µs | PyTorch eager µs | torch.compile µs | fused vs unfused | fused vs eager | fused vs compile | fused kernels µs (events) | matches CPU (fused/unfused) | memory-bound kernels: GB/s (best, bytes-weighted), % of 4.3 TB/s | launches fused/unfused | max registers, spill bytes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in sorted(glob.glob(os.path.join(d, "*", ""))):
        name = os.path.basename(os.path.dirname(m))
        f, u = load(os.path.join(m, "fused.json")), load(os.path.join(m, "unfused.json"))
        t = load(os.path.join(m, "torch.json"))
        fu = f and f.get("us_per_call")
        uu = u and u.get("us_per_call")
        eu = t and t.get("eager_us")
        cu = t and t.get("compile_us")
        ratio = lambda a, b: ("%.2fx" % (a / b)) if a and b else "—"  # noqa: E731
        bw = "—"
        try:
            kernels = json.load(open(os.path.join(m, "fused", "kernels.json")))
            times = f.get("launch_us", []) if f else []
            if len(times) == len(kernels):
                mem = [(k["bytes"], us) for k, us in zip(kernels, times)
                       if k.get("memory_bound") and us > 0]
                if mem:
                    best = max(b / us / 1e3 for b, us in mem)
                    weighted = sum(b for b, _ in mem) / sum(us for _, us in mem) / 1e3
                    bw = "%.0f, %.0f (%.0f%%)" % (best, weighted, 100 * weighted / PEAK_GBS)
        except (OSError, ValueError):
            pass
        regs = "—"
        p = os.path.join(m, "fused", "ptxas.txt")
        if os.path.exists(p):
            r = s = 0
            for line in open(p):
                w = line.split()
                if len(w) >= 7:
                    r = max(r, int(w[2]))
                    s += int(w[4]) + int(w[6])
            regs = "%d, %d" % (r, s)
        launches = "%s/%s" % (len(f.get("launch_us", [])) if f else "—",
                              len(u.get("launch_us", [])) if u else "—")
        # The fused program's kernels alone: the sum of its launches' CUDA
        # event times (the rest of a call is host work: allocation,
        # synchronous launches, synchronization).
        kernels_us = sum(f["launch_us"]) if f and f.get("launch_us") else None
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s | %s | %s |" % (
            name, fmt(fu), fmt(uu), fmt(eu), fmt(cu), ratio(uu, fu), ratio(eu, fu),
            ratio(cu, fu), fmt(kernels_us), f and f.get("match"), u and u.get("match"),
            bw, launches, regs))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
