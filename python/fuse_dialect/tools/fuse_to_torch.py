"""fuse-to-torch MODEL.mlir -o MODEL_torch.py [--func model]

Translates a TOSA `func.func` (as `fuse-opt` prints it) into a standalone
PyTorch program, so that the same graph on the same shapes can be timed
with PyTorch eager and `torch.compile` on a machine without MLIR (the GPU
bench). TOSA's NHWC/OHWI convolutions and pools become permutes around
torch's NCHW ops; constants are embedded (base64).

The program: `python3 MODEL_torch.py [--calls N] [--device cuda]` prints one
JSON line with microseconds per call, eager and compiled (compiled: "null"
when torch.compile is unavailable or fails), and the output checksums;
`--inputs FILE.npz` runs on given inputs and `--save-outputs FILE.npz`
writes the outputs (used to check the translation against our CPU run).

Only the TOSA ops the bundled examples and the importer use are handled;
anything else is an error naming the op.
"""


import argparse
import base64
import os
import re
import struct
import subprocess
import sys

from .. import mlirtext, toolchain

LINE = re.compile(r"^\s*(%[\w#]+)(?::\d+)? = (\"?[\w.]+\"?)(.*)$")
TYPE = re.compile(r"tensor<([0-9x]*?)x?(f32|f16|bf16|i1|i8|i32|i64)>")
NP = {"f32": "float32", "f16": "float16", "i1": "bool", "i8": "int8",
      "i32": "int32", "i64": "int64"}
# torch's names (numpy has no bfloat16: bf16 constants are not supported).
TORCH = dict(NP, bf16="bfloat16")


class Unsupported(Exception):
    pass


def parse_type(text):
    m = TYPE.search(text)
    if not m:
        raise Unsupported("type %r" % text)
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def operands(text):
    return re.findall(r"%[\w#]+", text.split("{")[0].split(":")[0])


def attr_array(attrs, name):
    m = re.search(name + r" = array<i(?:32|64)(?::\s*([-\d, ]*))?>", attrs)
    if not m:
        return None
    return [int(v) for v in (m.group(1) or "").replace(" ", "").split(",") if v]


def attr_scalar(attrs, name):
    m = re.search(name + r" = ([-\w.+]+)", attrs)
    return m.group(1) if m else None


def scalar_float(text):
    """A float attribute as MLIR prints it: decimal, or f32 bits in hex."""
    if text.startswith("0x"):
        return struct.unpack("<f", int(text, 16).to_bytes(4, "little"))[0]
    return float(text)


def dense_literal(text):
    """(kind, payload) of `dense<...> : tensor<...>`."""
    m = re.search(r"dense<(.*)> : (tensor<[^>]*>)", text)
    lit, ttype = m.group(1), m.group(2)
    dims, elt = parse_type(ttype)
    if lit.startswith('"0x'):
        raw = bytes.fromhex(lit[3:-1])
        return dims, elt, ("hex", base64.b64encode(raw).decode())
    if lit.startswith("["):
        return dims, elt, ("list", lit.replace("true", "1").replace("false", "0"))
    v = lit.replace("true", "1").replace("false", "0")
    if v.startswith("0x"):
        raw = int(v, 16).to_bytes({"f32": 4, "f16": 2}.get(elt, 4), "little")
        return dims, elt, ("hexsplat", base64.b64encode(raw).decode())
    return dims, elt, ("splat", v)


def translate(text, func="model"):
    try:
        f = mlirtext.find_func(text, func)
    except mlirtext.TextError as e:
        raise Unsupported(str(e))
    if f is None:
        raise Unsupported("no func.func @%s" % func)
    args = list(zip(f.arg_names, f.args))
    body = text[f.body_start:]
    body = body[:body.index("\n  }")]
    consts, lines, shapes = [], [], {}
    names = {}

    def v(name):
        return names[name]

    for k, (name, t) in enumerate(args):
        names[name] = "a%d" % k
        shapes[name] = parse_type(t)
    count = 0
    ret = None
    for raw in body.splitlines():
        raw = raw.strip()
        if not raw or raw.startswith("//"):
            continue
        if raw.startswith("return"):
            ret = operands(raw[len("return"):])
            break
        m = LINE.match(raw)
        if not m:
            raise Unsupported("line %r" % raw[:80])
        res, op, rest = m.group(1), m.group(2).strip('"'), m.group(3)
        count += 1
        py = "t%d" % count
        names[res] = py
        result_type = rest.rsplit("->", 1)[-1] if "->" in rest else rest
        if op == "tosa.const_shape":
            m2 = re.search(r"dense<(\[?)([-\d, ]*)\]?> : tensor<(\d+)xindex>", rest)
            vals = m2.group(2)
            if not m2.group(1):  # a splat: all N values equal
                vals = ", ".join([vals.strip()] * int(m2.group(3)))
            lines.append("%s = [%s]" % (py, vals))
            continue
        if op == "tosa.const":
            dims, elt, payload = dense_literal(rest)
            consts.append((py, dims, elt, payload))
            lines.append("%s = C['%s']" % (py, py))
            continue
        ins = operands(rest)
        attrs = rest[rest.find("{"):rest.rfind("}") + 1] if "{" in rest.split(":")[0] else ""
        out_dims, out_elt = parse_type(result_type)
        a = [v(x) for x in ins]
        if op in ("tosa.add", "tosa.sub", "tosa.maximum", "tosa.minimum", "tosa.pow",
                  "tosa.greater", "tosa.greater_equal", "tosa.equal"):
            fn = {"tosa.add": "torch.add", "tosa.sub": "torch.sub",
                  "tosa.maximum": "torch.maximum", "tosa.minimum": "torch.minimum",
                  "tosa.pow": "torch.pow", "tosa.greater": "torch.gt",
                  "tosa.greater_equal": "torch.ge", "tosa.equal": "torch.eq"}[op]
            lines.append("%s = %s(%s, %s)" % (py, fn, a[0], a[1]))
        elif op == "tosa.mul":
            lines.append("%s = torch.mul(%s, %s)" % (py, a[0], a[1]))
        elif op in ("tosa.exp", "tosa.tanh", "tosa.erf", "tosa.sigmoid", "tosa.rsqrt",
                    "tosa.reciprocal", "tosa.log", "tosa.abs", "tosa.floor", "tosa.ceil"):
            lines.append("%s = torch.%s(%s)" % (py, op.split(".")[1], a[0]))
        elif op == "tosa.negate":
            lines.append("%s = torch.neg(%s)" % (py, a[0]))
        elif op == "tosa.clamp":
            lo, hi = attr_scalar(attrs, "min_val"), attr_scalar(attrs, "max_val")
            # +-FLT_MAX or +-inf (as TOSA writes "no bound", in decimal or
            # as f32 bits in hex) overflows torch's float conversion: no
            # bound then.
            bound = lambda b: "None" if abs(scalar_float(b)) >= 3.4e38 else b  # noqa: E731
            lines.append("%s = torch.clamp(%s, %s, %s)" % (py, a[0], bound(lo), bound(hi)))
        elif op == "tosa.select":
            lines.append("%s = torch.where(%s, %s, %s)" % (py, a[0], a[1], a[2]))
        elif op == "tosa.cast":
            # Float to integer rounds to nearest even in TOSA; torch truncates.
            src = "torch.round(%s)" % a[0] if out_elt.startswith("i") and out_elt != "i1" \
                and shapes.get(ins[0], ([], "f32"))[1].startswith("f") else a[0]
            lines.append("%s = %s.to(torch.%s)" % (py, src, TORCH[out_elt]))
        elif op.startswith("tosa.reduce_"):
            kind = op[len("tosa.reduce_"):]
            axis = int(attr_scalar(attrs, "axis"))
            fn = {"sum": "torch.sum(%s, %d, keepdim=True)",
                  "max": "torch.amax(%s, %d, keepdim=True)",
                  "min": "torch.amin(%s, %d, keepdim=True)",
                  "product": "torch.prod(%s, %d, keepdim=True)"}[kind]
            lines.append("%s = %s" % (py, fn % (a[0], axis)))
        elif op == "tosa.transpose":
            lines.append("%s = %s.permute(%s).contiguous()" % (py, a[0], attr_array(attrs, "perms")))
        elif op == "tosa.reshape":
            lines.append("%s = %s.reshape(%s)" % (py, a[0], out_dims))
        elif op == "tosa.concat":
            lines.append("%s = torch.cat([%s], %s)" % (py, ", ".join(a), attr_scalar(attrs, "axis")))
        elif op == "tosa.slice":
            lines.append("%s = %s[tuple(slice(b, b + s) for b, s in zip(%s, %s))]"
                         % (py, a[0], a[1], a[2]))
        elif op == "tosa.tile":
            lines.append("%s = %s.repeat(%s)" % (py, a[0], a[1]))
        elif op == "tosa.pad":
            # TOSA [lo0, hi0, lo1, hi1, ...]; F.pad wants the last dim first.
            lines.append("%s = F.pad(%s, [p for i in reversed(range(len(%s) // 2)) "
                         "for p in (%s[2 * i], %s[2 * i + 1])], value=float(%s.reshape(-1)[0]))"
                         % (py, a[0], a[1], a[1], a[1], a[2]))
        elif op == "tosa.matmul":
            # f16 x f16 into f32: torch's bmm returns f16 (summed in f32
            # by cuBLAS, rounded once); the result type is TOSA's.
            cast = "" if shapes.get(ins[0], ([], out_elt))[1] == out_elt \
                else ".to(torch.%s)" % TORCH[out_elt]
            lines.append("%s = torch.bmm(%s, %s)%s" % (py, a[0], a[1], cast))
        elif op in ("tosa.conv2d", "tosa.depthwise_conv2d"):
            pad = attr_array(attrs, "pad")
            stride, dil = attr_array(attrs, "stride"), attr_array(attrs, "dilation")
            x = "F.pad(%s.permute(0, 3, 1, 2), [%d, %d, %d, %d])" % (a[0], pad[2], pad[3], pad[0], pad[1])
            if op == "tosa.conv2d":
                w, groups = "%s.permute(0, 3, 1, 2)" % a[1], "1"
            else:
                w = "%s.permute(2, 3, 0, 1).reshape(-1, 1, %s.shape[0], %s.shape[1])" % (a[1], a[1], a[1])
                groups = "%s.shape[2]" % a[1]
            lines.append("%s = F.conv2d(%s, %s, %s, %s, 0, %s, %s).permute(0, 2, 3, 1)"
                         % (py, x, w, a[2], tuple(stride), tuple(dil), groups))
        elif op in ("tosa.max_pool2d", "tosa.avg_pool2d"):
            k, s, pad = attr_array(attrs, "kernel"), attr_array(attrs, "stride"), attr_array(attrs, "pad")
            x = "%s.permute(0, 3, 1, 2)" % a[0]
            if op == "tosa.max_pool2d":
                x = "F.pad(%s, [%d, %d, %d, %d], value=-float('inf'))" % (x, pad[2], pad[3], pad[0], pad[1])
                lines.append("%s = F.max_pool2d(%s, %s, %s).permute(0, 2, 3, 1)" % (py, x, tuple(k), tuple(s)))
            else:
                if pad[0] != pad[1] or pad[2] != pad[3]:
                    raise Unsupported("avg_pool2d with asymmetric padding")
                lines.append("%s = F.avg_pool2d(%s, %s, %s, (%d, %d), count_include_pad=False)"
                             ".permute(0, 2, 3, 1)" % (py, x, tuple(k), tuple(s), pad[0], pad[2]))
        else:
            raise Unsupported("op %s" % op)
        shapes[res] = (out_dims, out_elt)
    if ret is None:
        raise Unsupported("no return")
    return args, consts, lines, [v(r) for r in ret]


PROGRAM = r'''#!/usr/bin/env python3
# Generated by utils/fuse-to-torch from @SOURCE@: the same graph in PyTorch.
import argparse, base64, json, sys, time
import numpy as np
import torch
import torch.nn.functional as F

CONSTS = @CONSTS@


def load_consts(device):
    out = {}
    for name, dims, elt, (kind, payload) in CONSTS:
        dt = np.dtype(elt)
        if kind == "hex":
            a = np.frombuffer(base64.b64decode(payload), dtype=dt).reshape(dims)
        elif kind == "hexsplat":
            a = np.full(dims, np.frombuffer(base64.b64decode(payload), dtype=dt)[0])
        elif kind == "list":
            a = np.array(eval(payload), dtype=dt).reshape(dims)
        else:
            a = np.full(dims, float(payload)).astype(dt)
        out[name] = torch.from_numpy(a.copy()).to(device)
    return out


def model(C, @ARGS@):
@BODY@
    return (@RESULTS@,)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--inputs")
    ap.add_argument("--save-outputs")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--tf32", action="store_true",
                    help="let matmul and convolution round inputs to TF32 (off: the "
                         "same IEEE f32 arithmetic as our kernels)")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = args.tf32
    torch.backends.cudnn.allow_tf32 = args.tf32
    dev = torch.device(args.device)
    C = load_consts(dev)
    shapes = @SHAPES@
    if args.inputs:
        data = np.load(args.inputs)
        xs = [torch.from_numpy(data["arg%d" % i]).to(dev) for i in range(len(shapes))]
    else:
        g = torch.Generator().manual_seed(0)
        xs = [(torch.rand(s, generator=g) * 2 - 1).to(dev) for s in shapes]
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)

    def bench(fn):
        with torch.no_grad():
            for _ in range(3):
                out = fn(C, *xs)
            sync()
            t0 = time.perf_counter()
            for _ in range(args.calls):
                out = fn(C, *xs)
            sync()
        return (time.perf_counter() - t0) * 1e6 / args.calls, out

    eager, out = bench(model)
    # The eager time on its own first: a torch.compile that fails or runs
    # out of time still leaves it (the bench reads the last JSON line).
    print(json.dumps({"model": "@NAME@", "eager_us": eager, "compile_us": None}), flush=True)
    if args.save_outputs:
        np.savez(args.save_outputs, *[o.float().cpu().numpy() for o in out])
    compiled = None
    if not args.no_compile and hasattr(torch, "compile"):
        try:
            compiled, _ = bench(torch.compile(model))
        except Exception as e:  # reported, not fatal
            print("torch.compile failed: %s" % e, file=sys.stderr)
            compiled = None
    print(json.dumps({"model": "@NAME@", "eager_us": eager, "compile_us": compiled,
                      "checksum": [float(o.float().sum()) for o in out]}))


if __name__ == "__main__":
    main()
'''


def program(text, func="model", source="model.mlir"):
    """The standalone PyTorch program of @`func` in `text` (as fuse-opt
    prints it; `source` names the file in its header); Unsupported
    otherwise."""
    fargs, consts, lines, results = translate(text, func)
    name = os.path.splitext(source)[0]
    return (PROGRAM.replace("@SOURCE@", source)
            .replace("@NAME@", name)
            .replace("@CONSTS@", repr([(c[0], c[1], NP[c[2]], c[3]) for c in consts]))
            .replace("@ARGS@", ", ".join("a%d" % i for i in range(len(fargs))))
            .replace("@BODY@", "\n".join("    " + l for l in lines))
            .replace("@RESULTS@", ", ".join(results))
            .replace("@SHAPES@", repr([parse_type(t)[0] for _, t in fargs])))


def main():
    ap = argparse.ArgumentParser(prog="fuse-to-torch", description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--func", default="model")
    ap.add_argument("--fuse-opt", default=toolchain.fuse_opt())
    args = ap.parse_args()
    # fuse-opt prints the module in one normalized form (one op per line).
    text = subprocess.run([args.fuse_opt, args.model], capture_output=True, text=True,
                          check=True).stdout
    try:
        prog = program(text, args.func, os.path.basename(args.model))
    except Unsupported as e:
        sys.stderr.write("fuse-to-torch: %s: unsupported: %s\n" % (args.model, e))
        return 1
    with open(args.output, "w") as f:
        f.write(prog)
    return 0


if __name__ == "__main__":
    sys.exit(main())
