"""A compiled model from Python: `load("model.so")` or
`compile("model.onnx")` return a `Model`, called on numpy arrays (or torch
tensors) through the library's C ABI (include/FuseDialect-runtime/
FuseRuntime.h, over ctypes).

    model = fuse_dialect.compile("resnet50.onnx")        # or load("model.so")
    [scores] = model(image)                              # numpy in, numpy out
    model.inputs[0].shape, model.inputs[0].dtype

Every call is checked before anything runs: the number of inputs, each
one's shape and dtype (no silent conversion: a float64 array for a float32
input is an error), and the library checks them again. A `Model` may be
called from several threads at once (the call releases the GIL). Errors are
`FuseError` (`ValueError` for arguments): never a crash.
"""

import ctypes
import os
import shutil
import tempfile
import threading

from . import aot

FUSE_OK = 0
FUSE_ERROR_INVALID_ARGUMENT = 1
DTYPES = {code: np for code, np in aot.ELEMENT_TYPES.values()}
CODES = {np: code for code, np in aot.ELEMENT_TYPES.values() if np}


class FuseError(RuntimeError):
    """A library that cannot be loaded, a weights file refused, a run that
    failed: the message is the runtime's."""


class TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("element_type", ctypes.c_int32),
                ("rank", ctypes.c_int32), ("shape", ctypes.POINTER(ctypes.c_int64))]


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("element_type", ctypes.c_int32),
                ("rank", ctypes.c_int32), ("shape", ctypes.POINTER(ctypes.c_int64))]


class SessionOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("weights_path", ctypes.c_char_p),
                ("num_threads", ctypes.c_int32)]


class Boundary:
    """An input or output of the model: `name`, `shape` (tuple; None for the
    batch of a model compiled for any batch size), `dtype` (numpy's name;
    None for bfloat16, which numpy lacks)."""

    def __init__(self, info):
        self.name = info.name.decode("utf-8", "replace")
        self.code = info.element_type
        self.shape = tuple(None if info.shape[d] == aot.DYNAMIC_DIM else info.shape[d]
                           for d in range(info.rank))
        self.dtype = DTYPES.get(self.code)
        # The library's array, a FuseTensor's shape when none is dynamic.
        self.shape_pointer = info.shape if None not in self.shape else None

    def matches(self, shape):
        return len(shape) == len(self.shape) and all(
            want is None or want == got for want, got in zip(self.shape, shape))

    def __repr__(self):
        return "%s: %s%s" % (self.name, self.dtype, list(self.shape))


def check_library(path):
    """FuseError unless `path` ends with the trailer fuse-compile appends
    and its digest matches the bytes before it: a library cut short, changed
    or not written by fuse-compile is refused before dlopen (which dies of
    SIGBUS or an assertion on many such files). The same check as
    FuseLoader.h's fuseCheckLibrary, for C programs."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if size >= aot.TRAILER_BYTES:
            f.seek(size - aot.TRAILER_BYTES)
            magic, covered, expected = (int.from_bytes(f.read(8), "little") for _ in range(3))
            if magic == aot.LIBRARY_MAGIC and covered == size - aot.TRAILER_BYTES:
                f.seek(0)
                try:
                    if aot.digest(aot.file_chunks(f, covered)) == expected:
                        return
                except EOFError as e:
                    raise FuseError(str(e))
                raise FuseError("%s: the library is damaged (its digest does not match)" % path)
    raise FuseError("%s: not a model library written by fuse-compile (no trailer: cut "
                    "short, changed since, or another file)" % path)


_loaded = {}  # real path -> (device, inode, mtime, size) of what was dlopen'ed
_loaded_lock = threading.Lock()


def _open_library(path):
    """dlopen(`path`) with RTLD_LOCAL (each model keeps its symbols to
    itself): (the library, a folder to remove once a session is created, or
    None). dlopen returns the library already loaded from a path even when
    the file there has changed since (a model compiled again to the same
    path): such a file is loaded from a private copy instead, with a link
    to its default weights file beside it."""
    real = os.path.realpath(path)
    st = os.stat(real)
    key = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
    with _loaded_lock:
        fresh = _loaded.setdefault(real, key) == key
    work = None
    target = real
    if not fresh:
        work = tempfile.mkdtemp(prefix="fuse-reload-")
        target = os.path.join(work, os.path.basename(real))
        shutil.copyfile(real, target)
        if os.path.exists(aot.weights_path(real)):
            os.symlink(aot.weights_path(real), aot.weights_path(target))
    try:
        return ctypes.CDLL(target, mode=os.RTLD_NOW | os.RTLD_LOCAL), work
    except OSError as e:
        if work:
            shutil.rmtree(work, ignore_errors=True)
        raise FuseError("%s: cannot load the library: %s" % (path, e))


def _bind(lib):
    """The ABI's functions of `lib` with their C types."""
    sig = {
        "fuseRuntimeAbiVersion": (ctypes.c_uint32, []),
        "fuseModelTarget": (ctypes.c_int32, []),
        "fuseModelName": (ctypes.c_char_p, []),
        "fuseModelNumInputs": (ctypes.c_int32, []),
        "fuseModelNumOutputs": (ctypes.c_int32, []),
        "fuseModelInput": (ctypes.POINTER(TensorInfo), [ctypes.c_int32]),
        "fuseModelOutput": (ctypes.POINTER(TensorInfo), [ctypes.c_int32]),
        "fuseElementTypeSize": (ctypes.c_size_t, [ctypes.c_int32]),
        "fuseSessionCreate": (ctypes.c_int, [ctypes.POINTER(SessionOptions),
                                             ctypes.POINTER(ctypes.c_void_p)]),
        "fuseSessionDestroy": (None, [ctypes.c_void_p]),
        "fuseSessionRun": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(Tensor),
                                          ctypes.c_int32, ctypes.POINTER(Tensor),
                                          ctypes.c_int32]),
        "fuseLastError": (ctypes.c_char_p, []),
    }
    assert set(sig) == set(aot.ABI_FUNCTIONS)
    for name, (restype, argtypes) in sig.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes


class Model:
    """A compiled model library (`fuse-compile`), loaded with a session.
    `weights`: the weights file of a model compiled with
    --weights=external (default: beside the library); `threads`: CPU
    threads per run (0: OpenMP's default)."""

    def __init__(self, path, weights=None, threads=0):
        self.path = path
        self._session = None
        self._lock = threading.Lock()
        self._calls = {}  # session handle -> calls running on it
        self._retired = set()  # handles replaced while calls ran on them
        if not os.path.isfile(path):
            raise FuseError("%s: no such file" % path)
        check_library(path)
        self._lib, work = _open_library(path)
        try:
            self._load(path, weights, threads)
        finally:
            if work:
                shutil.rmtree(work, ignore_errors=True)

    def _load(self, path, weights, threads):
        try:
            _bind(self._lib)
        except AttributeError as e:
            raise FuseError("%s is not a FuseDialect model (%s)" % (path, e))
        version = self._lib.fuseRuntimeAbiVersion()
        if version != aot.ABI_VERSION:
            raise FuseError("%s: runtime ABI version %d, this package reads %d"
                            % (path, version, aot.ABI_VERSION))
        lib = self._lib
        self.name = lib.fuseModelName().decode("utf-8", "replace")
        self.target = {code: name for name, code in aot.TARGETS.items()}.get(
            lib.fuseModelTarget(), "unknown")
        self.inputs = [Boundary(lib.fuseModelInput(i).contents)
                       for i in range(lib.fuseModelNumInputs())]
        self.outputs = [Boundary(lib.fuseModelOutput(i).contents)
                        for i in range(lib.fuseModelNumOutputs())]
        self._weights = weights
        self._open(threads)

    def _open(self, threads):
        if not isinstance(threads, int) or isinstance(threads, bool) or \
                not 0 <= threads <= aot.MAX_THREADS:
            raise ValueError("threads must be an int in [0, %d], not %r"
                             % (aot.MAX_THREADS, threads))
        options = SessionOptions(ctypes.sizeof(SessionOptions),
                                 os.fsencode(self._weights) if self._weights else None,
                                 threads)
        session = ctypes.c_void_p()
        status = self._lib.fuseSessionCreate(ctypes.byref(options), ctypes.byref(session))
        if status != FUSE_OK:
            raise FuseError(self._lib.fuseLastError().decode("utf-8", "replace"))
        self._retire(session)
        self.threads = threads

    def _retire(self, replacement):
        """Makes `replacement` the session of the next calls; the old one is
        destroyed once no call is running on it."""
        with self._lock:
            old, self._session = self._session, replacement
            if old is not None and not self._calls.get(old.value):
                self._lib.fuseSessionDestroy(old)
            elif old is not None:
                self._retired.add(old.value)

    def set_threads(self, threads):
        """CPU threads of the following runs (a new session; the weights
        are read once per process)."""
        self._open(threads)

    def close(self):
        """Ends the session (after the calls running on it)."""
        if getattr(self, "_lock", None) is not None:
            self._retire(None)

    def __del__(self):
        if getattr(self, "_lib", None) is not None:
            self.close()

    def __repr__(self):
        return "<fuse_dialect.Model %s (%s): %s -> %s>" % (
            self.name, self.target, self.inputs, self.outputs)

    def __call__(self, *inputs):
        """The outputs for `inputs` (one per model input, in order): a list
        of numpy arrays, torch tensors if the inputs were."""
        import numpy as np
        if len(inputs) != len(self.inputs):
            raise ValueError("model '%s' takes %d inputs (%s), got %d" % (
                self.name, len(self.inputs), ", ".join(b.name for b in self.inputs),
                len(inputs)))
        as_torch = False
        arrays = []
        for k, (x, b) in enumerate(zip(inputs, self.inputs)):
            if type(x).__module__.startswith("torch"):
                as_torch = True
                x = x.detach().cpu().numpy()
            if not isinstance(x, np.ndarray):
                raise ValueError("input %d ('%s'): a numpy array or torch tensor, not %s"
                                 % (k, b.name, type(x).__name__))
            if b.dtype is None or x.dtype != np.dtype(b.dtype):
                raise ValueError("input %d ('%s'): dtype %s, the model takes %s" % (
                    k, b.name, x.dtype, b.dtype or "bfloat16"))
            if not b.matches(x.shape):
                raise ValueError("input %d ('%s'): shape %s, the model takes %s" % (
                    k, b.name, list(x.shape), ["?" if d is None else d for d in b.shape]))
            arrays.append(np.ascontiguousarray(x))
        # The batch: the first dimension of the inputs that have a dynamic one
        # (the library checks that they agree).
        batch = next((a.shape[0] for a, b in zip(arrays, self.inputs)
                      if b.shape and b.shape[0] is None), 1)
        results = [np.empty([batch if d is None else d for d in b.shape],
                            dtype=b.dtype or np.uint16) for b in self.outputs]
        keep = []

        def tensors(items, infos):
            out = (Tensor * max(1, len(items)))()
            for t, a, b in zip(out, items, infos):
                shape = b.shape_pointer
                if shape is None:
                    shape = (ctypes.c_int64 * len(a.shape))(*a.shape)
                    keep.append(shape)
                t.data, t.element_type, t.rank, t.shape = (a.ctypes.data, b.code, len(b.shape),
                                                           shape)
            return out

        with self._lock:
            session = self._session
            if session is None:
                raise FuseError("the model is closed")
            self._calls[session.value] = self._calls.get(session.value, 0) + 1
        try:
            status = self._lib.fuseSessionRun(session, tensors(arrays, self.inputs),
                                              len(arrays), tensors(results, self.outputs),
                                              len(results))
        finally:
            with self._lock:
                n = self._calls[session.value] - 1
                if n:
                    self._calls[session.value] = n
                else:
                    del self._calls[session.value]
                    if session.value in self._retired:
                        self._retired.discard(session.value)
                        self._lib.fuseSessionDestroy(session)
        if status != FUSE_OK:
            message = self._lib.fuseLastError().decode("utf-8", "replace")
            raise (ValueError if status == FUSE_ERROR_INVALID_ARGUMENT else FuseError)(message)
        if as_torch:
            import torch
            results = [torch.from_numpy(r) for r in results]
        return results


def load(path, weights=None, threads=0):
    """The model library `path` (written by fuse-compile)."""
    return Model(path, weights, threads)


def compile(model, target="cpu", output=None, weights="embedded", lower_options="",
            cpu="native", threads=0, dims=None, fuse_options=""):
    """`model` (.onnx or .mlir) compiled for `target` and loaded. With
    `output` the library is kept there (and its weights file beside it);
    without, it is built in a temporary folder, loaded, and the folder
    removed (the loaded library stays valid). `dims` sizes an ONNX model's
    symbolic input dimensions, e.g. {"batch": 8}; `fuse_options` adds
    `--fuse-ops` options (on the CPU, "winograd=false" keeps 3x3
    convolutions direct)."""
    work = None if output is not None else tempfile.mkdtemp(prefix="fuse-model-")
    try:
        path = output if work is None else os.path.join(work, "model.so")
        aot.compile_library(model, path, target, weights, lower_options, cpu, dims=dims,
                            fuse_options=fuse_options)
        return Model(path, None, threads)
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
