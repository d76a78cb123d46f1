"""Bench: layout moves of run-time tensors against the memory's speed.

A transpose the layout passes cannot remove (an NCHW tensor a model hands
back as NHWC, a detection head's permute, attention's heads moved out,
a filter that arrives as an argument) is one group of its own: each value
read once, written once. Times, one thread, each shape below as a transpose
followed by a ReLU (the group), compiled as its own model by `--fuse-ops`
and `--fuse-lower-to-cpu` ahead of time into a shared library (as
bench/roofline.py builds its kernels), beside PyTorch's
`x.permute(p).contiguous().relu_()` on the same values when torch imports,
interleaved in one run, medians; with --baseline, an older fuse-opt's
library too. Prints our time, the bytes moved (read and written) per second
against the core's triad bandwidth (bench/roofline/peak.c), and the ratios
(> 1: we are faster). Every output is checked against numpy's. Usage:
bench/transposes.py [--calls N] [--rounds N] [--lower-options OPTS]
[--baseline OLD_FUSE_OPT] [--cases REGEX]. docs/Performance.md holds the
latest table.
"""

import re
import sys
import tempfile

from .roofline import (columns_of, inputs_of, median_seconds,
                       ours_and_baseline, peak, rerun_keeping_freed_memory,
                       timing_arguments)

# (name, input shape, permutation)
CASES = [
    ("NCHW to NHWC 1x64x112x112", (1, 64, 112, 112), (0, 2, 3, 1)),
    ("NHWC to NCHW 1x112x112x64", (1, 112, 112, 64), (0, 3, 1, 2)),
    ("NCHW to NHWC 1x256x56x56", (1, 256, 56, 56), (0, 2, 3, 1)),
    ("matrix 1024x1024", (1024, 1024), (1, 0)),
    ("matrix 768x3072", (768, 3072), (1, 0)),
    ("filter 512x3x3x512 to 3x3x512x512", (512, 3, 3, 512), (1, 2, 3, 0)),
    ("heads 1x197x12x64 to 1x12x64x197", (1, 197, 12, 64), (0, 2, 3, 1)),
    ("detection head 1x84x80x80 to 1x80x80x84", (1, 84, 80, 80), (0, 2, 3, 1)),
]


def model_text(shape, perm):
    """@model: tosa.transpose of `shape` by `perm`, then a ReLU."""
    out = [shape[p] for p in perm]
    x = "tensor<%sxf32>" % "x".join(map(str, shape))
    y = "tensor<%sxf32>" % "x".join(map(str, out))
    return """func.func @model(%%x: %(x)s) -> %(y)s {
  %%t = tosa.transpose %%x {perms = array<i32: %(perm)s>} : (%(x)s) -> %(y)s
  %%r = tosa.clamp %%t {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (%(y)s) -> %(y)s
  return %%r : %(y)s
}
""" % dict(x=x, y=y, perm=", ".join(map(str, perm)))


def torch_move(x, perm):
    """PyTorch's version on the same values (one thread), or None."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    t = torch.from_numpy(x)
    return lambda: t.permute(*perm).contiguous().relu_()


def main(argv):
    rerun_keeping_freed_memory("fuse_dialect.bench.transposes", argv)
    args = timing_arguments("transposes.py", 5, argv)
    import numpy as np
    _, bw = peak()
    print("One core: triad %.1f GB/s\n" % bw)
    base = "| baseline (ms) | baseline / ours " if args.baseline else ""
    print("| move (then ReLU) | MB | ours (ms) | ours GB/s | ours %% of triad %s"
          "| PyTorch (ms) | PyTorch / ours | exact |" % base)
    print("|---|---|---|---|---|" + ("---|---|" if args.baseline else "") +
          "---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for i, (name, shape, perm) in enumerate(CASES):
            if not re.search(args.cases, name):
                continue
            text = model_text(shape, perm)
            ours, before = ours_and_baseline(text, work, i, args)
            inputs = inputs_of(ours)
            theirs = torch_move(inputs[0], perm)
            columns = columns_of(ours, before, theirs, inputs)
            want = np.maximum(np.transpose(inputs[0], perm), 0)
            exact = np.array_equal(np.asarray(ours(*inputs)).reshape(want.shape), want)
            med = median_seconds(columns, args.rounds, args.calls)
            moved = 2.0 * inputs[0].nbytes
            row = "| %s | %.1f | %.3f | %.1f | %.1f%% |" % (
                name, moved * 1e-6, med["ours"] * 1e3, moved / med["ours"] * 1e-9,
                100.0 * moved / med["ours"] * 1e-9 / bw)
            if before:
                row += " %.3f | %.2fx |" % (med["before"] * 1e3,
                                            med["before"] / med["ours"])
            row += (" %.3f | %.2fx |" % (med["torch"] * 1e3, med["torch"] / med["ours"])
                    if theirs else " n/a | n/a |")
            print(row + " %s |" % ("yes" if exact else "NO"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
