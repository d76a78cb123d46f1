"""Python entry points over the C API (libFuseDialectCAPI.so, via ctypes).

    from fuse_dialect import api
    fused = api.fuse(text)                      # --fuse-ops
    fused = api.fuse(text, layout=False, strict=True)
    plan = api.report(text)                     # the --fuse-ops report, a dict
    llvm = api.run_pipeline(text, "builtin.module(fuse-lower-to-cpu)")
    tosa = api.import_onnx("model.onnx")        # fuse-import

The library is looked up in $FUSE_DIALECT_LIB, then next to this package in
an installed prefix (lib/), then in the source tree's build/lib.
Failures raise FuseError with MLIR's diagnostics (with locations).
"""

import ctypes
import glob
import json
import os
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


class FuseError(Exception):
    """A pipeline failed; the message holds MLIR's diagnostics."""


def _find_library():
    env = os.environ.get("FUSE_DIALECT_LIB")
    if env:
        return env
    candidates = []
    for root in (os.path.join(HERE, "..", ".."),            # <prefix>/lib/python/fuse_dialect
                 os.path.join(HERE, "..", "..", "build")):  # <source>/python/fuse_dialect
        candidates += sorted(glob.glob(os.path.join(root, "lib", "libFuseDialectCAPI.so*")))
    if not candidates:
        raise FuseError("libFuseDialectCAPI.so not found: build it (ninja -C build "
                        "FuseDialectCAPI) or set FUSE_DIALECT_LIB")
    return os.path.abspath(candidates[0])


_lib = None


def _library():
    global _lib
    if _lib is None:
        lib = ctypes.CDLL(_find_library())
        lib.fuseRunPipeline.restype = ctypes.c_void_p
        lib.fuseRunPipeline.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_void_p)]
        lib.fuseFreeString.argtypes = [ctypes.c_void_p]
        lib.fuseFreeString.restype = None
        _lib = lib
    return _lib


def _take(lib, ptr):
    if not ptr:
        return ""
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        lib.fuseFreeString(ptr)


def run_pipeline(module_text, pipeline):
    """Runs a textual pass pipeline on `module_text`; returns the result."""
    lib = _library()
    diags = ctypes.c_void_p()
    out = lib.fuseRunPipeline(module_text.encode(), pipeline.encode(), ctypes.byref(diags))
    messages = _take(lib, diags.value)
    if not out:
        raise FuseError(messages.strip() or "the pipeline failed")
    return _take(lib, out)


def _options(options):
    parts = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append("%s=%s" % (key.replace("_", "-"), value))
    return ("{" + " ".join(parts) + "}") if parts else ""


def fuse(module_text, **options):
    """`fuse-opt --fuse-ops{options}`: options are the pipeline's (layout,
    simplify, strict, form_groups, max_group_size, profile, ...)."""
    return run_pipeline(module_text, "builtin.module(fuse-ops%s)" % _options(options))


def report(module_text, **options):
    """The --fuse-ops report (groups, kernels, bytes, transposes) as a dict."""
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        opts = dict(options)
        opts["report"] = f.name
        run_pipeline(module_text, "builtin.module(fuse-ops%s)" % _options(opts))
        with open(f.name) as r:
            return json.load(r)


def import_onnx(path, elide_weights=False):
    """fuse-import: the TOSA text of an ONNX model."""
    from . import onnx_import
    return onnx_import.import_model(path, elide_weights=elide_weights)
