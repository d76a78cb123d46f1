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

Options are values, never pipeline text: each is checked by name and type
before anything runs (TypeError for a wrong type or an unknown name,
ValueError for a value out of range or a path MLIR's option syntax cannot
hold) and written quoted, so no option can add a pass.
"""

import ctypes
import glob
import json
import os
import tempfile

# The options of --fuse-ops (include/FuseDialect/Transforms/Pipelines.h):
# Python name -> type. Paths are str (or os.PathLike).
FUSE_OPS_OPTIONS = {
    "simplify": bool,
    "strict": bool,
    "layout": bool,
    "form_groups": bool,
    "max_group_size": int,
    "profile": str,
    "report": str,
    "dot": str,
}
MAX_GROUP_SIZE = 1 << 20  # what the pipeline accepts (lib/Transforms/Pipelines.cpp)

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


def _text(name, value):
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (name, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s holds a NUL character" % name)
    return value


def run_pipeline(module_text, pipeline):
    """Runs a textual pass pipeline on `module_text`; returns the result."""
    _text("module_text", module_text)
    _text("pipeline", pipeline)
    lib = _library()
    diags = ctypes.c_void_p()
    out = lib.fuseRunPipeline(module_text.encode(), pipeline.encode(), ctypes.byref(diags))
    messages = _take(lib, diags.value)
    if not out:
        raise FuseError(messages.strip() or "the pipeline failed")
    return _take(lib, out)


def _option(key, value):
    """`name=value` in MLIR's pass-option syntax, for a checked option."""
    name = key.replace("-", "_") if isinstance(key, str) else key
    kind = FUSE_OPS_OPTIONS.get(name)
    if kind is None:
        raise TypeError("unknown --fuse-ops option %r (known: %s)"
                        % (key, ", ".join(sorted(FUSE_OPS_OPTIONS))))
    flag = name.replace("_", "-")
    if kind is bool:
        if not isinstance(value, bool):
            raise TypeError("option %s must be a bool, not %s" % (name, type(value).__name__))
        return "%s=%s" % (flag, "true" if value else "false")
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("option %s must be an int, not %s" % (name, type(value).__name__))
        if not 1 <= value <= MAX_GROUP_SIZE:
            raise ValueError("option %s must be in [1, %d], is %d" % (name, MAX_GROUP_SIZE,
                                                                        value))
        return "%s=%d" % (flag, value)
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError("option %s must be a str (a path), not %s"
                        % (name, type(value).__name__))
    # MLIR's option syntax: a value in quotes may hold spaces, commas, '='
    # and parentheses, never braces; either quote character, not both.
    bad = [c for c in value if c in "{}" or ord(c) < 32]
    if bad or ('"' in value and "'" in value):
        raise ValueError("option %s: %r cannot be written in MLIR's pass-option syntax "
                         "(braces, control characters, or both quote characters)"
                         % (name, value))
    quote = "'" if '"' in value else '"'
    return "%s=%s%s%s" % (flag, quote, value, quote)


def _options(options):
    parts = [_option(key, value) for key, value in options.items()]
    return ("{" + " ".join(parts) + "}") if parts else ""


def fuse(module_text, **options):
    """`fuse-opt --fuse-ops{options}`: options are the pipeline's (layout,
    simplify, strict, form_groups: bool; max_group_size: int in [1, 2^20];
    profile, report, dot: paths), checked before anything runs."""
    return run_pipeline(module_text, "builtin.module(fuse-ops%s)" % _options(options))


def report(module_text, **options):
    """The --fuse-ops report (groups, kernels, bytes, transposes) as a dict."""
    if "report" in options:
        raise TypeError("report() writes the report itself: use fuse(report=PATH) "
                        "for a report file")
    _options(options)
    _text("module_text", module_text)
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        opts = dict(options)
        opts["report"] = f.name
        run_pipeline(module_text, "builtin.module(fuse-ops%s)" % _options(opts))
        with open(f.name) as r:
            return json.load(r)


def import_onnx(path, elide_weights=False):
    """fuse-import: the TOSA text of an ONNX model (a path; external data
    only from the model's folder). An invalid or unsupported model raises
    onnx_import.ImportError."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError("path must be a str or os.PathLike, not %s" % type(path).__name__)
    if not isinstance(elide_weights, bool):
        raise TypeError("elide_weights must be a bool, not %s"
                        % type(elide_weights).__name__)
    from . import onnx_import
    return onnx_import.import_model(path, elide_weights=elide_weights)
