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

from . import onnx_import

LLVM = "/usr/lib/llvm-22"


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
    """@main: constants for the inputs, the call, f32 prints of outputs
    (`outputs`: (shape, numpy dtype) pairs)."""
    _check_inputs(inputs, outputs)
    lines = ["func.func @main() {"]
    names = []
    for k, a in enumerate(inputs):
        t = onnx_import.ttype(a.shape, onnx_import.DTYPES[a.dtype])
        lines.append('  %%in%d = "tosa.const"() <{values = %s : %s}> : () -> %s'
                     % (k, onnx_import.literal(a), t, t))
        names.append(("%%in%d" % k, t))
    rtypes = [onnx_import.ttype(s, onnx_import.DTYPES[np.dtype(d)]) for s, d in outputs]
    lines.append("  %%r:%d = func.call @model(%s) : (%s) -> (%s)" % (
        len(outputs), ", ".join(n for n, _ in names), ", ".join(t for _, t in names),
        ", ".join(rtypes)))
    for k, ((shape, dtype), t) in enumerate(zip(outputs, rtypes)):
        cur = "%%r#%d" % k
        ft = onnx_import.ttype(shape, "f32")
        if np.dtype(dtype) != np.float32:
            lines.append("  %%c%d = tosa.cast %s : (%s) -> %s" % (k, cur, t, ft))
            cur = "%%c%d" % k
        lines.append("  %%u%d = tensor.cast %s : %s to tensor<*xf32>" % (k, cur, ft))
        lines.append("  func.call @printMemrefF32(%%u%d) : (tensor<*xf32>) -> ()" % k)
    lines += ["  return", "}",
              "func.func private @printMemrefF32(tensor<*xf32>) "
              "attributes {llvm.emit_c_interface}"]
    return "\n".join(lines) + "\n"


def _tool(cmd, stdin, timeout=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RunError("%s failed (exit %d): %s" % (os.path.basename(cmd[0]), r.returncode,
                                                    r.stderr.strip()[:500]))
    return r.stdout


def parse_memrefs(text):
    """The data of every printed memref, in order, as flat float arrays."""
    out = []
    i = 0
    while True:
        j = text.find("data =", i)
        if j < 0:
            return out
        start = text.find("[", j)
        depth, k = 0, start
        while True:
            c = text[k]
            if c == "[":
                depth += 1
            elif c == "]":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        body = text[start:k + 1].replace("[", " ").replace("]", " ").replace(",", " ")
        out.append(np.array([float(t) for t in body.split()], dtype=np.float64))
        i = k + 1


def run_model(model_text, inputs, outputs, fuse_opt, passes=("--fuse-ops",),
              lower=("--fuse-lower-to-cpu",), timeout=1800):
    if not isinstance(model_text, str):
        raise TypeError("model_text must be a str, not %s" % type(model_text).__name__)
    _check_tools(fuse_opt, passes, lower, timeout)
    return run_module(model_text + main_wrapper(inputs, outputs), fuse_opt, passes,
                      lower, timeout)


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
    libs = ",".join(os.path.join(LLVM, "lib", l) for l in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    printed = _tool([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
                     "-entry-point-result=void", "-O2", "-shared-libs=" + libs], low, timeout)
    return parse_memrefs(printed)
