"""Seeded random TOSA graphs for differential testing (after NNSmith).

`generate(seed) -> str` returns a module with one `func.func @model` that
mixes the op classes fuse-import emits: unary and binary elementwise ops
with broadcasting, comparisons and select, reductions, transposes,
reshapes, concats, slices, pads, tiles, convolutions (plain and
depthwise), matmuls and pools; values are reused (branches, joins,
residuals, shared inputs), ranks are 1 to 5 with size-1 and odd sizes, and
several values are returned. Every op is valid by construction (shapes are
tracked) and keeps values finite: logs, roots and reciprocals get inputs
bounded away from zero, exponentials get inputs squashed first.

The graph is a list of `Node`s so that a failing case can be minimized by
dropping nodes (`render(nodes, outputs)`). The ops' text is tosa_emit's,
as fuse-import writes it.

Used by utils/fuse-random-test (fuse_dialect.tools.fuse_random_test).
"""

import copy
import random

from . import tosa_emit as E
from .tosa_emit import ttype

F32 = "f32"


class Node:
    """One op: its result name and shape, the values it reads, and a
    function that renders it given the current names of those values."""

    def __init__(self, name, shape, inputs, render, elt=F32):
        self.name, self.shape, self.inputs, self.render, self.elt = name, shape, inputs, render, elt


class Graph:
    def __init__(self, seed, large=False):
        self.r = random.Random(seed)
        self.nodes = []
        self.args = []
        self.count = 0
        # Larger dims (up to 64, at most 2^15 elements a tensor), so that
        # GPU tiles are staged, register-tiled and put on tensor cores.
        self.large = large

    def fresh(self):
        self.count += 1
        return "%%v%d" % self.count

    def dim(self):
        if self.large:
            return self.r.choice([1, 2, 5, 8, 16, 17, 24, 32, 48, 64])
        return self.r.choice([1, 1, 2, 3, 4, 5, 6, 7, 8])

    def shape(self, rank=None):
        rank = self.r.randint(1, 5) if rank is None else rank
        shape = [self.dim() for _ in range(rank)]
        while self.large and _elements(shape) > 1 << 15:
            shape[self.r.randrange(rank)] = self.r.choice([1, 2, 3])
        return shape

    def channels(self, small):
        """A channel count: `small`'s choices, or larger ones in large
        graphs."""
        return self.r.choice(small + ([16, 32, 64] if self.large else []))

    def values(self, elt=F32):
        return [n for n in self.args + self.nodes if n.elt == elt]

    def pick(self, pred=lambda n: True):
        """A recent value most of the time (chains), any value sometimes
        (branches and joins)."""
        # Computed values and inputs; constants only as explicit operands.
        pool = [n for n in self.values() if (n.inputs or n in self.args) and pred(n)]
        if not pool:
            return None
        if self.r.random() < 0.7:
            return self.r.choice(pool[-4:])
        return self.r.choice(pool)

    def add(self, shape, inputs, render, elt=F32):
        node = Node(self.fresh(), list(shape), inputs, render, elt)
        self.nodes.append(node)
        return node

    def const(self, shape, lo=-1.0, hi=1.0, elt=F32):
        n = 1
        for d in shape:
            n *= d
        vals = [self.r.uniform(lo, hi) for _ in range(n)]
        if elt != F32:  # multiples of 1/64 below 2: exact in f16 and bf16
            vals = [round(v * 64) / 64 for v in vals]
        lit = "%.3f" % vals[0] if n == 1 else nest(vals, shape)
        t = ttype(shape, elt)
        return self.add(shape, [], lambda names, lit=lit, t=t: E.const("dense<%s>" % lit, t),
                        elt=elt)


def _elements(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def nest(vals, shape):
    if not shape:
        return "%.3f" % vals[0]
    if len(shape) == 1:
        return "[" + ", ".join("%.3f" % v for v in vals) + "]"
    step = len(vals) // shape[0]
    return "[" + ", ".join(nest(vals[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def broadcastable(g, shape):
    """A shape that broadcasts to `shape`: some dims become 1."""
    return [d if g.r.random() < 0.6 else 1 for d in shape]


# -- op builders: each returns the new node or None when it does not apply --

def unary(g):
    x = g.pick()
    op = g.r.choice(["exp", "tanh", "sigmoid", "abs", "negate", "clamp", "erf",
                     "reciprocal", "rsqrt", "log", "floor"])
    s, t = x.shape, ttype(x.shape)
    if op == "negate":
        z = g.const([1], 0, 0)
        return g.add(s, [x, z, z], lambda n, t=t: E.op(
            "negate", [(n[0], t), (n[1], ttype([1])), (n[2], ttype([1]))], t))
    if op == "clamp":
        return g.add(s, [x], lambda n, t=t: E.op("clamp", [(n[0], t)], t,
                                                 E.clamp_attr("-1.5", "2.0", F32)))
    if op in ("reciprocal", "rsqrt", "log"):
        # Inputs away from zero: 1 + |x| (positive) via abs then add.
        a = g.add(s, [x], lambda n, t=t: E.op("abs", [(n[0], t)], t))
        one = g.const([1] * len(s), 1.0, 1.0)
        b = g.add(s, [a, one], lambda n, t=t, ot=ttype([1] * len(s)):
                  E.op("add", [(n[0], t), (n[1], ot)], t))
        return g.add(s, [b], lambda n, t=t, op=op: E.op(op, [(n[0], t)], t))
    if op == "exp":
        # Bounded input: exp(tanh(x)).
        x = g.add(s, [x], lambda n, t=t: E.op("tanh", [(n[0], t)], t))
    return g.add(s, [x], lambda n, t=t, op=op: E.op(op, [(n[0], t)], t))


def binary(g):
    x = g.pick()
    s = x.shape
    same = [n for n in g.values() if n.shape == s and n is not x]
    if same and g.r.random() < 0.6:
        y = g.r.choice(same)
    elif g.r.random() < 0.5:
        y = g.const(broadcastable(g, s))
    else:
        y = g.pick(lambda n: len(n.shape) == len(s) and
                   all(a == b or a == 1 for a, b in zip(n.shape, s)) and n is not x)
        if y is None:
            y = g.const(broadcastable(g, s))
    op = g.r.choice(["add", "sub", "mul", "maximum", "minimum"])
    if g.r.random() < 0.5:  # the broadcast operand first sometimes
        a, b = y, x
    else:
        a, b = x, y
    out = [max(p, q) for p, q in zip(a.shape, b.shape)]
    if op == "mul":
        sh = shift(g)
        return g.add(out, [a, b, sh], lambda n, ta=ttype(a.shape), tb=ttype(b.shape), to=ttype(out):
                     E.op("mul", [(n[0], ta), (n[1], tb), (n[2], SHIFT_TYPE)], to))
    return g.add(out, [a, b], lambda n, ta=ttype(a.shape), tb=ttype(b.shape), to=ttype(out), op=op:
                 E.op(op, [(n[0], ta), (n[1], tb)], to))


SHIFT_TYPE = "tensor<1xi8>"


def shift(g):
    """tosa.mul's shift operand (0)."""
    return g.add([1], [], lambda n: E.const("dense<0>", SHIFT_TYPE), elt="i8")


def select(g):
    x = g.pick()
    s = x.shape
    y = g.pick(lambda n: n.shape == s) or g.const(s)
    c = g.add(s, [x, y], lambda n, t=ttype(s), tb=ttype(s, "i1"):
              E.op("greater", [(n[0], t), (n[1], t)], tb), elt="i1")
    z = g.const(broadcastable(g, s))
    return g.add(s, [c, x, z], lambda n, t=ttype(s), tb=ttype(s, "i1"), tz=ttype(z.shape):
                 E.op("select", [(n[0], tb), (n[1], t), (n[2], tz)], t))


def reduce(g):
    x = g.pick()
    ax = g.r.randrange(len(x.shape))
    out = list(x.shape)
    out[ax] = 1
    op = g.r.choice(["sum", "max", "min"])
    return g.add(out, [x], lambda n, t=ttype(x.shape), to=ttype(out), op=op, ax=ax:
                 E.op("reduce_" + op, [(n[0], t)], to, E.axis_attr(ax)))


def transpose(g):
    x = g.pick(lambda n: len(n.shape) >= 2)
    if x is None:
        return None
    p = list(range(len(x.shape)))
    g.r.shuffle(p)
    out = [x.shape[i] for i in p]
    return g.add(out, [x], lambda n, t=ttype(x.shape), to=ttype(out), p=p:
                 E.op("transpose", [(n[0], t)], to, E.perms_attr(p)))


def factor(g, n, rank):
    dims = []
    for _ in range(rank - 1):
        divs = [d for d in range(1, n + 1) if n % d == 0]
        d = g.r.choice(divs)
        dims.append(d)
        n //= d
    dims.append(n)
    g.r.shuffle(dims)
    return dims


def reshape(g):
    x = g.pick()
    n = 1
    for d in x.shape:
        n *= d
    return _reshape(g, x, factor(g, n, g.r.randint(1, 5)))


def _reshape(g, x, out):
    node = g.add(out, [x], None)
    t, to = ttype(x.shape), ttype(out)

    def render(n, node=node, t=t, to=to, out=out):
        s = node.name + "_s"
        return "%s = %s\n    %s = %s" % (s, E.const_shape(out), node.name, E.op(
            "reshape", [(n[0], t), (s, E.shape_type(len(out)))], to))
    node.render = render
    return node


def concat(g):
    x = g.pick()
    ax = g.r.randrange(len(x.shape))
    others = [n for n in g.values() if len(n.shape) == len(x.shape) and n is not x and
              all(a == b for i, (a, b) in enumerate(zip(n.shape, x.shape)) if i != ax)]
    ins = [x] + g.r.sample(others, min(len(others), g.r.randint(1, 2))) if others else [x, x]
    out = list(x.shape)
    out[ax] = sum(n.shape[ax] for n in ins)
    return g.add(out, ins, lambda n, ins=ins, ax=ax, to=ttype(out):
                 E.op("concat", [(name, ttype(i.shape)) for name, i in zip(n, ins)], to,
                      E.axis_attr(ax)))


def slice_(g):
    x = g.pick(lambda n: any(d > 1 for d in n.shape))
    if x is None:
        return None
    start = [g.r.randrange(d) for d in x.shape]
    size = [g.r.randint(1, d - b) for d, b in zip(x.shape, start)]
    node = g.add(size, [x], None)

    def render(n, node=node, t=ttype(x.shape), to=ttype(size)):
        b, z, st = node.name + "_b", node.name + "_z", E.shape_type(len(size))
        return "%s = %s\n    %s = %s\n    %s = %s" % (
            b, E.const_shape(start), z, E.const_shape(size), node.name,
            E.op("slice", [(n[0], t), (b, st), (z, st)], to))
    node.render = render
    return node


def pad(g):
    x = g.pick()
    pads = [g.r.randint(0, 2) for _ in range(2 * len(x.shape))]
    out = [d + pads[2 * i] + pads[2 * i + 1] for i, d in enumerate(x.shape)]
    v = g.const([1], -0.5, 0.5)
    node = g.add(out, [x, v], None)

    def render(n, node=node, t=ttype(x.shape), to=ttype(out)):
        p = node.name + "_p"
        return "%s = %s\n    %s = %s" % (p, E.const_shape(pads), node.name, E.op(
            "pad", [(n[0], t), (p, E.shape_type(len(pads))), (n[1], ttype([1]))], to))
    node.render = render
    return node


def tile(g):
    x = g.pick(lambda n: len(n.shape) <= 4)
    if x is None:
        return None
    mult = [g.r.choice([1, 1, 2, 3]) for _ in x.shape]
    out = [d * m for d, m in zip(x.shape, mult)]
    if g.large and _elements(out) > 1 << 16:
        return None
    node = g.add(out, [x], None)

    def render(n, node=node, t=ttype(x.shape), to=ttype(out)):
        m = node.name + "_m"
        return "%s = %s\n    %s = %s" % (m, E.const_shape(mult), node.name, E.op(
            "tile", [(n[0], t), (m, E.shape_type(len(mult)))], to))
    node.render = render
    return node


def conv(g):
    x = g.pick(lambda n: len(n.shape) == 4 and n.shape[1] <= 8 and n.shape[2] <= 8)
    if x is None:
        return None
    n_, h, w, c = x.shape
    kh, kw = g.r.randint(1, min(3, h + 2)), g.r.randint(1, min(3, w + 2))
    pad = [g.r.randint(0, 1) for _ in range(4)]
    st = [g.r.randint(1, 2), g.r.randint(1, 2)]
    # TOSA wants (H + pads - kernel) divisible by the stride.
    for i, (dim, k) in enumerate(((h, kh), (w, kw))):
        span = dim + pad[2 * i] + pad[2 * i + 1] - k
        if span < 0:
            return None
        if span % st[i]:
            st[i] = 1
    oh = (h + pad[0] + pad[1] - kh) // st[0] + 1
    ow = (w + pad[2] + pad[3] - kw) // st[1] + 1
    zp = g.const([1], 0, 0)
    attrs = E.conv_attr(F32, pad, st, [1, 1])
    if g.r.random() < 0.3:
        m = g.r.choice([1, 2])
        wt = g.const([kh, kw, c, m], -0.5, 0.5)
        b = g.const([c * m], -0.2, 0.2)
        out = [n_, oh, ow, c * m]
        op = "depthwise_conv2d"
    else:
        oc = g.channels([1, 2, 3, 5])
        wt = g.const([oc, kh, kw, c], -0.5, 0.5)
        b = g.const([oc], -0.2, 0.2)
        out = [n_, oh, ow, oc]
        op = "conv2d"
    return g.add(out, [x, wt, b, zp], lambda n, op=op, a=attrs, tx=ttype(x.shape),
                 tw=ttype(wt.shape), tb=ttype(b.shape), to=ttype(out), tz=ttype([1]):
                 E.op(op, [(n[0], tx), (n[1], tw), (n[2], tb), (n[3], tz), (n[3], tz)], to, a))


def matmul(g):
    x = g.pick(lambda n: len(n.shape) == 3)
    if x is None:
        return None
    b, m, k = x.shape
    n2 = g.channels([1, 2, 3, 4])
    if b * k * n2 > 1 << 16:
        n2 = g.r.choice([1, 2, 3, 4])
    y = g.pick(lambda n: n.shape == [b, k, n2]) if g.r.random() < 0.3 else None
    y = y or g.const([b, k, n2], -0.5, 0.5)
    zp = g.const([1], 0, 0)
    out = [b, m, n2]
    return g.add(out, [x, y, zp], lambda n, tx=ttype(x.shape), ty=ttype(y.shape), to=ttype(out),
                 tz=ttype([1]):
                 E.op("matmul", [(n[0], tx), (n[1], ty), (n[2], tz), (n[2], tz)], to))


def pool(g):
    x = g.pick(lambda n: len(n.shape) == 4 and n.shape[1] >= 2 and n.shape[2] >= 2)
    if x is None:
        return None
    n_, h, w, c = x.shape
    k = [2, 2]
    st = [1, 1] if g.r.random() < 0.5 else [2, 2]
    pad = [0, 0, 0, 0]
    for i, dim in enumerate((h, w)):
        if (dim - k[i]) % st[i]:
            st[i] = 1
    out = [n_, (h - 2) // st[0] + 1, (w - 2) // st[1] + 1, c]
    if g.r.random() < 0.5:
        return g.add(out, [x], lambda n, a=E.pool_attr(k, pad, st), t=ttype(x.shape), to=ttype(out):
                     E.op("max_pool2d", [(n[0], t)], to, a))
    zp = g.const([1], 0, 0)
    return g.add(out, [x, zp], lambda n, a=E.pool_attr(k, pad, st, F32), t=ttype(x.shape),
                 to=ttype(out), tz=ttype([1]):
                 E.op("avg_pool2d", [(n[0], t), (n[1], tz), (n[1], tz)], to, a))


def cast(g, x, elt):
    return g.add(x.shape, [x], lambda n, t=ttype(x.shape, x.elt), to=ttype(x.shape, elt):
                 E.op("cast", [(n[0], t)], to), elt=elt)


def low_precision(g):
    """Mixed precision: a value cast to f16 or bf16, an op or a short chain
    there (elementwise, reduce_max/min, a matmul into f32 or into the low
    type, a convolution accumulating in f32), cast back to f32. Only
    correctly rounded ops run in the low type, so fused and unfused agree
    up to the rounding of a few sums."""
    lt = g.r.choice(["f16", "bf16"])
    kind = g.r.choice(["elementwise", "elementwise", "reduce", "matmul", "conv"])
    zp = lambda: g.const([1], 0, 0, elt=lt)
    if kind == "matmul":
        x = g.pick(lambda n: len(n.shape) == 3)
        if x is None:
            return None
        b, m, k = x.shape
        xl = cast(g, x, lt)
        y = g.const([b, k, g.channels([1, 2, 4, 8])], -0.5, 0.5, elt=lt)
        z = zp()
        out_elt = F32 if g.r.random() < 0.7 else lt
        out = [b, m, y.shape[2]]
        v = g.add(out, [xl, y, z], lambda n, tx=ttype(x.shape, lt), ty=ttype(y.shape, lt),
                  to=ttype(out, out_elt), tz=ttype([1], lt):
                  E.op("matmul", [(n[0], tx), (n[1], ty), (n[2], tz), (n[2], tz)], to),
                  elt=out_elt)
        return v if out_elt == F32 else cast(g, v, F32)
    if kind == "conv":
        x = g.pick(lambda n: len(n.shape) == 4 and n.shape[1] <= 8 and n.shape[2] <= 8)
        if x is None:
            return None
        n_, h, w, c = x.shape
        kh, kw = g.r.randint(1, min(3, h)), g.r.randint(1, min(3, w))
        oc = g.channels([1, 2, 4, 8])
        xl = cast(g, x, lt)
        wt = g.const([oc, kh, kw, c], -0.5, 0.5, elt=lt)
        bias = g.const([oc], -0.25, 0.25, elt=lt)
        z = zp()
        out = [n_, h - kh + 1, w - kw + 1, oc]
        v = g.add(out, [xl, wt, bias, z], lambda n, tx=ttype(x.shape, lt), tw=ttype(wt.shape, lt),
                  tb=ttype([oc], lt), tz=ttype([1], lt), to=ttype(out, lt):
                  E.op("conv2d", [(n[0], tx), (n[1], tw), (n[2], tb), (n[3], tz), (n[3], tz)], to,
                       E.conv_attr(F32, [0, 0, 0, 0], [1, 1], [1, 1])), elt=lt)
        return cast(g, v, F32)
    x = g.pick()
    v = cast(g, x, lt)
    s = x.shape
    if kind == "reduce":
        ax = g.r.randrange(len(s))
        out = list(s)
        out[ax] = 1
        op = g.r.choice(["max", "min"])
        v = g.add(out, [v], lambda n, t=ttype(s, lt), to=ttype(out, lt), op=op, ax=ax:
                  E.op("reduce_" + op, [(n[0], t)], to, E.axis_attr(ax)), elt=lt)
        return cast(g, v, F32)
    t = ttype(s, lt)
    for _ in range(g.r.randint(1, 3)):
        op = g.r.choice(["add", "sub", "mul", "maximum", "minimum", "abs", "negate", "clamp"])
        if op == "abs":
            v = g.add(s, [v], lambda n, t=t: E.op("abs", [(n[0], t)], t), elt=lt)
        elif op == "negate":
            z = zp()
            v = g.add(s, [v, z], lambda n, t=t, tz=ttype([1], lt):
                      E.op("negate", [(n[0], t), (n[1], tz), (n[1], tz)], t), elt=lt)
        elif op == "clamp":
            v = g.add(s, [v], lambda n, t=t, lt=lt:
                      E.op("clamp", [(n[0], t)], t, E.clamp_attr("-1.5", "2.0", lt)), elt=lt)
        else:
            y = g.const(broadcastable(g, s), -1.0, 1.0, elt=lt)
            ty = ttype(y.shape, lt)
            if op == "mul":
                sh = shift(g)
                v = g.add(s, [v, y, sh], lambda n, t=t, ty=ty:
                          E.op("mul", [(n[0], t), (n[1], ty), (n[2], SHIFT_TYPE)], t), elt=lt)
            else:
                v = g.add(s, [v, y], lambda n, t=t, ty=ty, op=op:
                          E.op(op, [(n[0], t), (n[1], ty)], t), elt=lt)
    return cast(g, v, F32)


BUILDERS = [(unary, 18), (binary, 18), (select, 4), (reduce, 8), (transpose, 8),
            (reshape, 8), (concat, 5), (slice_, 5), (pad, 3), (tile, 2), (conv, 8),
            (matmul, 8), (pool, 4)]


def generate_nodes(seed, max_ops=None, mixed_precision=False, large=False):
    """With `mixed_precision`, f16/bf16 islands (low_precision) join the
    op mix; with `large`, dims up to 64 (Graph.dim). Each is a separate
    stream of graphs: the default seeds stay as they were."""
    g = Graph(seed, large)
    r = g.r
    builders = BUILDERS + ([(low_precision, 12)] if mixed_precision else [])
    # One to three inputs; a 4-D NHWC-like one often, so convs apply.
    for k in range(r.randint(1, 3)):
        shape = g.shape(4) if k == 0 and r.random() < 0.6 else g.shape()
        g.args.append(Node("%%arg%d" % k, shape, [], None))
    ops = max_ops or r.randint(4, 24)
    names = [b for b, w in builders for _ in range(w)]
    while len([n for n in g.nodes if n.inputs]) < ops:
        builder = r.choice(names)
        builder(g)
    computed = [n for n in g.nodes if n.inputs and n.elt == F32]
    used = {id(i) for n in g.nodes for i in n.inputs}
    # Return the values nobody reads (the graph's sinks), at most three,
    # plus sometimes an intermediate one (a value both returned and used).
    sinks = [n for n in computed if id(n) not in used][-3:]
    if computed and r.random() < 0.3:
        sinks.append(r.choice(computed))
    outputs = list(dict.fromkeys(sinks)) or computed[-1:]
    return g.args, g.nodes, outputs


def render(args, nodes, outputs):
    lines = []
    names = {}
    for a in args:
        names[id(a)] = a.name
    for n in nodes:
        names[id(n)] = n.name
        text = n.render([names[id(i)] for i in n.inputs])
        if "\n" in text:
            lines.append("    " + text)
        else:
            lines.append("    %s = %s" % (n.name, text))
    sig = ", ".join("%s: %s" % (a.name, ttype(a.shape, a.elt)) for a in args)
    res = ", ".join(ttype(o.shape, o.elt) for o in outputs)
    return ("func.func @model(%s) -> (%s) {\n%s\n    return %s : %s\n}\n"
            % (sig, res, "\n".join(lines), ", ".join(o.name for o in outputs), res))


def generate(seed, max_ops=None, mixed_precision=False, large=False):
    return render(*generate_nodes(seed, max_ops, mixed_precision, large))


def drop_node(args, nodes, outputs, index):
    """A copy of the graph without node `index`: its readers (and the
    outputs) read the latest earlier value of the same shape instead; what
    no output needs any more goes too. None when nothing can stand in."""
    args, nodes, outputs = copy.deepcopy((args, nodes, outputs))
    victim = nodes[index]
    stand_in = None
    for cand in reversed(args + nodes[:index]):
        if cand.shape == victim.shape and cand.elt == victim.elt:
            stand_in = cand
            break
    read = any(victim in n.inputs for n in nodes) or victim in outputs
    if read and stand_in is None:
        return None
    for n in nodes:
        n.inputs = [stand_in if i is victim else i for i in n.inputs]
    outputs = list({id(o): o for o in (stand_in if o is victim else o
                                       for o in outputs)}.values())
    nodes = [n for n in nodes if n is not victim]
    needed, stack = set(), list(outputs)
    while stack:
        n = stack.pop()
        if id(n) not in needed:
            needed.add(id(n))
            stack.extend(n.inputs)
    return args, [n for n in nodes if id(n) in needed], outputs
