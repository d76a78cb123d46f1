"""make_hostile_onnx.py CASE OUT.onnx: writes one hostile ONNX model.
make_hostile_onnx.py all DIR: writes every case as DIR/CASE.onnx.

Every case is a model fuse-import must refuse with a named error (exit 1),
except `gather-neg` (a negative constant index within range),
`gather-runtime` (run-time indices) and `ext-ok` (external data inside the
model's folder), which are imported. Cases with external data also write
the files next to OUT (a `sub/` folder, a symlink, a FIFO) and, for the
escapes, a target one folder above OUT's (`outside.bin`). `list` prints the
case names.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def vi(name, shape, elt=F):
    return helper.make_tensor_value_info(name, elt, shape)


def model(nodes, inputs, outputs, inits=(), opset=17):
    graph = helper.make_graph(nodes, "hostile", inputs, outputs, list(inits))
    opsets = [] if opset is None else [helper.make_opsetid("", opset)]
    m = helper.make_model(graph, opset_imports=opsets)
    if opset is None:
        del m.opset_import[:]
    return m


def relu(opset=17):
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                 [vi("x", [2, 3])], [vi("y", [2, 3])], opset=opset)


def conv(**attrs):
    w = numpy_helper.from_array(np.ones([4, 3, 3, 3], np.float32), "w")
    return model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv", **attrs)],
                 [vi("x", [1, 3, 8, 8])], [vi("y", [1, 4, 8, 8])], [w])


def unary_on(op, shape, out_shape=None, **attrs):
    return model([helper.make_node(op, ["x"], ["y"], name=op.lower(), **attrs)],
                 [vi("x", shape)], [vi("y", out_shape or shape)])


def external(location, offset=None, length=None):
    """A Conv whose weights are in an external file at `location`."""
    m = conv(pads=[1, 1, 1, 1])
    w = m.graph.initializer[0]
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", offset), ("length", length)):
        if v is not None:
            e = w.external_data.add()
            e.key, e.value = k, str(v)
    return m


def gather(indices, axis=0, shape=(4, 3)):
    idx = numpy_helper.from_array(np.asarray(indices, np.int64), "idx")
    out = list(shape[:axis]) + list(np.shape(indices)) + list(shape[axis + 1:])
    return model([helper.make_node("Gather", ["x", "idx"], ["y"], name="gather", axis=axis)],
                 [vi("x", list(shape))], [vi("y", out)], [idx])


def case(name, out):
    d = os.path.dirname(os.path.abspath(out))
    if name == "truncated":
        data = conv(pads=[1, 1, 1, 1]).SerializeToString()
        return data[:len(data) // 2]
    if name == "random":
        return np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes()
    if name == "empty-file":
        return b""
    if name == "huge-init":
        # 10^12 float elements declared, none given: refused by the
        # declared size before anything is allocated.
        t = TensorProto(name="w", data_type=F, dims=[10 ** 6, 10 ** 6])
        return model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                     [vi("x", [1])], [vi("y", [1])], [t])
    if name == "short-init":
        t = TensorProto(name="w", data_type=F, dims=[4, 4], float_data=[1.0, 2.0])
        return model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                     [vi("x", [4, 4])], [vi("y", [4, 4])], [t])
    if name == "huge-fold":
        # A constant folded at import time (ConstantOfShape) of 10^12
        # elements.
        shape = numpy_helper.from_array(np.array([10 ** 6, 10 ** 6], np.int64), "s")
        return model([helper.make_node("ConstantOfShape", ["s"], ["c"], name="cos"),
                      helper.make_node("Add", ["x", "c"], ["y"], name="add")],
                     [vi("x", [1])], [vi("y", [1])], [shape])
    if name == "dtype-1234":
        t = helper.make_tensor("w", F, [2, 3], np.ones(6).tolist())
        t.data_type = 1234
        return model([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                     [vi("x", [2, 3])], [vi("y", [2, 3])], [t])
    if name == "input-dtype-1234":
        m = relu()
        m.graph.input[0].type.tensor_type.elem_type = 1234
        return m
    if name in ("input-bf16", "input-complex", "input-string", "input-uint8"):
        elt = {"input-bf16": TensorProto.BFLOAT16, "input-complex": TensorProto.COMPLEX64,
               "input-string": TensorProto.STRING, "input-uint8": TensorProto.UINT8}[name]
        return model([helper.make_node("Identity", ["x"], ["y"], name="id")],
                     [vi("x", [2, 3], elt)], [vi("y", [2, 3], elt)])
    if name == "conv-group0":
        return conv(group=0)
    if name == "conv-strides0":
        return conv(strides=[0, 0])
    if name == "conv-neg-pads":
        return conv(pads=[-1, -1, -1, -1])
    if name == "conv-kernel-mismatch":
        return conv(kernel_shape=[5, 5])
    if name == "pool-kernel0":
        return unary_on("MaxPool", [1, 3, 8, 8], kernel_shape=[0, 0])
    if name == "concat-no-inputs":
        return model([helper.make_node("Concat", [], ["y"], name="cat", axis=0)],
                     [vi("x", [2])], [vi("y", [2])])
    if name == "relu-no-inputs":
        return model([helper.make_node("Relu", [], ["y"], name="relu")],
                     [vi("x", [2])], [vi("y", [2])])
    if name == "matmul-mismatch":
        return model([helper.make_node("MatMul", ["a", "b"], ["y"], name="mm")],
                     [vi("a", [2, 3]), vi("b", [4, 5])], [vi("y", [2, 5])])
    if name == "add-f32-i32":
        return model([helper.make_node("Add", ["a", "b"], ["y"], name="add")],
                     [vi("a", [2, 3]), vi("b", [2, 3], TensorProto.INT32)], [vi("y", [2, 3])])
    if name == "transpose-dup-perm":
        return unary_on("Transpose", [2, 3], perm=[0, 0])
    if name == "no-outputs":
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", [2, 3])], [])
    if name == "gather-axis7":
        return gather([0, 1], axis=7)
    if name == "softmax-axis99":
        return unary_on("Softmax", [2, 3], axis=99)
    if name == "duplicate-producer":
        return model([helper.make_node("Relu", ["x"], ["y"], name="first"),
                      helper.make_node("Neg", ["x"], ["y"], name="second")],
                     [vi("x", [2, 3])], [vi("y", [2, 3])])
    if name == "opset30":
        return relu(opset=30)
    if name == "no-opset":
        return relu(opset=None)
    if name == "gather-oob":
        return gather([0, 4])
    if name == "gather-oob-neg":
        return gather([-5])
    if name == "gather-neg":
        return gather([-1, 0])
    if name == "gather-runtime":
        return model([helper.make_node("Gather", ["x", "idx"], ["y"], name="gather", axis=1)],
                     [vi("x", [4, 3]), vi("idx", [2], TensorProto.INT64)], [vi("y", [4, 2])])
    if name == "gather-oob-folded":
        m = gather([7])
        m.graph.initializer.append(numpy_helper.from_array(np.ones([4, 3], np.float32), "x"))
        return m
    # External data: the model is in OUT's folder; `outside.bin` one level up.
    outside = os.path.join(os.path.dirname(d), "outside.bin")
    with open(outside, "wb") as f:
        f.write(np.ones([4, 3, 3, 3], np.float32).tobytes())
    os.makedirs(os.path.join(d, "sub"), exist_ok=True)
    if name == "ext-escape":
        return external("sub/../../outside.bin")
    if name == "ext-passwd":
        return external("sub/../../../../etc/passwd")
    if name == "ext-absolute":
        return external(outside)
    if name == "ext-symlink":
        link = os.path.join(d, "sub", "link.bin")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(outside, link)
        return external("sub/link.bin")
    if name == "ext-missing":
        return external("sub/missing.bin")
    if name == "ext-directory":
        return external("sub")
    if name == "ext-fifo":
        fifo = os.path.join(d, "sub", "fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        return external("sub/fifo")
    if name == "ext-range":
        with open(os.path.join(d, "sub", "short.bin"), "wb") as f:
            f.write(np.ones([4, 3, 3, 3], np.float32).tobytes())
        return external("sub/short.bin", offset=16, length=4 * 108)
    if name == "ext-ok":
        with open(os.path.join(d, "sub", "w.bin"), "wb") as f:
            f.write(b"\0" * 16 + np.ones([4, 3, 3, 3], np.float32).tobytes())
        return external("sub/w.bin", offset=16, length=4 * 108)
    raise SystemExit("unknown case %r" % name)


CASES = """truncated random empty-file huge-init short-init huge-fold dtype-1234
input-dtype-1234 input-bf16 input-complex input-string input-uint8 conv-group0
conv-strides0 conv-neg-pads conv-kernel-mismatch pool-kernel0 concat-no-inputs
relu-no-inputs matmul-mismatch add-f32-i32 transpose-dup-perm no-outputs
gather-axis7 softmax-axis99 duplicate-producer opset30 no-opset gather-oob
gather-oob-neg gather-neg gather-runtime gather-oob-folded ext-escape ext-passwd ext-absolute
ext-symlink ext-missing ext-directory ext-fifo ext-range ext-ok""".split()


def main():
    if sys.argv[1] == "list":
        print("\n".join(CASES))
        return
    if sys.argv[1] == "all":
        os.makedirs(sys.argv[2], exist_ok=True)
        todo = [(name, os.path.join(sys.argv[2], name + ".onnx")) for name in CASES]
    else:
        todo = [(sys.argv[1], sys.argv[2])]
    for name, out in todo:
        m = case(name, out)
        with open(out, "wb") as f:
            f.write(m if isinstance(m, bytes) else m.SerializeToString())


if __name__ == "__main__":
    main()
