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
naming the node and its op type; nothing is written then.

Used as `fuse-import MODEL.onnx -o MODEL.mlir` (utils/fuse-import) or
`fuse_dialect.onnx_import.import_model(model_proto) -> str`.
"""

import functools

import numpy as np

try:
    import onnx
    from onnx import numpy_helper, shape_inference
except ImportError as e:  # pragma: no cover
    raise ImportError("fuse-import needs the onnx Python package "
                      "(Debian: python3-onnx)") from e


class ImportError(Exception):  # noqa: A001 - the module's own error type
    """An ONNX construct the importer does not support."""


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


def ttype(shape, elt):
    if len(shape) == 0:
        return "tensor<%s>" % elt
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), elt)


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


class NotConstant(ImportError):
    """An input that must be known at import time is not."""

    def __init__(self, node, name):
        self.name = name
        super().__init__("node %r (%s): input %r must be a constant (an "
                         "initializer or computed from constants)"
                         % (node.name or node.output[0], node.op_type, name))


class Value:
    """An SSA value of the function being built (never a folded constant)."""

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(shape), np.dtype(dtype)

    @property
    def type(self):
        return ttype(self.shape, DTYPES[self.dtype])


class Importer:
    def __init__(self, model, elide_weights=False, func_name="model", bind=None):
        self.elide = elide_weights
        self.bind = dict(bind or {})
        self.func_name = func_name
        try:
            model = shape_inference.infer_shapes(model)
        except Exception:  # shape inference is best effort
            pass
        self.model = model
        self.graph = model.graph
        self.opset = max([o.version for o in model.opset_import
                          if o.domain in ("", "ai.onnx")] or [13])
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
            where = "node %r (%s): " % (self.node.name or self.node.output[0],
                                        self.node.op_type)
        raise ImportError(where + msg)

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def emit(self, text, shape, dtype):
        if 0 in tuple(shape):
            self.fail("zero-sized tensor %s: TOSA has none" % (tuple(shape),))
        name = self.fresh()
        self.lines.append("    %s = %s" % (name, text))
        return Value(name, shape, dtype)

    def const(self, array, dtype=None):
        array = np.asarray(array if dtype is None else np.asarray(array).astype(dtype))
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        key = (array.dtype.str, array.shape, array.tobytes()) if array.size <= 4096 else None
        if key is not None and key in self.const_cache:
            return self.const_cache[key]
        t = ttype(array.shape, DTYPES[array.dtype])
        if self.elide and array.size > 16:
            lit = "dense_resource<__elided__>"
        else:
            lit = literal(array)
        v = self.emit('"tosa.const"() <{values = %s : %s}> : () -> %s' % (lit, t, t),
                      array.shape, array.dtype)
        if key is not None:
            self.const_cache[key] = v
        return v

    def shape_value(self, dims):
        dims = [int(d) for d in dims]
        n = len(dims)
        lit = "dense<[%s]>" % ", ".join(map(str, dims)) if n else "dense<>"
        name = self.fresh()
        self.lines.append("    %s = tosa.const_shape {values = %s : tensor<%dxindex>} : () -> !tosa.shape<%d>"
                          % (name, lit, n, n))
        return name

    def zp(self, dtype):
        return self.const(np.zeros([1], dtype=dtype))

    def get(self, name):
        """The SSA value of ONNX value `name` (constants are materialized)."""
        if name in self.values:
            return self.values[name]
        if name in self.consts:
            return self.const(self.consts[name])
        self.fail("unknown value %r" % name)

    def is_const(self, name):
        return name in self.consts

    def const_of(self, name):
        if name not in self.consts:
            raise NotConstant(self.node, name)
        return self.consts[name]

    def attr(self, name, default=None):
        for a in self.node.attribute:
            if a.name == name:
                return onnx.helper.get_attribute_value(a)
        return default

    def check_attrs(self, allowed):
        for a in self.node.attribute:
            if a.name not in allowed:
                self.fail("unsupported attribute %r" % a.name)

    # -- generic emitters ----------------------------------------------------
    def unary(self, op, x, extra=""):
        return self.emit("tosa.%s %s%s : (%s) -> %s" % (op, x.name, extra, x.type, x.type),
                         x.shape, x.dtype)

    def reshape(self, x, shape):
        shape = tuple(int(d) for d in shape)
        if shape == x.shape:
            return x
        s = self.shape_value(shape)
        return self.emit("tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> %s"
                         % (x.name, s, x.type, len(shape), ttype(shape, DTYPES[x.dtype])),
                         shape, x.dtype)

    def transpose(self, x, perm):
        perm = [int(p) for p in perm]
        if perm == list(range(len(perm))):
            return x
        shape = [x.shape[p] for p in perm]
        return self.emit("tosa.transpose %s {perms = array<i32: %s>} : (%s) -> %s"
                         % (x.name, ", ".join(map(str, perm)), x.type,
                            ttype(shape, DTYPES[x.dtype])), shape, x.dtype)

    def broadcast_pair(self, a, b):
        """Equal ranks for TOSA's broadcasting (leading 1s on the shorter)."""
        r = max(len(a.shape), len(b.shape))
        a = self.reshape(a, (1,) * (r - len(a.shape)) + a.shape)
        b = self.reshape(b, (1,) * (r - len(b.shape)) + b.shape)
        out = []
        for da, db in zip(a.shape, b.shape):
            if da != db and da != 1 and db != 1:
                self.fail("shapes %s and %s do not broadcast" % (a.shape, b.shape))
            out.append(max(da, db) if 0 not in (da, db) else 0)
        return a, b, tuple(out)

    def binary(self, op, a, b, dtype=None):
        a, b, shape = self.broadcast_pair(a, b)
        dtype = a.dtype if dtype is None else dtype
        rt = ttype(shape, DTYPES[np.dtype(dtype)])
        if op == "mul":
            shift = self.const(np.zeros([1], np.int8))
            return self.emit("tosa.mul %s, %s, %s : (%s, %s, tensor<1xi8>) -> %s"
                             % (a.name, b.name, shift.name, a.type, b.type, rt), shape, dtype)
        return self.emit("tosa.%s %s, %s : (%s, %s) -> %s"
                         % (op, a.name, b.name, a.type, b.type, rt), shape, dtype)

    def scalar(self, v, like):
        return self.const(np.full([1] * len(like.shape), v, dtype=like.dtype))

    def clamp(self, x, lo, hi):
        elt = DTYPES[x.dtype]
        if x.dtype.kind == "f":
            # Infinite bounds stay infinite (exact bit patterns): a bound of
            # FLT_MAX would turn +inf into FLT_MAX.
            lo_s, hi_s = scalar_literal(lo, elt), scalar_literal(hi, elt)
        else:
            info = np.iinfo(x.dtype)
            lo_s, hi_s = str(int(max(lo, info.min))), str(int(min(hi, info.max)))
        return self.emit("tosa.clamp %s {min_val = %s : %s, max_val = %s : %s} : (%s) -> %s"
                         % (x.name, lo_s, elt, hi_s, elt, x.type, x.type), x.shape, x.dtype)

    def reduce(self, op, x, axis, keep=True):
        shape = list(x.shape)
        shape[axis] = 1
        r = self.emit("tosa.reduce_%s %s {axis = %d : i32} : (%s) -> %s"
                      % (op, x.name, axis, x.type, ttype(shape, DTYPES[x.dtype])),
                      shape, x.dtype)
        return r

    def reduce_axes(self, op, x, axes, keepdims):
        rank = len(x.shape)
        axes = sorted(set(int(a) % rank for a in axes)) if rank else []
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
        return self.transpose(x, [0, 2, 3, 1])

    def to_nchw(self, x):
        return self.transpose(x, [0, 3, 1, 2])

    def div(self, a, b):
        if a.dtype.kind == "f":
            return self.binary("mul", a, self.unary("reciprocal", b))
        return self.binary("intdiv", a, b)

    # -- driver --------------------------------------------------------------
    def run(self):
        g = self.graph
        for init in g.initializer:
            self.consts[init.name] = numpy_helper.to_array(init)
        self.consts.update(self.bind)
        args = []
        for inp in g.input:
            if inp.name in self.consts:
                continue
            t = inp.type.tensor_type
            if t.elem_type not in ONNX_TO_NP or t.elem_type == onnx.TensorProto.UINT8:
                raise ImportError("graph input %r: unsupported element type (TOSA "
                                  "has no unsigned arithmetic)" % inp.name)
            dims = []
            for d in t.shape.dim:
                if not d.HasField("dim_value") or d.dim_value < 0:
                    raise ImportError("graph input %r has a dynamic dimension %r: "
                                      "give static shapes" % (inp.name, d.dim_param))
                dims.append(d.dim_value)
            if 0 in dims:
                raise ImportError("graph input %r is zero-sized: TOSA has no "
                                  "zero-sized tensors" % inp.name)
            v = Value("%%arg%d" % len(args), dims, ONNX_TO_NP[t.elem_type])
            self.values[inp.name] = v
            args.append(v)
        for node in g.node:
            self.node = node
            if node.domain not in ("", "ai.onnx"):
                self.fail("operator domain %r is not supported" % node.domain)
            handler = getattr(self, "op_" + node.op_type, None)
            if handler is None:
                self.fail("unsupported operator")
            handler(node)
        self.node = None
        results = []
        for out in g.output:
            if out.name in self.values:
                results.append(self.values[out.name])
            elif out.name in self.consts:
                results.append(self.const(self.consts[out.name]))
            else:
                raise ImportError("graph output %r is never computed" % out.name)
        head = "func.func @%s(%s) -> (%s) {" % (
            self.func_name, ", ".join("%s: %s" % (a.name, a.type) for a in args),
            ", ".join(r.type for r in results))
        tail = "    return %s : %s\n}\n" % (", ".join(r.name for r in results),
                                            ", ".join(r.type for r in results))
        header = "// Imported from ONNX by fuse-import (opset %d): %d nodes.\n" % (
            self.opset, len(g.node))
        return header + head + "\n" + "\n".join(self.lines) + "\n" + tail

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
        self.out(numpy_helper.to_array(t))

    def op_Identity(self, node):
        self.alias(node)

    def op_Dropout(self, node):
        if len(node.input) > 2 and node.input[2] and (
                not self.is_const(node.input[2]) or bool(self.consts[node.input[2]])):
            self.fail("training-mode Dropout is not supported")
        self.alias(node)
        if len(node.output) > 1 and node.output[1]:
            self.fail("Dropout's mask output is not supported")

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
        shape = self.get(node.input[0]).shape
        self.out(np.asarray(int(np.prod(shape)), dtype=np.int64))

    def op_ConstantOfShape(self, node):
        shape = self.const_of(node.input[0])
        t = self.attr("value")
        v = numpy_helper.to_array(t) if t is not None else np.zeros([1], np.float32)
        self.out(np.full([int(d) for d in shape], v.reshape(-1)[0], dtype=v.dtype))

    def op_Range(self, node):
        s, l, d = (self.const_of(i) for i in node.input)
        self.out(np.arange(s, l, d).astype(s.dtype))

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
                node.op_type not in ("Div", "Pow", "Where", "Cast"):
            return False
        ins = [self.consts[i] for i in node.input if i]
        if node.op_type == "Div":
            r = ins[0] / ins[1] if ins[0].dtype.kind == "f" else \
                np.trunc(ins[0] / ins[1]).astype(ins[0].dtype)
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
        if swap:
            a, b = b, a
        self.out(self.binary(op, a, b, dtype=np.bool_))

    def op_Not(self, node):
        if not self.fold(node):
            self.out(self.unary("logical_not", self.get(node.input[0])))

    def _unary(self, node, op):
        if self.fold(node):
            return
        self.out(self.unary(op, self.get(node.input[0])))

    def op_Neg(self, node):
        if self.fold(node):
            return
        x = self.get(node.input[0])
        z = self.zp(x.dtype)
        self.out(self.emit("tosa.negate %s, %s, %s : (%s, %s, %s) -> %s"
                           % (x.name, z.name, z.name, x.type, z.type, z.type, x.type),
                           x.shape, x.dtype))

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
            lo = float(self.const_of(ins[1])) if ins[1] else -np.inf
            hi = float(self.const_of(ins[2])) if ins[2] else np.inf
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
        r = max(len(c.shape), len(a.shape), len(b.shape))
        c, a, b = (self.reshape(v, (1,) * (r - len(v.shape)) + v.shape) for v in (c, a, b))
        shape = tuple(max(x) for x in zip(c.shape, a.shape, b.shape))
        self.out(self.emit("tosa.select %s, %s, %s : (%s, %s, %s) -> %s"
                           % (c.name, a.name, b.name, c.type, a.type, b.type,
                              ttype(shape, DTYPES[a.dtype])), shape, a.dtype))

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
            x = self.emit("tosa.select %s, %s, %s : (%s, %s, %s) -> %s"
                          % (neg.name, up.name, down.name, neg.type, up.type, down.type, x.type),
                          x.shape, x.dtype)
        self.out(self.emit("tosa.cast %s : (%s) -> %s"
                           % (x.name, x.type, ttype(x.shape, DTYPES[np.dtype(to)])),
                           x.shape, to))

    # -- data movement -------------------------------------------------------
    def _target_shape(self, in_shape, shape, allowzero=0):
        shape = [int(d) for d in shape]
        out = []
        for i, d in enumerate(shape):
            out.append(in_shape[i] if d == 0 and not allowzero else d)
        if out.count(-1) > 1:
            self.fail("Reshape with more than one -1")
        if -1 in out:
            known = int(np.prod([d for d in out if d != -1]))
            out[out.index(-1)] = int(np.prod(in_shape)) // max(known, 1)
        if int(np.prod(out)) != int(np.prod(in_shape)):
            self.fail("Reshape of %s to %s changes the element count" % (in_shape, out))
        return out

    def op_Reshape(self, node):
        shape = self.const_of(node.input[1])
        if self.is_const(node.input[0]):
            c = self.consts[node.input[0]]
            self.out(c.reshape(self._target_shape(c.shape, shape, self.attr("allowzero", 0))))
            return
        x = self.get(node.input[0])
        self.out(self.reshape(x, self._target_shape(x.shape, shape, self.attr("allowzero", 0))))

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
        axis = axis + len(shape) if axis < 0 else axis
        self._reshape_any(node.input[0], [int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))])

    def _axes(self, node, k=1):
        if len(node.input) > k and node.input[k]:
            return [int(a) for a in self.const_of(node.input[k])]
        return self.attr("axes", None)

    def op_Squeeze(self, node):
        shape = self._shape_of(node.input[0])
        axes = self._axes(node)
        if axes is None:
            axes = [i for i, d in enumerate(shape) if d == 1]
        axes = [a % len(shape) for a in axes]
        self._reshape_any(node.input[0], [d for i, d in enumerate(shape) if i not in axes])

    def op_Unsqueeze(self, node):
        shape = list(self._shape_of(node.input[0]))
        axes = sorted(a % (len(shape) + len(self._axes(node))) for a in self._axes(node))
        for a in axes:
            shape.insert(a, 1)
        self._reshape_any(node.input[0], shape)

    def op_Transpose(self, node):
        perm = self.attr("perm")
        if self.is_const(node.input[0]):
            self.out(np.transpose(self.consts[node.input[0]], perm))
            return
        x = self.get(node.input[0])
        if perm is None:
            perm = list(reversed(range(len(x.shape))))
        self.out(self.transpose(x, perm))

    def op_Concat(self, node):
        axis = self.attr("axis")
        if self.all_const(node):
            self.out(np.concatenate([self.consts[i] for i in node.input], axis=axis))
            return
        xs = [self.get(i) for i in node.input if int(np.prod(self._shape_of(i))) != 0 or True]
        rank = len(xs[0].shape)
        axis %= rank
        shape = list(xs[0].shape)
        shape[axis] = sum(x.shape[axis] for x in xs)
        if len(xs) == 1:
            self.out(xs[0])
            return
        self.out(self.emit("tosa.concat %s {axis = %d : i32} : (%s) -> %s"
                           % (", ".join(x.name for x in xs), axis,
                              ", ".join(x.type for x in xs),
                              ttype(shape, DTYPES[xs[0].dtype])), shape, xs[0].dtype))

    def slice(self, x, starts, sizes):
        s, z = self.shape_value(starts), self.shape_value(sizes)
        n = len(starts)
        return self.emit("tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> %s"
                         % (x.name, s, z, x.type, n, n, ttype(sizes, DTYPES[x.dtype])),
                         sizes, x.dtype)

    def op_Split(self, node):
        shape = self._shape_of(node.input[0])
        axis = self.attr("axis", 0) % len(shape)
        if len(node.input) > 1 and node.input[1]:
            split = [int(s) for s in self.const_of(node.input[1])]
        elif self.attr("split") is not None:
            split = list(self.attr("split"))
        else:
            n = len(node.output)
            chunk = -(-shape[axis] // n)
            split = [min(chunk, shape[axis] - k * chunk) for k in range(n)]
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
        else:
            ins = self.inputs(node) + [None] * 5
            starts = self.const_of(ins[1]).tolist()
            ends = self.const_of(ins[2]).tolist()
            axes = self.const_of(ins[3]).tolist() if ins[3] else None
            steps = self.const_of(ins[4]).tolist() if ins[4] else None
        if axes is None:
            axes = list(range(len(starts)))
        steps = steps or [1] * len(starts)
        begin = [0] * rank
        size = list(shape)
        for st, en, ax, sp in zip(starts, ends, axes, steps):
            ax %= rank
            d = shape[ax]
            if sp != 1:
                if self.is_const(node.input[0]):
                    continue
                self.fail("Slice with step %d is not supported" % sp)
            st = st + d if st < 0 else st
            en = en + d if en < 0 else en
            st, en = max(0, min(st, d)), max(0, min(en, d))
            begin[ax], size[ax] = st, max(0, en - st)
        if self.is_const(node.input[0]):
            idx = [slice(None)] * rank
            for st, en, ax, sp in zip(starts, ends, axes, steps):
                idx[ax % rank] = slice(st, en, sp)
            self.out(self.consts[node.input[0]][tuple(idx)])
            return
        self.out(self.slice(self.get(node.input[0]), begin, size))

    def op_Gather(self, node):
        axis = self.attr("axis", 0)
        if self.all_const(node):
            self.out(np.take(self.consts[node.input[0]],
                             self.consts[node.input[1]], axis=axis))
            return
        data_shape = self._shape_of(node.input[0])
        rank = len(data_shape)
        axis %= rank
        if self.is_const(node.input[1]):
            idx = self.consts[node.input[1]].astype(np.int64)
            idx = np.where(idx < 0, idx + data_shape[axis], idx).astype(np.int32)
            ind = self.const(idx.reshape(1, -1))
            idx_shape = idx.shape
        else:
            iv = self.get(node.input[1])
            idx_shape = iv.shape
            if iv.dtype != np.int32:
                iv = self.emit("tosa.cast %s : (%s) -> %s" % (
                    iv.name, iv.type, ttype(iv.shape, "i32")), iv.shape, np.int32)
            # Negative indices count from the end.
            neg = self.binary("greater", self.scalar(0, iv), iv, dtype=np.bool_)
            wrapped = self.binary("add", iv, self.scalar(data_shape[axis], iv))
            iv = self.emit("tosa.select %s, %s, %s : (%s, %s, %s) -> %s"
                           % (neg.name, wrapped.name, iv.name, neg.type, wrapped.type,
                              iv.type, iv.type), iv.shape, np.int32)
            ind = self.reshape(iv, (1, int(np.prod(idx_shape))))
        data = self.get(node.input[0])
        perm = [axis] + [i for i in range(rank) if i != axis]
        moved = self.transpose(data, perm)
        rest = [data_shape[i] for i in perm[1:]]
        flat = self.reshape(moved, (1, data_shape[axis], int(np.prod(rest))))
        n = int(np.prod(idx_shape))
        g_shape = (1, n, int(np.prod(rest)))
        g = self.emit("tosa.gather %s, %s : (%s, %s) -> %s"
                      % (flat.name, ind.name, flat.type, ind.type,
                         ttype(g_shape, DTYPES[data.dtype])), g_shape, data.dtype)
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
            pads, value = self.attr("pads"), self.attr("value", 0.0)
        else:
            ins = self.inputs(node) + [None, None, None]
            pads = self.const_of(ins[1]).tolist()
            value = self.const_of(ins[2]).reshape(-1)[0] if ins[2] else 0
            if ins[3]:
                axes = [int(a) % rank for a in self.const_of(ins[3])]
                full = [0] * (2 * rank)
                for j, a in enumerate(axes):
                    full[a], full[a + rank] = pads[j], pads[j + len(axes)]
                pads = full
        if any(p < 0 for p in pads):
            self.fail("negative pads are not supported")
        tpads = []
        for i in range(rank):
            tpads += [int(pads[i]), int(pads[i + rank])]
        shape = [d + tpads[2 * i] + tpads[2 * i + 1] for i, d in enumerate(x.shape)]
        p = self.shape_value(tpads)
        v = self.const(np.full([1], value, dtype=x.dtype))
        self.out(self.emit("tosa.pad %s, %s, %s : (%s, !tosa.shape<%d>, %s) -> %s"
                           % (x.name, p, v.name, x.type, 2 * rank, v.type,
                              ttype(shape, DTYPES[x.dtype])), shape, x.dtype))

    def tile(self, x, reps):
        reps = [int(r) for r in reps]
        if all(r == 1 for r in reps):
            return x
        shape = [d * r for d, r in zip(x.shape, reps)]
        m = self.shape_value(reps)
        return self.emit("tosa.tile %s, %s : (%s, !tosa.shape<%d>) -> %s"
                         % (x.name, m, x.type, len(reps), ttype(shape, DTYPES[x.dtype])),
                         shape, x.dtype)

    def op_Tile(self, node):
        self.out(self.tile(self.get(node.input[0]), self.const_of(node.input[1])))

    def op_Expand(self, node):
        x = self.get(node.input[0])
        shape = [int(d) for d in self.const_of(node.input[1])]
        r = max(len(shape), len(x.shape))
        xs = (1,) * (r - len(x.shape)) + x.shape
        shape = [1] * (r - len(shape)) + shape
        self.out(self.expand_to(x, tuple(max(a, b) for a, b in zip(xs, shape))))

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
            n = int(np.prod([x.shape[a % len(x.shape)] for a in axes]))
            y = self.binary("mul", y, self.scalar(1.0 / n, y))
        self.out(y)

    def op_Softmax(self, node, log=False):
        x = self.get(node.input[0])
        rank = len(x.shape)
        axis = self.attr("axis", -1 if self.opset >= 13 else 1) % rank
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
        scale, bias, mean, var = (self.const_of(i).astype(np.float64) for i in node.input[1:5])
        eps = self.attr("epsilon", 1e-5)
        a = scale / np.sqrt(var + eps)
        b = bias - mean * a
        shape = [1, x.shape[1]] + [1] * (len(x.shape) - 2)
        y = self.binary("mul", x, self.const(a.reshape(shape).astype(x.dtype)))
        self.out(self.binary("add", y, self.const(b.reshape(shape).astype(x.dtype))))

    def op_LayerNormalization(self, node):
        x = self.get(node.input[0])
        rank = len(x.shape)
        axis = self.attr("axis", -1) % rank
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
        return self.emit("tosa.matmul %s, %s, %s, %s : (%s, %s, %s, %s) -> %s"
                         % (a.name, b.name, za.name, zb.name, a.type, b.type, za.type,
                            zb.type, ttype(shape, DTYPES[a.dtype])), shape, a.dtype)

    def matmul(self, a, b):
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
        batch = tuple(max(x, y) for x, y in zip(ba, bb))
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

    def op_MatMul(self, node):
        self.out(self.matmul(self.get(node.input[0]), self.get(node.input[1])))

    def op_Gemm(self, node):
        alpha, beta = self.attr("alpha", 1.0), self.attr("beta", 1.0)
        ta, tb = self.attr("transA", 0), self.attr("transB", 0)

        def operand(name, trans):
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
        auto = self.attr("auto_pad", "NOTSET")
        auto = auto.decode() if isinstance(auto, bytes) else auto
        pads = self.attr("pads", [0, 0, 0, 0])
        if len(pads) != 4:
            self.fail("only 2-D spatial ops are supported")
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            pads = [0, 0, 0, 0]
            for i in range(2):
                out = -(-in_hw[i] // strides[i])
                total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in_hw[i])
                lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
                pads[i], pads[i + 2] = lo, total - lo
        elif auto == "VALID":
            pads = [0, 0, 0, 0]
        # ONNX [top, left, bottom, right] -> TOSA [top, bottom, left, right]
        return [pads[0], pads[2], pads[1], pads[3]]

    def _out_hw(self, in_hw, kernel, pads, strides, dilations, ceil=False):
        out = []
        for i in range(2):
            span = in_hw[i] + pads[2 * i] + pads[2 * i + 1] - (kernel[i] - 1) * dilations[i] - 1
            q = -(-span // strides[i]) if ceil else span // strides[i]
            out.append(q + 1)
        return out

    def fit_stride(self, x, kernel, strides, dilations, pads):
        """TOSA wants (H + pads - extent) divisible by the stride, where ONNX
        rounds down: the rows no window reads go (bottom padding first, then
        input rows). Updates `pads`; returns the (sliced) NCHW input."""
        for i in range(2):
            extent = (kernel[i] - 1) * dilations[i] + 1
            extra = (x.shape[2 + i] + pads[2 * i] + pads[2 * i + 1] - extent) % strides[i]
            cut = min(extra, pads[2 * i + 1])
            pads[2 * i + 1] -= cut
            extra -= cut
            if extra:
                sizes = list(x.shape)
                sizes[2 + i] -= extra
                x = self.slice(x, [0] * 4, sizes)
        return x

    def op_Conv(self, node):
        x = self.get(node.input[0])
        if len(x.shape) != 4:
            self.fail("only 2-D convolutions (NCHW input) are supported")
        w = self.const_of(node.input[1]).astype(x.dtype)
        cout, cin_g, kh, kw = w.shape
        bias = self.const_of(node.input[2]).astype(x.dtype) if len(node.input) > 2 and \
            node.input[2] else np.zeros([cout], x.dtype)
        group = self.attr("group", 1)
        strides = self.attr("strides", [1, 1])
        dil = self.attr("dilations", [1, 1])
        pads = self._pads((kh, kw), x.shape[2:], strides, dil)
        oh, ow = self._out_hw(x.shape[2:], (kh, kw), pads, strides, dil)
        x = self.fit_stride(x, (kh, kw), strides, dil, pads)
        n, cin, h, wd = x.shape
        xn = self.to_nhwc(x)
        attrs = "{acc_type = %s, pad = array<i64: %s>, stride = array<i64: %s>, dilation = array<i64: %s>}" % (
            DTYPES[x.dtype], ", ".join(map(str, pads)), ", ".join(map(str, strides)),
            ", ".join(map(str, dil)))
        zp = self.zp(x.dtype)
        out_shape = (n, oh, ow, cout)
        if group == 1:
            wv = self.const(np.transpose(w, (0, 2, 3, 1)))
            bv = self.const(bias)
            y = self.emit("tosa.conv2d %s, %s, %s, %s, %s %s : (%s, %s, %s, %s, %s) -> %s"
                          % (xn.name, wv.name, bv.name, zp.name, zp.name, attrs, xn.type,
                             wv.type, bv.type, zp.type, zp.type, ttype(out_shape, DTYPES[x.dtype])),
                          out_shape, x.dtype)
        elif group == cin and cin_g == 1:
            mult = cout // cin
            # [C*M, 1, KH, KW] -> [KH, KW, C, M]
            wd_ = np.transpose(w.reshape(cin, mult, kh, kw), (2, 3, 0, 1))
            wv, bv = self.const(wd_), self.const(bias)
            y = self.emit("tosa.depthwise_conv2d %s, %s, %s, %s, %s %s : (%s, %s, %s, %s, %s) -> %s"
                          % (xn.name, wv.name, bv.name, zp.name, zp.name, attrs, xn.type,
                             wv.type, bv.type, zp.type, zp.type, ttype(out_shape, DTYPES[x.dtype])),
                          out_shape, x.dtype)
        else:
            if cin % group or cout % group:
                self.fail("group %d does not divide the channels" % group)
            cg_out = cout // group
            parts = []
            for gi in range(group):
                xs = self.slice(xn, [0, 0, 0, gi * cin_g], [n, h, wd, cin_g])
                wv = self.const(np.transpose(w[gi * cg_out:(gi + 1) * cg_out], (0, 2, 3, 1)))
                bv = self.const(bias[gi * cg_out:(gi + 1) * cg_out])
                ps = (n, oh, ow, cg_out)
                parts.append(self.emit(
                    "tosa.conv2d %s, %s, %s, %s, %s %s : (%s, %s, %s, %s, %s) -> %s"
                    % (xs.name, wv.name, bv.name, zp.name, zp.name, attrs, xs.type, wv.type,
                       bv.type, zp.type, zp.type, ttype(ps, DTYPES[x.dtype])), ps, x.dtype))
            y = self.emit("tosa.concat %s {axis = 3 : i32} : (%s) -> %s"
                          % (", ".join(p.name for p in parts), ", ".join(p.type for p in parts),
                             ttype(out_shape, DTYPES[x.dtype])), out_shape, x.dtype)
        self.out(self.to_nchw(y))

    def _pool(self, node, kind):
        x = self.get(node.input[0])
        if len(x.shape) != 4:
            self.fail("only 2-D pooling (NCHW input) is supported")
        if len(node.output) > 1 and node.output[1]:
            self.fail("MaxPool's indices output is not supported")
        kernel = self.attr("kernel_shape")
        strides = self.attr("strides", [1, 1])
        dil = self.attr("dilations", [1, 1])
        if list(dil) != [1, 1]:
            self.fail("dilated pooling is not supported")
        pads = self._pads(kernel, x.shape[2:], strides, dil)
        if kind == "avg" and self.attr("count_include_pad", 0) and any(pads):
            # Zeros that count: pad explicitly, then pool without padding.
            p = self.shape_value([0, 0, 0, 0, pads[0], pads[1], pads[2], pads[3]])
            v = self.const(np.zeros([1], dtype=x.dtype))
            shape = (x.shape[0], x.shape[1], x.shape[2] + pads[0] + pads[1],
                     x.shape[3] + pads[2] + pads[3])
            x = self.emit("tosa.pad %s, %s, %s : (%s, !tosa.shape<8>, %s) -> %s"
                          % (x.name, p, v.name, x.type, v.type, ttype(shape, DTYPES[x.dtype])),
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
        attrs = "kernel = array<i64: %s>, pad = array<i64: %s>, stride = array<i64: %s>" % (
            ", ".join(map(str, kernel)), ", ".join(map(str, pads)), ", ".join(map(str, strides)))
        if kind == "max":
            y = self.emit("tosa.max_pool2d %s {%s} : (%s) -> %s"
                          % (xn.name, attrs, xn.type, ttype(out_shape, DTYPES[x.dtype])),
                          out_shape, x.dtype)
        else:
            zp = self.zp(x.dtype)
            y = self.emit("tosa.avg_pool2d %s, %s, %s {acc_type = %s, %s} : (%s, %s, %s) -> %s"
                          % (xn.name, zp.name, zp.name, DTYPES[x.dtype], attrs, xn.type,
                             zp.type, zp.type, ttype(out_shape, DTYPES[x.dtype])),
                          out_shape, x.dtype)
        return self.to_nchw(y)

    def op_MaxPool(self, node):
        self._pool(node, "max")

    def op_AveragePool(self, node):
        self._pool(node, "avg")

    def op_GlobalAveragePool(self, node):
        x = self.get(node.input[0])
        axes = list(range(2, len(x.shape)))
        y = self.reduce_axes("sum", x, axes, True)
        n = int(np.prod(x.shape[2:]))
        self.out(self.binary("mul", y, self.scalar(1.0 / n, y)))

    def op_GlobalMaxPool(self, node):
        x = self.get(node.input[0])
        self.out(self.reduce_axes("max", x, list(range(2, len(x.shape))), True))

    def op_Resize(self, node):
        x = self.get(node.input[0])
        if len(x.shape) != 4:
            self.fail("only 4-D (NCHW) Resize is supported")
        if self.attr("antialias", 0) or self.attr("axes") is not None or \
                self.attr("keep_aspect_ratio_policy", "stretch") not in ("stretch", b"stretch") or \
                self.attr("exclude_outside", 0) or self.attr("extrapolation_value", 0.0) != 0.0:
            self.fail("Resize antialias/axes/keep_aspect_ratio_policy/exclude_outside/"
                      "extrapolation_value are not supported")
        mode = self.attr("mode", "nearest")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        legacy = node.op_type == "Upsample" or self.opset < 11
        ctm = self.attr("coordinate_transformation_mode",
                        "asymmetric" if legacy else "half_pixel")
        ctm = ctm.decode() if isinstance(ctm, bytes) else ctm
        nearest = self.attr("nearest_mode", "floor" if legacy else "round_prefer_floor")
        nearest = nearest.decode() if isinstance(nearest, bytes) else nearest
        ins = self.inputs(node) + [None] * 4
        n, c, h, w = x.shape
        if ins[3]:
            sizes = [int(s) for s in self.const_of(ins[3])]
        else:
            scales = self.attr("scales") if node.op_type == "Upsample" and self.opset < 9 \
                else self.const_of(ins[2] if not legacy else ins[1]).tolist()
            sizes = [int(np.floor(d * s)) for d, s in zip(x.shape, scales)]
            if any(abs(d * s - o) > 1e-6 for d, s, o in zip(x.shape, scales, sizes)):
                # ONNX then maps coordinates with the scale, not out / in.
                self.fail("Resize scales that do not give whole output sizes are "
                          "not supported")
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
        y = self.emit("tosa.resize %s, %s, %s, %s {mode = %s} : (%s, !tosa.shape<4>, "
                      "!tosa.shape<2>, !tosa.shape<2>) -> %s"
                      % (xn.name, s, o, b, tmode, xn.type, ttype(out_shape, DTYPES[x.dtype])),
                      out_shape, x.dtype)
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


def import_model(model, elide_weights=False, func_name="model", bind=None):
    """Returns the MLIR text of `model` (an onnx.ModelProto or a path).
    `bind` maps graph input names to arrays imported as constants (e.g. the
    weights ONNX's node tests pass as inputs)."""
    if isinstance(model, (str, bytes)):
        model = onnx.load(model)
    return Importer(model, elide_weights, func_name, bind).run()
