"""Exports the zoo (fuse_dialect.bench.zoo.models) to ONNX: build products,
not committed. For each model, MODEL.onnx at full input size and, for the
numeric check, MODEL.small.onnx with its input and PyTorch's output
(MODEL.small.npz).

Usage: bench/zoo/export.py [--out DIR] [MODEL ...]   (default build/zoo)
"""

import argparse
import os
import sys

import numpy as np
import torch

from ... import toolchain
from . import models


def export(name, out, small, batch=False):
    """MODEL[.small][.batch].onnx in `out`; with `batch` its input's and
    output's first dimension symbolic ("batch"), as dynamic_axes exports
    it."""
    full_shape, small_shape = models.ZOO[name] if name in models.ZOO else \
        (models.ZOO["gpt2"][0], None)
    shape = small_shape if small else full_shape
    m = models.build(name, small=small)
    x = models.example_input(name, shape)
    path = os.path.join(out, name + (".small" if small else "") +
                        (".batch" if batch else "") + ".onnx")
    # Not under no_grad: PyTorch's attention fast path (an op ONNX has no
    # export for) is only taken without autograd.
    torch.onnx.export(m, (x,), path, opset_version=17, do_constant_folding=True,
                      input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}}
                      if batch else None)
    with torch.no_grad():
        if small and not batch:
            y = m(x)
            np.savez(os.path.join(out, name + ".small.npz"),
                     input=x.numpy(), output=y.numpy())
    return path


def main():
    ap = argparse.ArgumentParser(prog="export.py", description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(toolchain.source_root(), "build", "zoo"))
    ap.add_argument("--no-small", action="store_true")
    ap.add_argument("--no-full", action="store_true")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models or list(models.ZOO):
        for small in ([False] if args.no_small else [False, True]) if not args.no_full else [True]:
            print("export:", export(name, args.out, small), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
