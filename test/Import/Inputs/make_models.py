"""Writes small ONNX models for the importer tests into the directory argv[1].

block.onnx: an NCHW conv block as PyTorch exports it (Conv with padding and
bias, BatchNormalization, Relu, MaxPool, a grouped Conv, GlobalAveragePool,
Flatten, Gemm, Softmax) plus a LayerNormalization/Gelu-by-Erf branch over a
MatMul, with seeded random weights.
bad.onnx: a graph with an op the importer does not support (TopK).
mod.onnx: Mod of constants, as PyTorch 2 exports attention's shape
arithmetic: an int64 Reshape target ([-4, 13] mod [5, 5] = [1, 3], the
divisor's sign; C's fmod would give [-4, 3]) and a float with fmod=1
(-7.5 fmod 2 = -1.5).
mod_runtime.onnx: Mod of a graph input (refused: TOSA has no remainder).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)


def init(name, shape, scale=0.3):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


inits = [
    init("w1", [8, 3, 3, 3]), init("b1", [8]),
    numpy_helper.from_array(rng.uniform(0.5, 1.5, [8]).astype(np.float32), "gamma"),
    init("beta", [8]), init("mean", [8]),
    numpy_helper.from_array(rng.uniform(0.5, 1.5, [8]).astype(np.float32), "var"),
    init("w2", [8, 2, 3, 3]),
    init("fc_w", [10, 8]), init("fc_b", [10]),
    init("mm_w", [16, 12]), init("ln_s", [12]), init("ln_b", [12]),
    numpy_helper.from_array(np.array([1.0 / np.sqrt(2.0)], np.float32), "rsqrt2"),
    numpy_helper.from_array(np.array([1.0], np.float32), "one"),
    numpy_helper.from_array(np.array([0.5], np.float32), "half"),
    numpy_helper.from_array(np.array([2, 16], np.int64), "shape2x16"),
]
nodes = [
    helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
    helper.make_node("BatchNormalization", ["c1", "gamma", "beta", "mean", "var"], ["bn"],
                     epsilon=1e-5, name="bn1"),
    helper.make_node("Relu", ["bn"], ["r1"], name="relu1"),
    helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], name="pool1"),
    helper.make_node("Conv", ["p1", "w2"], ["c2"], pads=[1, 1, 1, 1], group=4, name="conv2"),
    helper.make_node("GlobalAveragePool", ["c2"], ["g"], name="gap"),
    helper.make_node("Flatten", ["g"], ["f"], axis=1, name="flatten"),
    helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["fc"], transB=1, name="fc"),
    helper.make_node("Softmax", ["fc"], ["y"], axis=-1, name="softmax"),
    # Transformer-style branch: reshape, matmul, layer norm, exact GELU.
    helper.make_node("Reshape", ["t", "shape2x16"], ["t2"], name="reshape"),
    helper.make_node("MatMul", ["t2", "mm_w"], ["mm"], name="matmul"),
    helper.make_node("LayerNormalization", ["mm", "ln_s", "ln_b"], ["ln"], axis=-1,
                     epsilon=1e-5, name="ln"),
    helper.make_node("Mul", ["ln", "rsqrt2"], ["s"], name="gelu_scale"),
    helper.make_node("Erf", ["s"], ["e"], name="gelu_erf"),
    helper.make_node("Add", ["e", "one"], ["e1"], name="gelu_add"),
    helper.make_node("Mul", ["ln", "e1"], ["m"], name="gelu_mul"),
    helper.make_node("Mul", ["m", "half"], ["z"], name="gelu_half"),
]
graph = helper.make_graph(
    nodes, "block",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
     helper.make_tensor_value_info("t", TensorProto.FLOAT, [2, 4, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10]),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 12])],
    inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "block.onnx"))

bad = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="ok"),
     helper.make_node("TopK", ["r", "k"], ["v", "i"], name="the_topk")],
    "bad",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])],
    [helper.make_tensor_value_info("v", TensorProto.FLOAT, [4, 2])],
    [numpy_helper.from_array(np.array([2], np.int64), "k")])
onnx.save(helper.make_model(bad, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "bad.onnx"))

def const(name, values, dtype):
    return helper.make_node("Constant", [], [name], name=name,
                            value=numpy_helper.from_array(np.array(values, dtype), name))


mod = helper.make_graph(
    [const("num", [-4, 13], np.int64), const("den", [5, 5], np.int64),
     helper.make_node("Mod", ["num", "den"], ["shape"], name="shape_mod"),
     helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
     const("f", [-7.5], np.float32), const("g", [2.0], np.float32),
     helper.make_node("Mod", ["f", "g"], ["h"], fmod=1, name="float_mod"),
     helper.make_node("Add", ["r", "h"], ["y"], name="add")],
    "mod",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])])
onnx.save(helper.make_model(mod, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "mod.onnx"))

mod_runtime = helper.make_graph(
    [helper.make_node("Mod", ["x", "x"], ["y"], fmod=1, name="runtime_mod")],
    "mod_runtime",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])])
onnx.save(helper.make_model(mod_runtime, opset_imports=[helper.make_opsetid("", 17)]),
          os.path.join(out, "mod_runtime.onnx"))


def grouped_conv_reference(x, w, b, group, pads, strides, dilations):
    """ONNX Conv with `group` groups, written out directly in numpy (NCHW)."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (wd + pads[1] + pads[3] - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    y = np.zeros((n, f, oh, ow), np.float64)
    fg = f // group
    for o in range(f):
        gi = o // fg
        for i in range(oh):
            for j in range(ow):
                rows = i * strides[0] + dilations[0] * np.arange(kh)
                cols = j * strides[1] + dilations[1] * np.arange(kw)
                win = xp[:, gi * cg:(gi + 1) * cg][:, :, rows][:, :, :, cols]
                y[:, o, i, j] = np.einsum("nckl,ckl->n", win, w[o]) + b[o]
    return y.astype(np.float32)


# Grouped convolutions as ONNX node tests (model.onnx, test_data_set_0) for
# fuse-onnx-node-tests --data: expected outputs from the reference above.
for name, (c, f, group, k, pads, strides, dil, hw) in {
        "test_grouped_conv_3x3": (12, 6, 3, (3, 3), [1, 1, 1, 1], [1, 1], [1, 1], (7, 9)),
        "test_grouped_conv_strided_asym_pads": (8, 16, 4, (3, 2), [2, 0, 1, 1], [2, 3], [1, 1],
                                                (9, 10)),
        "test_grouped_conv_dilated": (6, 4, 2, (3, 3), [2, 2, 2, 2], [1, 1], [2, 2], (6, 6)),
        "test_grouped_conv_1x1": (32, 64, 8, (1, 1), [0, 0, 0, 0], [1, 1], [1, 1], (5, 5))}.items():
    d = os.path.join(out, "node", name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    x = rng.standard_normal((1, c) + hw).astype(np.float32)
    w = (rng.standard_normal((f, c // group) + k) * 0.5).astype(np.float32)
    b = rng.standard_normal(f).astype(np.float32)
    y = grouped_conv_reference(x, w, b, group, pads, strides, dil)
    g = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], group=group, pads=pads,
                          strides=strides, dilations=dil, name="gconv")],
        name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(d, "model.onnx"))
    for kind, arr in (("input_0", x), ("output_0", y)):
        with open(os.path.join(d, "test_data_set_0", kind + ".pb"), "wb") as fh:
            fh.write(numpy_helper.from_array(arr).SerializeToString())


def pool1d_reference(x, kind, k, pads, stride):
    """ONNX MaxPool / AveragePool (count_include_pad=0) on [N, C, L]."""
    fill = -np.inf if kind == "max" else np.nan
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pads[0], pads[1])),
                constant_values=fill)
    out = (x.shape[2] + pads[0] + pads[1] - k) // stride + 1
    wins = np.stack([xp[:, :, i * stride:i * stride + k] for i in range(out)], axis=2)
    return (np.max(wins, axis=3) if kind == "max" else np.nanmean(wins, axis=3)).astype(np.float32)


# 1-D convolutions and pools ([N, C, L]; audio models), as node tests.
def node_test(name, nodes, x, y, inits):
    d = os.path.join(out, "node", name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    g = helper.make_graph(nodes, name,
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))],
                          inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(d, "model.onnx"))
    for kind, arr in (("input_0", x), ("output_0", y)):
        with open(os.path.join(d, "test_data_set_0", kind + ".pb"), "wb") as fh:
            fh.write(numpy_helper.from_array(arr).SerializeToString())


for name, (c, f, group, k, pads, stride, dil, length) in {
        "test_conv1d": (3, 8, 1, 5, [2, 2], 1, 1, 30),
        "test_conv1d_strided_dilated": (4, 6, 1, 3, [0, 3], 3, 2, 40),
        "test_conv1d_grouped": (8, 8, 4, 3, [1, 1], 2, 1, 17)}.items():
    x = rng.standard_normal((1, c, length)).astype(np.float32)
    w = (rng.standard_normal((f, c // group, k)) * 0.5).astype(np.float32)
    b = rng.standard_normal(f).astype(np.float32)
    y = grouped_conv_reference(x[:, :, None, :], w[:, :, None, :], b, group,
                               [0, pads[0], 0, pads[1]], [1, stride], [1, dil])[:, :, 0, :]
    node_test(name, [helper.make_node("Conv", ["x", "w", "b"], ["y"], group=group, pads=pads,
                                      strides=[stride], dilations=[dil], name="conv1d")],
              x, y, [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])

for name, (kind, k, pads, stride) in {
        "test_maxpool1d": ("max", 3, [1, 1], 2),
        "test_averagepool1d": ("avg", 4, [0, 0], 4)}.items():
    x = rng.standard_normal((1, 5, 24)).astype(np.float32)
    y = pool1d_reference(x, kind, k, pads, stride)
    node_test(name, [helper.make_node("MaxPool" if kind == "max" else "AveragePool", ["x"], ["y"],
                                      kernel_shape=[k], pads=pads, strides=[stride],
                                      name="pool1d")], x, y, [])
