"""Bench: the contraction kernels against the machine's roofline.

Measures the core's f32 FMA peak and the memory bandwidth
(bench/roofline/peak.c, built with -O3 -march=native), then times, one
thread, the shapes where the zoo's time goes, each compiled as its own model
by `--fuse-ops` and `--fuse-lower-to-cpu` and run under mlir-runner -O3
(inputs and weights are arguments, so nothing is folded at compile time):

  * GEMM 1024x1024x1024, GEMM 197x768x3072 (ViT-B/16's MLP), 16x768x3072;
  * 3x3 convolution 56x56 64->64, 1x1 convolution 56x56 64->256 (ResNet-50's
    first stage), 3x3 convolution 7x7 512->512 (its last), depthwise 3x3
    56x56x144 (MobileNetV2);

each with its bias and a ReLU epilogue, as the zoo's groups have them.
Prints one row per shape: our time, GFLOP/s and the fraction of the FMA
peak, and PyTorch's (the same op through torch.nn.functional, one thread)
when torch imports. Both run with glibc's malloc keeping freed memory, as in
bench/peers.py (toolchain.keep_freed_memory): a result's pages are not
faulted in again on every call. Usage: bench/roofline.py [--calls N] [--rounds N] [--lower-options OPTS]
[--baseline OLD_FUSE_OPT] (an older build timed in the same run,
interleaved: a before/after column). docs/Performance.md holds the latest
table.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from .. import mlirtext, toolchain
from .cpu import run, time_variant

ROOT = toolchain.source_root()
FUSE_OPT = toolchain.fuse_opt()

ZP = '"tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>'


def gemm(m, k, n, constant=False):
    """tosa.matmul [1,m,k] x [1,k,n] + bias, ReLU; with `constant`, B is a
    constant of the model (a Linear layer's weight) instead of an
    argument."""
    a, b = "tensor<1x%dx%dxf32>" % (m, k), "tensor<1x%dx%dxf32>" % (k, n)
    c, bias = "tensor<1x%dx%dxf32>" % (m, n), "tensor<1x1x%dxf32>" % n
    if constant:
        args = "%%a: %s, %%bias: %s" % (a, bias)
        b_def = "  %%b = %s\n" % constant_filter((1, k, n))
    else:
        args, b_def = "%%a: %s, %%b: %s, %%bias: %s" % (a, b, bias), ""
    text = """func.func @model(%(args)s) -> %(c)s {
%(b_def)s  %%zp = %(zp)s
  %%p = tosa.matmul %%a, %%b, %%zp, %%zp : (%(a)s, %(b)s, tensor<1xf32>, tensor<1xf32>) -> %(c)s
  %%s = tosa.add %%p, %%bias : (%(c)s, %(bias)s) -> %(c)s
  %%r = tosa.clamp %%s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (%(c)s) -> %(c)s
  return %%r : %(c)s
}
""" % dict(args=args, b_def=b_def, a=a, b=b, c=c, bias=bias, zp=ZP)
    return text, 2.0 * m * k * n


def constant_filter(shape):
    """A tosa.const of `shape`, fixed pseudo-random values in [-1, 1): a
    model's weights, which the CPU lowering permutes and pads at compile
    time."""
    import numpy as np
    from ..onnx_import import literal
    values = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    return mlirtext.tosa_constant(
        literal(values), "tensor<%sxf32>" % "x".join(str(d) for d in shape))


def conv(hw, cin, cout, k, depthwise=False, constant=False):
    """A same-padded stride-1 convolution of a 1 x hw x hw x cin image, bias,
    ReLU (NHWC, TOSA's layout); with `constant`, the filter is a constant of
    the model instead of an argument."""
    x = "tensor<1x%dx%dx%dxf32>" % (hw, hw, cin)
    y = "tensor<1x%dx%dx%dxf32>" % (hw, hw, cout)
    pad = (k - 1) // 2
    attrs = ("{acc_type = f32, pad = array<i64: %d, %d, %d, %d>, stride = "
             "array<i64: 1, 1>, dilation = array<i64: 1, 1>}" % ((pad,) * 4))
    if depthwise:
        wshape = (k, k, cin, 1)
        op = "tosa.depthwise_conv2d"
        flops = 2.0 * hw * hw * cout * k * k
    else:
        wshape = (cout, k, k, cin)
        op = "tosa.conv2d"
        flops = 2.0 * hw * hw * cout * k * k * cin
    w = "tensor<%sxf32>" % "x".join(str(d) for d in wshape)
    b = "tensor<%dxf32>" % cout
    if constant:
        args = "%%x: %s, %%b: %s" % (x, b)
        filter_def = "  %%w = %s\n" % constant_filter(wshape)
    else:
        args, filter_def = "%%x: %s, %%w: %s, %%b: %s" % (x, w, b), ""
    text = """func.func @model(%(args)s) -> %(y)s {
%(filter_def)s  %%zp = %(zp)s
  %%c = %(op)s %%x, %%w, %%b, %%zp, %%zp %(attrs)s : (%(x)s, %(w)s, %(b)s, tensor<1xf32>, tensor<1xf32>) -> %(y)s
  %%r = tosa.clamp %%c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (%(y)s) -> %(y)s
  return %%r : %(y)s
}
""" % dict(args=args, filter_def=filter_def, x=x, w=w, b=b, y=y, op=op,
           attrs=attrs, zp=ZP)
    return text, flops


CASES = [
    ("GEMM 1024x1024x1024", lambda: gemm(1024, 1024, 1024),
     ("mm", 1024, 1024, 1024)),
    ("GEMM 197x768x3072 (ViT MLP)", lambda: gemm(197, 768, 3072),
     ("mm", 197, 768, 3072)),
    ("GEMM 16x768x3072", lambda: gemm(16, 768, 3072), ("mm", 16, 768, 3072)),
    ("conv 3x3 56x56 64->64", lambda: conv(56, 64, 64, 3),
     ("conv", 56, 64, 64, 3, 1)),
    ("conv 1x1 56x56 64->256", lambda: conv(56, 64, 256, 1),
     ("conv", 56, 64, 256, 1, 1)),
    ("conv 3x3 7x7 512->512", lambda: conv(7, 512, 512, 3),
     ("conv", 7, 512, 512, 3, 1)),
    ("depthwise 3x3 56x56x144", lambda: conv(56, 144, 144, 3, depthwise=True),
     ("conv", 56, 144, 144, 3, 144)),
    # The weights as constants, as in a model: laid out per tile, permuted,
    # and padded where their rows alias in cache, at compile time.
    ("GEMM 197x768x3072, constant B", lambda: gemm(197, 768, 3072, True),
     ("mm", 197, 768, 3072)),
    ("GEMM 16x768x3072, constant B", lambda: gemm(16, 768, 3072, True),
     ("mm", 16, 768, 3072)),
    ("conv 3x3 56x56 64->64, constant filter",
     lambda: conv(56, 64, 64, 3, constant=True), ("conv", 56, 64, 64, 3, 1)),
    ("conv 1x1 56x56 64->256, constant filter",
     lambda: conv(56, 64, 256, 1, constant=True), ("conv", 56, 64, 256, 1, 1)),
    ("conv 3x3 14x14 256->256, constant filter",
     lambda: conv(14, 256, 256, 3, constant=True), ("conv", 14, 256, 256, 3, 1)),
    ("conv 3x3 7x7 512->512, constant filter",
     lambda: conv(7, 512, 512, 3, constant=True), ("conv", 7, 512, 512, 3, 1)),
]


def peak():
    """(FMA GFLOP/s, triad GB/s) of one core, measured."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "peak")
        run(["cc", "-O3", "-march=native",
             os.path.join(ROOT, "bench", "roofline", "peak.c"), "-o", exe])
        out = dict(line.split() for line in run([exe]).splitlines())
    return float(out["fma_gflops"]), float(out["triad_gbs"])


def lower_ours(text, calls, lower_options, fuse_opt=FUSE_OPT):
    """The timed program of `text`: --fuse-ops, then --fuse-lower-to-cpu."""
    model = mlirtext.find_func(text, "model")
    inputs = [mlirtext.arith_constant("dense<0.125>", t) for t in model.args]
    main, decls = mlirtext.synthesize_main([(model, inputs)], text, timed=calls)
    module = "module {\n" + text + "}\n"
    fused = mlirtext.insert_into_module(run([fuse_opt, "-", "--fuse-ops"],
                                            stdin=module), main + decls)
    return run([fuse_opt, "-", "--fuse-lower-to-cpu=" + lower_options],
               stdin=fused)


def time_ours(text, calls, lower_options):
    seconds, _ = time_variant(lower_ours(text, calls, lower_options))
    return seconds


def time_torch(spec, calls):
    """Seconds per call of the same op in PyTorch (one thread), or None."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    torch.set_num_threads(1)
    if spec[0] == "mm":
        _, m, k, n = spec
        a, b, bias = torch.full((m, k), 0.125), torch.full((k, n), 0.125), torch.zeros(n)
        fn = lambda: torch.relu(torch.addmm(bias, a, b))
    else:
        _, hw, cin, cout, k, groups = spec
        x = torch.full((1, cin, hw, hw), 0.125)
        w = torch.full((cout, cin // groups, k, k), 0.125)
        bias = torch.zeros(cout)
        fn = lambda: torch.relu(F.conv2d(x, w, bias, padding=(k - 1) // 2,
                                         groups=groups))
    with torch.no_grad():
        fn()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        return (time.perf_counter() - start) / calls


def main(argv):
    if "GLIBC_TUNABLES" not in os.environ:
        # Again, with the allocator settings every column runs under.
        env = toolchain.keep_freed_memory(toolchain.module_env())
        os.execve(sys.executable, toolchain.module_command(
            "fuse_dialect.bench.roofline") + argv[1:], env)
    ap = argparse.ArgumentParser(prog="roofline.py")
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=1,
                    help="time every column this many times, interleaved, "
                         "and report medians")
    ap.add_argument("--lower-options", default="",
                    help="more --fuse-lower-to-cpu options")
    ap.add_argument("--baseline", metavar="FUSE_OPT",
                    help="another fuse-opt (an older build) timed in the "
                         "same run, interleaved, as a 'before' column")
    args = ap.parse_args(argv[1:])
    fma, bw = peak()
    print("One core: f32 FMA peak %.1f GFLOP/s (measured), triad %.1f GB/s\n"
          % (fma, bw))
    base = "| baseline GFLOP/s | ours / baseline " if args.baseline else ""
    print("| kernel (bias + ReLU epilogue) | GFLOP | ours (ms) | ours GFLOP/s | "
          "ours %% of peak %s| PyTorch (ms) | PyTorch GFLOP/s | ours / PyTorch |"
          % base)
    print("|---|---|---|---|---|" + ("---|---|" if args.baseline else "") +
          "---|---|---|")
    for name, make, spec in CASES:
        text, flops = make()
        ours_program = lower_ours(text, args.calls, args.lower_options)
        base_program = (lower_ours(text, args.calls, args.lower_options,
                                   args.baseline) if args.baseline else None)
        ours, theirs, before = [], [], []
        for _ in range(args.rounds):
            ours.append(time_variant(ours_program)[0])
            if base_program:
                before.append(time_variant(base_program)[0])
            t = time_torch(spec, args.calls)
            if t:
                theirs.append(t)
        ours = statistics.median(ours)
        row = "| %s | %.2f | %.2f | %.1f | %.1f%% |" % (
            name, flops * 1e-9, ours * 1e3, flops / ours * 1e-9,
            100.0 * flops / ours * 1e-9 / fma)
        if before:
            before = statistics.median(before)
            row += " %.1f | %.2fx |" % (flops / before * 1e-9, before / ours)
        if theirs:
            theirs = statistics.median(theirs)
            row += " %.2f | %.1f | %.1fx |" % (theirs * 1e3, flops / theirs * 1e-9,
                                             ours / theirs)
        else:
            row += " n/a | n/a | n/a |"
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
