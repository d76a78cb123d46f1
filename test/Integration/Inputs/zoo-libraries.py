"""Zoo models from PyTorch to a model library and back, no mlir-runner:
each exported at its reduced input (bench/zoo/export.py), compiled by
fuse_dialect.compile (fuse-compile's steps) into WORK/NAME.so, loaded and
run through the C ABI, and compared with PyTorch's output.
    zoo-libraries.py WORK NAME[:external]...
(`:external`: the weights in WORK/NAME.weights, --weights=external;
bench/zoo/run.py does the same for the whole zoo: docs/Zoo.md.)"""
import os
import sys

import numpy as np

import fuse_dialect
from fuse_dialect.bench.zoo import export

work, names = sys.argv[1], sys.argv[2:]
for spec in names:
    name, _, weights = spec.partition(":")
    onnx_path = export.export(name, work, small=True)
    ref = np.load(os.path.join(work, name + ".small.npz"))
    model = fuse_dialect.compile(onnx_path, output=os.path.join(work, name + ".so"),
                                 weights=weights or "embedded")
    [y] = model(ref["input"])
    err = float(np.max(np.abs(y - ref["output"])) / np.max(np.abs(ref["output"])))
    print("%s: %s %s -> %s, matches PyTorch: %s" % (
        name, model.inputs[0].dtype, list(model.inputs[0].shape), list(y.shape), err < 1e-4))
