"""Bench: the contraction kernels against the machine's roofline.

Measures the core's f32 FMA peak and the memory bandwidth
(bench/roofline/peak.c, built with -O3 -march=native), then times, one
thread, the shapes where the zoo's time goes, each compiled as its own model
by `--fuse-ops` and `--fuse-lower-to-cpu` ahead of time into a shared library
(fuse_dialect.aot: opt -O3 and llc -O3 for the host CPU, as bench/peers.py
builds whole models) and called from this process:

  * GEMM 1024x1024x1024, GEMM 197x768x3072 (ViT-B/16's MLP), 16x768x3072;
  * 3x3 convolution 56x56 64->64, 1x1 convolution 56x56 64->256 (ResNet-50's
    first stage), 3x3 convolution 7x7 512->512 (its last), depthwise 3x3
    56x56x144 (MobileNetV2), their inputs and weights arguments;
  * the same with the weight a constant of the model, as the zoo has it
    (laid out, permuted and padded at compile time), and a 3x3 14x14
    256->256 convolution, VGG-16's 3x3 stages (224x224 by 64 channels to
    28x28 by 512), and Inception-v3's 17x17 stage (a 1x1 768->192, a 1x7
    and a 7x1 128->128: rows of 17 pixels, windows of one row or column);
  * grouped 3x3 convolutions with constant filters (ResNeXt-50's 56x56
    128->128 and 14x14 512->512 in 32 groups, RegNet-Y-400MF's 14x14
    208->208 in 26), in fuse-import's form;

each with its bias and a ReLU epilogue, as the zoo's groups have them, on
fixed pseudo-random inputs in [-1, 1). Prints one row per shape: our time,
GFLOP/s and the fraction of the FMA peak, PyTorch's (the same op through
torch.nn.functional on the same values, one thread) when torch imports, its
time over ours (> 1: we are faster), and our output's max relative error
against PyTorch's. Every column runs with glibc's malloc keeping freed
memory, as in bench/peers.py (toolchain.keep_freed_memory): a result's pages
are not faulted in again on every call. Usage: bench/roofline.py [--calls N]
[--rounds N] [--lower-options OPTS] [--fuse-options OPTS] (default
winograd=false: the direct kernels) [--baseline OLD_FUSE_OPT] (an older
build timed in the same run, interleaved: a before/after column) [--cases
REGEX] (only the kernels whose name matches).
docs/Performance.md holds the latest table.
"""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time

from .. import aot, mlirtext, runtime, toolchain
from .cpu import run

ROOT = toolchain.source_root()

ZP = '"tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>'


def gemm(m, k, n, constant=False):
    """(text, flops, B or None): tosa.matmul [1,m,k] x [1,k,n] + bias, ReLU;
    with `constant`, B is a constant of the model (a Linear layer's weight)
    instead of an argument."""
    a, b = "tensor<1x%dx%dxf32>" % (m, k), "tensor<1x%dx%dxf32>" % (k, n)
    c, bias = "tensor<1x%dx%dxf32>" % (m, n), "tensor<1x1x%dxf32>" % n
    weight = constant_values((1, k, n)) if constant else None
    if constant:
        args = "%%a: %s, %%bias: %s" % (a, bias)
        b_def = "  %%b = %s\n" % constant_filter(weight)
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
    return text, 2.0 * m * k * n, weight


def constant_values(shape):
    """Fixed pseudo-random f32 values in [-1, 1) of `shape`: a model's
    weights."""
    import numpy as np
    return np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)


def constant_filter(values):
    """A tosa.const of `values`, which the CPU lowering permutes and pads
    at compile time."""
    from ..onnx_import import literal
    return mlirtext.tosa_constant(
        literal(values), "tensor<%sxf32>" % "x".join(str(d) for d in values.shape))


def conv(hw, cin, cout, k, depthwise=False, constant=False):
    """(text, flops, filter or None): a same-padded stride-1 convolution of
    a 1 x hw x hw x cin image, bias, ReLU (NHWC, TOSA's layout), its window
    k x k or, with `k` a pair, kh x kw (Inception's 1x7 and 7x1); with
    `constant`, the filter is a constant of the model instead of an
    argument."""
    kh, kw = k if isinstance(k, tuple) else (k, k)
    x = "tensor<1x%dx%dx%dxf32>" % (hw, hw, cin)
    y = "tensor<1x%dx%dx%dxf32>" % (hw, hw, cout)
    ph, pw = (kh - 1) // 2, (kw - 1) // 2
    attrs = ("{acc_type = f32, pad = array<i64: %d, %d, %d, %d>, stride = "
             "array<i64: 1, 1>, dilation = array<i64: 1, 1>}" % (ph, ph, pw, pw))
    if depthwise:
        wshape = (kh, kw, cin, 1)
        op = "tosa.depthwise_conv2d"
        flops = 2.0 * hw * hw * cout * kh * kw
    else:
        wshape = (cout, kh, kw, cin)
        op = "tosa.conv2d"
        flops = 2.0 * hw * hw * cout * kh * kw * cin
    w = "tensor<%sxf32>" % "x".join(str(d) for d in wshape)
    b = "tensor<%dxf32>" % cout
    weight = constant_values(wshape) if constant else None
    if constant:
        args = "%%x: %s, %%b: %s" % (x, b)
        filter_def = "  %%w = %s\n" % constant_filter(weight)
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
    return text, flops, weight


def grouped_conv(hw, cin, cout, k, groups):
    """(text, flops, filter): a same-padded stride-1 grouped convolution
    (not depthwise) of a 1 x hw x hw x cin image with a constant filter,
    bias, ReLU, in the form fuse-import gives it: the input padded and
    viewed as [1, H, W, G, C/G] and padded, `linalg.conv_2d_nhwgc_gfhwc`
    with the filter [G, F/G, KH, KW, C/G], the bias added and the result
    viewed back."""
    cg, fg, pad = cin // groups, cout // groups, (k - 1) // 2
    hp = hw + 2 * pad
    x, y = "tensor<1x%dx%dx%dxf32>" % (hw, hw, cin), "tensor<1x%dx%dx%dxf32>" % (hw, hw, cout)
    x5 = "tensor<1x%dx%dx%dx%dxf32>" % (hp, hp, groups, cg)
    y5 = "tensor<1x%dx%dx%dx%dxf32>" % (hw, hw, groups, fg)
    wshape = (groups, fg, k, k, cg)
    w = "tensor<%sxf32>" % "x".join(str(d) for d in wshape)
    weight = constant_values(wshape)
    text = """func.func @model(%%x: %(x)s, %%b: tensor<1x1x1x%(groups)dx%(fg)dxf32>) -> %(y)s {
  %%w = %(filter)s
  %%zp = %(zp)s
  %%s5 = tosa.const_shape {values = dense<[1, %(hw)d, %(hw)d, %(groups)d, %(cg)d]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %%x5 = tosa.reshape %%x, %%s5 : (%(x)s, !tosa.shape<5>) -> %(x5u)s
  %%p = tosa.const_shape {values = dense<[0, 0, %(pad)d, %(pad)d, %(pad)d, %(pad)d, 0, 0, 0, 0]> : tensor<10xindex>} : () -> !tosa.shape<10>
  %%xp = tosa.pad %%x5, %%p, %%zp : (%(x5u)s, !tosa.shape<10>, tensor<1xf32>) -> %(x5)s
  %%zero = arith.constant 0.0 : f32
  %%e = tensor.empty() : %(y5)s
  %%f = linalg.fill ins(%%zero : f32) outs(%%e : %(y5)s) -> %(y5)s
  %%c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%%xp, %%w : %(x5)s, %(w)s) outs(%%f : %(y5)s) -> %(y5)s
  %%a = tosa.add %%c, %%b : (%(y5)s, tensor<1x1x1x%(groups)dx%(fg)dxf32>) -> %(y5)s
  %%s4 = tosa.const_shape {values = dense<[1, %(hw)d, %(hw)d, %(cout)d]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %%a4 = tosa.reshape %%a, %%s4 : (%(y5)s, !tosa.shape<4>) -> %(y)s
  %%r = tosa.clamp %%a4 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (%(y)s) -> %(y)s
  return %%r : %(y)s
}
""" % dict(x=x, y=y, x5u="tensor<1x%dx%dx%dx%dxf32>" % (hw, hw, groups, cg), x5=x5, y5=y5,
           w=w, filter=constant_filter(weight), zp=ZP, pad=pad, hw=hw, groups=groups,
           cg=cg, fg=fg, cout=cout)
    return text, 2.0 * hw * hw * cout * k * k * cg, weight


def conv_case(hw, cin, cout, k, constant=False):
    """A CASES row for conv(): its name, its maker and torch_op's spec, the
    shape stated once."""
    kh, kw = k if isinstance(k, tuple) else (k, k)
    name = "conv %dx%d %dx%d %d->%d%s" % (kh, kw, hw, hw, cin, cout,
                                         ", constant filter" if constant else "")
    return (name, lambda: conv(hw, cin, cout, k, constant=constant),
            ("conv", hw, cin, cout, k, 1))


CASES = [
    ("GEMM 1024x1024x1024", lambda: gemm(1024, 1024, 1024),
     ("mm", 1024, 1024, 1024)),
    ("GEMM 197x768x3072 (ViT MLP)", lambda: gemm(197, 768, 3072),
     ("mm", 197, 768, 3072)),
    ("GEMM 16x768x3072", lambda: gemm(16, 768, 3072), ("mm", 16, 768, 3072)),
    conv_case(56, 64, 64, 3),
    conv_case(56, 64, 256, 1),
    conv_case(7, 512, 512, 3),
    ("depthwise 3x3 56x56x144", lambda: conv(56, 144, 144, 3, depthwise=True),
     ("conv", 56, 144, 144, 3, 144)),
    # The weights as constants, as in a model: laid out per tile, permuted,
    # and padded where their rows alias in cache, at compile time.
    ("GEMM 197x768x3072, constant B", lambda: gemm(197, 768, 3072, True),
     ("mm", 197, 768, 3072)),
    ("GEMM 16x768x3072, constant B", lambda: gemm(16, 768, 3072, True),
     ("mm", 16, 768, 3072)),
    conv_case(56, 64, 64, 3, constant=True),
    conv_case(56, 64, 256, 1, constant=True),
    conv_case(14, 256, 256, 3, constant=True),
    conv_case(7, 512, 512, 3, constant=True),
    # VGG-16's stages: 3x3 convolutions from 224x224 by 64 to 14x14 by 512.
    conv_case(224, 64, 64, 3, constant=True),
    conv_case(112, 128, 128, 3, constant=True),
    conv_case(56, 256, 256, 3, constant=True),
    conv_case(28, 512, 512, 3, constant=True),
    # Inception-v3's 17x17 stage: rows of 17 pixels, windows of one row or
    # one column.
    conv_case(17, 768, 192, 1, constant=True),
    conv_case(17, 128, 128, (1, 7), constant=True),
    conv_case(17, 128, 128, (7, 1), constant=True),
    # Grouped convolutions (constant filters): ResNeXt-50 32x4d's first and
    # third stages, RegNet-Y-400MF's third (groups of 8 channels).
    ("grouped 3x3 56x56 128->128, 32 groups", lambda: grouped_conv(56, 128, 128, 3, 32),
     ("grouped", 56, 128, 128, 3, 32)),
    ("grouped 3x3 14x14 512->512, 32 groups", lambda: grouped_conv(14, 512, 512, 3, 32),
     ("grouped", 14, 512, 512, 3, 32)),
    ("grouped 3x3 14x14 208->208, 26 groups", lambda: grouped_conv(14, 208, 208, 3, 26),
     ("grouped", 14, 208, 208, 3, 26)),
]


def peak():
    """(FMA GFLOP/s, triad GB/s) of one core, measured."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "peak")
        run(["cc", "-O3", "-march=native",
             os.path.join(ROOT, "bench", "roofline", "peak.c"), "-o", exe])
        out = dict(line.split() for line in run([exe]).splitlines())
    return float(out["fma_gflops"]), float(out["triad_gbs"])


def compile_ours(text, work, lower_options, fuse_opt=None, fuse_options=""):
    """`text`'s @model compiled ahead of time into a shared library
    (fuse_dialect.aot: --fuse-ops, --fuse-lower-to-cpu, opt and llc for the
    host CPU), as a user's program runs it."""
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "model.mlir")
    with open(path, "w") as f:
        f.write("module {\n" + text + "}\n")
    library = os.path.join(work, "model.so")
    aot.compile_library(path, library, lower_options=lower_options, fuse_opt=fuse_opt,
                        fuse_options=fuse_options)
    return runtime.Model(library)


def ours_and_baseline(text, work, index, args):
    """Our library of `text` and, with --baseline, the older build's (None
    without), both set to one thread."""
    ours = compile_ours(text, os.path.join(work, "ours%d" % index),
                        args.lower_options, fuse_options=args.fuse_options)
    ours.set_threads(1)
    before = None
    if args.baseline:
        before = compile_ours(text, os.path.join(work, "base%d" % index),
                              args.lower_options, args.baseline, args.fuse_options)
        before.set_threads(1)
    return ours, before


def columns_of(ours, before, theirs, inputs):
    """The (name, fn) columns a row times: ours, the baseline's where there
    is one, PyTorch's where torch imports."""
    columns = [("ours", lambda: ours(*inputs))]
    if before:
        columns.append(("before", lambda: before(*inputs)))
    if theirs:
        columns.append(("torch", theirs))
    return columns


def inputs_of(model):
    """Fixed pseudo-random arguments in [-1, 1) for `model`."""
    import numpy as np
    rng = np.random.default_rng(1)
    return [rng.uniform(-1, 1, b.shape).astype(b.dtype) for b in model.inputs]


def torch_op(spec, inputs, weight):
    """The same op in PyTorch on the same values (one thread, NCHW as its
    users call it), or None where torch does not import."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    torch.set_num_threads(1)
    t = [torch.from_numpy(x) for x in inputs]
    if spec[0] == "mm":
        a, rest = t[0][0], t[1:]
        b = torch.from_numpy(weight)[0] if weight is not None else rest.pop(0)[0]
        bias = rest[0][0, 0]
        return lambda: torch.relu(torch.addmm(bias, a, b))
    kind, hw, cin, cout, k, groups = spec
    kh, kw = k if isinstance(k, tuple) else (k, k)
    x, rest = t[0].permute(0, 3, 1, 2).contiguous(), t[1:]
    w = torch.from_numpy(weight) if weight is not None else rest.pop(0)
    # TOSA's filters: cout x k x k x cin, or k x k x cin x 1 (depthwise);
    # linalg's grouped ones G x cout/G x k x k x cin/G.
    if kind == "grouped":
        w = w.reshape(cout, kh, kw, cin // groups).permute(0, 3, 1, 2).contiguous()
    else:
        w = (w.permute(2, 3, 0, 1) if groups > 1 else w.permute(0, 3, 1, 2)).contiguous()
    bias = rest[0].reshape(-1)
    return lambda: torch.relu(F.conv2d(x, w, bias, padding=((kh - 1) // 2, (kw - 1) // 2),
                                       groups=groups)).permute(0, 2, 3, 1)


def seconds_per_call(fn, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def median_seconds(columns, rounds, calls):
    """{name: median seconds per call} of `columns` ((name, fn) pairs), each
    timed `rounds` times over `calls` calls, the columns interleaved, after
    one call each per round."""
    times = {c: [] for c, _ in columns}
    for _ in range(rounds):
        for c, fn in columns:
            fn()
            times[c].append(seconds_per_call(fn, calls))
    return {c: statistics.median(v) for c, v in times.items()}


def rerun_keeping_freed_memory(module, argv):
    """Runs `module` again in a process whose glibc malloc keeps freed
    memory, the allocator settings every column of bench/peers.py runs
    under, unless this one already has them."""
    if "GLIBC_TUNABLES" not in os.environ:
        env = toolchain.keep_freed_memory(toolchain.module_env())
        os.execve(sys.executable, toolchain.module_command(module) + argv[1:], env)


def timing_arguments(prog, rounds, argv):
    """`argv` parsed with the options the one-thread kernel benches share
    (--calls, --rounds with `rounds` its default, --baseline, --cases) and
    --lower-options."""
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=rounds,
                    help="time every column this many times, interleaved, "
                         "and report medians")
    ap.add_argument("--lower-options", default="",
                    help="more --fuse-lower-to-cpu options")
    ap.add_argument("--fuse-options", default="winograd=false",
                    help="--fuse-ops options (default winograd=false: the "
                         "3x3 rows time the direct convolution's kernel "
                         "against the FMA peak; winograd=true times what "
                         "the library compiler ships, whose GFLOP/s count "
                         "the direct convolution's multiplies)")
    ap.add_argument("--baseline", metavar="FUSE_OPT",
                    help="another fuse-opt (an older build) timed in the "
                         "same run, interleaved, as a 'before' column")
    ap.add_argument("--cases", default="", metavar="REGEX",
                    help="only the rows whose name matches")
    args = ap.parse_args(argv[1:])
    if args.calls < 1 or args.rounds < 1:
        ap.error("--calls and --rounds must be at least 1")
    return args


def main(argv):
    rerun_keeping_freed_memory("fuse_dialect.bench.roofline", argv)
    args = timing_arguments("roofline.py", 1, argv)
    import numpy as np
    fma, bw = peak()
    print("One core: f32 FMA peak %.1f GFLOP/s (measured), triad %.1f GB/s\n"
          % (fma, bw))
    base = "| baseline GFLOP/s | ours / baseline " if args.baseline else ""
    print("| kernel (bias + ReLU epilogue) | GFLOP | ours (ms) | ours GFLOP/s | "
          "ours %% of peak %s| PyTorch (ms) | PyTorch GFLOP/s | PyTorch / ours | "
          "max rel. error |" % base)
    print("|---|---|---|---|---|" + ("---|---|" if args.baseline else "") +
          "---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for i, (name, make, spec) in enumerate(CASES):
            if not re.search(args.cases, name):
                continue
            text, flops, weight = make()
            ours, before = ours_and_baseline(text, work, i, args)
            inputs = inputs_of(ours)
            theirs = torch_op(spec, inputs, weight)
            columns = columns_of(ours, before, theirs, inputs)
            # Every output against PyTorch's (or the baseline's).
            err = "n/a"
            reference = theirs() if theirs else (before(*inputs) if before else None)
            if reference is not None:
                ref = np.asarray(reference, dtype=np.float64)
                out = np.asarray(ours(*inputs), dtype=np.float64).reshape(ref.shape)
                err = "%.1e" % (np.max(np.abs(out - ref)) /
                                max(np.max(np.abs(ref)), 1e-30))
            med = median_seconds(columns, args.rounds, args.calls)
            row = "| %s | %.2f | %.2f | %.1f | %.1f%% |" % (
                name, flops * 1e-9, med["ours"] * 1e3, flops / med["ours"] * 1e-9,
                100.0 * flops / med["ours"] * 1e-9 / fma)
            if before:
                row += " %.1f | %.2fx |" % (flops / med["before"] * 1e-9,
                                            med["before"] / med["ours"])
            if theirs:
                row += " %.2f | %.1f | %.2fx |" % (
                    med["torch"] * 1e3, flops / med["torch"] * 1e-9,
                    med["torch"] / med["ours"])
            else:
                row += " n/a | n/a | n/a |"
            print(row + " %s |" % err, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
