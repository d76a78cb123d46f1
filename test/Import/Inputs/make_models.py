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
def node_test(name, nodes, x, y, inits, more=()):
    """Inputs x (and x1, x2, ... from `more`), output y."""
    d = os.path.join(out, "node", name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    xs = [x] + list(more)
    g = helper.make_graph(nodes, name,
                          [helper.make_tensor_value_info("x%s" % (i or ""), TensorProto.FLOAT,
                                                         list(a.shape))
                           for i, a in enumerate(xs)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))],
                          inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(d, "model.onnx"))
    for kind, arr in [("input_%d" % i, a) for i, a in enumerate(xs)] + [("output_0", y)]:
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

# Pools whose every window is one element (PyTorch's AdaptiveAvgPool2d to
# the input's own size) are their input.
for name, kind in (("test_averagepool2d_identity", "AveragePool"),
                   ("test_maxpool2d_identity", "MaxPool")):
    x = rng.standard_normal((1, 5, 7, 7)).astype(np.float32)
    node_test(name, [helper.make_node(kind, ["x"], ["y"], kernel_shape=[1, 1],
                                      strides=[1, 1], name="pool")], x, x.copy(), [])

# Einsum (batched, with a constant operand, an ellipsis, an axis summed
# alone, implicit output), stepped Slice on run-time values (a step that
# needs the axis padded, a negative step), and what Swin's export needs:
# training-mode Dropout of ratio 0 with its mask, ScatterND and Expand of
# constants (folded). References are numpy's.
def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


for name, (eq, shapes, const_b) in {
        "test_einsum_attention": ("bghid,bghjd->bghij", [(1, 2, 3, 5, 4), (1, 2, 3, 6, 4)], False),
        "test_einsum_weights": ("ij,jk->ik", [(5, 7), (7, 3)], True),
        "test_einsum_ellipsis": ("...ij,...jk->...ik", [(2, 3, 4, 5), (2, 3, 5, 2)], False),
        "test_einsum_sum_alone": ("abc,cd->da", [(3, 4, 5), (5, 2)], False),
        "test_einsum_implicit": ("bij,bkj", [(2, 3, 4), (2, 5, 4)], False),
        "test_einsum_transpose": ("...ij->...ji", [(2, 3, 4)], False)}.items():
    a = [f32(*sh) for sh in shapes]
    y = np.einsum(eq, *a).astype(np.float32)
    inputs = ["x"] + (["w"] if const_b else ["x1"] * (len(a) - 1))
    node_test(name, [helper.make_node("Einsum", inputs, ["y"], equation=eq, name="einsum")],
              a[0], y, [numpy_helper.from_array(a[1], "w")] if const_b else [],
              [] if const_b else a[1:])

for name, (starts, ends, axes, steps) in {
        "test_slice_steps_padded": ([0, 1], [7, 9], [1, 2], [2, 3]),
        "test_slice_negative_step": ([-1, 5], [-100, 0], [3, 1], [-2, -1])}.items():
    x = f32(1, 7, 9, 6)
    idx = [slice(None)] * 4
    for st, en, ax, sp in zip(starts, ends, axes, steps):
        idx[ax] = slice(st, en, sp)
    node_test(name, [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"],
                                      name="slice")], x, np.ascontiguousarray(x[tuple(idx)]),
              [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
               (("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps))])

x = f32(2, 4, 4)
mask = np.zeros((4, 4), np.float32)
mask[[1, 3]] = 1.0
node_test("test_swin_masks", [
    helper.make_node("Dropout", ["x", "ratio", "training"], ["d", "m"], name="dropout"),
    helper.make_node("Cast", ["m"], ["mf"], to=TensorProto.FLOAT, name="cast"),
    helper.make_node("Mul", ["d", "mf"], ["dm"], name="mul"),
    helper.make_node("ScatterND", ["zeros", "rows", "ones"], ["mask"], name="scatter"),
    helper.make_node("Expand", ["mask", "shape"], ["masks"], name="expand"),
    helper.make_node("Add", ["dm", "masks"], ["y"], name="add")], x, x + mask, [
    numpy_helper.from_array(np.array(0.0, np.float32), "ratio"),
    numpy_helper.from_array(np.array(True), "training"),
    numpy_helper.from_array(np.zeros((4, 4), np.float32), "zeros"),
    numpy_helper.from_array(np.array([[1], [3]], np.int64), "rows"),
    numpy_helper.from_array(np.ones((2, 4), np.float32), "ones"),
    numpy_helper.from_array(np.array([2, 4, 4], np.int64), "shape")])


def conv3d_reference(x, w, b, pads, strides, dilations):
    """ONNX Conv on [N, C, D, H, W] (not grouped), directly in numpy."""
    nd = 3
    xp = np.pad(x.astype(np.float64),
                ((0, 0), (0, 0)) + tuple((pads[i], pads[i + nd]) for i in range(nd)))
    k = w.shape[2:]
    out = [(x.shape[2 + i] + pads[i] + pads[i + nd] - (k[i] - 1) * dilations[i] - 1)
           // strides[i] + 1 for i in range(nd)]
    y = np.zeros((x.shape[0], w.shape[0]) + tuple(out))
    for p in np.ndindex(*out):
        idx = [p[i] * strides[i] + dilations[i] * np.arange(k[i]) for i in range(nd)]
        win = xp[:, :, idx[0]][:, :, :, idx[1]][:, :, :, :, idx[2]]
        y[(slice(None), slice(None)) + p] = np.einsum("ncdhw,fcdhw->nf", win, w) + b
    return y.astype(np.float32)


# 3-D convolutions (video models): padded, strided with a dropped last
# window, dilated, 1x1x1.
for name, (c, f, k, pads, strides, dil, dhw) in {
        "test_conv3d": (3, 4, (3, 3, 3), [1, 1, 1, 1, 1, 1], [1, 1, 1], [1, 1, 1], (4, 5, 6)),
        "test_conv3d_strided": (2, 5, (3, 7, 7), [1, 3, 3, 1, 3, 3], [1, 2, 2], [1, 1, 1],
                                (3, 9, 10)),
        "test_conv3d_dilated": (2, 3, (2, 3, 2), [0, 2, 1, 1, 2, 0], [2, 1, 3], [2, 2, 1],
                                (7, 6, 8)),
        "test_conv3d_1x1x1_strided": (4, 6, (1, 1, 1), [0] * 6, [2, 2, 2], [1, 1, 1],
                                      (5, 5, 5))}.items():
    x = f32(1, c, *dhw)
    w = (rng.standard_normal((f, c) + k) * 0.3).astype(np.float32)
    b = f32(f)
    node_test(name, [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=pads,
                                      strides=strides, dilations=dil, name="conv3d")],
              x, conv3d_reference(x, w, b, pads, strides, dil),
              [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])


# Refused with the node named (onnx-import.mlir's REFUSED checks): an Einsum
# with a diagonal, a constant ScatterND index out of range, training-mode
# Dropout of a non-zero ratio, a grouped 3-D convolution.
def refused(name, nodes, x_shape, inits):
    g = helper.make_graph(nodes, name,
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(out, name + ".onnx"))


refused("einsum_diagonal", [helper.make_node("Einsum", ["x"], ["y"], equation="ii->i",
                                             name="diag")], [3, 3], [])
refused("scatter_out_of_range", [
    helper.make_node("ScatterND", ["zeros", "rows", "ones"], ["m"], name="scatter"),
    helper.make_node("Add", ["x", "m"], ["y"], name="add")], [4, 4], [
    numpy_helper.from_array(np.zeros((4, 4), np.float32), "zeros"),
    numpy_helper.from_array(np.array([[4]], np.int64), "rows"),
    numpy_helper.from_array(np.ones((1, 4), np.float32), "ones")])
refused("dropout_training", [helper.make_node("Dropout", ["x", "ratio", "training"], ["y"],
                                              name="dropout")], [4], [
    numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
    numpy_helper.from_array(np.array(True), "training")])
refused("conv3d_grouped", [helper.make_node("Conv", ["x", "w"], ["y"], group=2, name="conv3d")],
        [1, 4, 3, 3, 3], [numpy_helper.from_array(np.ones((4, 2, 1, 1, 1), np.float32), "w")])
