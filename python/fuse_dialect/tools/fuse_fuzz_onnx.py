"""fuse-fuzz-onnx: mutation fuzzing of the ONNX importer (fuse-import).

Takes valid models (built-in small models covering the supported ops, the
node tests of Debian's libonnx-testdata that use supported ops, and any
given with --seeds), mutates each case 1 to 3 times (bytes flipped,
inserted, cut; attributes set to extreme values or another type; input
dims and element types changed; inputs dropped or added; names duplicated;
initializers given other dims, values or external data; ops swapped, nodes
dropped or reordered; the opset changed; outputs removed) and runs
fuse-import on it in a child process with a time limit and an address-space
limit (RLIMIT_AS). Acceptable outcomes:

  * exit 0 with output that `fuse-opt` parses and verifies;
  * exit 1 with one line `fuse-import: MODEL: error: ...` on stderr.

Anything else is a failure: a traceback, an internal error (exit 2), a
signal, a timeout, an error that is not one line, or output that does not
verify. Prints one line per failure (and saves the model to --save-dir),
then a summary:
  onnx fuzz: N cases, A imported, R refused, F failed (by kind ...)
and exits 1 if any failed.

By default each case runs in a child forked from this process with
fuse-import's code (fuse_dialect.tools.fuse_import) already loaded (fast);
--exec runs the command itself (`python3 utils/fuse-import ...`, or
--fuse-import) per case instead. Cases are determined by
--seed and the case number, so a run is reproducible and two runs (before
and after a fix) try the same cases.

Usage: fuse-fuzz-onnx [--count N] [--seed S] [--timeout SEC] [--mem-mb MB]
                      [--save-dir DIR] [--seeds FILE...] [--no-node-tests]
                      [--fuse-import PATH] [--fuse-opt PATH] [--exec] [-v]
"""


import argparse
import collections
import glob
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .. import onnx_import, toolchain
from . import fuse_import

NODE_TESTS = "/usr/share/libonnx-testdata/data/node"
ERROR_LINE = re.compile(r"^fuse-import: .*: error: .+$")
F = TensorProto.FLOAT


# -- seeds ------------------------------------------------------------------
def _vi(name, shape, elt=F):
    return helper.make_tensor_value_info(name, elt, shape)


def _w(name, shape, rng, dtype=np.float32):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(dtype), name)


def _c(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.asarray(values, dtype), name)


def builtin_seeds():
    """Small valid models: every supported op at least once."""
    rng = np.random.default_rng(3)
    mk = helper.make_node
    seeds = []

    def add(nodes, inputs, outputs, inits, opset=17):
        g = helper.make_graph(nodes, "seed", inputs, outputs, inits)
        seeds.append(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]))

    # A conv block as exported by PyTorch.
    add([mk("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
         mk("BatchNormalization", ["c1", "g", "b", "m", "v"], ["bn"], name="bn"),
         mk("Relu", ["bn"], ["r"], name="relu"),
         mk("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
         mk("Conv", ["p", "w2"], ["c2"], pads=[1, 1, 1, 1], group=4, name="gconv"),
         mk("Conv", ["c2", "wd"], ["c3"], pads=[1, 1, 1, 1], group=8, strides=[2, 2],
            name="dwconv"),
         mk("AveragePool", ["c3"], ["ap"], kernel_shape=[2, 2], name="apool"),
         mk("GlobalAveragePool", ["ap"], ["gap"], name="gap"),
         mk("Flatten", ["gap"], ["f"], axis=1, name="flatten"),
         mk("Gemm", ["f", "fw", "fb"], ["fc"], transB=1, name="fc"),
         mk("Softmax", ["fc"], ["y"], axis=-1, name="softmax")],
        [_vi("x", [1, 3, 8, 8])], [_vi("y", [1, 10])],
        [_w("w1", [8, 3, 3, 3], rng), _w("b1", [8], rng), _w("g", [8], rng) ,
         _w("b", [8], rng), _w("m", [8], rng),
         numpy_helper.from_array(np.full([8], 1.5, np.float32), "v"),
         _w("w2", [8, 2, 3, 3], rng), _w("wd", [8, 1, 3, 3], rng),
         _w("fw", [10, 8], rng), _w("fb", [10], rng)])
    # A transformer-style block.
    add([mk("Reshape", ["t", "s"], ["t2"], name="reshape"),
         mk("MatMul", ["t2", "mw"], ["mm"], name="matmul"),
         mk("LayerNormalization", ["mm", "ls", "lb"], ["ln"], axis=-1, name="ln"),
         mk("Mul", ["ln", "k"], ["sc"], name="scale"),
         mk("Erf", ["sc"], ["e"], name="erf"),
         mk("Add", ["e", "one"], ["e1"], name="add"),
         mk("Mul", ["ln", "e1"], ["g1"], name="mul"),
         mk("Transpose", ["g1"], ["tr"], perm=[1, 0], name="transpose"),
         mk("Split", ["tr", "sp"], ["s1", "s2"], axis=0, name="split"),
         mk("Concat", ["s2", "s1"], ["cat"], axis=0, name="concat"),
         mk("Slice", ["cat", "st", "en", "ax"], ["sl"], name="slice"),
         mk("ReduceMean", ["sl"], ["rm"], axes=[1], keepdims=1, name="rmean"),
         mk("Sub", ["sl", "rm"], ["d"], name="sub"),
         mk("Pow", ["d", "two"], ["d2"], name="pow"),
         mk("Sqrt", ["d2"], ["sq"], name="sqrt"),
         mk("Div", ["sq", "three"], ["z"], name="div"),
         mk("LogSoftmax", ["z"], ["y"], axis=1, name="logsoftmax")],
        [_vi("t", [2, 4, 4])], [_vi("y", [8, 2])],
        [_c("s", [2, 16]), _w("mw", [16, 12], rng), _w("ls", [12], rng), _w("lb", [12], rng),
         _c("k", [0.7], np.float32), _c("one", [1.0], np.float32),
         _c("sp", [6, 6]), _c("st", [2]), _c("en", [10]), _c("ax", [0]),
         _c("two", [2.0], np.float32), _c("three", [3.0], np.float32)])
    # Shape arithmetic folded at import, gathers, pads, resize.
    add([mk("Shape", ["x"], ["sh"], name="shape"),
         mk("Gather", ["sh", "i0"], ["n"], axis=0, name="gshape"),
         mk("Unsqueeze", ["n", "ax0"], ["n1"], name="unsq"),
         mk("Concat", ["n1", "m1"], ["ns"], axis=0, name="cshape"),
         mk("Reshape", ["x", "ns"], ["flat"], name="reshape"),
         mk("Gather", ["flat", "idx"], ["g"], axis=1, name="gather"),
         mk("Gather", ["emb", "ids"], ["ge"], axis=0, name="embed"),
         mk("ConstantOfShape", ["cs"], ["zeros"],
            value=numpy_helper.from_array(np.array([0.5], np.float32)), name="cos"),
         mk("Pad", ["x", "pads", "pv"], ["pd"], mode="constant", name="pad"),
         mk("Resize", ["pd", "", "scales"], ["rs"], mode="nearest",
            coordinate_transformation_mode="asymmetric", nearest_mode="floor", name="resize"),
         mk("ReduceSum", ["rs", "rax"], ["rsum"], keepdims=0, name="rsum"),
         mk("Add", ["rsum", "zeros"], ["y1"], name="add"),
         mk("Clip", ["g", "lo", "hi"], ["cl"], name="clip"),
         mk("Where", ["cond", "cl", "g"], ["wh"], name="where"),
         mk("Cast", ["wh"], ["ci"], to=TensorProto.INT32, name="cast"),
         mk("Cast", ["ci"], ["y2"], to=TensorProto.FLOAT, name="cast2"),
         mk("Expand", ["ge", "es"], ["y3"], name="expand"),
         mk("Tile", ["y3", "reps"], ["y4"], name="tile")],
        [_vi("x", [1, 2, 4, 4]), _vi("ids", [3], TensorProto.INT64)],
        [_vi("y1", [1, 2]), _vi("y2", [1, 3]), _vi("y4", [2, 3, 6])],
        [_c("i0", 0), _c("ax0", [0]), _c("m1", [-1]), _c("idx", [0, -1, 5]),
         _w("emb", [10, 3], rng), _c("cs", [1, 2]), _c("pads", [0, 0, 1, 1, 0, 0, 1, 1]),
         _c("pv", [0.0], np.float32), _c("scales", [1, 1, 2, 2], np.float32),
         _c("rax", [2, 3]), _c("lo", [-0.5], np.float32), _c("hi", [0.5], np.float32),
         numpy_helper.from_array(np.array([[True, False, True]]), "cond"),
         _c("es", [2, 3, 3]), _c("reps", [1, 1, 2])])
    # Elementwise ops and comparisons.
    add([mk("Sigmoid", ["a"], ["s"], name="sigmoid"),
         mk("Tanh", ["s"], ["t"], name="tanh"),
         mk("Exp", ["t"], ["e"], name="exp"),
         mk("Log", ["e"], ["l"], name="log"),
         mk("Abs", ["l"], ["ab"], name="abs"),
         mk("Neg", ["ab"], ["ng"], name="neg"),
         mk("Floor", ["ng"], ["fl"], name="floor"),
         mk("Ceil", ["b"], ["ce"], name="ceil"),
         mk("Max", ["fl", "ce", "a"], ["mx"], name="max"),
         mk("Min", ["mx", "b"], ["mn"], name="min"),
         mk("Sum", ["mn", "a", "b"], ["sm"], name="sum"),
         mk("LeakyRelu", ["sm"], ["lr"], alpha=0.1, name="leaky"),
         mk("HardSigmoid", ["lr"], ["hs"], name="hsig"),
         mk("HardSwish", ["hs"], ["hw"], name="hswish"),
         mk("Softplus", ["hw"], ["sp"], name="softplus"),
         mk("Reciprocal", ["sp"], ["rc"], name="recip"),
         mk("Greater", ["rc", "a"], ["gt"], name="gt"),
         mk("Less", ["rc", "b"], ["lt"], name="lt"),
         mk("And", ["gt", "lt"], ["an"], name="and"),
         mk("Not", ["an"], ["nt"], name="not"),
         mk("Equal", ["a", "b"], ["eq"], name="eq"),
         mk("Or", ["nt", "eq"], ["y1"], name="or"),
         mk("ReduceMax", ["rc"], ["y2"], axes=[1], keepdims=1, name="rmax"),
         mk("Identity", ["sm"], ["id"], name="identity"),
         mk("Dropout", ["id"], ["y3"], name="dropout"),
         mk("Squeeze", ["y2", "sq"], ["y4"], name="squeeze"),
         mk("GreaterOrEqual", ["a", "b"], ["y5"], name="ge"),
         mk("ReduceMin", ["a"], ["y6"], axes=[0], keepdims=0, name="rmin"),
         mk("ReduceProd", ["b"], ["y7"], axes=[1], keepdims=0, name="rprod")],
        [_vi("a", [3, 5]), _vi("b", [3, 5])],
        [_vi("y1", [3, 5], TensorProto.BOOL), _vi("y2", [3, 1]), _vi("y3", [3, 5]),
         _vi("y4", [3]), _vi("y5", [3, 5], TensorProto.BOOL), _vi("y6", [5]), _vi("y7", [3])],
        [_c("sq", [1])])
    # Integer arithmetic, a Gelu (opset 20), Range, Size, batched MatMul.
    add([mk("Add", ["i", "j"], ["ij"], name="iadd"),
         mk("Mul", ["ij", "j"], ["im"], name="imul"),
         mk("Div", ["im", "k"], ["y1"], name="idiv"),
         mk("Gelu", ["f"], ["y2"], name="gelu"),
         mk("Range", ["r0", "r1", "r2"], ["rg"], name="range"),
         mk("Size", ["f"], ["sz"], name="size"),
         mk("Add", ["rg", "sz"], ["rs"], name="radd"),
         mk("Cast", ["rs"], ["rf"], to=TensorProto.FLOAT, name="rcast"),
         mk("Add", ["f", "rf"], ["y3"], name="fadd"),
         mk("MatMul", ["p", "q"], ["y4"], name="bmm")],
        [_vi("i", [2, 4], TensorProto.INT32), _vi("j", [2, 4], TensorProto.INT32),
         _vi("f", [2, 4]), _vi("p", [2, 3, 4]), _vi("q", [2, 4, 5])],
        [_vi("y1", [2, 4], TensorProto.INT32), _vi("y2", [2, 4]), _vi("y3", [2, 4]),
         _vi("y4", [2, 3, 5])],
        [_c("k", [3], np.int32), _c("r0", 0), _c("r1", 4), _c("r2", 1)], opset=20)
    # Opset 9: Upsample, Constant, GlobalMaxPool; LessOrEqual (opset 12).
    add([mk("Constant", [], ["sc"], value=numpy_helper.from_array(
            np.array([1, 1, 2, 2], np.float32)), name="const"),
         mk("Upsample", ["u", "sc"], ["up"], mode="nearest", name="upsample"),
         mk("GlobalMaxPool", ["up"], ["y1"], name="gmp")],
        [_vi("u", [1, 2, 3, 3])], [_vi("y1", [1, 2, 1, 1])], [], opset=9)
    add([mk("LessOrEqual", ["a", "b"], ["y"], name="le")],
        [_vi("a", [2, 3]), _vi("b", [3])], [_vi("y", [2, 3], TensorProto.BOOL)], [], opset=12)
    return seeds


def node_test_seeds(supported):
    seeds = []
    for d in sorted(glob.glob(os.path.join(NODE_TESTS, "test_*"))):
        try:
            m = onnx.load(os.path.join(d, "model.onnx"))
        except Exception:
            continue
        used = {n.op_type for n in m.graph.node}
        if used and used <= supported:
            seeds.append(m)
    return seeds


# -- mutations ----------------------------------------------------------------
INTS = [0, 1, -1, 2, 3, -2, 7, 99, -99, 2 ** 31 - 1, 2 ** 31, -2 ** 31, 2 ** 62,
        -2 ** 63, 2 ** 63 - 1, 10 ** 12]
FLOATS = [0.0, -0.0, 1.0, -1.0, float("nan"), float("inf"), float("-inf"), 1e38, -1e38,
          1e-45, 3.5, 2.0 ** 64]
STRINGS = [b"", b"NOTSET", b"SAME_UPPER", b"VALID", b"constant", b"reflect", b"linear",
           b"nearest", b"cubic", b"\xff\xfe", b"x" * 300, b"half_pixel", b"none", b"tanh"]
ELEM_TYPES = list(range(0, 26)) + [1234, -1, 2 ** 31 - 1]
OPSETS = [0, 1, 6, 7, 9, 10, 11, 12, 13, 17, 18, 20, 22, 23, 30, -1, 2 ** 40]


def _pick_int(r):
    return r.choice(INTS) if r.random() < 0.7 else r.randint(-10, 10)


def _int_list(r, old):
    n = len(old)
    choice = r.randrange(7)
    if choice == 0:
        return []
    if choice == 1:
        return [_pick_int(r) for _ in range(n or 2)]
    if choice == 2:
        return [0] * (n or 2)
    if choice == 3:
        return list(old) + [_pick_int(r)]
    if choice == 4:
        return list(old[:-1])
    if choice == 5:
        out = list(old) or [1]
        out[r.randrange(len(out))] = _pick_int(r)
        return out
    return [r.randint(-3, 5) for _ in range(r.randint(0, 8))]


def _names(m):
    g = m.graph
    names = [i.name for i in g.input] + [t.name for t in g.initializer]
    for n in g.node:
        names += [o for o in n.output if o]
    return names or ["x"]


def mutate_attribute(m, r):
    g = m.graph
    if not g.node:
        return
    node = r.choice(g.node)
    attrs = list(node.attribute)
    if not attrs or r.random() < 0.25:
        # Add an attribute the op knows (or a random name).
        try:
            known = list(onnx.defs.get_schema(node.op_type, 17).attributes)
        except Exception:
            known = []
        name = r.choice(known or ["axis", "perm", "pads", "strides", "group"])
        proto = r.choice([helper.make_attribute(name, _pick_int(r)),
                          helper.make_attribute(name, [_pick_int(r), _pick_int(r)]),
                          helper.make_attribute(name, r.choice(FLOATS)),
                          helper.make_attribute(name, r.choice(STRINGS))])
        node.attribute.append(proto)
        return
    a = r.choice(attrs)
    kind = r.randrange(10)
    if kind == 0:  # another type
        a.type = r.choice([0, 1, 2, 3, 4, 6, 7, 8])
    elif kind == 1:
        node.attribute.remove(a)
    elif a.type == onnx.AttributeProto.INT:
        a.i = _pick_int(r)
    elif a.type == onnx.AttributeProto.INTS:
        new = _int_list(r, list(a.ints))
        del a.ints[:]
        a.ints.extend(new)
    elif a.type == onnx.AttributeProto.FLOAT:
        a.f = r.choice(FLOATS)
    elif a.type == onnx.AttributeProto.FLOATS:
        new = [r.choice(FLOATS) for _ in range(len(a.floats) or 2)]
        del a.floats[:]
        a.floats.extend(new)
    elif a.type == onnx.AttributeProto.STRING:
        a.s = r.choice(STRINGS)
    elif a.type == onnx.AttributeProto.TENSOR:
        mutate_tensor(a.t, r)
    else:
        a.i = _pick_int(r)


def mutate_tensor(t, r):
    kind = r.randrange(10)
    if kind >= 8:
        # Consistent data of another shape or type (a valid tensor that
        # does not fit where it is used).
        try:
            a = numpy_helper.to_array(t)
        except Exception:
            return
        if kind == 8:
            shape = [r.choice([1, 1, 2, 3, 4, 8]) for _ in range(r.randint(0, 4))]
            a = np.resize(a, shape) if a.size else np.zeros(shape, a.dtype)
        else:
            a = a.astype(r.choice([np.float32, np.float16, np.float64, np.int64, np.int32,
                                   np.int8, np.uint8, np.bool_]))
        t.CopyFrom(numpy_helper.from_array(np.asarray(a), t.name))
    elif kind == 0:
        new = _int_list(r, list(t.dims))
        del t.dims[:]
        t.dims.extend(new)
    elif kind == 1:
        t.data_type = r.choice(ELEM_TYPES)
    elif kind == 2 and t.HasField("raw_data"):
        data = bytearray(t.raw_data)
        if data and r.random() < 0.5:
            del data[r.randrange(len(data)):]
        else:
            data += bytes(r.randrange(256) for _ in range(r.randint(1, 9)))
        t.raw_data = bytes(data)
    elif kind == 3:
        # Extreme values of the tensor's own type.
        try:
            a = numpy_helper.to_array(t).copy()
        except Exception:
            return
        if a.size == 0:
            return
        flat = a.reshape(-1)
        if a.dtype.kind == "f":
            flat[r.randrange(a.size)] = r.choice(FLOATS)
        elif a.dtype.kind in "iu":
            info = np.iinfo(a.dtype)
            v = r.choice([info.min, info.max, -1, 0, 99, -99, 2 ** 31 - 1])
            flat[r.randrange(a.size)] = max(info.min, min(info.max, v))
        t.CopyFrom(numpy_helper.from_array(a, t.name))
    elif kind == 4:
        # External data somewhere: outside the folder, absolute, a device.
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        del t.external_data[:]
        e = t.external_data.add()
        e.key, e.value = "location", r.choice(
            ["../../../../etc/passwd", "/etc/passwd", "/dev/zero", "/dev/urandom", ".", "",
             "sub/../../x", "missing.bin", "/proc/self/mem", "\0x"])
        if r.random() < 0.5:
            e = t.external_data.add()
            e.key, e.value = r.choice(["offset", "length"]), str(r.choice(
                [0, -1, 4, 2 ** 40, 10 ** 12]))
    elif kind == 5:
        t.data_location = TensorProto.EXTERNAL
    elif kind == 6:
        t.dims.append(r.choice([1, 2, 10 ** 6]))
    else:
        t.segment.begin = 1
        t.segment.end = 2


def mutate_value_info(vi, r):
    tt = vi.type.tensor_type
    kind = r.randrange(6)
    dims = tt.shape.dim
    if kind == 0:
        tt.elem_type = r.choice(ELEM_TYPES)
    elif kind == 1 and len(dims):
        d = r.choice(dims)
        d.dim_value = r.choice([0, 1, 2, 3, 7, 2 ** 31, 10 ** 12, 2 ** 62])
    elif kind == 2 and len(dims):
        d = r.choice(dims)
        d.dim_param = "N"
    elif kind == 3 and len(dims):
        del dims[r.randrange(len(dims))]
    elif kind == 4:
        tt.shape.dim.add().dim_value = r.choice([1, 2, 5])
    else:
        vi.type.ClearField("tensor_type")
        vi.type.sequence_type.elem_type.tensor_type.elem_type = F


SUPPORTED_OPS = None


def mutate_structure(m, r):
    g = m.graph
    names = _names(m)
    kind = r.randrange(13)
    if kind == 0 and g.node:  # drop an input
        n = r.choice(g.node)
        if n.input:
            del n.input[r.randrange(len(n.input))]
    elif kind == 1 and g.node:  # add an input
        n = r.choice(g.node)
        n.input.append(r.choice(names + ["", "nowhere"]))
    elif kind == 2 and g.node:  # rewire an input
        n = r.choice(g.node)
        if n.input:
            n.input[r.randrange(len(n.input))] = r.choice(names + [""])
    elif kind == 3 and g.node:  # a duplicate producer
        n = r.choice(g.node)
        if n.output:
            n.output[r.randrange(len(n.output))] = r.choice(names)
    elif kind == 4 and g.node:  # drop a node
        del g.node[r.randrange(len(g.node))]
    elif kind == 5 and len(g.node) > 1:  # swap two nodes (order)
        i, j = r.randrange(len(g.node)), r.randrange(len(g.node))
        a, b = onnx.NodeProto(), onnx.NodeProto()
        a.CopyFrom(g.node[i])
        b.CopyFrom(g.node[j])
        g.node[i].CopyFrom(b)
        g.node[j].CopyFrom(a)
    elif kind == 6 and g.node:  # another op
        n = r.choice(g.node)
        n.op_type = r.choice(sorted(SUPPORTED_OPS) + ["TopK", "Loop", ""])
    elif kind == 7 and g.node:  # duplicate a node
        g.node.insert(r.randrange(len(g.node) + 1), g.node[r.randrange(len(g.node))])
    elif kind == 8:
        if r.random() < 0.3:
            del m.opset_import[:]
        else:
            for o in m.opset_import:
                o.version = r.choice(OPSETS)
    elif kind == 9:
        if r.random() < 0.5:
            del g.output[:]
        else:
            g.output.add().name = r.choice(names + ["nowhere"])
    elif kind == 10 and g.node:
        n = r.choice(g.node)
        n.domain = r.choice(["ai.onnx.ml", "com.microsoft", "ai.onnx"])
    elif kind == 11 and g.node:  # drop or add an output
        n = r.choice(g.node)
        if n.output and r.random() < 0.5:
            del n.output[r.randrange(len(n.output))]
        else:
            n.output.append("extra%d" % r.randrange(9))
    elif g.input:  # an input also an initializer, or duplicated
        inp = r.choice(g.input)
        g.input.add().CopyFrom(inp)


def mutate_bytes(data, r):
    data = bytearray(data)
    for _ in range(r.randint(1, 8)):
        if not data:
            break
        k = r.randrange(4)
        i = r.randrange(len(data))
        if k == 0:
            data[i] ^= 1 << r.randrange(8)
        elif k == 1:
            data[i] = r.choice([0, 0xFF, 0x7F, 0x80, r.randrange(256)])
        elif k == 2:
            del data[i:i + r.randint(1, 16)]
        else:
            data[i:i] = bytes(r.randrange(256) for _ in range(r.randint(1, 8)))
    if r.random() < 0.1:
        del data[r.randrange(len(data) + 1):]
    return bytes(data)


def make_case(seeds, seed, i):
    r = random.Random(seed * 1000003 + i)
    m = onnx.ModelProto()
    m.CopyFrom(r.choice(seeds))
    for _ in range(r.choice([1, 1, 1, 2, 2, 3])):
        k = r.random()
        if k < 0.35:
            mutate_attribute(m, r)
        elif k < 0.55:
            mutate_structure(m, r)
        elif k < 0.8:
            if m.graph.initializer:
                mutate_tensor(r.choice(m.graph.initializer), r)
            else:
                mutate_attribute(m, r)
        else:
            vis = list(m.graph.input) + list(m.graph.output)
            if vis:
                mutate_value_info(r.choice(vis), r)
    data = m.SerializeToString()
    if r.random() < 0.12:
        data = mutate_bytes(data, r)
    return data, r.random() < 0.2  # the model, --elide-weights


# -- running ----------------------------------------------------------------
class Outcome:
    def __init__(self, kind, detail=""):
        self.kind, self.detail = kind, detail


def _limit(mem_mb):
    def f():
        resource.setrlimit(resource.RLIMIT_AS, (mem_mb << 20, mem_mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return f


def run_exec(args, model, out, flags):
    cmd = [sys.executable, args.fuse_import, model, "-o", out] + flags
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=args.timeout,
                           preexec_fn=_limit(args.mem_mb))
    except subprocess.TimeoutExpired:
        return None, b""
    return p.returncode, p.stderr


def run_fork(args, cli, model, out, errf, flags):
    pid = os.fork()
    if pid == 0:  # the child: fuse-import's main() under the limits
        rc = 70
        try:
            _limit(args.mem_mb)()
            fd = os.open(errf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 2)
            nul = os.open(os.devnull, os.O_WRONLY)
            os.dup2(nul, 1)
            sys.stderr = os.fdopen(2, "w", closefd=False)
            sys.argv = ["fuse-import", model, "-o", out] + flags
            try:
                rc = cli.main()
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 1
            except BaseException:
                import traceback
                traceback.print_exc()
                rc = 1
            sys.stderr.flush()
        finally:
            os._exit(rc if isinstance(rc, int) else 1)
    deadline = time.time() + args.timeout
    while True:
        wpid, status = os.waitpid(pid, os.WNOHANG)
        if wpid:
            break
        if time.time() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, b""
        time.sleep(0.002)
    rc = os.waitstatus_to_exitcode(status)
    with open(errf, "rb") as f:
        return rc, f.read()


def classify(args, rc, err, out):
    text = err.decode(errors="replace")
    if rc is None:
        return Outcome("timeout")
    if rc < 0:
        return Outcome("signal", "signal %d" % -rc)
    if "Traceback" in text:
        last = [l for l in text.splitlines() if l.strip()][-1:]
        return Outcome("traceback", last[0][:200] if last else "")
    lines = text.splitlines()
    if rc == 0:
        if lines:
            return Outcome("noisy", "exit 0 with stderr: " + lines[0][:200])
        p = subprocess.run([args.fuse_opt, out, "-o", os.devnull], capture_output=True,
                           text=True, timeout=60)
        if p.returncode != 0:
            return Outcome("bad-ir", (p.stderr.strip().splitlines() or ["?"])[0][:200])
        return Outcome("ok")
    if rc == 1 and len(lines) == 1 and ERROR_LINE.match(lines[0]):
        return Outcome("refused", lines[0])
    if rc == 2 and lines and "internal error" in lines[0]:
        return Outcome("internal", lines[0][:200])
    return Outcome("other", "exit %d: %s" % (rc, " | ".join(lines[:3])[:200]))


def main():
    global SUPPORTED_OPS
    ap = argparse.ArgumentParser(prog="fuse-fuzz-onnx", description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first case number")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--mem-mb", type=int, default=4096)
    ap.add_argument("--save-dir", default=None)
    ap.add_argument("--seeds", nargs="*", default=[], help="more seed .onnx models")
    ap.add_argument("--no-node-tests", action="store_true")
    ap.add_argument("--fuse-import", default=toolchain.launcher("fuse-import"),
                    help="the fuse-import command --exec runs")
    ap.add_argument("--fuse-opt", default=toolchain.fuse_opt())
    ap.add_argument("--exec", action="store_true", help="run the script per case (slow)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.count < 1 or args.timeout <= 0 or args.mem_mb < 256:
        ap.error("--count must be >= 1, --timeout > 0, --mem-mb >= 256")
    args.fuse_import = os.path.abspath(args.fuse_import)
    cli = fuse_import  # the importer's command line, run in forked children
    SUPPORTED_OPS = {n[3:] for n in dir(onnx_import.Importer) if n.startswith("op_")}
    seeds = builtin_seeds()
    seeds = seeds * 8  # the built-in seeds cover every op: weigh them up
    if not args.no_node_tests:
        seeds += node_test_seeds(SUPPORTED_OPS)
    for s in args.seeds:
        seeds.append(onnx.load(s, load_external_data=False))
    work = tempfile.mkdtemp(prefix="fuse-fuzz-onnx.")
    counts = collections.Counter()
    failures = collections.Counter()
    t0 = time.time()
    try:
        for i in range(args.start, args.start + args.count):
            model = os.path.join(work, "case.onnx")
            out = os.path.join(work, "case.mlir")
            if os.path.exists(out):
                os.remove(out)
            data, elide = make_case(seeds, args.seed, i)
            flags = ["--elide-weights"] if elide else []
            with open(model, "wb") as f:
                f.write(data)
            if args.exec:
                rc, err = run_exec(args, model, out, flags)
            else:
                rc, err = run_fork(args, cli, model, out, os.path.join(work, "err.txt"), flags)
            o = classify(args, rc, err, out)
            counts[o.kind] += 1
            if o.kind not in ("ok", "refused"):
                failures[o.kind] += 1
                print("FAIL case %d (seed %d): %s: %s" % (i, args.seed, o.kind, o.detail),
                      flush=True)
                if args.save_dir:
                    os.makedirs(args.save_dir, exist_ok=True)
                    shutil.copy(model, os.path.join(args.save_dir, "case-%d-%d.onnx" % (
                        args.seed, i)))
            elif args.verbose:
                print("case %d: %s %s" % (i, o.kind, o.detail[:160]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    n = sum(counts.values())
    print("onnx fuzz: %d cases in %.0f s, %d imported, %d refused, %d failed%s" % (
        n, time.time() - t0, counts["ok"], counts["refused"], sum(failures.values()),
        (" (" + ", ".join("%d %s" % (v, k) for k, v in sorted(failures.items())) + ")")
        if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
