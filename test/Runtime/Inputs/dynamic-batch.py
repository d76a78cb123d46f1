"""Models with a symbolic batch (torch.onnx.export's dynamic_axes), each
compiled once by fuse_dialect.compile and run at several batch sizes against
PyTorch; models that mix or tell samples apart must be refused with a reason.
usage: dynamic-batch.py WORKDIR"""
import os
import sys

import numpy as np
import torch

import fuse_dialect
from fuse_dialect import aot, runtime

work = sys.argv[1]
torch.manual_seed(0)


class Cnn(torch.nn.Module):
    """Conv, pool, `view(x.size(0), -1)` (Shape, Gather, Concat, Reshape in
    ONNX), linear, softmax."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
        return torch.softmax(self.fc(x.view(x.size(0), -1)), dim=1)


class Attention(torch.nn.Module):
    """Two heads of self-attention: the batch merged with the heads
    (reshape, transpose, batched matmuls) and split off again."""

    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(8, 24)

    def forward(self, x):
        n, t, _ = x.shape
        q, k, v = self.qkv(x).reshape(n, t, 3, 2, 4).permute(2, 0, 3, 1, 4)
        a = torch.softmax(q @ k.transpose(-1, -2) / 2.0, dim=-1)
        return (a @ v).transpose(1, 2).reshape(n, t, 8)


class TwoInputs(torch.nn.Module):
    """A batch input and one without a batch (the same for every sample)."""

    def forward(self, x, scale):
        return torch.tanh(x * scale) + x.sum(dim=1, keepdim=True)


class BatchMean(torch.nn.Module):
    def forward(self, x):
        return x - x.mean(dim=0, keepdim=True)


class BatchAsData(torch.nn.Module):
    def forward(self, x):
        return x / x.shape[0]


class BatchFill(torch.nn.Module):
    """The same for every sample, but a function of the batch size."""

    def forward(self, x):
        return x + torch.ones_like(x) * x.shape[0]


class Transposed(torch.nn.Module):
    def forward(self, x):
        return x.transpose(0, 1) * 2.0


def export(name, module, shapes, batch_inputs):
    path = os.path.join(work, name + ".onnx")
    args = tuple(torch.rand(*s) for s in shapes)
    names = ["x", "scale"][:len(shapes)]
    axes = {n: {0: "batch"} for n in names[:batch_inputs]}
    axes["y"] = {0: "batch"}
    torch.onnx.export(module.eval(), args, path, input_names=names, output_names=["y"],
                      dynamic_axes=axes, opset_version=13)
    return path


def check(name, module, shapes, batch_inputs=1, batches=(1, 3, 16)):
    path = export(name, module, shapes, batch_inputs)
    try:
        # Two threads: batches of 2 or more run two samples at a time.
        model = fuse_dialect.compile(path, threads=2)
    except aot.CompileError as e:
        print("%s: refused: %s" % (name, e))
        return None
    results = []
    for n in batches:
        xs = [np.random.default_rng(n).uniform(-1, 1, [n] + list(s[1:]) if k < batch_inputs
                                               else s).astype(np.float32)
              for k, s in enumerate(shapes)]
        [ours] = model(*xs)
        with torch.no_grad():
            ref = module(*map(torch.from_numpy, xs)).numpy()
        # The same values one sample at a time on one thread.
        model.set_threads(1)
        [alone] = model(*xs)
        model.set_threads(2)
        results.append("batch %d %s" % (n, ours.shape == ref.shape and
                                        np.allclose(ours, ref, rtol=1e-4, atol=1e-5) and
                                        np.array_equal(ours, alone)))
    print("%s: inputs %s; %s" % (name, model.inputs, ", ".join(results)))
    return model


check("cnn", Cnn(), [(2, 3, 8, 8)])
check("attention", Attention(), [(2, 6, 8)])
two = check("two_inputs", TwoInputs(), [(2, 4), (4,)])
for name, module in (("batch_mean", BatchMean()), ("batch_as_data", BatchAsData()),
                     ("batch_fill", BatchFill()), ("transposed", Transposed())):
    check(name, module, [(2, 4)])

# An empty batch runs nothing; a batch the library cannot hold is refused
# (the caller's shape claims more bytes than memory has).
[empty] = two(np.zeros((0, 4), np.float32), np.ones(4, np.float32))
print("empty batch:", empty.shape)
lib = two._lib
info = lib.fuseModelInput(0).contents
print("declared:", [info.shape[d] for d in range(info.rank)])
x = np.zeros((1, 4), np.float32)
scale = np.ones(4, np.float32)
huge = (runtime.ctypes.c_int64 * 2)(1 << 62, 4)
one = (runtime.ctypes.c_int64 * 1)(4)
out_shape = (runtime.ctypes.c_int64 * 2)(1 << 62, 4)
ins = (runtime.Tensor * 2)(runtime.Tensor(x.ctypes.data, 1, 2, huge),
                           runtime.Tensor(scale.ctypes.data, 1, 1, one))
outs = (runtime.Tensor * 1)(runtime.Tensor(x.ctypes.data, 1, 2, out_shape))
status = lib.fuseSessionRun(two._session, ins, 2, outs, 1)
print("huge batch: status %d: %s" % (status, lib.fuseLastError().decode()))
huge[0], out_shape[0] = 1, 2
status = lib.fuseSessionRun(two._session, ins, 2, outs, 1)
print("batches differ: status %d: %s" % (status, lib.fuseLastError().decode()))
