"""Runs ONNX's node tests (Debian libonnx-testdata) through the importer.

For every test directory whose model uses only ops in OPS (default: every
op fuse-import supports), imports model.onnx, appends a @main that calls
@model on test_data_set_0's inputs and prints every output, compiles it with
`fuse-opt --fuse-ops` then `--fuse-lower-to-cpu`, runs it under mlir-runner
and compares with the expected outputs (rtol/atol 1e-4/1e-5 by default).

Prints one line per test (PASS, FAIL with the reason, or UNSUPPORTED with
the importer's message) and a summary; exits 1 if any imported test fails
numerically or in a tool (an import the importer refuses is counted, not a
failure). Usage: fuse-onnx-node-tests [--data DIR] [--filter REGEX] [-v]
"""

import argparse
import glob
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

from .. import onnx_import, runner, toolchain

DATA = "/usr/share/libonnx-testdata/data/node"


def supported_ops():
    return {n[3:] for n in dir(onnx_import.Importer) if n.startswith("op_")}


def load_set(d, prefix):
    files = sorted(glob.glob(os.path.join(d, prefix + "_*.pb")),
                   key=lambda p: int(re.search(r"_(\d+)\.pb$", p).group(1)))
    out = []
    for f in files:
        t = onnx.TensorProto()
        with open(f, "rb") as fh:
            t.ParseFromString(fh.read())
        out.append(numpy_helper.to_array(t))
    return out


def run_one(test_dir, fuse_opt, rtol, atol, keep=None):
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    data = os.path.join(test_dir, "test_data_set_0")
    try:
        inputs, expected = load_set(data, "input"), load_set(data, "output")
    except Exception as e:
        return "UNSUPPORTED", "unreadable test data (%s)" % type(e).__name__
    init = {i.name for i in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in init]
    if len(graph_inputs) != len(inputs):
        return "UNSUPPORTED", "optional inputs"
    for a in inputs + expected:
        if a.dtype not in onnx_import.DTYPES or a.dtype in (np.float64,):
            return "UNSUPPORTED", "element type %s" % a.dtype
    # Inputs are arguments of @model, given as constants by @main; an input
    # the importer needs at import time (a Conv's weights, a Reshape's
    # shape) is bound as a constant of the model instead.
    by_name = {i.name: a for i, a in zip(graph_inputs, inputs)}
    bind = {}
    while True:
        try:
            text = onnx_import.import_model(model, bind=bind)
            break
        except onnx_import.NotConstant as e:
            if e.name not in by_name or e.name in bind:
                return "UNSUPPORTED", str(e)
            bind[e.name] = by_name[e.name]
        except onnx_import.ImportError as e:
            return "UNSUPPORTED", str(e)
        except Exception as e:  # an importer bug: report it as a failure
            return "FAIL", "importer crashed: %r" % e
    inputs = [by_name[i.name] for i in graph_inputs if i.name not in bind]
    module = text + runner.main_wrapper(inputs, [(e.shape, e.dtype) for e in expected])
    if keep:
        with open(keep, "w") as f:
            f.write(module)
    try:
        got = runner.run_module(module, fuse_opt, timeout=120)
    except (runner.RunError, subprocess.TimeoutExpired) as e:
        return "FAIL", str(e).splitlines()[0][:300]
    if len(got) != len(expected):
        return "FAIL", "%d outputs printed, %d expected" % (len(got), len(expected))
    for k, (gv, e) in enumerate(zip(got, expected)):
        ev = e.astype(np.float64).reshape(-1)
        if gv.shape != ev.shape:
            return "FAIL", "output %d has %d values, %d expected" % (k, gv.size, ev.size)
        bad = ~(np.isclose(gv, ev, rtol=rtol, atol=atol, equal_nan=True))
        if bad.any():
            i = int(np.argmax(bad))
            return "FAIL", "output %d: %d of %d differ, first [%d]: expected %g, got %g" % (
                k, int(bad.sum()), ev.size, i, ev[i], gv[i])
    return "PASS", ""


def main():
    ap = argparse.ArgumentParser(prog="fuse-onnx-node-tests",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--filter", default=None, help="regex on the test name")
    ap.add_argument("--fuse-opt", default=toolchain.fuse_opt())
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--keep", default=None, help="write the last module here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    ops = supported_ops()
    counts = {"PASS": 0, "FAIL": 0, "UNSUPPORTED": 0}
    for d in sorted(glob.glob(os.path.join(args.data, "test_*"))):
        name = os.path.basename(d)
        if args.filter and not re.search(args.filter, name):
            continue
        try:
            model = onnx.load(os.path.join(d, "model.onnx"))
        except Exception:
            continue
        used = {n.op_type for n in model.graph.node}
        if not used or not used <= ops:
            continue
        status, why = run_one(d, args.fuse_opt, args.rtol, args.atol, args.keep)
        counts[status] += 1
        if status != "PASS" or args.verbose:
            print("%s: %s%s" % (status, name, (": " + why) if why else ""))
    total = sum(counts.values())
    print("onnx node tests: %d of the %d using supported ops pass, %d fail, "
          "%d refused by the importer" % (counts["PASS"], total, counts["FAIL"],
                                          counts["UNSUPPORTED"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
