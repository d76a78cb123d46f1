"""Writes OUT.onnx: y = relu(x @ W + b) with x of shape [batch, 4] and y of
shape [batch, 3], batch symbolic (an ONNX dim_param), W and b seeded."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(3)
w = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
b = rng.uniform(-1, 1, (3,)).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["h"]),
     helper.make_node("Add", ["h", "b"], ["a"]),
     helper.make_node("Relu", ["a"], ["y"])],
    "symbolic",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), sys.argv[1])
np.savez(sys.argv[1] + ".npz", w=w, b=b)
