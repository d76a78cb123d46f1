"""Compile and run an imported model on the CPU with given inputs.

`run_model(model_text, inputs, outputs, fuse_opt)` appends a @main that
calls @model on `inputs` (numpy arrays, as constants) and prints every
result as f32, compiles with `fuse-opt --fuse-ops` then
`--fuse-lower-to-cpu` (or the given pipelines), runs it under mlir-runner
and returns the outputs as flat float64 numpy arrays. Arguments are checked
before anything runs (TypeError, ValueError): inputs are numpy arrays of a
type the importer writes, passes and lowerings are fuse-opt options
("--..."), one argument each.
"""

import os
import subprocess

import numpy as np

from . import mlirtext, onnx_import, toolchain


class RunError(Exception):
    pass


def _check_inputs(inputs, outputs):
    for a in inputs:
        if not isinstance(a, np.ndarray) or a.dtype not in onnx_import.DTYPES:
            raise TypeError("inputs must be numpy arrays of %s, not %r" % (
                ", ".join(sorted(str(d) for d in onnx_import.DTYPES)), type(a).__name__
                if not isinstance(a, np.ndarray) else a.dtype))
        if a.size == 0:
            raise ValueError("a zero-sized input (TOSA has none)")
    for o in outputs:
        if not (isinstance(o, (tuple, list)) and len(o) == 2):
            raise TypeError("outputs must be (shape, dtype) pairs, not %r" % (o,))
        shape, dtype = o
        if not all(isinstance(d, (int, np.integer)) and d > 0 for d in shape):
            raise ValueError("output shape %r: positive integers expected" % (shape,))
        try:
            ok = np.dtype(dtype) in onnx_import.DTYPES
        except TypeError:
            ok = False
        if not ok:
            raise TypeError("output type %r is not one the importer writes" % (dtype,))


def _check_tools(fuse_opt, passes, lower, timeout):
    if not isinstance(fuse_opt, (str, os.PathLike)):
        raise TypeError("fuse_opt must be a path, not %s" % type(fuse_opt).__name__)
    for arg in list(passes) + list(lower):
        if not isinstance(arg, str) or not arg.startswith("-") or "\0" in arg:
            raise ValueError("passes and lowerings are fuse-opt options ('--...'), one "
                             "per argument, not %r" % (arg,))
    if timeout is not None and (isinstance(timeout, bool) or
                                not isinstance(timeout, (int, float)) or timeout <= 0):
        raise ValueError("timeout must be a positive number of seconds, not %r" % (timeout,))


def main_wrapper(inputs, outputs):
    """@main: constants for the inputs, the call of @model, f32 prints of
    outputs (`outputs`: (shape, numpy dtype) pairs)."""
    _check_inputs(inputs, outputs)
    types = [onnx_import.ttype(a.shape, onnx_import.DTYPES[a.dtype]) for a in inputs]
    model = mlirtext.Func("model", None, types,
                          [onnx_import.ttype(s, onnx_import.DTYPES[np.dtype(d)])
                           for s, d in outputs], True)
    consts = [mlirtext.tosa_constant(onnx_import.literal(a), t) for a, t in zip(inputs, types)]
    main, decls = mlirtext.synthesize_main([(model, consts)], print_as="f32")
    return main + decls


def _tool(cmd, stdin, timeout=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RunError("%s failed (exit %d): %s" % (os.path.basename(cmd[0]), r.returncode,
                                                    r.stderr.strip()[:500]))
    return r.stdout


def parse_memrefs(text):
    """The data of every printed memref, in order, as flat float arrays."""
    try:
        memrefs, _ = mlirtext.parse_memrefs(text, "mlir-runner's output")
    except mlirtext.TextError as e:
        raise RunError(str(e))
    return [np.array(m.values, dtype=np.float64) for m in memrefs]


def run_model(model_text, inputs, outputs, fuse_opt, passes=("--fuse-ops",),
              lower=("--fuse-lower-to-cpu",), timeout=1800):
    if not isinstance(model_text, str):
        raise TypeError("model_text must be a str, not %s" % type(model_text).__name__)
    _check_tools(fuse_opt, passes, lower, timeout)
    return run_module(mlirtext.insert_into_module(model_text, main_wrapper(inputs, outputs)),
                      fuse_opt, passes, lower, timeout)


def run_module(module, fuse_opt, passes=("--fuse-ops",), lower=("--fuse-lower-to-cpu",),
               timeout=1800):
    """Compiles and runs a module with a @main (e.g. from main_wrapper);
    returns what it printed, as flat arrays."""
    if not isinstance(module, str):
        raise TypeError("module must be a str, not %s" % type(module).__name__)
    _check_tools(fuse_opt, passes, lower, timeout)
    text = module
    for p in passes:
        text = _tool([fuse_opt, p], text, timeout)
    low = _tool([fuse_opt] + list(lower), text, timeout)
    printed = _tool([toolchain.tool("mlir-runner"), "-e", "main", "-entry-point-result=void",
                     "-O2", "-shared-libs=" + toolchain.runner_libs()], low, timeout)
    return parse_memrefs(printed)
