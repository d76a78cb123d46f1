"""Checks a compiled model library against the same model run by
mlir-runner (the JIT path: --fuse-ops, --fuse-lower-to-cpu) and against
what the C program abi-check wrote through the ABI:
    check-artifact.py MODEL.mlir MODEL.so C-OUTPUTS.bin [WEIGHTS]
Inputs are abi-check's seeded values. Prints one line per output; exits 1
on a mismatch."""
import sys

import numpy as np

import fuse_dialect
from fuse_dialect import runner, toolchain


def value(k, n):
    i = np.arange(n, dtype=np.int64)
    return ((i * 37 + k * 11) % 19 - 9) / 9.0


def main(mlir, library, c_outputs, weights=None):
    model = fuse_dialect.load(library, weights=weights)
    inputs = []
    for k, b in enumerate(model.inputs):
        v = value(k, int(np.prod(b.shape)))
        v = (v * 9).astype(b.dtype) if "int" in b.dtype else v.astype(b.dtype)
        inputs.append(v.reshape(b.shape))
    got = model(*inputs)
    flat = open(c_outputs, "rb").read()
    jit = runner.run_model(open(mlir).read(), inputs,
                           [(b.shape, b.dtype) for b in model.outputs], toolchain.fuse_opt())
    ok, at = True, 0
    for k, (b, y, j) in enumerate(zip(model.outputs, got, jit)):
        c = np.frombuffer(flat[at:at + y.nbytes], dtype=y.dtype).reshape(y.shape)
        at += y.nbytes
        scale = max(float(np.max(np.abs(j))), 1.0) if j.size else 1.0
        err = float(np.max(np.abs(y.astype(np.float64).ravel() - j.astype(np.float64)))) / scale \
            if y.size else 0.0
        same = np.array_equal(c, y)
        ok &= same and err <= 1e-5
        print("output %d (%s): C ABI %s Python, vs JIT max rel. error %s" % (
            k, b.name, "==" if same else "!=", "ok" if err <= 1e-5 else "%.3g" % err))
    if at != len(flat):
        print("abi-check wrote %d bytes, the outputs are %d" % (len(flat), at))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
