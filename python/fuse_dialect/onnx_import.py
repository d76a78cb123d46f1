"""ONNX -> TOSA importer: writes a `func.func @model` in MLIR's TOSA dialect.

The function keeps the ONNX graph's input and output layout (NCHW stays
NCHW: convolutions and pools are wrapped in transposes to TOSA's NHWC, which
`fuse-opt --fuse-ops` then propagates away). Initializers become
`tosa.const` ops (or elided resources with `elide_weights`). Everything that
only computes shapes (Shape, ConstantOfShape, the arithmetic on them, Cast
of constants, ...) is folded at import time, so the output holds no shape
computation.

Numerics: every op is imported exactly, except Div of floats, which TOSA
only has as `x * reciprocal(y)` (at most 1.5 ulp from x / y), and ops whose
ONNX definition is a formula (BatchNormalization, HardSigmoid, HardSwish,
LayerNormalization, Softmax, ReduceMean), written out with TOSA ops.

An op, attribute or shape the importer does not handle raises ImportError
naming the node and its op type; nothing is written then. Models are not
trusted: a file that is not a well-formed model, declared sizes over the
limits below, external data outside the model's folder, and attributes,
shapes or types that are not valid ONNX are refused with an ImportError
before anything of that size is allocated or read, and before any op is
written (so that the output verifies). Any other exception while importing
a node is an importer bug, raised as InternalError naming the node.

Used as `fuse-import MODEL.onnx -o MODEL.mlir` (utils/fuse-import) or
`fuse_dialect.onnx_import.import_model(model_proto) -> str`.
"""

import functools
import os
import re
import stat

import numpy as np

from . import tosa_emit as E
from .tosa_emit import ttype

try:
    import onnx
    from onnx import numpy_helper
except ImportError as e:  # pragma: no cover
    raise ImportError("fuse-import needs the onnx Python package "
                      "(Debian: python3-onnx)") from e


class ImportError(Exception):  # noqa: A001 - the module's own error type
    """An ONNX construct the importer does not support, or an invalid model."""


class InternalError(Exception):
    """An unexpected exception while importing (an importer bug); the
    message names the node being imported."""


# Limits on what a model may declare, checked before anything of that size
# is allocated or read (docs/Reliability.md).
MAX_OPSET = 22                  # the newest ONNX opset whose ops are handled
MAX_MODEL_BYTES = 2 << 30       # the .onnx file (protobuf's own limit)
MAX_TENSOR_ELEMENTS = 1 << 32   # elements of any one tensor
MAX_WEIGHT_BYTES = 16 << 30     # all initializers and Constant tensors together
MAX_FOLD_ELEMENTS = 1 << 26     # a tensor computed at import time (in memory)
MAX_NAME = 200                  # characters of a name in a message


FLT_MAX = "3.40282347E+38"

DTYPES = {
    np.dtype(np.float32): "f32", np.dtype(np.float16): "f16",
    np.dtype(np.float64): "f64", np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32", np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8", np.dtype(np.uint8): "ui8",
    np.dtype(np.bool_): "i1",
}
ONNX_TO_NP = {
    onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.FLOAT16: np.float16,
    onnx.TensorProto.DOUBLE: np.float64, onnx.TensorProto.INT64: np.int64,
    onnx.TensorProto.INT32: np.int32, onnx.TensorProto.INT16: np.int16,
    onnx.TensorProto.INT8: np.int8, onnx.TensorProto.UINT8: np.uint8,
    onnx.TensorProto.BOOL: np.bool_,
}
# Where a TensorProto without raw_data keeps the values of each type.
STORAGE = {
    onnx.TensorProto.FLOAT: "float_data", onnx.TensorProto.DOUBLE: "double_data",
    onnx.TensorProto.INT64: "int64_data", onnx.TensorProto.FLOAT16: "int32_data",
    onnx.TensorProto.INT32: "int32_data", onnx.TensorProto.INT16: "int32_data",
    onnx.TensorProto.INT8: "int32_data", onnx.TensorProto.UINT8: "int32_data",
    onnx.TensorProto.BOOL: "int32_data",
}


def short(name):
    """A name from the model, for a message: quoted, one line, bounded."""
    name = name if len(name) <= MAX_NAME else name[:MAX_NAME] + "..."
    return repr(name)


def type_refusal(elt, what):
    """Why element type `elt` (an ONNX TensorProto.DataType) of `what`
    ("inputs", "tensors") is refused."""
    try:
        name = onnx.TensorProto.DataType.Name(elt)
    except ValueError:
        return "unknown element type %d" % elt
    if elt == onnx.TensorProto.UNDEFINED:
        return "the element type is undefined"
    if name == "BFLOAT16":
        return "bf16 %s are not supported" % what
    if name.startswith("COMPLEX"):
        return "complex %s (%s) are not supported: TOSA has no complex types" % (what, name)
    if name == "STRING":
        return "string %s are not supported: TOSA has no strings" % what
    if name.startswith("UINT"):
        return "unsigned %s (%s) are not supported: TOSA has no unsigned arithmetic" % (
            what, name)
    return "%s %s are not supported" % (name, what)


def declared_elements(t, what):
    """The element count a TensorProto declares (checked against the limit,
    nothing allocated)."""
    if t.data_type not in ONNX_TO_NP:
        raise ImportError("%s: %s" % (what, type_refusal(t.data_type, "tensors")))
    if any(d < 0 for d in t.dims):
        raise ImportError("%s: negative dimension in %s" % (what, list(t.dims)))
    n = count(t.dims)
    if n > MAX_TENSOR_ELEMENTS:
        raise ImportError("%s: %d elements declared, more than the limit of %d"
                          % (what, n, MAX_TENSOR_ELEMENTS))
    return n


def tensor_array(t, what):
    """A TensorProto's values as a numpy array, after checking that its type
    is supported and that it holds as many values as its dims declare."""
    n = declared_elements(t, what)
    if t.HasField("segment"):
        raise ImportError("%s: segmented tensors are not supported" % what)
    if t.data_location == onnx.TensorProto.EXTERNAL:
        raise ImportError("%s: external data needs the model's path (import the "
                          "file, not a loaded ModelProto)" % what)
    dtype = np.dtype(ONNX_TO_NP[t.data_type])
    if t.HasField("raw_data"):
        if len(t.raw_data) != n * dtype.itemsize:
            raise ImportError("%s: declares %d elements (%d bytes) but holds %d bytes"
                              % (what, n, n * dtype.itemsize, len(t.raw_data)))
    else:
        have = len(getattr(t, STORAGE[t.data_type]))
        if have != n:
            raise ImportError("%s: declares %d elements but holds %d" % (what, n, have))
    return numpy_helper.to_array(t)


def model_tensors(graph):
    """(description, TensorProto) of every tensor the importer reads:
    initializers and the tensor attributes of nodes (Constant, ...)."""
    for t in graph.initializer:
        yield "initializer %s" % short(t.name), t
    for node in graph.node:
        for a in node.attribute:
            where = "%s: attribute %s" % (node_label(node), short(a.name))
            if a.HasField("t"):
                yield where, a.t
            for t in a.tensors:
                yield where, t


def _read_exactly(fd, offset, length, what):
    chunks, done = [], 0
    while done < length:
        b = os.pread(fd, min(length - done, 1 << 30), offset + done)
        if not b:
            raise ImportError("%s: the file is shorter than expected (changed while "
                              "reading?)" % what)
        chunks.append(b)
        done += len(b)
    return b"".join(chunks)


def _open_regular(path, what):
    """Opens a regular file for reading: stat first (a FIFO or device is never
    opened), O_NONBLOCK|O_NOFOLLOW, and the same file after opening."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ImportError("%s: no such file" % what) from None
    except OSError as e:
        raise ImportError("%s: %s" % (what, e.strerror)) from None
    if not stat.S_ISREG(st.st_mode):
        raise ImportError("%s: not a regular file" % what)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0))
    except OSError as e:
        raise ImportError("%s: %s" % (what, e.strerror)) from None
    st2 = os.fstat(fd)
    if not stat.S_ISREG(st2.st_mode) or (st2.st_dev, st2.st_ino) != (st.st_dev, st.st_ino):
        os.close(fd)
        raise ImportError("%s: the file changed while opening it" % what)
    return fd, st2.st_size


def read_model(path):
    """Parses the .onnx file at `path` (a regular file of at most
    MAX_MODEL_BYTES) and reads its external data (load_external_data)."""
    path = os.fsdecode(path)
    fd, size = _open_regular(os.path.realpath(path), "cannot read the model")
    try:
        if size > MAX_MODEL_BYTES:
            raise ImportError("the model file has %d bytes, more than the limit of %d"
                              % (size, MAX_MODEL_BYTES))
        data = _read_exactly(fd, 0, size, "cannot read the model")
    finally:
        os.close(fd)
    model = onnx.ModelProto()
    try:
        used = model.ParseFromString(data)
    except Exception as e:  # google.protobuf's DecodeError, RecursionError, ...
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ImportError("not an ONNX model: the file is truncated or corrupt (%s)"
                          % why) from None
    if used is not None and used != len(data):
        raise ImportError("not an ONNX model: the file is truncated or corrupt")
    check_strings(model)
    load_external_data(model, os.path.dirname(os.path.abspath(path)))
    return model


def check_strings(msg, where="the model"):
    """Every string field holds UTF-8 text (protobuf hands over other bytes
    as `bytes`, which no name comparison or path join expects)."""
    for field, value in msg.ListFields():
        if field.type not in (field.TYPE_STRING, field.TYPE_MESSAGE):
            continue
        values = value if field.label == field.LABEL_REPEATED else [value]
        for v in values:
            if field.type == field.TYPE_MESSAGE:
                check_strings(v, where)
            elif not isinstance(v, str):
                raise ImportError("%s: a string (field %s) is not valid UTF-8: %s" % (
                    where, field.name, short(bytes(v).decode("utf-8", "replace"))))


def check_sizes(model):
    """Checks the declared sizes of the tensors the importer reads (each and
    all together); returns (what, tensor, elements) of those whose data is
    external."""
    total = 0
    external = []
    for what, t in model_tensors(model.graph):
        n = declared_elements(t, what)
        total += n * np.dtype(ONNX_TO_NP[t.data_type]).itemsize
        if total > MAX_WEIGHT_BYTES:
            raise ImportError("the model's tensors declare more than %d bytes in all "
                              "(the limit)" % MAX_WEIGHT_BYTES)
        if t.data_location == onnx.TensorProto.EXTERNAL:
            external.append((what, t, n))
    return external


def load_external_data(model, base_dir):
    """Reads the external data of every tensor the importer uses. Only
    regular files inside `base_dir` (the model's folder, symlinks resolved)
    are read, only the bytes [offset, offset + length) that the tensor's
    declared size needs; total declared sizes are checked first."""
    root = os.path.realpath(base_dir)
    for what, t, n in check_sizes(model):
        info = {e.key: e.value for e in t.external_data}
        loc = info.get("location", "")
        where = "%s: external data %s" % (what, short(loc))
        if not loc or "\0" in loc or os.path.isabs(loc):
            raise ImportError("%s: not a relative path inside the model's folder" % where)
        real = os.path.realpath(os.path.join(root, loc))
        if os.path.commonpath([root, real]) != root:
            raise ImportError("%s: outside the model's folder" % where)
        fd, size = _open_regular(real, where)
        try:
            try:
                offset = int(info.get("offset", "0"))
                length = int(info["length"]) if "length" in info else size - offset
            except ValueError:
                raise ImportError("%s: offset and length must be integers" % where) from None
            need = n * np.dtype(ONNX_TO_NP[t.data_type]).itemsize
            if offset < 0 or length < 0 or offset + length > size:
                raise ImportError("%s: bytes %d to %d are not in the file (%d bytes)"
                                  % (where, offset, offset + length, size))
            if length != need:
                raise ImportError("%s: holds %d bytes, the tensor's %d elements need %d"
                                  % (where, length, n, need))
            data = _read_exactly(fd, offset, length, where)
        finally:
            os.close(fd)
        t.raw_data = data
        t.data_location = onnx.TensorProto.DEFAULT
        del t.external_data[:]


def count(shape):
    """Elements of `shape` (Python integers: no overflow)."""
    return functools.reduce(lambda a, b: a * int(b), shape, 1)


def literal(array):
    """A dense literal: splat, short list, or hex bytes (little endian)."""
    array = np.ascontiguousarray(array)
    elt = DTYPES[array.dtype]
    if array.size == 0:
        return "dense<>"
    flat = array.reshape(-1)
    if np.all(flat == flat[0]) and (array.dtype.kind != "f" or
                                     not np.isnan(flat[0])):
        return "dense<%s>" % scalar_literal(flat[0], elt)
    if array.size <= 16 and array.dtype.kind != "f":
        return "dense<%s>" % nested(array, elt)
    if elt == "i1":
        return "dense<%s>" % nested(array, elt)
    data = array.astype(array.dtype.newbyteorder("<")).tobytes()
    return 'dense<"0x%s">' % data.hex().upper()


def scalar_literal(v, elt):
    if elt == "i1":
        return "true" if bool(v) else "false"
    if elt.startswith("f"):
        f = float(v)
        if np.isnan(f):
            return "0x7FC00000" if elt == "f32" else "0x7E00"
        if np.isinf(f):
            # An infinity: the hex bit pattern keeps it exact.
            pats = {"f32": ("0x7F800000", "0xFF800000"),
                    "f16": ("0x7C00", "0xFC00"),
                    "f64": ("0x7FF0000000000000", "0xFFF0000000000000")}
            return pats[elt][0] if f > 0 else pats[elt][1]
        return repr(f) if "e" in repr(f) or "." in repr(f) else repr(f) + ".0"
    return str(int(v))


def nested(array, elt):
    if array.ndim == 0:
        return scalar_literal(array.item(), elt)
    return "[" + ", ".join(nested(a, elt) for a in array) + "]"


def node_label(node):
    """`node 'name' (Op)`: the node's name, else its first output."""
    return "node %s (%s)" % (short(node.name or (node.output[0] if node.output else "")),
                             short(node.op_type)[1:-1])


class NotConstant(ImportError):
    """An input that must be known at import time is not."""

    def __init__(self, node, name):
        self.name = name
        super().__init__("%s: input %s must be a constant (an initializer or "
                         "computed from constants)" % (node_label(node), short(name or "")))


class Value:
    """An SSA value of the function being built (never a folded constant)."""

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(shape), np.dtype(dtype)

    @property
    def type(self):
        return ttype(self.shape, DTYPES[self.dtype])


# Ops whose (first) input must be a float tensor in ONNX.
FLOAT_ONLY = {
    "Exp", "Log", "Tanh", "Sigmoid", "Erf", "Floor", "Ceil", "Reciprocal", "Sqrt",
    "HardSigmoid", "HardSwish", "Softplus", "Gelu", "Softmax", "LogSoftmax",
    "LayerNormalization", "BatchNormalization", "Conv", "AveragePool",
    "GlobalAveragePool", "LeakyRelu",
}
# Input and output counts of ops onnx's schemas (1.12) do not know.
COUNTS = {"Gelu": (1, 1, 1, 1)}
# The type of each attribute the handlers read, where the op's schema at
# the model's opset does not list it (newer attributes, ops onnx does not
# know).
_A = onnx.AttributeProto
ATTR_TYPES = dict(
    [(k, _A.INT) for k in ("axis", "start", "end", "value_int", "to", "allowzero",
                           "keepdims", "noop_with_empty_axes", "transA", "transB", "group",
                           "count_include_pad", "ceil_mode", "antialias", "exclude_outside")] +
    [(k, _A.INTS) for k in ("axes", "value_ints", "perm", "split", "starts", "ends", "pads",
                            "strides", "dilations", "kernel_shape")] +
    [(k, _A.FLOAT) for k in ("value_float", "alpha", "beta", "epsilon",
                             "extrapolation_value", "min", "max")] +
    [(k, _A.FLOATS) for k in ("value_floats", "scales")] +
    [(k, _A.STRING) for k in ("approximate", "mode", "auto_pad", "keep_aspect_ratio_policy",
                              "coordinate_transformation_mode", "nearest_mode")])


def opset_of(model):
    """The model's ONNX opset: imported, and not newer than MAX_OPSET."""
    versions = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    if not versions:
        raise ImportError("the model imports no ONNX opset (no opset_import of the "
                          "default domain)")
    v = max(versions)
    if v < 1:
        raise ImportError("opset %d is not an ONNX opset" % v)
    if v > MAX_OPSET:
        raise ImportError("opset %d is newer than the newest supported (%d)"
                          % (v, MAX_OPSET))
    return v


class Importer:
    def __init__(self, model, elide_weights=False, func_name="model", bind=None, dims=None):
        self.elide = elide_weights
        self.bind = dict(bind or {})
        self.dims = dict(dims or {})
        self.func_name = func_name
        # onnx's shape inference is not run: nothing here reads its result,
        # and it trusts attributes (strides of 0 kill the process, SIGFPE).
        if not model.HasField("graph"):
            raise ImportError("the model has no graph")
        self.model = model
        self.graph = model.graph
        self.opset = opset_of(model)
        self.lines = []
        self.counter = 0
        self.values = {}   # name -> Value
        self.consts = {}   # name -> np.ndarray (known at import time)
        self.const_cache = {}
        self.node = None

    # -- helpers ----------------------------------------------------------
    def fail(self, msg):
        where = ""
        if self.node is not None:
            where = node_label(self.node) + ": "
        raise ImportError(where + msg)

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def check_shape(self, shape, limit=MAX_TENSOR_ELEMENTS):
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            self.fail("invalid shape %s (a negative dimension)" % (shape,))
        if 0 in shape:
            self.fail("zero-sized tensor %s: TOSA has none" % (shape,))
        n = count(shape)
        if n > limit:
            self.fail("a tensor of shape %s: %d elements, more than the limit of %d"
                      % (shape, n, limit))
        return shape

    def check_fold(self, shape):
        """A constant of `shape` may be computed at import time (numpy)."""
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            self.fail("invalid shape %s (a negative dimension)" % (shape,))
        if count(shape) > MAX_FOLD_ELEMENTS:
            self.fail("a constant of shape %s computed at import time: more than the "
                      "limit of %d elements" % (shape, MAX_FOLD_ELEMENTS))

    def emit(self, text, shape, dtype):
        self.check_shape(shape)
        name = self.fresh()
        self.lines.append("    %s = %s" % (name, text))
        return Value(name, shape, dtype)

    def const(self, array, dtype=None):
        array = np.asarray(array if dtype is None else np.asarray(array).astype(dtype))
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        if array.dtype not in DTYPES:
            self.fail("a constant of element type %s is not supported" % array.dtype)
        self.check_shape(array.shape)
        key = (array.dtype.str, array.shape, array.tobytes()) if array.size <= 4096 else None
        if key is not None and key in self.const_cache:
            return self.const_cache[key]
        t = ttype(array.shape, DTYPES[array.dtype])
        if self.elide and array.size > 16:
            lit = "dense_resource<__elided__>"
        else:
            lit = literal(array)
        v = self.emit(E.const(lit, t), array.shape, array.dtype)
        if key is not None:
            self.const_cache[key] = v
        return v

    def shape_value(self, dims):
        name = self.fresh()
        self.lines.append("    %s = %s" % (name, E.const_shape([int(d) for d in dims])))
        return name

    def zp(self, dtype):
        return self.const(np.zeros([1], dtype=dtype))

    def get(self, name):
        """The SSA value of ONNX value `name` (constants are materialized)."""
        if name in self.values:
            return self.values[name]
        if name in self.consts:
            return self.const(self.consts[name])
        self.fail("unknown value %s" % short(name or ""))

    def dtype_of(self, name):
        if name in self.values:
            return self.values[name].dtype
        if name in self.consts:
            return self.consts[name].dtype
        self.fail("unknown value %s" % short(name or ""))

    def is_const(self, name):
        return name in self.consts

    def const_of(self, name):
        if name not in self.consts:
            raise NotConstant(self.node, name)
        return self.consts[name]

    def attr(self, name, default=None):
        """An attribute's value (strings decoded) or `default`."""
        for a in self.node.attribute:
            if a.name == name:
                v = onnx.helper.get_attribute_value(a)
                if isinstance(v, bytes):
                    return v.decode("utf-8", "replace")
                if a.type == onnx.AttributeProto.STRINGS:
                    return [x.decode("utf-8", "replace") for x in v]
                if a.type in (onnx.AttributeProto.INTS, onnx.AttributeProto.FLOATS):
                    return list(v)
                return v
        return default

    def ints_attr(self, name, default, length=None, low=None):
        """An INTS attribute of `length` values, each >= `low`."""
        v = self.attr(name, default)
        if v is None:
            self.fail("attribute %r is required" % name)
        v = [int(x) for x in v]
        if length is not None and len(v) != length:
            self.fail("attribute %r must have %d values, has %s" % (name, length, v))
        if low is not None and any(x < low for x in v):
            self.fail("attribute %r must be >= %d, is %s" % (name, low, v))
        return v

    def axis(self, a, rank, what="axis"):
        """`a` in [-rank, rank - 1], made non-negative."""
        a = int(a)
        if not -rank <= a < rank:
            self.fail("%s %d is out of range for rank %d" % (what, a, rank))
        return a % rank

    def check_node(self, node):
        """What the ONNX schema says about the node's inputs, outputs and
        attribute types, and that each input is defined before."""
        schema = None
        for version in (self.opset, onnx.defs.onnx_opset_version()):
            try:  # at the model's opset, else the newest onnx knows
                schema = onnx.defs.get_schema(node.op_type, version, "")
                break
            except Exception:
                pass
        if schema is not None:
            counts = (schema.min_input, schema.max_input, schema.min_output,
                      schema.max_output)
            formal = list(schema.inputs)
            attr_types = {k: v.type.value for k, v in schema.attributes.items()}
        else:  # an op onnx's schemas (1.12) do not know
            formal, attr_types = [], {}
            counts = COUNTS.get(node.op_type)
        if counts:
            lo, hi, olo, ohi = counts

            def expected(lo, hi, what):
                n = ("at least %d" % lo if hi >= 2 ** 31 - 1 else
                     "%d" % lo if lo == hi else "%d to %d" % (lo, hi))
                return "expects %s %s%s" % (n, what, "" if n.split()[-1] == "1" else "s")
            if not lo <= len(node.input) <= hi:
                self.fail("%s, has %d" % (expected(lo, hi, "input"), len(node.input)))
            if not olo <= len(node.output) <= ohi:
                self.fail("%s, has %d" % (expected(olo, ohi, "output"), len(node.output)))
        single = onnx.defs.OpSchema.FormalParameterOption.Single
        for k, name in enumerate(node.input):
            if name:
                if name not in self.values and name not in self.consts:
                    self.fail("input %s is not defined before this node"
                              % short(name))
            elif k < len(formal) and formal[k].option == single:
                self.fail("input %d (%s) is required" % (k, formal[k].name))
        seen = set()
        for a in node.attribute:
            if a.name in seen:
                self.fail("attribute %r is given twice" % a.name)
            seen.add(a.name)
            if a.type in (onnx.AttributeProto.UNDEFINED, onnx.AttributeProto.GRAPH,
                          onnx.AttributeProto.GRAPHS):
                self.fail("attribute %r: %s attributes are not supported" % (
                    a.name, onnx.AttributeProto.AttributeType.Name(a.type)))
            want = attr_types.get(a.name, ATTR_TYPES.get(a.name))
            if want is not None and want != a.type:
                self.fail("attribute %r must be %s, not %s" % (
                    a.name, onnx.AttributeProto.AttributeType.Name(want),
                    onnx.AttributeProto.AttributeType.Name(a.type)))
        if node.op_type in FLOAT_ONLY and node.input and node.input[0]:
            dt = self.dtype_of(node.input[0])
            if dt.kind != "f":
                self.fail("the input must be a float tensor, not %s" % dt)

    def check_attrs(self, allowed):
        for a in self.node.attribute:
            if a.name not in allowed:
                self.fail("unsupported attribute %r" % a.name)

    # -- generic emitters ----------------------------------------------------
    def unary(self, op, x):
        return self.emit(E.op(op, [x], x.type), x.shape, x.dtype)

    def reshape(self, x, shape):
        shape = tuple(int(d) for d in shape)
        if shape == x.shape:
            return x
        s = self.shape_value(shape)
        return self.emit(E.op("reshape", [x, (s, E.shape_type(len(shape)))],
                              ttype(shape, DTYPES[x.dtype])), shape, x.dtype)

    def transpose(self, x, perm):
        perm = self.check_perm(perm, len(x.shape))
        if perm == list(range(len(perm))):
            return x
        shape = [x.shape[p] for p in perm]
        return self.emit(E.op("transpose", [x], ttype(shape, DTYPES[x.dtype]),
                              E.perms_attr(perm)), shape, x.dtype)

    def check_perm(self, perm, rank):
        perm = [int(p) for p in perm]
        if sorted(perm) != list(range(rank)):
            self.fail("perm %s is not a permutation of the %d axes" % (perm, rank))
        return perm

    def broadcast_shape(self, *shapes):
        """The shape ONNX's multidirectional broadcasting gives, or an error."""
        r = max(len(s) for s in shapes)
        padded = [(1,) * (r - len(s)) + tuple(s) for s in shapes]
        out = []
        for ds in zip(*padded):
            big = set(d for d in ds if d != 1)
            if len(big) > 1:
                self.fail("shapes %s do not broadcast" % " and ".join(
                    str(tuple(s)) for s in shapes))
            out.append(big.pop() if big else 1)
        return tuple(out)

    def same_dtype(self, *values):
        dts = [v.dtype for v in values]
        if any(d != dts[0] for d in dts):
            self.fail("operands of element types %s: they must be the same" % " and ".join(
                DTYPES.get(d, str(d)) for d in dts))

    def broadcast_pair(self, a, b):
        """Equal ranks for TOSA's broadcasting (leading 1s on the shorter)."""
        shape = self.broadcast_shape(a.shape, b.shape)
        r = len(shape)
        a = self.reshape(a, (1,) * (r - len(a.shape)) + a.shape)
        b = self.reshape(b, (1,) * (r - len(b.shape)) + b.shape)
        return a, b, shape

    def binary(self, op, a, b, dtype=None):
        self.same_dtype(a, b)
        a, b, shape = self.broadcast_pair(a, b)
        dtype = a.dtype if dtype is None else dtype
        rt = ttype(shape, DTYPES[np.dtype(dtype)])
        if op == "mul":
            shift = self.const(np.zeros([1], np.int8))
            return self.emit(E.op("mul", [a, b, shift], rt), shape, dtype)
        return self.emit(E.op(op, [a, b], rt), shape, dtype)

    def scalar(self, v, like):
        return self.const(np.full([1] * len(like.shape), v, dtype=like.dtype))

    def clamp(self, x, lo, hi):
        elt = DTYPES[x.dtype]
        if x.dtype == np.bool_:
            self.fail("not defined for bool tensors")
        if np.isnan(lo) or np.isnan(hi):
            self.fail("a NaN bound")
        if x.dtype.kind == "f":
            # Infinite bounds stay infinite (exact bit patterns): a bound of
            # FLT_MAX would turn +inf into FLT_MAX.
            lo_s, hi_s = scalar_literal(lo, elt), scalar_literal(hi, elt)
        else:
            info = np.iinfo(x.dtype)
            lo_s, hi_s = str(int(max(lo, info.min))), str(int(min(hi, info.max)))
        return self.emit(E.op("clamp", [x], x.type, E.clamp_attr(lo_s, hi_s, elt)),
                         x.shape, x.dtype)

    def reduce(self, op, x, axis, keep=True):
        shape = list(x.shape)
        shape[axis] = 1
        return self.emit(E.op("reduce_" + op, [x], ttype(shape, DTYPES[x.dtype]),
                              E.axis_attr(axis)), shape, x.dtype)

    def reduce_axes(self, op, x, axes, keepdims):
        rank = len(x.shape)
        axes = sorted(set(self.axis(a, rank) for a in axes))
        if len(axes) > 1 and axes == list(range(axes[0], axes[-1] + 1)):
            # Adjacent axes (a global pool's H and W): one reduction over
            # their merged view, not a chain of reductions (which would be
            # as many kernels: reductions do not fuse with each other).
            a0, a1 = axes[0], axes[-1] + 1
            merged = x.shape[:a0] + (int(np.prod(x.shape[a0:a1])),) + x.shape[a1:]
            y = self.reduce(op, self.reshape(x, merged), a0)
            kept = x.shape[:a0] + (1,) * (a1 - a0) + x.shape[a1:]
            y = self.reshape(y, kept)
            if not keepdims:
                y = self.reshape(y, [d for i, d in enumerate(x.shape) if i not in axes])
            return y
        y = x
        for a in axes:
            y = self.reduce(op, y, a)
        if not keepdims:
            y = self.reshape(y, [d for i, d in enumerate(x.shape) if i not in axes])
        return y

    def to_nhwc(self, x):
        """Channels last: NCHW -> NHWC (NCDHW -> NDHWC)."""
        r = len(x.shape)
        return self.transpose(x, [0] + list(range(2, r)) + [1])

    def to_nchw(self, x):
        """Channels first: NHWC -> NCHW (NDHWC -> NCDHW)."""
        r = len(x.shape)
        return self.transpose(x, [0, r - 1] + list(range(1, r - 1)))

    def div(self, a, b):
        if a.dtype.kind == "f":
            return self.binary("mul", a, self.unary("reciprocal", b))
        return self.binary("intdiv", a, b)

    # -- driver --------------------------------------------------------------
    def run(self):
        g = self.graph
        if not g.output:
            raise ImportError("the graph has no outputs")
        self.check_names()
        for init in g.initializer:
            self.consts[init.name] = tensor_array(init, "initializer %s" % short(init.name))
        self.consts.update(self.bind)
        args = []
        used = set()
        for inp in g.input:
            if inp.name in self.consts:
                continue
            what = "graph input %s" % short(inp.name)
            if not inp.type.HasField("tensor_type"):
                raise ImportError("%s is not a tensor" % what)
            t = inp.type.tensor_type
            if t.elem_type not in ONNX_TO_NP or t.elem_type == onnx.TensorProto.UINT8:
                raise ImportError("%s: %s" % (what, type_refusal(t.elem_type, "inputs")))
            if not t.HasField("shape"):
                raise ImportError("%s has no shape: give static shapes" % what)
            dims = []
            for d in t.shape.dim:
                if d.HasField("dim_value") and d.dim_value >= 0:
                    dims.append(d.dim_value)
                elif d.HasField("dim_param") and d.dim_param in self.dims:
                    dims.append(self.dims[d.dim_param])
                    used.add(d.dim_param)
                elif d.HasField("dim_param"):
                    name = d.dim_param if re.fullmatch(r"[\w.-]{1,64}", d.dim_param) \
                        else short(d.dim_param)
                    raise ImportError("%s has a symbolic dimension %s: give its size "
                                      "(--dim %s=N)" % (what, name, name))
                else:
                    raise ImportError("%s has a dimension of unknown size: give static "
                                      "shapes" % what)
            if 0 in dims:
                raise ImportError("%s is zero-sized: TOSA has no zero-sized tensors" % what)
            if count(dims) > MAX_TENSOR_ELEMENTS:
                raise ImportError("%s: shape %s has more than the limit of %d elements"
                                  % (what, dims, MAX_TENSOR_ELEMENTS))
            v = Value("%%arg%d" % len(args), dims, ONNX_TO_NP[t.elem_type])
            self.values[inp.name] = v
            args.append(v)
        unknown = sorted(set(self.dims) - used)
        if unknown:
            raise ImportError("no graph input has a dimension named %s (--dim)"
                              % ", ".join(short(n) for n in unknown))
        for node in g.node:
            self.node = node
            if node.domain not in ("", "ai.onnx"):
                self.fail("operator domain %s is not supported" % short(node.domain))
            handler = getattr(self, "op_" + node.op_type, None)
            if handler is None:
                self.fail("unsupported operator")
            self.check_node(node)
            try:
                handler(node)
            except ImportError:
                raise
            except MemoryError:
                self.fail("out of memory")
            except Exception as e:  # an importer bug
                raise InternalError("%s: %s: %s" % (node_label(node), type(e).__name__,
                                                    str(e).splitlines()[0] if str(e) else ""))
        self.node = None
        results = []
        for out in g.output:
            if out.name in self.values:
                results.append(self.values[out.name])
            elif out.name in self.consts:
                results.append(self.const(self.consts[out.name]))
            else:
                raise ImportError("graph output %s is never computed" % short(out.name))
        head = "func.func @%s(%s) -> (%s) {" % (
            self.func_name, ", ".join("%s: %s" % (a.name, a.type) for a in args),
            ", ".join(r.type for r in results))
        tail = "    return %s : %s\n}\n" % (", ".join(r.name for r in results),
                                            ", ".join(r.type for r in results))
        header = "// Imported from ONNX by fuse-import (opset %d): %d nodes.\n" % (
            self.opset, len(g.node))
        return header + head + "\n" + "\n".join(self.lines) + "\n" + tail

    def check_names(self):
        """Every value has one producer: a graph input (which an initializer
        of the same name may give a default), an initializer, or one node
        output."""
        g = self.graph
        producer = {}
        for inp in g.input:
            if inp.name in producer:
                raise ImportError("graph input %s is declared twice" % short(inp.name))
            producer[inp.name] = "graph input"
        inits = set()
        for t in g.initializer:
            if t.name in inits:
                raise ImportError("initializer %s is declared twice" % short(t.name))
            inits.add(t.name)
            producer.setdefault(t.name, "initializer")
        for node in g.node:
            for o in node.output:
                if not o:
                    continue
                if o in producer:
                    raise ImportError("%s: output %s is already produced by %s" % (
                        node_label(node), short(o), producer[o]))
                producer[o] = node_label(node)

    def set(self, name, v):
        if isinstance(v, np.ndarray) or np.isscalar(v):
            self.consts[name] = np.asarray(v)
        else:
            self.values[name] = v

    def out(self, v, k=0):
        self.set(self.node.output[k], v)

    def all_const(self, node):
        return all(i == "" or self.is_const(i) for i in node.input)

    def inputs(self, node):
        return [None if i == "" else i for i in node.input]

    # -- constants and shapes (folded) -------------------------------------
    def op_Constant(self, node):
        t = self.attr("value")
        if t is None:
            for key, f in (("value_float", np.float32), ("value_int", np.int64)):
                v = self.attr(key)
                if v is not None:
                    self.out(np.asarray(v, dtype=f))
                    return
            for key, f in (("value_floats", np.float32), ("value_ints", np.int64)):
                v = self.attr(key)
                if v is not None:
                    self.out(np.asarray(list(v), dtype=f))
                    return
            self.fail("Constant without a supported value attribute")
        self.out(tensor_array(t, "attribute 'value'"))

    def op_Identity(self, node):
        self.alias(node)

    def op_Dropout(self, node):
        if len(node.input) > 2 and node.input[2] and (
                not self.is_const(node.input[2]) or self.consts[node.input[2]].any()):
            # Training mode keeps each element with probability 1 - ratio
            # (scaled by 1 / (1 - ratio)): the identity when the ratio is a
            # constant 0, as torchvision's Swin exports its attention dropout.
            ratio = node.input[1] if len(node.input) > 1 and node.input[1] else None
            if ratio is None or not self.is_const(ratio) or self.consts[ratio].size != 1 \
                    or float(self.consts[ratio].reshape(-1)[0]) != 0.0:
                self.fail("training-mode Dropout is only supported with a constant ratio of 0")
        self.alias(node)
        if len(node.output) > 1 and node.output[1]:
            # Every element kept: the mask is all true (a folded constant).
            self.out(np.ones(self._shape_of(node.input[0]), dtype=np.bool_), 1)

    def alias(self, node):
        src = node.input[0]
        if src in self.consts:
            self.out(self.consts[src])
        else:
            self.out(self.get(src))

    def op_Shape(self, node):
        shape = self.consts[node.input[0]].shape if self.is_const(node.input[0]) \
            else self.get(node.input[0]).shape
        start, end = self.attr("start", 0), self.attr("end", None)
        self.out(np.asarray(shape[start:end], dtype=np.int64))

    def op_Size(self, node):
        shape = self._shape_of(node.input[0])
        self.out(np.asarray(int(np.prod(shape)), dtype=np.int64))

    def int_list(self, name, what):
        """A constant 1-D integer input as a list of ints."""
        c = self.const_of(name)
        if c.ndim != 1 or c.dtype.kind not in "iu":
            self.fail("%s must be a 1-D integer tensor, is %s of shape %s"
                      % (what, c.dtype, c.shape))
        return [int(d) for d in c]

    def op_ConstantOfShape(self, node):
        shape = self.int_list(node.input[0], "the shape")
        self.check_fold(shape)
        t = self.attr("value")
        v = tensor_array(t, "attribute 'value'") if t is not None else \
            np.zeros([1], np.float32)
        if v.size != 1:
            self.fail("the value must have one element, has %d" % v.size)
        self.out(np.full(shape, v.reshape(-1)[0], dtype=v.dtype))

    def op_Range(self, node):
        s, l, d = (self.const_of(i) for i in node.input)
        if any(c.size != 1 for c in (s, l, d)) or len({s.dtype, l.dtype, d.dtype}) != 1:
            self.fail("start, limit and delta must be scalars of one type")
        s, l, d = (c.reshape(-1)[0] for c in (s, l, d))
        if not all(np.isfinite(c) for c in (s, l, d)) or d == 0:
            self.fail("start, limit and delta must be finite and delta non-zero")
        if s.dtype.kind in "iu":  # ceil((l - s) / d), exactly
            n = max(0, -((int(s) - int(l)) // int(d)))
        else:
            n = max(0, int(np.ceil((float(l) - float(s)) / float(d))))
        self.check_fold([n])
        self.out(np.arange(s, l, d).astype(s.dtype)[:n])

    # Elementwise ops fold when all inputs are constants.
    NUMPY_FOLD = {
        "Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
        "Equal": np.equal, "Less": np.less, "Greater": np.greater,
        "Not": np.logical_not, "Neg": np.negative, "Abs": np.abs,
        "Sqrt": np.sqrt, "Exp": np.exp, "Log": np.log, "Floor": np.floor,
        "Ceil": np.ceil, "Reciprocal": np.reciprocal, "And": np.logical_and,
        "Or": np.logical_or, "Max": np.maximum, "Min": np.minimum,
    }

    def fold(self, node):
        if not self.all_const(node) or node.op_type not in self.NUMPY_FOLD and \
                node.op_type not in ("Div", "Mod", "Pow", "Where", "Cast"):
            return False
        ins = [self.consts[i] for i in node.input if i]
        self.check_fold(self.broadcast_shape(*[c.shape for c in ins]))
        same = ins[1:] if node.op_type == "Where" else \
            ins[:1] if node.op_type == "Pow" else ins
        if any(c.dtype != same[0].dtype for c in same):
            self.fail("operands of element types %s: they must be the same"
                      % " and ".join(str(c.dtype) for c in same))
        if node.op_type == "Cast" and self.attr("to") not in ONNX_TO_NP:
            self.fail("unsupported Cast target type")
        if node.op_type == "Pow" and ins[0].dtype.kind in "iu" and (ins[1] < 0).any():
            self.fail("integers to negative powers")
        # Mod: fmod=0 takes the divisor's sign (integers only, as ONNX
        # defines it), fmod=1 the dividend's (C's fmod).
        fmod = self.attr("fmod", 0) if node.op_type == "Mod" else None
        if fmod is not None and (fmod not in (0, 1) or
                                 (ins[0].dtype.kind == "f" and fmod != 1)):
            self.fail("fmod must be 0 or 1, and 1 for floats, not %r" % (fmod,))
        if fmod is not None and ins[0].dtype.kind in "iu" and (ins[1] == 0).any():
            self.fail("integer Mod by zero")
        if node.op_type == "Div":
            r = ins[0] / ins[1] if ins[0].dtype.kind == "f" else \
                np.trunc(ins[0] / ins[1]).astype(ins[0].dtype)
        elif node.op_type == "Mod":
            with np.errstate(all="ignore"):
                r = (np.fmod if fmod else np.mod)(ins[0], ins[1]).astype(ins[0].dtype)
        elif node.op_type == "Pow":
            r = np.power(ins[0], ins[1]).astype(ins[0].dtype)
        elif node.op_type == "Where":
            r = np.where(*ins)
        elif node.op_type == "Cast":
            r = ins[0].astype(ONNX_TO_NP[self.attr("to")])
        else:
            f = self.NUMPY_FOLD[node.op_type]
            if node.op_type in ("Max", "Min", "Sum") or len(ins) > 2:
                r = functools.reduce(f, ins)
            else:
                r = f(*ins)
        self.out(np.asarray(r))
        return True

    def op_Mod(self, node):
        """Folded where both operands are constants (the shape arithmetic
        PyTorch 2's exporter emits in attention, e.g. torchvision's ViT);
        TOSA has no remainder, so a Mod of run-time values is refused."""
        if len(node.input) != 2 or not self.fold(node):
            self.fail("Mod is supported only on constants (folded at import)")

    # -- elementwise -----------------------------------------------------------
    def _binary(self, node, op):
        if self.fold(node):
            return
        a, b = self.get(node.input[0]), self.get(node.input[1])
        self.out(self.binary(op, a, b))

    def op_Div(self, node):
        if self.fold(node):
            return
        a = self.get(node.input[0])
        if self.is_const(node.input[1]) and a.dtype.kind == "f":
            if self.consts[node.input[1]].dtype != a.dtype:
                self.fail("operands of element types %s and %s: they must be the same"
                          % (a.dtype, self.consts[node.input[1]].dtype))
            b = self.const(np.reciprocal(self.consts[node.input[1]].astype(a.dtype)))
            self.out(self.binary("mul", a, b))
            return
        self.out(self.div(a, self.get(node.input[1])))

    def op_Pow(self, node):
        if self.fold(node):
            return
        a = self.get(node.input[0])
        b_type = self.consts[node.input[1]].dtype if self.is_const(node.input[1]) \
            else self.get(node.input[1]).dtype
        if a.dtype.kind != "f" or (b_type != a.dtype and not self.is_const(node.input[1])):
            self.fail("Pow is supported for floats with an exponent of the same type")
        if self.is_const(node.input[1]):
            e = self.consts[node.input[1]]
            if e.size == 1 and float(e.reshape(-1)[0]) == 2.0:
                self.out(self.binary("mul", a, a))
                return
            if e.size == 1 and float(e.reshape(-1)[0]) == 1.0:
                self.out(a)
                return
            b = self.const(e.astype(a.dtype))
        else:
            b = self.get(node.input[1])
        self.out(self.binary("pow", a, b))

    def _variadic(self, node, op):
        if self.fold(node):
            return
        acc = self.get(node.input[0])
        for name in node.input[1:]:
            acc = self.binary(op, acc, self.get(name))
        self.out(acc)

    def _cmp(self, node, op, swap=False):
        if self.fold(node):
            return
        a, b = self.get(node.input[0]), self.get(node.input[1])
        if op.startswith("logical_") and a.dtype != np.bool_:
            self.fail("the inputs must be bool tensors, not %s" % a.dtype)
        if swap:
            a, b = b, a
        self.out(self.binary(op, a, b, dtype=np.bool_))

    def op_Not(self, node):
        if not self.fold(node):
            x = self.get(node.input[0])
            if x.dtype != np.bool_:
                self.fail("the input must be a bool tensor, not %s" % x.dtype)
            self.out(self.unary("logical_not", x))

    def _unary(self, node, op):
        if self.fold(node):
            return
        self.out(self.unary(op, self.get(node.input[0])))

    def op_Neg(self, node):
        if self.fold(node):
            return
        x = self.get(node.input[0])
        if x.dtype == np.bool_:
            self.fail("not defined for bool tensors")
        z = self.zp(x.dtype)
        self.out(self.emit(E.op("negate", [x, z, z], x.type), x.shape, x.dtype))

    def op_Sqrt(self, node):
        if self.fold(node):
            return
        # sqrt(x) = 1 / rsqrt(x): exact at 0 (rsqrt gives inf) and inf.
        x = self.get(node.input[0])
        self.out(self.unary("reciprocal", self.unary("rsqrt", x)))

    def op_Relu(self, node):
        x = self.get(node.input[0])
        self.out(self.clamp(x, 0, float("inf")))

    def op_LeakyRelu(self, node):
        x = self.get(node.input[0])
        alpha = self.attr("alpha", 0.01)
        neg = self.binary("mul", x, self.scalar(alpha, x))
        self.out(self.binary("maximum", x, neg) if alpha <= 1 else
                 self.binary("minimum", x, neg))

    def op_Clip(self, node):
        x = self.get(node.input[0])
        if self.opset < 11:
            lo, hi = self.attr("min", -np.inf), self.attr("max", np.inf)
        else:
            ins = self.inputs(node) + [None, None]
            for name in ins[1:3]:
                if name and (self.const_of(name).size != 1 or
                             self.const_of(name).dtype != x.dtype):
                    self.fail("min and max must be scalars of the input's type")
            lo = float(self.const_of(ins[1]).reshape(-1)[0]) if ins[1] else -np.inf
            hi = float(self.const_of(ins[2]).reshape(-1)[0]) if ins[2] else np.inf
        if lo > hi:  # ONNX: every value becomes max
            lo = hi
        self.out(self.clamp(x, lo, hi))

    def op_HardSigmoid(self, node):
        x = self.get(node.input[0])
        alpha, beta = self.attr("alpha", 0.2), self.attr("beta", 0.5)
        y = self.binary("add", self.binary("mul", x, self.scalar(alpha, x)),
                        self.scalar(beta, x))
        self.out(self.clamp(y, 0.0, 1.0))

    def op_HardSwish(self, node):
        x = self.get(node.input[0])
        y = self.binary("add", self.binary("mul", x, self.scalar(1.0 / 6.0, x)),
                        self.scalar(0.5, x))
        self.out(self.binary("mul", x, self.clamp(y, 0.0, 1.0)))

    def op_Softplus(self, node):
        x = self.get(node.input[0])
        self.out(self.unary("log", self.binary("add", self.unary("exp", x),
                                                self.scalar(1.0, x))))

    def op_Gelu(self, node):
        x = self.get(node.input[0])
        if self.attr("approximate", "none") not in ("none", b"none"):
            self.fail("only the exact (erf) Gelu is supported")
        e = self.unary("erf", self.binary("mul", x, self.scalar(1 / np.sqrt(2.0), x)))
        h = self.binary("mul", x, self.scalar(0.5, x))
        self.out(self.binary("mul", h, self.binary("add", e, self.scalar(1.0, x))))

    def op_Where(self, node):
        if self.fold(node):
            return
        c, a, b = (self.get(i) for i in node.input)
        if c.dtype != np.bool_:
            self.fail("the condition must be a bool tensor, not %s" % c.dtype)
        self.same_dtype(a, b)
        shape = self.broadcast_shape(c.shape, a.shape, b.shape)
        r = len(shape)
        c, a, b = (self.reshape(v, (1,) * (r - len(v.shape)) + v.shape) for v in (c, a, b))
        self.out(self.emit(E.op("select", [c, a, b], ttype(shape, DTYPES[a.dtype])),
                           shape, a.dtype))

    def op_Cast(self, node):
        if self.fold(node):
            return
        x = self.get(node.input[0])
        to = ONNX_TO_NP.get(self.attr("to"))
        if to is None:
            self.fail("unsupported Cast target type")
        if np.dtype(to) == x.dtype:
            self.out(x)
            return
        if x.dtype.kind == "f" and np.dtype(to).kind in "iu" and np.dtype(to) != np.bool_:
            # ONNX truncates toward zero; tosa.cast rounds to nearest even.
            neg = self.binary("greater", self.scalar(0, x), x, dtype=np.bool_)
            up, down = self.unary("ceil", x), self.unary("floor", x)
            x = self.emit(E.op("select", [neg, up, down], x.type), x.shape, x.dtype)
        self.out(self.emit(E.op("cast", [x], ttype(x.shape, DTYPES[np.dtype(to)])),
                           x.shape, to))

    # -- data movement -------------------------------------------------------
    def _target_shape(self, in_shape, shape, allowzero=0):
        out = []
        for i, d in enumerate(shape):
            if d < -1:
                self.fail("Reshape to %s: a dimension below -1" % (shape,))
            if d == 0 and not allowzero:
                if i >= len(in_shape):
                    self.fail("Reshape to %s: no dimension %d to copy in %s"
                              % (shape, i, in_shape))
                d = in_shape[i]
            out.append(d)
        if out.count(-1) > 1:
            self.fail("Reshape with more than one -1")
        if -1 in out:
            known = count([d for d in out if d != -1])
            out[out.index(-1)] = count(in_shape) // max(known, 1)
        if count(out) != count(in_shape):
            self.fail("Reshape of %s to %s changes the element count" % (in_shape, out))
        return out

    def op_Reshape(self, node):
        shape = self.int_list(node.input[1], "the shape")
        allowzero = self.attr("allowzero", 0)
        if self.is_const(node.input[0]):
            c = self.consts[node.input[0]]
            self.out(c.reshape(self._target_shape(c.shape, shape, allowzero)))
            return
        x = self.get(node.input[0])
        self.out(self.reshape(x, self._target_shape(x.shape, shape, allowzero)))

    def _shape_of(self, name):
        return self.consts[name].shape if self.is_const(name) else self.get(name).shape

    def _reshape_any(self, name, shape):
        if self.is_const(name):
            self.out(self.consts[name].reshape(shape))
        else:
            self.out(self.reshape(self.get(name), shape))

    def op_Flatten(self, node):
        shape = self._shape_of(node.input[0])
        axis = self.attr("axis", 1)
        if not -len(shape) <= axis <= len(shape):  # the rank itself is allowed
            self.fail("axis %d is out of range for rank %d" % (axis, len(shape)))
        axis = axis + len(shape) if axis < 0 else axis
        self._reshape_any(node.input[0], [int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))])

    def _axes(self, node, k=1):
        if len(node.input) > k and node.input[k]:
            return self.int_list(node.input[k], "axes")
        return self.attr("axes", None)

    def op_Squeeze(self, node):
        shape = self._shape_of(node.input[0])
        axes = self._axes(node)
        if axes is None:
            axes = [i for i, d in enumerate(shape) if d == 1]
        axes = [self.axis(a, len(shape)) for a in axes]
        if any(shape[a] != 1 for a in axes):
            self.fail("axes %s of shape %s are not all of size 1" % (axes, shape))
        self._reshape_any(node.input[0], [d for i, d in enumerate(shape) if i not in axes])

    def op_Unsqueeze(self, node):
        shape = list(self._shape_of(node.input[0]))
        axes = self._axes(node)
        if axes is None:
            self.fail("axes are required")
        rank = len(shape) + len(axes)
        axes = sorted(self.axis(a, rank) for a in axes)
        if len(set(axes)) != len(axes):
            self.fail("axes %s repeat an axis" % axes)
        for a in axes:
            shape.insert(a, 1)
        self._reshape_any(node.input[0], shape)

    def op_Transpose(self, node):
        perm = self.attr("perm")
        rank = len(self._shape_of(node.input[0]))
        if perm is None:
            perm = list(reversed(range(rank)))
        perm = self.check_perm(perm, rank)
        if self.is_const(node.input[0]):
            self.out(np.transpose(self.consts[node.input[0]], perm))
            return
        self.out(self.transpose(self.get(node.input[0]), perm))

    def op_Concat(self, node):
        axis = self.attr("axis")
        if axis is None:
            self.fail("attribute 'axis' is required")
        shapes = [self._shape_of(i) for i in node.input]
        rank = len(shapes[0])
        axis = self.axis(axis, rank)
        for sh in shapes:
            if len(sh) != rank or any(a != b for k, (a, b) in enumerate(zip(sh, shapes[0]))
                                      if k != axis):
                self.fail("inputs of shapes %s do not concatenate along axis %d"
                          % (" and ".join(str(tuple(x)) for x in shapes), axis))
        dts = [self.dtype_of(i) for i in node.input]
        if any(d != dts[0] for d in dts):
            self.fail("inputs of element types %s: they must be the same"
                      % " and ".join(str(d) for d in dts))
        if self.all_const(node):
            shape = list(shapes[0])
            shape[axis] = sum(sh[axis] for sh in shapes)
            self.check_fold(shape)
            self.out(np.concatenate([self.consts[i] for i in node.input], axis=axis))
            return
        xs = [self.get(i) for i in node.input]
        shape = list(xs[0].shape)
        shape[axis] = sum(x.shape[axis] for x in xs)
        if len(xs) == 1:
            self.out(xs[0])
            return
        self.out(self.emit(E.op("concat", xs, ttype(shape, DTYPES[xs[0].dtype]),
                                E.axis_attr(axis)), shape, xs[0].dtype))

    def slice(self, x, starts, sizes):
        if list(starts) == [0] * len(x.shape) and tuple(sizes) == tuple(x.shape):
            return x
        s, z = self.shape_value(starts), self.shape_value(sizes)
        st = E.shape_type(len(starts))
        return self.emit(E.op("slice", [x, (s, st), (z, st)], ttype(sizes, DTYPES[x.dtype])),
                         sizes, x.dtype)

    def op_Split(self, node):
        shape = self._shape_of(node.input[0])
        axis = self.axis(self.attr("axis", 0), len(shape))
        if len(node.input) > 1 and node.input[1]:
            split = self.int_list(node.input[1], "split")
        elif self.attr("split") is not None:
            split = [int(s) for s in self.attr("split")]
        else:
            n = len(node.output)
            chunk = -(-shape[axis] // n)
            split = [min(chunk, shape[axis] - k * chunk) for k in range(n)]
        if len(split) != len(node.output):
            self.fail("%d split sizes for %d outputs" % (len(split), len(node.output)))
        if any(size < 0 for size in split):
            self.fail("negative split sizes %s" % split)
        if sum(split) != shape[axis]:
            self.fail("split sizes %s do not add up to %d" % (split, shape[axis]))
        off = 0
        for k, size in enumerate(split):
            starts = [0] * len(shape)
            sizes = list(shape)
            starts[axis], sizes[axis] = off, size
            if self.is_const(node.input[0]):
                idx = tuple(slice(a, a + b) for a, b in zip(starts, sizes))
                self.out(self.consts[node.input[0]][idx], k)
            else:
                self.out(self.slice(self.get(node.input[0]), starts, sizes), k)
            off += size

    def op_Slice(self, node):
        shape = self._shape_of(node.input[0])
        rank = len(shape)
        if self.opset < 10:
            starts, ends = self.attr("starts"), self.attr("ends")
            axes, steps = self.attr("axes"), None
            if starts is None or ends is None:
                self.fail("attributes 'starts' and 'ends' are required")
        else:
            ins = self.inputs(node) + [None] * 5
            starts = self.int_list(ins[1], "starts")
            ends = self.int_list(ins[2], "ends")
            axes = self.int_list(ins[3], "axes") if ins[3] else None
            steps = self.int_list(ins[4], "steps") if ins[4] else None
        if axes is None:
            axes = list(range(len(starts)))
        steps = steps or [1] * len(starts)
        if not len(starts) == len(ends) == len(axes) == len(steps):
            self.fail("starts, ends, axes and steps differ in length")
        axes = [self.axis(a, rank) for a in axes]
        if len(set(axes)) != len(axes):
            self.fail("axes %s repeat an axis" % axes)
        if 0 in steps:
            self.fail("a step of 0")
        if self.is_const(node.input[0]):
            idx = [slice(None)] * rank
            for st, en, ax, sp in zip(starts, ends, axes, steps):
                idx[ax] = slice(st, en, sp)
            self.out(self.consts[node.input[0]][tuple(idx)])
            return
        x = self.get(node.input[0])
        begin, size = [0] * rank, list(shape)
        stepped = []
        for st, en, ax, sp in zip(starts, ends, axes, steps):
            # ONNX clamps start and end as Python's slices do.
            picked = range(*slice(st, en, sp).indices(shape[ax]))
            if sp < 0 and len(picked):
                # Reversed, the axis is read forwards with step -sp.
                x = self.emit(E.op("reverse", [x], x.type, "{axis = %d : i32}" % ax),
                              x.shape, x.dtype)
                picked = range(shape[ax] - 1 - picked[0], shape[ax] - 1 - picked[-1] + 1, -sp)
            if abs(sp) == 1 or len(picked) <= 1:
                begin[ax], size[ax] = (picked[0], len(picked)) if len(picked) else (0, 0)
            else:
                stepped.append((ax, picked))
        x = self.slice(x, begin, size)
        for ax, picked in stepped:
            x = self.every_kth(x, ax, picked.start, picked.step, len(picked))
        self.out(x)

    def every_kth(self, x, axis, first, k, n):
        """Elements first, first + k, ..., first + (n - 1) k of `axis`, with
        k > 1: the n * k elements from `first` (padded at the end when the
        axis is shorter) viewed as [n, k], of which the column 0 is kept."""
        shape = list(x.shape)
        take = min(n * k, shape[axis] - first)
        sizes = shape[:axis] + [take] + shape[axis + 1:]
        x = self.slice(x, [0] * axis + [first] + [0] * (len(shape) - axis - 1), sizes)
        if take < n * k:
            pads = [0] * (2 * len(shape))
            pads[2 * axis + 1] = n * k - take
            sizes[axis] = n * k
            p = self.shape_value(pads)
            x = self.emit(E.op("pad", [x, (p, E.shape_type(len(pads))), self.zp(x.dtype)],
                               ttype(sizes, DTYPES[x.dtype])), sizes, x.dtype)
        x = self.reshape(x, shape[:axis] + [n, k] + shape[axis + 1:])
        x = self.slice(x, [0] * (len(shape) + 1), shape[:axis] + [n, 1] + shape[axis + 1:])
        return self.reshape(x, shape[:axis] + [n] + shape[axis + 1:])

    def op_ScatterND(self, node):
        """Folded when data, indices and updates are constants (such as the
        attention masks built at export time); refused otherwise."""
        if not self.all_const(node):
            self.fail("ScatterND is only supported on constants")
        data, idx, upd = (self.consts[i] for i in node.input[:3])
        if idx.dtype != np.int64 or idx.ndim < 1 or idx.shape[-1] > data.ndim:
            self.fail("indices must be int64 [..., k] with k <= rank %d, are %s %s"
                      % (data.ndim, idx.dtype, idx.shape))
        k = idx.shape[-1]
        if upd.shape != idx.shape[:-1] + data.shape[k:]:
            self.fail("updates must have shape %s, have %s"
                      % (idx.shape[:-1] + data.shape[k:], upd.shape))
        bound = np.asarray(data.shape[:k], dtype=np.int64)
        if ((idx < -bound) | (idx >= bound)).any():
            self.fail("an index is out of range for the data's shape %s" % (data.shape,))
        idx = np.where(idx < 0, idx + bound, idx).reshape(-1, k)
        reduction = self.attr("reduction", "none")
        apply = {"none": None, "add": np.add, "mul": np.multiply,
                 "max": np.maximum, "min": np.minimum}
        if reduction not in apply:
            self.fail("unknown reduction %r" % reduction)
        out = data.copy()
        upd = upd.reshape((idx.shape[0],) + data.shape[k:]).astype(data.dtype)
        at = tuple(idx.T)
        if apply[reduction] is None:
            out[at] = upd  # (repeated indices: ONNX leaves the order undefined)
        else:
            apply[reduction].at(out, at, upd)  # repeated indices accumulate
        self.out(out)

    def op_Gather(self, node):
        data_shape = self._shape_of(node.input[0])
        rank = len(data_shape)
        axis = self.axis(self.attr("axis", 0), rank)
        if self.dtype_of(node.input[1]) not in (np.int32, np.int64):
            self.fail("indices must be int32 or int64, not %s" % self.dtype_of(node.input[1]))
        if self.is_const(node.input[1]):
            # Constant indices: in [-n, n - 1] (ONNX), negative ones count
            # from the end.
            idx = self.consts[node.input[1]].astype(np.int64)
            n = data_shape[axis]
            bad = (idx < -n) | (idx >= n)
            if bad.any():
                self.fail("index %d is out of range for axis %d of size %d"
                          % (int(idx[bad].reshape(-1)[0]), axis, n))
            idx = np.where(idx < 0, idx + n, idx)
        if self.all_const(node):
            rest = [d for i, d in enumerate(data_shape) if i != axis]
            self.check_fold(list(idx.shape) + rest)
            self.out(np.take(self.consts[node.input[0]], idx, axis=axis))
            return
        if self.is_const(node.input[1]):
            idx = idx.astype(np.int32)
            ind = self.const(idx.reshape(1, -1))
            idx_shape = idx.shape
        else:
            # Run-time indices: negative ones count from the end; indices
            # out of range are the lowering's to clamp (tosa.gather).
            iv = self.get(node.input[1])
            idx_shape = iv.shape
            if iv.dtype != np.int32:
                iv = self.emit(E.op("cast", [iv], ttype(iv.shape, "i32")), iv.shape, np.int32)
            neg = self.binary("greater", self.scalar(0, iv), iv, dtype=np.bool_)
            wrapped = self.binary("add", iv, self.scalar(data_shape[axis], iv))
            iv = self.emit(E.op("select", [neg, wrapped, iv], iv.type), iv.shape, np.int32)
            ind = self.reshape(iv, (1, int(np.prod(idx_shape))))
        data = self.get(node.input[0])
        perm = [axis] + [i for i in range(rank) if i != axis]
        moved = self.transpose(data, perm)
        rest = [data_shape[i] for i in perm[1:]]
        flat = self.reshape(moved, (1, data_shape[axis], int(np.prod(rest))))
        n = int(np.prod(idx_shape))
        g_shape = (1, n, int(np.prod(rest)))
        g = self.emit(E.op("gather", [flat, ind], ttype(g_shape, DTYPES[data.dtype])),
                      g_shape, data.dtype)
        # [idx..., rest...] then the axes before `axis` go back in front.
        y = self.reshape(g, tuple(idx_shape) + tuple(rest))
        k = len(idx_shape)
        before = list(range(k, k + axis))
        order = before + list(range(k)) + list(range(k + axis, k + rank - 1))
        self.out(self.transpose(y, order))

    def op_Pad(self, node):
        mode = self.attr("mode", "constant")
        if mode not in ("constant", b"constant"):
            self.fail("Pad mode %r is not supported" % mode)
        x = self.get(node.input[0])
        rank = len(x.shape)
        if self.opset < 11:
            pads, value = self.ints_attr("pads", None), self.attr("value", 0.0)
        else:
            ins = self.inputs(node) + [None, None, None]
            pads = self.int_list(ins[1], "pads")
            if ins[2]:
                v = self.const_of(ins[2])
                if v.size != 1 or v.dtype != x.dtype:
                    self.fail("the constant value must be a scalar of the input's type")
                value = v.reshape(-1)[0]
            else:
                value = 0
            if ins[3]:
                axes = [self.axis(a, rank) for a in self.int_list(ins[3], "axes")]
                if len(pads) != 2 * len(axes) or len(set(axes)) != len(axes):
                    self.fail("%d pads for axes %s" % (len(pads), axes))
                full = [0] * (2 * rank)
                for j, a in enumerate(axes):
                    full[a], full[a + rank] = pads[j], pads[j + len(axes)]
                pads = full
        if len(pads) != 2 * rank:
            self.fail("%d pads for rank %d (2 per axis)" % (len(pads), rank))
        if x.dtype.kind != "f" and not np.isfinite(value):
            self.fail("a non-finite pad value for an integer tensor")
        if any(p < 0 for p in pads):
            self.fail("negative pads are not supported")
        tpads = []
        for i in range(rank):
            tpads += [int(pads[i]), int(pads[i + rank])]
        shape = [d + tpads[2 * i] + tpads[2 * i + 1] for i, d in enumerate(x.shape)]
        p = self.shape_value(tpads)
        v = self.const(np.full([1], value, dtype=x.dtype))
        self.out(self.emit(E.op("pad", [x, (p, E.shape_type(2 * rank)), v],
                                ttype(shape, DTYPES[x.dtype])), shape, x.dtype))

    def tile(self, x, reps):
        reps = [int(r) for r in reps]
        if len(reps) != len(x.shape) or any(r < 0 for r in reps):
            self.fail("repeats %s for shape %s" % (reps, x.shape))
        if all(r == 1 for r in reps):
            return x
        shape = [d * r for d, r in zip(x.shape, reps)]
        m = self.shape_value(reps)
        return self.emit(E.op("tile", [x, (m, E.shape_type(len(reps)))],
                              ttype(shape, DTYPES[x.dtype])), shape, x.dtype)

    def op_Tile(self, node):
        self.out(self.tile(self.get(node.input[0]), self.int_list(node.input[1], "repeats")))

    def op_Expand(self, node):
        shape = self.int_list(node.input[1], "the shape")
        if any(d < 0 for d in shape):
            self.fail("shape %s has a negative dimension" % shape)
        target = self.broadcast_shape(self._shape_of(node.input[0]), shape)
        if self.is_const(node.input[0]):  # folded (e.g. masks built at export)
            self.check_fold(target)
            self.out(np.broadcast_to(self.consts[node.input[0]], target).copy())
            return
        x = self.get(node.input[0])
        self.out(self.expand_to(x, target))

    # -- reductions, normalizations -------------------------------------------
    def _reduce(self, node, op, mean=False):
        x = self.get(node.input[0])
        axes = self._axes(node)
        if axes is None or len(axes) == 0:
            if self.attr("noop_with_empty_axes", 0):
                self.out(x)
                return
            axes = list(range(len(x.shape)))
        if mean and x.dtype.kind != "f":
            self.fail("ReduceMean of integers is not supported")
        keep = self.attr("keepdims", 1)
        y = self.reduce_axes(op, x, axes, keep)
        if mean:
            n = int(np.prod([x.shape[self.axis(a, len(x.shape))] for a in set(axes)]))
            y = self.binary("mul", y, self.scalar(1.0 / n, y))
        self.out(y)

    def op_Softmax(self, node, log=False):
        x = self.get(node.input[0])
        rank = len(x.shape)
        axis = self.axis(self.attr("axis", -1 if self.opset >= 13 else 1), rank)
        if self.opset < 13 and axis != rank - 1:
            # Old semantics: softmax over the flattened [axis:] dims.
            flat = self.reshape(x, (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:]))))
            self.out(self.reshape(self.softmax(flat, 1, log), x.shape))
            return
        self.out(self.softmax(x, axis, log))

    def softmax(self, x, axis, log=False):
        m = self.reduce("max", x, axis)
        d = self.binary("sub", x, m)
        e = self.unary("exp", d)
        s = self.reduce("sum", e, axis)
        if log:
            return self.binary("sub", d, self.unary("log", s))
        return self.binary("mul", e, self.unary("reciprocal", s))

    def op_LogSoftmax(self, node):
        self.op_Softmax(node, log=True)

    def op_BatchNormalization(self, node):
        if len(node.output) > 1 and any(node.output[1:]):
            self.fail("training-mode BatchNormalization is not supported")
        x = self.get(node.input[0])
        if len(x.shape) < 2:
            self.fail("the input must have a channel dimension (rank >= 2)")
        scale, bias, mean, var = (self.const_of(i).astype(np.float64).reshape(-1)
                                  for i in node.input[1:5])
        if any(c.size != x.shape[1] for c in (scale, bias, mean, var)):
            self.fail("scale, bias, mean and var must have %d values (the channels)"
                      % x.shape[1])
        eps = self.attr("epsilon", 1e-5)
        a = scale / np.sqrt(var + eps)
        b = bias - mean * a
        shape = [1, x.shape[1]] + [1] * (len(x.shape) - 2)
        y = self.binary("mul", x, self.const(a.reshape(shape).astype(x.dtype)))
        self.out(self.binary("add", y, self.const(b.reshape(shape).astype(x.dtype))))

    def op_LayerNormalization(self, node):
        x = self.get(node.input[0])
        rank = len(x.shape)
        axis = self.axis(self.attr("axis", -1), rank)
        eps = self.attr("epsilon", 1e-5)
        axes = list(range(axis, rank))
        n = int(np.prod(x.shape[axis:]))
        mean = self.binary("mul", self.reduce_axes("sum", x, axes, True),
                           self.scalar(1.0 / n, x))
        d = self.binary("sub", x, mean)
        var = self.binary("mul", self.reduce_axes("sum", self.binary("mul", d, d), axes, True),
                          self.scalar(1.0 / n, x))
        r = self.unary("rsqrt", self.binary("add", var, self.scalar(eps, x)))
        y = self.binary("mul", d, r)
        y = self.binary("mul", y, self.get(node.input[1]))
        if len(node.input) > 2 and node.input[2]:
            y = self.binary("add", y, self.get(node.input[2]))
        self.out(y)
        if len(node.output) > 1 and node.output[1]:
            self.out(mean, 1)
        if len(node.output) > 2 and node.output[2]:
            self.out(r, 2)

    # -- matmul, conv, pooling -----------------------------------------------
    def matmul3(self, a, b):
        shape = (a.shape[0], a.shape[1], b.shape[2])
        za, zb = self.zp(a.dtype), self.zp(b.dtype)
        return self.emit(E.op("matmul", [a, b, za, zb], ttype(shape, DTYPES[a.dtype])),
                         shape, a.dtype)

    def matmul(self, a, b):
        self.same_dtype(a, b)
        if not a.shape or not b.shape:
            self.fail("MatMul of a scalar")
        if a.shape[-1] != (b.shape[0] if len(b.shape) == 1 else b.shape[-2]):
            self.fail("MatMul of shapes %s and %s: the inner dimensions differ"
                      % (a.shape, b.shape))
        if len(a.shape) == 1:
            r = self.matmul(self.reshape(a, (1,) + a.shape), b)
            return self.reshape(r, r.shape[:-2] + r.shape[-1:])
        if len(b.shape) == 1:
            r = self.matmul(a, self.reshape(b, b.shape + (1,)))
            return self.reshape(r, r.shape[:-1])
        m, k = a.shape[-2:]
        n = b.shape[-1]
        ba, bb = a.shape[:-2], b.shape[:-2]
        r = max(len(ba), len(bb))
        ba, bb = (1,) * (r - len(ba)) + ba, (1,) * (r - len(bb)) + bb
        batch = self.broadcast_shape(ba, bb)
        nb = int(np.prod(batch))
        if int(np.prod(bb)) == 1:
            # Shared right operand (weights): fold the batch into M.
            a3 = self.reshape(a, (1, nb * m if int(np.prod(ba)) == nb else m, k))
            if int(np.prod(ba)) != nb:
                self.fail("unsupported MatMul broadcast")
            b3 = self.reshape(b, (1, k, n))
            return self.reshape(self.matmul3(a3, b3), batch + (m, n))
        a = self.expand_to(a, batch + (m, k))
        b = self.expand_to(b, batch + (k, n))
        y = self.matmul3(self.reshape(a, (nb, m, k)), self.reshape(b, (nb, k, n)))
        return self.reshape(y, batch + (m, n))

    def expand_to(self, x, shape):
        """x broadcast to `shape` (leading unit dims, then a tile)."""
        xs = (1,) * (len(shape) - len(x.shape)) + x.shape
        x = self.reshape(x, xs)
        return self.tile(x, [o // d for o, d in zip(shape, xs)])

    def einsum_terms(self, shapes):
        """The Einsum equation's operand and output subscripts, one letter
        per axis (an ellipsis spelled out as letters no subscript uses)."""
        eq = self.attr("equation", "").replace(" ", "")
        lhs, arrow, out = eq.partition("->")
        terms = lhs.split(",")
        if len(terms) != len(shapes) or not re.fullmatch(r"[A-Za-z.,]*(->[A-Za-z.]*)?", eq):
            self.fail("equation %r does not fit %d operands" % (eq, len(shapes)))
        spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 if c not in eq]
        ell = max([len(sh) - len(t.replace("...", "")) for t, sh in zip(terms, shapes)
                   if "..." in t] + [0])
        fill = "".join(spare[:ell])
        for i, (t, sh) in enumerate(zip(terms, shapes)):
            if "..." in t:
                n = len(sh) - len(t.replace("...", ""))
                t = t.replace("...", fill[ell - n:] if n > 0 else "", 1)
            if "." in t or len(t) != len(sh):
                self.fail("subscripts %r do not fit operand %d of rank %d"
                          % (terms[i], i, len(sh)))
            if len(set(t)) != len(t):
                self.fail("repeated subscripts in %r (diagonals) are not supported" % t)
            terms[i] = t
        if not arrow:  # implicit: the letters used once, in order, after the ellipsis
            used = "".join(terms)
            out = "..." + "".join(sorted(c for c in set(used)
                                         if used.count(c) == 1 and c not in fill))
        out = out.replace("...", fill, 1)
        sizes = {}
        for t, sh in zip(terms, shapes):
            for c, d in zip(t, sh):
                if sizes.setdefault(c, d) != d:
                    self.fail("subscript %r has sizes %d and %d (broadcasting is not "
                              "supported)" % (c, sizes[c], d))
        if len(set(out)) != len(out) or any(c not in sizes for c in out):
            self.fail("output subscripts %r are repeated or not in the inputs" % out)
        return terms, out, sizes

    def op_Einsum(self, node):
        """One or two operands: axes only one operand has and the output
        lacks are summed first; then a batched matmul of [batch, free,
        contracted] by [batch, contracted, free], transposed to the output."""
        if len(node.input) not in (1, 2):
            self.fail("Einsum of %d operands is not supported (1 or 2)" % len(node.input))
        shapes = [self._shape_of(i) for i in node.input]
        terms, out, sizes = self.einsum_terms(shapes)
        # Folded when its work (every subscript's size multiplied) is small
        # enough to compute at import; else computed at run time.
        if self.all_const(node) and count(sizes.values()) <= MAX_FOLD_ELEMENTS:
            self.check_fold([sizes[c] for c in out])
            self.out(np.einsum(",".join(terms) + "->" + out,
                               *[self.consts[i] for i in node.input], optimize=True))
            return
        xs = [self.get(i) for i in node.input]
        self.same_dtype(*xs)
        for i, (x, t) in enumerate(zip(xs, terms)):
            others = out + "".join(terms[:i] + terms[i + 1:])
            alone = [a for a, c in enumerate(t) if c not in others]
            if alone:
                xs[i] = self.reduce_axes("sum", x, alone, False)
                terms[i] = "".join(c for c in t if c in others)
        if len(xs) == 1:
            self.out(self.transpose(xs[0], [terms[0].index(c) for c in out]))
            return
        (a, b), (ta, tb) = xs, terms
        batch = [c for c in ta if c in tb and c in out]
        contr = [c for c in ta if c in tb and c not in out]
        fa = [c for c in ta if c not in tb]
        fb = [c for c in tb if c not in ta]

        def size(letters):
            return count(sizes[c] for c in letters)
        a = self.transpose(a, [ta.index(c) for c in batch + fa + contr])
        b = self.transpose(b, [tb.index(c) for c in batch + contr + fb])
        y = self.matmul3(self.reshape(a, (size(batch), size(fa), size(contr))),
                         self.reshape(b, (size(batch), size(contr), size(fb))))
        got = batch + fa + fb
        y = self.reshape(y, [sizes[c] for c in got])
        self.out(self.transpose(y, [got.index(c) for c in out]))

    def op_MatMul(self, node):
        self.out(self.matmul(self.get(node.input[0]), self.get(node.input[1])))

    def op_Gemm(self, node):
        alpha, beta = self.attr("alpha", 1.0), self.attr("beta", 1.0)
        ta, tb = self.attr("transA", 0), self.attr("transB", 0)

        def operand(name, trans):
            if len(self._shape_of(name)) != 2:
                self.fail("Gemm's A and B must be matrices (rank 2)")
            if self.is_const(name):
                c = self.consts[name]
                return self.const(c.T if trans else c)
            v = self.get(name)
            return self.transpose(v, [1, 0]) if trans else v
        a, b = operand(node.input[0], ta), operand(node.input[1], tb)
        y = self.matmul(a, b)
        if alpha != 1.0:
            y = self.binary("mul", y, self.scalar(alpha, y))
        if len(node.input) > 2 and node.input[2]:
            if self.is_const(node.input[2]):
                c = self.const((self.consts[node.input[2]] * beta).astype(y.dtype))
            else:
                c = self.get(node.input[2])
                if beta != 1.0:
                    c = self.binary("mul", c, self.scalar(beta, c))
            y = self.binary("add", y, c)
        self.out(y)

    def _pads(self, kernel, in_hw, strides, dilations):
        """The pads of a conv or pool over len(kernel) spatial axes, in
        TOSA's order (each axis' begin, then its end)."""
        nd = len(kernel)
        auto = self.attr("auto_pad", "NOTSET")
        if auto not in ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"):
            self.fail("auto_pad %r is not NOTSET, SAME_UPPER, SAME_LOWER or VALID" % auto)
        pads = [int(p) for p in self.attr("pads", [0] * (2 * nd))]
        if len(pads) != 2 * nd:
            self.fail("attribute 'pads' must have %d values, has %s" % (2 * nd, pads))
        if any(p < 0 for p in pads):
            self.fail("pads %s: negative pads are not supported" % (pads,))
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            pads = [0] * (2 * nd)
            for i in range(nd):
                out = -(-in_hw[i] // strides[i])
                total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in_hw[i])
                lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
                pads[i], pads[i + nd] = lo, total - lo
        elif auto == "VALID":
            pads = [0] * (2 * nd)
        # ONNX [begins..., ends...] -> TOSA [begin, end] per axis
        return [pads[i // 2 + (i % 2) * nd] for i in range(2 * nd)]

    def _out_hw(self, in_hw, kernel, pads, strides, dilations, ceil=False):
        out = []
        for i in range(len(kernel)):
            span = in_hw[i] + pads[2 * i] + pads[2 * i + 1] - (kernel[i] - 1) * dilations[i] - 1
            q = -(-span // strides[i]) if ceil else span // strides[i]
            out.append(q + 1)
        if min(out) < 1:
            self.fail("the kernel %s (dilations %s) does not fit the padded input %s"
                      % (list(kernel), list(dilations), list(in_hw)))
        return out

    def spatial_attrs(self, kernel=None):
        """kernel_shape (checked against the weights' `kernel` if given),
        strides and dilations of a conv or pool over len(kernel) spatial
        axes (2 without `kernel`): a value per axis, each >= 1."""
        nd = len(kernel) if kernel is not None else 2
        k = self.attr("kernel_shape")
        if k is None and kernel is None:
            self.fail("attribute 'kernel_shape' is required")
        k = self.ints_attr("kernel_shape", kernel, nd, 1)
        if kernel is not None and list(k) != list(kernel):
            self.fail("kernel_shape %s differs from the weights' %s" % (k, list(kernel)))
        return (k, self.ints_attr("strides", [1] * nd, nd, 1),
                self.ints_attr("dilations", [1] * nd, nd, 1))

    def fit_stride(self, x, kernel, strides, dilations, pads):
        """TOSA wants (H + pads - extent) divisible by the stride, where ONNX
        rounds down: the rows no window reads go (bottom padding first, then
        input rows), on each of the len(kernel) spatial axes. Updates `pads`;
        returns the (sliced) NC... input."""
        for i in range(len(kernel)):
            extent = (kernel[i] - 1) * dilations[i] + 1
            extra = (x.shape[2 + i] + pads[2 * i] + pads[2 * i + 1] - extent) % strides[i]
            cut = min(extra, pads[2 * i + 1])
            pads[2 * i + 1] -= cut
            extra -= cut
            if extra:
                sizes = list(x.shape)
                sizes[2 + i] -= extra
                x = self.slice(x, [0] * len(sizes), sizes)
        return x

    def as_2d(self, node, handler, weights):
        """A 1-D convolution or pool (input [N, C, L]) as the 2-D one of
        height 1: its spatial attributes given a leading 1 (pads 0), its
        input viewed as [N, C, 1, L] and its weights [F, C/G, K] as
        [F, C/G, 1, K]; the result viewed back as [N, F, L']."""
        x = self.get(node.input[0])
        lifted = onnx.NodeProto()
        lifted.CopyFrom(node)
        del lifted.attribute[:]
        for a in node.attribute:
            v = onnx.helper.get_attribute_value(a)
            if a.name in ("kernel_shape", "strides", "dilations", "pads"):
                v = [int(d) for d in v]
                if len(v) != (2 if a.name == "pads" else 1):
                    self.fail("attribute %r must have %d values for a 1-D input, has %s"
                              % (a.name, 2 if a.name == "pads" else 1, v))
                v = [0, v[0], 0, v[1]] if a.name == "pads" else [1] + v
                a = onnx.helper.make_attribute(a.name, v)
            lifted.attribute.append(a)
        # Names no ONNX graph uses (an ONNX name is a non-empty identifier).
        prefix = "\x00as_2d:%d:" % len(self.values)
        lifted.input[0] = prefix + "x"
        self.values[lifted.input[0]] = self.reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2]))
        if weights:
            w = self.const_of(node.input[1])
            if w.ndim != 3:
                self.fail("the weights of a 1-D convolution must be [C_out, C_in / group, K], "
                          "are %s" % (w.shape,))
            lifted.input[1] = prefix + "w"
            self.consts[lifted.input[1]] = w.reshape(w.shape[0], w.shape[1], 1, w.shape[2])
        lifted.output[0] = prefix + "y"
        self.node = lifted
        try:
            handler(lifted)
        finally:
            self.node = node
        y = self.values.pop(lifted.output[0])
        self.values.pop(lifted.input[0])
        self.consts.pop(prefix + "w", None)
        self.out(self.reshape(y, (y.shape[0], y.shape[1], y.shape[3])))

    def op_Conv(self, node):
        x = self.get(node.input[0])
        if len(x.shape) == 3:
            return self.as_2d(node, self.op_Conv, weights=True)
        if len(x.shape) not in (4, 5):
            self.fail("only 1-D, 2-D and 3-D convolutions (NCL, NCHW and NCDHW inputs) "
                      "are supported")
        w = self.const_of(node.input[1]).astype(x.dtype)
        if w.ndim != len(x.shape):
            self.fail("the weights must be [C_out, C_in / group, kernel...] with %d kernel "
                      "axes, are %s" % (len(x.shape) - 2, w.shape))
        cout, cin_g = w.shape[:2]
        kernel = w.shape[2:]
        bias = self.const_of(node.input[2]).astype(x.dtype) if len(node.input) > 2 and \
            node.input[2] else np.zeros([cout], x.dtype)
        if bias.shape != (cout,):
            self.fail("the bias must have %d values (C_out), has shape %s" % (cout, bias.shape))
        group = self.attr("group", 1)
        if group < 1 or cin_g * group != x.shape[1] or cout % group:
            self.fail("group %d does not divide the channels (%d in, weights for %d per "
                      "group, %d out)" % (group, x.shape[1], cin_g, cout))
        _, strides, dil = self.spatial_attrs(kernel)
        pads = self._pads(kernel, x.shape[2:], strides, dil)
        out_sp = self._out_hw(x.shape[2:], kernel, pads, strides, dil)
        x = self.fit_stride(x, kernel, strides, dil, pads)
        attrs = E.conv_attr(DTYPES[x.dtype], pads, strides, dil)
        zp = self.zp(x.dtype)
        if len(kernel) == 3:
            if group != 1:
                self.fail("grouped 3-D convolutions are not supported")
            # NCDHW -> NDHWC; weights [F, C, KD, KH, KW] -> [F, KD, KH, KW, C].
            xn = self.to_nhwc(x)
            out_shape = (x.shape[0],) + tuple(out_sp) + (cout,)
            wv, bv = self.const(np.transpose(w, (0, 2, 3, 4, 1))), self.const(bias)
            y = self.emit(E.op("conv3d", [xn, wv, bv, zp, zp], ttype(out_shape, DTYPES[x.dtype]),
                               attrs), out_shape, x.dtype)
            self.out(self.to_nchw(y))
            return
        kh, kw = kernel
        oh, ow = out_sp
        n, cin = x.shape[:2]
        xn = self.to_nhwc(x)
        out_shape = (n, oh, ow, cout)
        if group == 1:
            wv = self.const(np.transpose(w, (0, 2, 3, 1)))
            bv = self.const(bias)
            y = self.emit(E.op("conv2d", [xn, wv, bv, zp, zp], ttype(out_shape, DTYPES[x.dtype]),
                               attrs), out_shape, x.dtype)
        elif group == cin and cin_g == 1:
            mult = cout // cin
            # [C*M, 1, KH, KW] -> [KH, KW, C, M]
            wd_ = np.transpose(w.reshape(cin, mult, kh, kw), (2, 3, 0, 1))
            wv, bv = self.const(wd_), self.const(bias)
            y = self.emit(E.op("depthwise_conv2d", [xn, wv, bv, zp, zp],
                               ttype(out_shape, DTYPES[x.dtype]), attrs), out_shape, x.dtype)
        else:
            y = self.grouped_conv(xn, w, bias, group, pads, strides, dil, out_shape)
        self.out(self.to_nchw(y))

    def grouped_conv(self, xn, w, bias, group, pads, strides, dil, out_shape):
        """A grouped convolution (not depthwise) as one op, whatever the
        number of groups: TOSA has none, so it is linalg's
        `conv_2d_nhwgc_gfhwc` on the NHWC input viewed as [N, H, W, G, C/G]
        and padded first (linalg's convolutions do not pad), its result
        [N, OH, OW, G, F/G] viewed back as [N, OH, OW, F], plus the bias."""
        n, h, wd, cin = xn.shape
        cout, cin_g, kh, kw = w.shape
        elt = DTYPES[xn.dtype]
        # Viewed first, then padded: the pad stays next to the convolution,
        # where tiling fuses it into the convolution's tiles.
        x5 = self.reshape(xn, (n, h, wd, group, cin_g))
        if any(pads):
            p = self.shape_value([0, 0, pads[0], pads[1], pads[2], pads[3], 0, 0, 0, 0])
            h, wd = h + pads[0] + pads[1], wd + pads[2] + pads[3]
            shape = (n, h, wd, group, cin_g)
            x5 = self.emit(E.op("pad", [x5, (p, E.shape_type(10)), self.zp(xn.dtype)],
                                ttype(shape, elt)), shape, xn.dtype)
        # [F, C/G, KH, KW] -> [G, F/G, KH, KW, C/G]
        wv = self.const(np.transpose(w.reshape(group, cout // group, cin_g, kh, kw),
                                     (0, 1, 3, 4, 2)))
        shape5 = (n, out_shape[1], out_shape[2], group, cout // group)
        zero = self.emit(E.scalar_zero(elt), (), xn.dtype)
        init = self.emit(E.empty(ttype(shape5, elt)), shape5, xn.dtype)
        init = self.emit(E.fill((zero.name, elt), init), shape5, xn.dtype)
        y5 = self.emit(E.grouped_conv2d(x5, wv, init, strides, dil), shape5, xn.dtype)
        # The bias on the grouped result: an epilogue of the convolution.
        y5 = self.binary("add", y5, self.const(bias.reshape(1, 1, 1, group, cout // group)))
        return self.reshape(y5, out_shape)

    def _pool(self, node, kind):
        x = self.get(node.input[0])
        if len(x.shape) == 3:
            return self.as_2d(node, lambda lifted: self._pool(lifted, kind), weights=False)
        if len(x.shape) != 4:
            self.fail("only 1-D and 2-D pooling (NCL and NCHW inputs) is supported")
        if len(node.output) > 1 and node.output[1]:
            self.fail("MaxPool's indices output is not supported")
        kernel, strides, dil = self.spatial_attrs()
        if list(dil) != [1, 1]:
            self.fail("dilated pooling is not supported")
        pads = self._pads(kernel, x.shape[2:], strides, dil)
        if any(p >= kernel[i // 2] for i, p in enumerate(pads)):
            self.fail("pads %s reach the kernel size %s: not supported (TOSA)"
                      % (pads, kernel))
        if list(kernel) == [1, 1] and list(strides) == [1, 1] and not any(pads):
            # Every window one element: the input itself (PyTorch exports
            # AdaptiveAvgPool2d to the input's own size so: VGG-16's 7 x 7
            # pool after its last max pool). A pool op would keep the
            # convolution before it from being tiled as a convolution
            # under a pool (lib/Codegen/Common/TileSizes.cpp). Only a zero's
            # sign can differ from a computed average: -0 stays -0.
            self.out(x)
            return
        if kind == "avg" and self.attr("count_include_pad", 0) and any(pads):
            # Zeros that count: pad explicitly, then pool without padding.
            p = self.shape_value([0, 0, 0, 0, pads[0], pads[1], pads[2], pads[3]])
            v = self.const(np.zeros([1], dtype=x.dtype))
            shape = (x.shape[0], x.shape[1], x.shape[2] + pads[0] + pads[1],
                     x.shape[3] + pads[2] + pads[3])
            x = self.emit(E.op("pad", [x, (p, E.shape_type(8)), v], ttype(shape, DTYPES[x.dtype])),
                          shape, x.dtype)
            pads = [0, 0, 0, 0]
        ceil = self.attr("ceil_mode", 0)
        oh, ow = self._out_hw(x.shape[2:], kernel, pads, strides, dil, ceil)
        if ceil:
            floor_hw = self._out_hw(x.shape[2:], kernel, pads, strides, dil, False)
            if [oh, ow] != floor_hw:
                # Pad the bottom/right so that the last window exists.
                outs = [oh, ow]
                for i in range(2):
                    # A last window that would start in the right padding is
                    # dropped (ONNX, ORT).
                    if (outs[i] - 1) * strides[i] >= x.shape[2 + i] + pads[2 * i]:
                        outs[i] -= 1
                    need = (outs[i] - 1) * strides[i] + kernel[i] - (x.shape[2 + i] + pads[2 * i])
                    pads[2 * i + 1] = max(pads[2 * i + 1], need)
                    if pads[2 * i + 1] >= kernel[i]:
                        self.fail("MaxPool ceil_mode padding reaches the kernel size")
                oh, ow = outs
                if kind == "avg":
                    self.fail("AveragePool with ceil_mode=1 is not supported")
        x = self.fit_stride(x, kernel, strides, [1, 1], pads)
        self.out(self.pool2d(x, kind, kernel, strides, pads, (oh, ow)))

    def pool2d(self, x, kind, kernel, strides, pads, out_hw):
        n, c = x.shape[:2]
        xn = self.to_nhwc(x)
        out_shape = (n, out_hw[0], out_hw[1], c)
        result = ttype(out_shape, DTYPES[x.dtype])
        if kind == "max":
            y = self.emit(E.op("max_pool2d", [xn], result, E.pool_attr(kernel, pads, strides)),
                          out_shape, x.dtype)
        else:
            zp = self.zp(x.dtype)
            y = self.emit(E.op("avg_pool2d", [xn, zp, zp], result,
                               E.pool_attr(kernel, pads, strides, DTYPES[x.dtype])),
                          out_shape, x.dtype)
        return self.to_nchw(y)

    def op_MaxPool(self, node):
        self._pool(node, "max")

    def op_AveragePool(self, node):
        self._pool(node, "avg")

    def op_GlobalAveragePool(self, node):
        x = self.get(node.input[0])
        if len(x.shape) < 3:
            self.fail("the input must be [N, C, spatial...] (rank >= 3)")
        axes = list(range(2, len(x.shape)))
        y = self.reduce_axes("sum", x, axes, True)
        n = int(np.prod(x.shape[2:]))
        self.out(self.binary("mul", y, self.scalar(1.0 / n, y)))

    def op_GlobalMaxPool(self, node):
        x = self.get(node.input[0])
        if len(x.shape) < 3:
            self.fail("the input must be [N, C, spatial...] (rank >= 3)")
        self.out(self.reduce_axes("max", x, list(range(2, len(x.shape))), True))

    def op_Resize(self, node):
        x = self.get(node.input[0])
        if len(x.shape) != 4:
            self.fail("only 4-D (NCHW) Resize is supported")
        if self.attr("antialias", 0) or self.attr("axes") is not None or \
                self.attr("keep_aspect_ratio_policy", "stretch") != "stretch" or \
                self.attr("exclude_outside", 0) or self.attr("extrapolation_value", 0.0) != 0.0:
            self.fail("Resize antialias/axes/keep_aspect_ratio_policy/exclude_outside/"
                      "extrapolation_value are not supported")
        mode = self.attr("mode", "nearest")
        legacy = node.op_type == "Upsample" or self.opset < 11
        ctm = self.attr("coordinate_transformation_mode",
                        "asymmetric" if legacy else "half_pixel")
        nearest = self.attr("nearest_mode", "floor" if legacy else "round_prefer_floor")
        ins = self.inputs(node) + [None] * 4
        n, c, h, w = x.shape
        if ins[3]:
            sizes = self.int_list(ins[3], "sizes")
        else:
            scales = self.attr("scales") if node.op_type == "Upsample" and self.opset < 9 \
                else self.const_of(ins[2] if not legacy else ins[1]).reshape(-1).tolist()
            if scales is None or len(scales) != 4 or \
                    not all(np.isfinite(s) and 0 < s < 2 ** 31 for s in scales):
                self.fail("scales %s: 4 positive values expected" % (scales,))
            sizes = [int(np.floor(d * s)) for d, s in zip(x.shape, scales)]
            if any(abs(d * s - o) > 1e-6 for d, s, o in zip(x.shape, scales, sizes)):
                # ONNX then maps coordinates with the scale, not out / in.
                self.fail("Resize scales that do not give whole output sizes are "
                          "not supported")
        if len(sizes) != 4 or min(sizes) < 1:
            self.fail("output sizes %s: 4 positive values expected" % (sizes,))
        if sizes[:2] != [n, c]:
            self.fail("Resize of the batch or channel dimension is not supported")
        oh, ow = sizes[2:]
        # TOSA: in = (out * scale_d + offset) / scale_n, then NEAREST rounds
        # half up and BILINEAR interpolates.
        if mode == "nearest" and ctm == "asymmetric" and nearest == "floor":
            # floor(v) = round_half_up(v - 1/2): offset -n/2 with n = 2*out.
            scale = [2 * oh, 2 * h, 2 * ow, 2 * w]
            offset = [-oh, -ow]
            tmode = "NEAREST_NEIGHBOR"
        elif mode == "linear" and ctm in ("half_pixel", "pytorch_half_pixel") and \
                not (ctm == "pytorch_half_pixel" and (oh == 1 or ow == 1)):
            scale = [2 * oh, 2 * h, 2 * ow, 2 * w]
            offset = [h - oh, w - ow]
            tmode = "BILINEAR"
        elif mode == "linear" and ctm == "align_corners" and min(oh, ow, h, w) > 1:
            scale = [oh - 1, h - 1, ow - 1, w - 1]
            offset = [0, 0]
            tmode = "BILINEAR"
        elif mode == "linear" and ctm == "asymmetric":
            scale = [oh, h, ow, w]
            offset = [0, 0]
            tmode = "BILINEAR"
        else:
            self.fail("Resize mode=%s coordinate_transformation_mode=%s nearest_mode=%s "
                      "is not supported" % (mode, ctm, nearest))
        g = np.gcd.reduce
        for i in (0, 2):
            d = int(g([scale[i], scale[i + 1], abs(offset[i // 2]) or scale[i]]))
            scale[i] //= d
            scale[i + 1] //= d
            offset[i // 2] //= d
        # TOSA: out = ((in - 1) * scale_n - offset + border) / scale_d + 1.
        border = [(oh - 1) * scale[1] - (h - 1) * scale[0] + offset[0],
                  (ow - 1) * scale[3] - (w - 1) * scale[2] + offset[1]]
        if max(scale[0], scale[2]) > 2048:
            self.fail("Resize scale too large for TOSA (numerator > 2048)")
        xn = self.to_nhwc(x)
        s, o, b = self.shape_value(scale), self.shape_value(offset), self.shape_value(border)
        out_shape = (n, oh, ow, c)
        y = self.emit(E.op("resize", [xn, (s, E.shape_type(4)), (o, E.shape_type(2)),
                                      (b, E.shape_type(2))], ttype(out_shape, DTYPES[x.dtype]),
                           "{mode = %s}" % tmode), out_shape, x.dtype)
        self.out(self.to_nchw(y))

    def op_Upsample(self, node):
        self.op_Resize(node)



# The ops that map one to one on a TOSA op through a shared helper.
BINARY = {
    "Add": "add",
    "Sub": "sub",
    "Mul": "mul",
}
VARIADIC = {
    "Max": "maximum",
    "Min": "minimum",
    "Sum": "add",
}
COMPARE = {
    "Equal": "equal",
    "Greater": "greater",
    "Less": ("greater", True),
    "GreaterOrEqual": "greater_equal",
    "LessOrEqual": ("greater_equal", True),
    "And": "logical_and",
    "Or": "logical_or",
}
UNARY = {
    "Exp": "exp",
    "Log": "log",
    "Tanh": "tanh",
    "Sigmoid": "sigmoid",
    "Erf": "erf",
    "Abs": "abs",
    "Floor": "floor",
    "Ceil": "ceil",
    "Reciprocal": "reciprocal",
}
REDUCE = {
    "ReduceSum": "sum",
    "ReduceMean": ("sum", True),
    "ReduceMax": "max",
    "ReduceMin": "min",
    "ReduceProd": "product",
}


def _install_table_ops():
    def make(helper, arg):
        if isinstance(arg, tuple):
            tosa_op, flag = arg
            key = "swap" if helper == "_cmp" else "mean"
            return lambda self, node: getattr(self, helper)(node, tosa_op, **{key: flag})
        return lambda self, node: getattr(self, helper)(node, arg)
    for helper, table in (("_unary", UNARY), ("_binary", BINARY), ("_variadic", VARIADIC),
                          ("_cmp", COMPARE), ("_reduce", REDUCE)):
        for onnx_op, arg in table.items():
            setattr(Importer, "op_" + onnx_op, make(helper, arg))


_install_table_ops()


def check_func_name(name):
    """The function's name is written into the IR: an MLIR bare identifier."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        raise ValueError("the function name must be an MLIR identifier "
                         "([A-Za-z_][A-Za-z0-9_$.]*), not %r" % (name,))


def check_dims(dims):
    """`dims` (symbolic dimension name -> size) as a dict of positive ints
    within MAX_TENSOR_ELEMENTS; ValueError otherwise."""
    out = {}
    for name, size in dict(dims or {}).items():
        if not isinstance(name, str) or not name:
            raise ValueError("a symbolic dimension's name must be a non-empty string")
        if isinstance(size, bool) or not isinstance(size, int) or not \
                0 < size <= MAX_TENSOR_ELEMENTS:
            raise ValueError("the size of %s must be an int in [1, %d], not %r"
                             % (short(name), MAX_TENSOR_ELEMENTS, size))
        out[name] = size
    return out


def symbolic_batch(model, dims=None):
    """The symbolic dimension of `model`'s graph inputs that `dims` leaves
    unsized, when it is the first dimension of every input that has it (a
    batch): (its name, the indices of those inputs among the graph inputs
    that are not initializers); None when every symbolic dimension is sized.
    ImportError for one elsewhere, or for two."""
    graph = model.graph
    init = {i.name for i in graph.initializer}
    found, inputs = None, []
    for k, inp in enumerate(i for i in graph.input if i.name not in init):
        t = inp.type.tensor_type
        for axis, d in enumerate(t.shape.dim if t.HasField("shape") else ()):
            if not d.HasField("dim_param") or d.dim_param in (dims or {}):
                continue
            name = short(d.dim_param)
            if axis != 0:
                raise ImportError("graph input %s has a symbolic dimension %s at axis %d: "
                                  "give its size (--dim %s=N); only the first dimension "
                                  "(a batch) stays symbolic" % (short(inp.name), name,
                                                                 axis, name))
            if found not in (None, d.dim_param):
                raise ImportError("graph inputs have two symbolic first dimensions, %s "
                                  "and %s: give the size of one (--dim)"
                                  % (short(found), name))
            found = d.dim_param
            inputs.append(k)
    return (found, inputs) if found else None


# Inputs of an op that shape its output but whose values reach no output
# element's value except through that shape (a size seen in the shape; the
# rest of the op's semantics fixed): they may depend on the batch size.
# Everything else a batch-dependent constant (Shape's result, folded) reaches
# is data, refused unless it is the same for every sample.
BATCH_SHAPE_INPUTS = {"Reshape": {1}, "Expand": {1}, "Tile": {1}, "Slice": {2},
                      "Resize": {3}, "Split": {1}}
PROOF_BATCHES = (3, 5)


def _batch_axis(a, b):
    """The axis where shapes `a` (at batch PROOF_BATCHES[0]) and `b` (at
    [1]) differ as a batch would (sizes B * inner at both), or None when they
    are the same; False when they differ otherwise."""
    p, q = PROOF_BATCHES
    if tuple(a) == tuple(b):
        return None
    diff = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(a) != len(b) or len(diff) != 1 or a[diff[0]] % p or \
            a[diff[0]] // p * q != b[diff[0]]:
        return False
    return diff[0]


def _same_per_sample(x, y, axis):
    """Whether the constants `x` (at batch PROOF_BATCHES[0]) and `y` (at
    [1]), with the batch the outermost factor of `axis`, hold one sample's
    values for every sample at both sizes (a broadcast, not a function of
    the sample or of the batch size)."""
    def samples(c, p):
        return c.reshape(c.shape[:axis] + (p, c.shape[axis] // p) + c.shape[axis + 1:])
    a, b = samples(x, PROOF_BATCHES[0]), samples(y, PROOF_BATCHES[1])
    first = np.take(a, [0], axis=axis)
    return bool(np.all(a == first) and np.all(b == first))


def check_batch(model, name, dims=None):
    """Imports `model` (an onnx.ModelProto) with its symbolic dimension
    `name` at two batch sizes (PROOF_BATCHES) and compares them: every
    value's shape is the same at both or differs in one axis as a batch
    (B * inner), and a constant that depends on the batch size (from Shape)
    reaches a computed value only as a shape (BATCH_SHAPE_INPUTS) or the
    same for every sample. Returns the MLIR text at the first size, for
    fuse-opt --fuse-prove-batch-separable, which proves the rest on it;
    ImportError naming the node otherwise."""
    dims = dict(check_dims(dims))
    runs = []
    for size in PROOF_BATCHES:
        importer = Importer(model, elide_weights=size != PROOF_BATCHES[0],
                            dims=dict(dims, **{name: size}))
        with np.errstate(all="ignore"):
            text = importer.run()
        runs.append((importer, text))
    (a, text), (b, _) = runs

    def batch_const(value):
        x, y = a.consts.get(value), b.consts.get(value)
        return x is not None and (y is None or x.shape != y.shape or
                                  not np.array_equal(x, y, equal_nan=True))

    plain = name if re.fullmatch(r"[\w.-]{1,64}", name) else short(name)

    def fail(node, msg):
        raise ImportError("%s: %s: %s is not a batch this model keeps apart; give its "
                          "size (--dim %s=N)" % (node_label(node), msg, plain, plain))

    for node in model.graph.node:
        computed = [o for o in node.output if o and o in a.values]
        if not computed:
            continue  # folded: what it feeds is checked
        for k, value in enumerate(node.input):
            if not value or not batch_const(value):
                continue
            axis = _batch_axis(a.consts[value].shape, b.consts[value].shape) \
                if value in b.consts else False
            if k in BATCH_SHAPE_INPUTS.get(node.op_type, ()):
                continue
            if axis is False or axis is None or \
                    not _same_per_sample(a.consts[value], b.consts[value], axis):
                fail(node, "input %d (%s) depends on the batch size and is read as data"
                     % (k, short(value)))
        for o in computed:
            if o not in b.values or _batch_axis(a.values[o].shape, b.values[o].shape) \
                    is False:
                fail(node, "output %s has shape %s at batch %d and %s at batch %d" % (
                    short(o), list(a.values[o].shape), PROOF_BATCHES[0],
                    list(b.values[o].shape) if o in b.values else "a constant",
                    PROOF_BATCHES[1]))
    for out in model.graph.output:
        if batch_const(out.name):
            raise ImportError("graph output %s is a constant that depends on the batch "
                              "size" % short(out.name))
    return text


def import_model(model, elide_weights=False, func_name="model", bind=None, dims=None):
    """Returns the MLIR text of `model` (an onnx.ModelProto or a path).
    `bind` maps graph input names to arrays imported as constants (e.g. the
    weights ONNX's node tests pass as inputs). `dims` gives the sizes of the
    inputs' symbolic dimensions (ONNX `dim_param`s, e.g. {"batch": 8}): the
    model is imported at those sizes (one compile per size; compiling once
    for every size is issue P14). A model given as a path is read by
    read_model (external data only from the model's folder); a ModelProto
    must hold its data (onnx.load does that)."""
    if not isinstance(elide_weights, bool):
        raise TypeError("elide_weights must be a bool, not %s" % type(elide_weights).__name__)
    check_func_name(func_name)
    dims = check_dims(dims)
    if isinstance(model, (str, bytes, os.PathLike)):
        model = read_model(model)
    elif not isinstance(model, onnx.ModelProto):
        raise TypeError("model must be a path or an onnx.ModelProto, not %s"
                        % type(model).__name__)
    else:
        check_strings(model)
        check_sizes(model)
    with np.errstate(all="ignore"):
        return Importer(model, elide_weights, func_name, bind, dims).run()
