"""Ahead of time: a TOSA @model compiled by this project's pipeline into a
shared library, called on numpy arrays from this process.

`CompiledModel(model_mlir, out_dir)` runs `fuse-opt --fuse-ops`, then
`--fuse-lower-to-cpu` (the default lowering: tile loops on the cores through
OpenMP) with C wrappers, `mlir-translate`, LLVM's `opt -O3` and `llc -O3`
for the host CPU, and links `out_dir/ours.so`; calling it passes the arrays
to `_mlir_ciface_model` as memref descriptors and returns the results as
numpy arrays. This is how the benches time our code (bench/peers.py,
bench/roofline.py): the way a user's program would run it, not under
mlir-runner's JIT.

Two findings any ahead-of-time user of our output meets, built in here:
LLVM's `llc` alone optimizes no loop (mlir-runner -O3 runs opt's pipeline in
memory), and a module without a target triple (mlir-translate writes none)
makes LLVM expand every memset into a byte loop.
"""

import ctypes
import ctypes.util
import os
import re
import subprocess

from . import mlirtext, toolchain


def run_tool(cmd, what, timeout=3600, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (what, r.stderr.strip()[-400:]))
    return r.stdout


class _Dl_info(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def descriptor_type(rank):
    """MLIR's ranked memref descriptor (the C interface's struct)."""
    return type("Memref%d" % rank, (ctypes.Structure,), {"_fields_": [
        ("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * rank),
        ("strides", ctypes.c_int64 * rank)]})


ELEMENTS = {"f32": "float32", "f64": "float64", "i64": "int64", "i32": "int32",
            "i8": "int8", "i1": "bool"}


def parse_tensor(t):
    """'tensor<1x3x224x224xf32>' -> ([1, 3, 224, 224], 'float32')."""
    m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    if not m or m.group(2) not in ELEMENTS:
        raise RuntimeError("unsupported boundary type %s" % t)
    return [int(d) for d in m.group(1).split("x") if d], ELEMENTS[m.group(2)]


class CompiledModel:
    """@model of `model_mlir` (TOSA or linalg on tensors) compiled into
    `out_dir/ours.so`; `args` and `results` are its ([shape], dtype)s."""

    def __init__(self, model_mlir, out_dir, lower_options="", fuse_opt=None):
        import numpy as np
        self.np = np
        fuse_opt = fuse_opt or toolchain.fuse_opt()
        os.makedirs(out_dir, exist_ok=True)
        stem = os.path.join(out_dir, "ours")
        with open(model_mlir) as f:
            head = f.read(1 << 16)
        model = mlirtext.find_func(head, "model")
        if model is None:
            raise RuntimeError("%s: no @model in its first 64 KB" % model_mlir)
        self.args = [parse_tensor(t) for t in model.args]
        self.results = [parse_tensor(t) for t in model.results]
        fused = stem + ".fused.mlir"
        run_tool([fuse_opt, model_mlir, "--fuse-ops", "-o", fused],
                 "fuse-opt --fuse-ops")
        lowered = stem + ".llvm.mlir"
        run_tool([fuse_opt, fused, "--llvm-request-c-wrappers",
                  "--fuse-lower-to-cpu" + ("=" + lower_options if lower_options else ""),
                  "-o", lowered], "fuse-opt --fuse-lower-to-cpu")
        ll, bc, obj, lib = stem + ".ll", stem + ".bc", stem + ".o", stem + ".so"
        run_tool([toolchain.tool("mlir-translate"), "--mlir-to-llvmir", lowered,
                  "-o", ll], "mlir-translate")
        triple = "-mtriple=" + run_tool([toolchain.tool("llvm-config"),
                                          "--host-target"], "llvm-config").strip()
        run_tool([toolchain.tool("opt"), triple, "-O3", "-mcpu=native", ll, "-o", bc],
                 "opt")
        run_tool([toolchain.tool("llc"), triple, "-O3", "-mcpu=native", "-filetype=obj",
                  "-relocation-model=pic", bc, "-o", obj], "llc")
        libdir = toolchain.lib_dir()
        run_tool(["cc", "-shared", "-o", lib, obj, "-L" + libdir,
                  "-Wl,-rpath," + libdir, "-lmlir_c_runner_utils", "-lomp"],
                 "cc -shared")
        for p in (fused, lowered, ll, bc, obj):
            os.unlink(p)
        self.path = lib
        self.omp = ctypes.CDLL(toolchain.libomp(), mode=ctypes.RTLD_GLOBAL)
        self.lib = ctypes.CDLL(lib)
        self.entry = self.lib._mlir_ciface_model
        self.entry.restype = None
        self.arg_types = [descriptor_type(len(s)) for s, _ in self.args]
        self.result_type = type("Results", (ctypes.Structure,), {"_fields_": [
            ("r%d" % i, descriptor_type(len(s))) for i, (s, _) in enumerate(self.results)]})
        self.libc = ctypes.CDLL(ctypes.util.find_library("c"))
        self.libc.dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Dl_info)]
        self.libc.free.argtypes = [ctypes.c_void_p]

    def set_threads(self, n):
        """The OpenMP threads the tile loops run on."""
        self.omp.omp_set_num_threads(n)

    def _descriptor(self, array, ty):
        d = ty()
        d.allocated = d.aligned = array.ctypes.data
        d.offset = 0
        for i, (size, stride) in enumerate(zip(array.shape, array.strides)):
            d.sizes[i] = size
            d.strides[i] = stride // array.itemsize
        return d

    def __call__(self, *inputs):
        np = self.np
        if len(inputs) != len(self.args):
            raise ValueError("%d inputs, the model takes %d" % (len(inputs), len(self.args)))
        arrays = []
        for x, (shape, dtype) in zip(inputs, self.args):
            a = np.ascontiguousarray(x, dtype=dtype)
            if list(a.shape) != shape:
                raise ValueError("input shape %s, the model takes %s" % (a.shape, shape))
            arrays.append(a)
        descs = [self._descriptor(a, t) for a, t in zip(arrays, self.arg_types)]
        out = self.result_type()
        self.entry(ctypes.byref(out), *[ctypes.byref(d) for d in descs])
        results = []
        for i, (shape, dtype) in enumerate(self.results):
            d = getattr(out, "r%d" % i)
            item = np.dtype(dtype).itemsize
            view = np.lib.stride_tricks.as_strided(
                np.frombuffer((ctypes.c_char * item).from_address(
                    d.aligned + d.offset * item), dtype=dtype),
                shape=tuple(shape), strides=tuple(s * item for s in d.strides[:len(shape)]))
            results.append(np.array(view))
            # A result the program allocated is freed; one that is a
            # constant of the library (inside a loaded object) is not.
            if d.allocated and not self.libc.dladdr(d.allocated, ctypes.byref(_Dl_info())):
                self.libc.free(d.allocated)
        return results[0] if len(results) == 1 else results
