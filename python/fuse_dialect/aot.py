"""Ahead of time: a model compiled by this project's pipeline into one
shared library that exports the C ABI of include/FuseDialect-runtime
(FuseRuntime.h). `fuse-compile` and `fuse_dialect.compile()` call
`compile_library`; `fuse_dialect.runtime` loads what it writes.

The steps, for MODEL.onnx (imported by fuse-import first) or MODEL.mlir
(TOSA or linalg on tensors, entry @model):
  1. `fuse-opt --fuse-safe-integer-division` (a division by zero in the
     model, from an input's value, may not kill the caller with SIGFPE),
     then `--fuse-ops`;
  2. `--fuse-read-only-arguments` (the inputs are the caller's: the
     program copies one before writing into it), then
     the target's lowering with C wrappers (`_mlir_ciface_model`):
     `--fuse-lower-to-cpu` (the tile loops on all cores through OpenMP) or
     `--fuse-lower-to-nvvm` (host code with the kernels embedded), then
     `--fuse-externalize-weights`: with `weights="external"` into the
     weights file beside the library, otherwise into a temporary file that
     step 3 assembles into the object's read-only data (`link=true`), so
     that no weight goes through LLVM IR as text;
  3. `mlir-translate`, LLVM's `opt -O3` and `llc -O3` (for the host CPU,
     `cpu` naming another), into an object;
  4. the model's description (`__fuse_model`: names, element types and
     shapes of @model's inputs and outputs, and a call of
     `_mlir_ciface_model`), generated here as C from @model's signature;
  5. one link: the two objects and the target's runtime library
     (lib/Runtime: libfuse_runtime_cpu.a or libfuse_runtime_cuda.a), with
     a version script that exports the ABI's functions and nothing else;
     then the trailer with the library's digest (Digest.h), which the
     loaders check before dlopen.

Two findings any ahead-of-time user of our output meets, built in here:
LLVM's `llc` alone optimizes no loop (mlir-runner -O3 runs opt's pipeline in
memory), and a module without a target triple (mlir-translate writes none)
makes LLVM expand every memset into a byte loop.
"""

import array
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import mlirtext, toolchain

# FuseRuntime.h's FUSE_RUNTIME_ABI_VERSION, and its functions: what a model
# library exports. These and the codes below are Python's copies of the
# headers' facts; test/Runtime/constants.mlir checks them against the
# headers.
ABI_VERSION = 1
ABI_FUNCTIONS = (
    "fuseRuntimeAbiVersion", "fuseModelTarget", "fuseModelName",
    "fuseModelNumInputs", "fuseModelNumOutputs", "fuseModelInput",
    "fuseModelOutput", "fuseElementTypeSize", "fuseSessionCreate",
    "fuseSessionDestroy", "fuseSessionRun", "fuseLastError")

# MLIR element type -> FuseElementType (FuseRuntime.h) and numpy's name.
ELEMENT_TYPES = {"f32": (1, "float32"), "f16": (2, "float16"), "bf16": (3, None),
                 "f64": (4, "float64"), "i8": (5, "int8"), "i16": (6, "int16"),
                 "i32": (7, "int32"), "i64": (8, "int64"), "i1": (9, "bool")}
TARGETS = {"cpu": 0, "cuda": 1}
MAX_THREADS = 1024  # FUSE_MAX_THREADS
DYNAMIC_DIM = -1  # FUSE_DYNAMIC_DIM: the batch of a model compiled for any
# Digest.h: the trailer fuse-compile appends (magic, bytes, digest).
LIBRARY_MAGIC = 0x3142494C45535546  # "FUSELIB1"
TRAILER_BYTES = 24


class CompileError(RuntimeError):
    """A model that cannot be compiled, or a step that failed; the message
    names the step."""


def run_tool(cmd, what, timeout=3600, **kw):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CompileError("%s: %s" % (what, e))
    if r.returncode != 0:
        raise CompileError("%s failed: %s" % (what, r.stderr.strip()[-2000:]))
    return r.stdout


class Boundary:
    """An input or output of @model: its name, MLIR element type, shape
    (DYNAMIC_DIM for the batch of a model compiled for any batch size)."""

    def __init__(self, name, element, shape):
        self.name, self.element, self.shape = name, element, list(shape)

    def __str__(self):
        return "%s %s[%s]" % (self.name, self.element, ", ".join(
            "?" if d == DYNAMIC_DIM else str(d) for d in self.shape))


def signature(model_mlir, names=None):
    """([Boundary] inputs, [Boundary] outputs) of @model in the file
    `model_mlir` (read up to its signature); `names`: (input names, output
    names), e.g. the ONNX graph's, used when their counts match."""
    with open(model_mlir, errors="replace") as f:
        head = f.read(1 << 20)
    func = mlirtext.find_func(head, "model")
    if func is None:
        raise CompileError("%s: no @model with a body in its first MB" % model_mlir)
    try:
        args, results = mlirtext.call_types(func, any_element=True)
    except mlirtext.TextError as e:
        raise CompileError("%s: %s" % (model_mlir, e))
    sides = []
    for kind, types, given in (("input", args, names and names[0]),
                               ("output", results, names and names[1])):
        side = []
        for k, t in enumerate(types):
            if not t.is_tensor or t.elt not in ELEMENT_TYPES:
                raise CompileError("%s: %s %d of @model is %s; a compiled model takes "
                                   "ranked static tensors of %s" % (
                                       model_mlir, kind, k, t.text,
                                       ", ".join(ELEMENT_TYPES)))
            if given and len(given) == len(types):
                name = given[k]
            elif kind == "input" and func.arg_names[k]:
                name = func.arg_names[k].lstrip("%")
            else:
                name = "%s%d" % (kind, k)
            side.append(Boundary(name, t.elt, t.shape))
        sides.append(side)
    return sides[0], sides[1]


def c_string(s):
    """`s` as a C string literal: its UTF-8 bytes, each but letters, digits
    and a few punctuation marks as an octal escape."""
    return '"' + "".join(chr(b) if re.fullmatch(r"[A-Za-z0-9_.:/ -]", chr(b))
                         else "\\%03o" % b for b in s.encode("utf-8")) + '"'


# x86 instruction set extensions: the compiler's macro when code may use it
# (the description is compiled with -march=CPU, as llc's -mcpu=CPU) and the
# name __builtin_cpu_supports checks at run time.
CPU_FEATURES = [(m, m.lower().replace("_", "." if m.startswith("SSE") else "-")) for m in (
    "SSE3", "SSSE3", "SSE4_1", "SSE4_2", "POPCNT", "LZCNT", "MOVBE", "PCLMUL", "AES",
    "ADX", "SHA", "AVX", "AVX2", "FMA", "F16C", "BMI", "BMI2", "AVXVNNI", "GFNI", "VAES",
    "VPCLMULQDQ", "AVX512F", "AVX512BW", "AVX512DQ", "AVX512VL", "AVX512CD",
    "AVX512VNNI", "AVX512BF16", "AVX512FP16", "AVX512VBMI", "AVX512VBMI2",
    "AVX512IFMA", "AVX512BITALG", "AVX512VPOPCNTDQ", "AMX_TILE", "AMX_BF16",
    "AMX_INT8")]


_HELP = {}


def _help_text(fuse_opt):
    """`fuse_opt --help`, once per binary."""
    if fuse_opt not in _HELP:
        try:
            _HELP[fuse_opt] = subprocess.run([fuse_opt, "--help"], capture_output=True,
                                             text=True, timeout=120).stdout
        except (OSError, subprocess.SubprocessError):
            _HELP[fuse_opt] = ""
    return _HELP[fuse_opt]


def takes_out_params(fuse_opt):
    """Whether `fuse_opt`'s CPU lowering has the `out-params` option. An
    older build (a bench's baseline) lacks it: its libraries' @model returns
    its results, which the runtime copies out."""
    return "--out-params " in _help_text(fuse_opt)


def has_runtime_allocator(fuse_opt):
    """Whether `fuse_opt`'s CPU lowering has the `runtime-allocator` option
    (heap memory through the functions the runtime defines, its workspace
    kept between calls: lib/Runtime/Workspace.cpp). An older build lacks
    it: its libraries call malloc and free."""
    return "--runtime-allocator " in _help_text(fuse_opt)


def fuse_ops_options(fuse_opt, target, options):
    """The `--fuse-ops` argument: the caller's `options`, and on the CPU
    Winograd's F(2x2, 3x3) for 3x3 convolutions where they do not name it
    (measured faster on every ResNet and VGG shape; docs/Performance.md)
    and `fuse_opt` has it; an older build (a bench's baseline) has only
    direct convolutions, which `winograd=false` then asks for."""
    options = (options or "").split()
    named = [o for o in options if o.split("=", 1)[0] == "winograd"]
    if "--winograd " not in _help_text(fuse_opt):
        options = [o for o in options if o not in named or
                   o.split("=", 1)[-1].lower() not in ("false", "0", "off")]
    elif target == "cpu" and not named:
        options.insert(0, "winograd=true")
    return "--fuse-ops" + ("=" + " ".join(options) if options else "")


def description_c(name, target, inputs, outputs, in_place):
    """The C source of `__fuse_model` (ModelDescription.h); `in_place`: the
    outputs are @model's arguments after the inputs (out-params), else its
    results."""
    lines = ['/* Generated by fuse-compile: the description of @model. */',
             '#include "FuseDialect-runtime/ModelDescription.h"', "",
             "/* What the code needs of the CPU: what -march gave this file. */",
             "static const char *missing_cpu_feature(void) {",
             "#if defined(__x86_64__)"]
    for macro, feature in CPU_FEATURES:
        lines += ["#ifdef __%s__" % macro,
                  '  if (!__builtin_cpu_supports("%s"))' % feature,
                  '    return "%s";' % feature, "#endif"]
    lines += ["#endif", "  return 0;", "}", ""]
    for side, items in (("input", inputs), ("output", outputs)):
        for k, b in enumerate(items):
            lines.append("static const int64_t %s%d_shape[] = {%s};" % (
                side, k, ", ".join(map(str, b.shape)) or "0"))
        lines.append("static const FuseTensorInfo %ss[] = {%s};" % (side, ", ".join(
            "{%s, %d, %d, %s%d_shape}" % (c_string(b.name), ELEMENT_TYPES[b.element][0],
                                          len(b.shape), side, k)
            for k, b in enumerate(items)) or "{0}"))
    args = ["args[%d]" % k for k in range(len(inputs))]
    if in_place:
        body = ["  void *const *outs = (void *const *)results;",
                "  _mlir_ciface_model(%s);" % ", ".join(
                    args + ["outs[%d]" % k for k in range(len(outputs))])]
        params = len(inputs) + len(outputs)
    else:
        body = ["  _mlir_ciface_model(%s);" % ", ".join(["results"] + args)]
        params = 1 + len(inputs)
    lines += ["extern void _mlir_ciface_model(%s);" % ", ".join(["void *"] * params),
              "static void entry(void *results, void *const *args) {"] + body + [
              "}",
              "const FuseModelDescription __fuse_model = {%s, %d, %d, %d, inputs, outputs, entry, "
              "missing_cpu_feature, %d};" % (
                  c_string(name), TARGETS[target], len(inputs), len(outputs), in_place), ""]
    return "\n".join(lines)


def onnx_names(proto):
    """(input names, output names) of an ONNX model's graph, initializers
    left out."""
    g = proto.graph
    init = {i.name for i in g.initializer}
    return [i.name for i in g.input if i.name not in init], [o.name for o in g.output]


def parse_dims(specs):
    """The `--dim` options of fuse-compile and fuse-import, ["batch=8",
    "seq=128,heads=12"], as {"batch": 8, "seq": 128, ...}; CompileError
    naming a malformed one (the sizes are checked by the importer)."""
    dims = {}
    for spec in specs or ():
        for item in spec.split(","):
            name, eq, size = item.partition("=")
            if not eq or not name.strip() or not re.fullmatch(r"[0-9]{1,12}", size.strip()):
                raise CompileError("--dim takes NAME=SIZE, not %r" % item)
            dims[name.strip()] = int(size)
    return dims


def check_dims(dims):
    """`dims` of compile_library: names without ',' or '=' (they travel as
    --dim options), positive int sizes; CompileError otherwise."""
    for name, size in (dims or {}).items():
        if not isinstance(name, str) or not name or "," in name or "=" in name:
            raise CompileError("a symbolic dimension's name must be a non-empty string "
                               "without ',' or '=', not %r" % (name,))
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise CompileError("the size of %r must be a positive int, not %r" % (name, size))


def digest(chunks):
    """Digest.h's fuseDigest over the bytes of `chunks` (an iterable of
    bytes-like objects, each but the last a whole number of 8-byte words):
    with numpy, or word by word without it (fuse-compile needs no numpy)."""
    try:
        import numpy as np
    except ImportError:
        np = None
    mask = (1 << 64) - 1
    total, first, size, tail = 0, 0, 0, b""
    for chunk in chunks:
        if tail:
            raise ValueError("only the last chunk may end inside a word")
        size += len(chunk)
        whole = len(chunk) - len(chunk) % 8
        tail = bytes(chunk[whole:])
        if np is not None:
            words = np.frombuffer(chunk, dtype="<u8", count=whole // 8)
            index = np.arange(first, first + len(words), dtype=np.uint64) * np.uint64(2) + \
                np.uint64(1)
            total = (total + int(np.sum(words * index, dtype=np.uint64))) & mask
            first += len(words)
        else:
            words = array.array("Q", bytes(chunk[:whole]))
            if sys.byteorder == "big":
                words.byteswap()
            for w in words:
                total = (total + w * (2 * first + 1)) & mask
                first += 1
    if tail:
        word = int.from_bytes(tail.ljust(8, b"\0"), "little")
        total = (total + word * (2 * first + 1)) & mask
    return total ^ ((size * 0x9E3779B97F4A7C15) & mask)


def file_chunks(f, size, chunk=1 << 26):
    while size > 0:
        data = f.read(min(chunk, size))
        if not data:
            raise EOFError("%s: shorter than it was" % f.name)
        size -= len(data)
        yield data


def append_trailer(path):
    """Appends Digest.h's trailer to the model library `path`
    (fuse-compile, after linking): the loaders refuse a library whose bytes
    changed since."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        d = digest(file_chunks(f, size))
    with open(path, "ab") as f:
        f.write(b"".join(v.to_bytes(8, "little") for v in (LIBRARY_MAGIC, size, d)))


# TOSA to linalg on tensors, as the lowerings do it (lib/Codegen/Common).
TOSA_TO_LINALG = ("func.func(tosa-to-scf, tosa-to-linalg-named, tosa-to-linalg, "
                  "tosa-to-arith{include-apply-rescale}, tosa-to-tensor, "
                  "convert-elementwise-to-linalg)")


def read_onnx(model):
    """The ONNX file `model` as an onnx.ModelProto (the importer's reader);
    CompileError when it is not one."""
    import warnings
    from . import onnx_import
    try:
        with warnings.catch_warnings():
            # protobuf's warning on a damaged file: the error below says it.
            warnings.simplefilter("ignore", RuntimeWarning)
            return onnx_import.read_model(model)
    except onnx_import.ImportError as e:
        raise CompileError("fuse-import: %s" % e)


def batch_proof_pipeline(batch, args):
    """fuse-opt's --pass-pipeline that proves a TOSA @model keeps the samples
    of batch size `batch` of its arguments `args` apart."""
    return "--pass-pipeline=builtin.module(%s, fuse-prove-batch-separable{batch=%d args=%s})" \
        % (TOSA_TO_LINALG, batch, ",".join(map(str, args)))


def dynamic_batch(model, proto, dims, fuse_opt, work, say):
    """For the ONNX model `proto` (read from `model`) whose inputs keep a
    symbolic first dimension that `dims` does not size: (its name, the
    indices of the inputs that have it) once it is proved a batch the model
    keeps apart (the importer compares two sizes, fuse-opt
    --fuse-prove-batch-separable proves the rest); the model is then
    compiled for one sample. None when every symbolic dimension is sized;
    CompileError naming why it is not a batch."""
    from . import onnx_import
    try:
        found = onnx_import.symbolic_batch(proto, dims)
        if not found:
            return None
        name, inputs = found
        say("proving that %s is a batch dimension" % name)
        proof = os.path.join(work, "batch.mlir")
        with open(proof, "w") as f:
            f.write(onnx_import.check_batch(proto, name, dims))
    except onnx_import.ImportError as e:
        raise CompileError("fuse-import: %s" % e)
    try:
        run_tool([fuse_opt, proof, batch_proof_pipeline(onnx_import.PROOF_BATCHES[0], inputs),
                  "--mlir-print-op-on-diagnostic=false", "-o", os.devnull],
                 "the batch proof")
    except CompileError as e:
        # The error is at an op of the model imported at the proof's size.
        why = str(e).replace(proof, "batch-%d.mlir" % onnx_import.PROOF_BATCHES[0])
        raise CompileError("%s: %s is not a batch this model keeps apart; give its size "
                           "(--dim %s=N): %s" % (model, name, name, why.strip()))
    return name, inputs


def weights_path(library):
    """Where --weights=external puts the weights of `library` (the runtime's
    default): model.so -> model.weights."""
    stem, ext = os.path.splitext(library)
    return (stem if ext else library) + ".weights"


def staged(src, dst, mode):
    """A copy of `src` in `dst`'s folder under a fresh name (mkstemp: never
    through a link someone placed there), with `mode` less the umask, ready
    for `os.replace(copy, dst)`; CompileError if it cannot be written."""
    folder = os.path.dirname(os.path.abspath(dst))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=os.path.basename(dst) + ".")
    except OSError as e:
        raise CompileError("cannot write %s: %s" % (dst, e.strerror or e))
    try:
        with os.fdopen(fd, "wb") as out, open(src, "rb") as f:
            shutil.copyfileobj(f, out)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, mode & ~umask)
        return tmp
    except BaseException as e:
        os.unlink(tmp)
        if isinstance(e, OSError):
            raise CompileError("cannot write %s: %s" % (dst, e.strerror or e))
        raise


def install(pairs):
    """Each (src, dst, mode) of `pairs` copied to `dst` by a rename in its
    folder, after all are staged: a process that has an old `dst` mapped (a
    loaded library) keeps it whole, and a failure before the renames leaves
    every `dst` as it was."""
    copies = []
    try:
        for src, dst, mode in pairs:
            copies.append((staged(src, dst, mode), dst))
        for tmp, dst in copies:
            os.replace(tmp, dst)
    except BaseException as e:
        for tmp, _ in copies:
            if os.path.exists(tmp):
                os.unlink(tmp)
        if isinstance(e, OSError):
            raise CompileError("cannot write %s: %s" % (dst, e.strerror or e))
        raise


def compile_library(model, output, target="cpu", weights="embedded", lower_options="",
                    cpu="native", chip="sm_90", fuse_opt=None, log=None, dims=None,
                    fuse_options=""):
    """Compiles `model` (.onnx or .mlir) into the shared library `output`
    (and, with weights="external", its weights file `weights_path(output)`);
    `dims` sizes an ONNX model's symbolic input dimensions ({"batch": 8});
    `fuse_options` adds `--fuse-ops` options (space-separated key=value).
    On the CPU, 3x3 convolutions run as Winograd's F(2x2, 3x3)
    (`winograd=true`, see fuse_ops_options) unless it says otherwise.
    Returns (inputs, outputs) as [Boundary]. Writes nothing else but
    temporary files, removed on return."""
    if target not in TARGETS:
        raise CompileError("unknown target '%s' (cpu or cuda)" % target)
    if weights not in ("embedded", "external"):
        raise CompileError("--weights is embedded or external, not '%s'" % weights)
    if not os.path.isfile(model):
        raise CompileError("%s: no such file" % model)
    check_dims(dims)
    if re.search(r"(^|\s)out-params\b", lower_options or ""):
        raise CompileError("--lower-options: out-params is the library's calling "
                           "convention, not an option")
    if not output:
        raise CompileError("the output path is empty; -o names the library")
    if '"' in output or "\n" in output:
        raise CompileError("the output path may not hold a quote or a line break")
    if os.path.isdir(output):
        raise CompileError("%s is a folder; -o names the library" % output)
    if weights == "external" and os.path.abspath(weights_path(output)) == \
            os.path.abspath(output):
        raise CompileError("%s would be both the library and its weights file: name "
                           "the library .so" % output)
    fuse_opt = fuse_opt or toolchain.fuse_opt()
    say = log or (lambda msg: None)
    name = os.path.splitext(os.path.basename(model))[0]
    runtime = toolchain.runtime_library(target)
    if not os.path.exists(runtime):
        raise CompileError("the %s runtime library %s is not built%s" % (
            target, runtime, " (it needs the CUDA toolkit)" if target == "cuda" else ""))
    with tempfile.TemporaryDirectory(prefix="fuse-compile-") as work:
        names = None
        batch = None
        if model.endswith(".onnx"):
            # Read once: the batch proof and the inputs' and outputs' names.
            proto = read_onnx(model)
            batch = dynamic_batch(model, proto, dims, fuse_opt, work, say)
            if batch:
                dims = dict(dims or {}, **{batch[0]: 1})
            say("importing %s" % model)
            imported = os.path.join(work, "model.mlir")
            run_tool([toolchain.launcher("fuse-import"), model, "-o", imported] +
                     ["--dim=%s=%d" % kv for kv in sorted((dims or {}).items())],
                     "fuse-import")
            names = onnx_names(proto)
            model = imported
        elif dims:
            raise CompileError("--dim sizes an ONNX model's symbolic dimensions; %s "
                               "is MLIR" % model)
        inputs, outputs = signature(model, names)
        if batch:
            # Compiled for one sample, run once per sample.
            for b in [inputs[k] for k in batch[1]] + outputs:
                b.shape[0] = DYNAMIC_DIM
        say("fusing")
        fused = os.path.join(work, "fused.mlir")
        # No integer division traps on any input value, then the fusion.
        run_tool([fuse_opt, model, "--fuse-safe-integer-division",
                  fuse_ops_options(fuse_opt, target, fuse_options), "-o", fused],
                 "fuse-opt --fuse-ops")
        # On the CPU the outputs are @model's arguments after the inputs
        # (out-params: results computed in the caller's buffers); on a GPU
        # @model returns its results (in one struct when several).
        in_place = target == "cpu" and takes_out_params(fuse_opt)
        if target == "cpu":
            options = (["out-params=true"] if in_place else []) + (
                ["runtime-allocator=true"] if has_runtime_allocator(fuse_opt) else []) + (
                [lower_options] if lower_options else [])
            lower = "--fuse-lower-to-cpu" + ("=" + " ".join(options) if options else "")
        else:
            # Kernels as a fatbin (cubin, assembled now: nothing to JIT when
            # the library loads) unless the options name a format.
            lower = "--fuse-lower-to-nvvm=chip=%s%s%s" % (
                chip, "" if "format=" in lower_options else " format=fatbin",
                " " + lower_options if lower_options else "")
        # The inputs are the caller's (`const` in the ABI): never written.
        # The weights leave the module before its translation to LLVM IR,
        # into the weights file or into a temporary one the object's
        # read-only data is assembled from (`link`). Everything is written
        # in `work` and moved into place at the end: a failed step leaves a
        # library (and weights) there as they were.
        weights_file = os.path.join(work, "weights.bin")
        lowering = [fuse_opt, fused, "--fuse-read-only-arguments",
                    "--llvm-request-c-wrappers", lower,
                    '--fuse-externalize-weights=file="%s"%s' % (
                        weights_file, "" if weights == "external" else " link=true")]
        say("lowering for the %s" % target)
        lowered = os.path.join(work, "model.llvm.mlir")
        run_tool(lowering + ["-o", lowered], "fuse-opt " + lower)
        ll, bc, obj = (os.path.join(work, "model" + e) for e in (".ll", ".bc", ".o"))
        run_tool([toolchain.tool("mlir-translate"), "--mlir-to-llvmir", lowered, "-o", ll],
                 "mlir-translate")
        triple = "-mtriple=" + run_tool([toolchain.tool("llvm-config"), "--host-target"],
                                         "llvm-config").strip()
        say("optimizing and generating code")
        run_tool([toolchain.tool("opt"), triple, "-O3", "-mcpu=" + cpu, ll, "-o", bc], "opt")
        run_tool([toolchain.tool("llc"), triple, "-O3", "-mcpu=" + cpu, "-filetype=obj",
                  "-relocation-model=pic", bc, "-o", obj], "llc")
        desc = os.path.join(work, "description.c")
        with open(desc, "w") as f:
            f.write(description_c(name, target, inputs, outputs, in_place))
        abi = os.path.join(work, "abi.map")
        with open(abi, "w") as f:
            f.write("{\n  global:\n%s  local: *;\n};\n" % "".join(
                "    %s;\n" % fn for fn in ABI_FUNCTIONS))
        # The description knows the CPU the code is for (its checks): the
        # C compiler must know it too (-march=native always works).
        desc_obj = os.path.join(work, "description.o")
        r = subprocess.run([toolchain.cxx(), "-x", "c", "-c", "-fPIC", "-O2",
                            "-march=" + cpu, "-I" + toolchain.runtime_include(), desc,
                            "-o", desc_obj], capture_output=True, text=True)
        if r.returncode != 0:
            raise CompileError("the C compiler (%s) does not know the CPU '%s', so the "
                               "library could not check that a machine has its "
                               "instruction set: name a CPU both LLVM and it know, or "
                               "native (%s)" % (toolchain.cxx(), cpu,
                                                r.stderr.strip().splitlines()[0][:200]
                                                if r.stderr.strip() else "no message"))
        library = os.path.join(work, "model.so")
        link = [toolchain.cxx(), "-shared", "-fPIC", "-O2", "-o", library, desc_obj, obj,
                "-Wl,--whole-archive", runtime, "-Wl,--no-whole-archive",
                "-Wl,--version-script=" + abi, "-Wl,-z,defs", "-Wl,--as-needed"]
        libdir = toolchain.lib_dir()
        if target == "cpu":
            link += ["-L" + libdir, "-Wl,-rpath," + libdir, "-lomp",
                     "-lmlir_c_runner_utils"]
        else:
            link += ["-L" + toolchain.cuda_stubs(), "-lcuda"]
        link += ["-lm", "-ldl", "-lpthread"]
        say("linking %s" % output)
        run_tool(link, "link")
        append_trailer(library)
        install(([(weights_file, weights_path(output), 0o644)]
                 if weights == "external" else []) + [(library, output, 0o755)])
    return inputs, outputs
