"""MLIR as text, without MLIR's bindings: what the tools read and write.

* `parse_funcs(text)`: every `func.func`'s name, visibility, argument
  names and types, result types, and where its body starts;
  `parse_ttype(type)`: a ranked static tensor type (or a scalar type).
* `synthesize_main(calls)`: a `func.func @main()` that calls functions on
  constant inputs and prints every result (printMemref*), or times the
  calls; `insert_into_module(module, text)` puts it into a module.
* `parse_memrefs(output)`: the memrefs mlir-runner printed.

Bad or unsupported text raises TextError (a ValueError) naming what it
could not read.
"""

import re

from . import tosa_emit


class TextError(ValueError):
    """MLIR text this module cannot read, or a type it does not support."""


# ----------------------------------------------------------------------------
# Lexing: comments, brackets, types
# ----------------------------------------------------------------------------

def blank_comments(text):
    """Replaces `//` comments by spaces (offsets are kept); skips strings."""
    out = list(text)
    i, n, in_str = 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        i += 1
    return "".join(out)


OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
CLOSE = {v: k for k, v in OPEN.items()}


def match_close(text, i):
    """Index just past the bracket group starting at text[i]."""
    stack = []
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "-" and text.startswith("->", i):
            i += 2
            continue
        elif c in OPEN:
            stack.append(OPEN[c])
        elif c in CLOSE:
            if not stack or stack[-1] != c:
                raise TextError("unbalanced brackets near: %r" % text[i - 40:i + 40])
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    raise TextError("unterminated bracket group")


def split_top(text, sep=","):
    """`text` split at `sep` outside brackets and strings, parts stripped."""
    parts, depth, cur, i, n = [], 0, [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c == "-" and text.startswith("->", i):
            cur.append("->")
            i += 2
            continue
        if c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def read_type(text):
    """The leading type of `text` (balanced <...>), e.g. `tensor<2x3xf32>`."""
    m = re.match(r"\s*(!?[\w.$]+)", text)
    if not m:
        raise TextError("cannot parse a type from %r" % text[:60])
    end = m.end()
    if end < len(text) and text[end] == "<":
        end = match_close(text, end)
    return text[m.start(1):end]


# ----------------------------------------------------------------------------
# Function signatures
# ----------------------------------------------------------------------------

FUNC_RE = re.compile(
    r'\bfunc\.func\s+(?:(public|private|nested)\s+)?@("(?:[^"\\]|\\.)*"|[\w$.\-]+)\s*\(')


class Func:
    def __init__(self, name, visibility, args, results, has_body, arg_names=None,
                 body_start=None):
        self.name = name            # as written, without '@' (may be quoted)
        self.visibility = visibility or "public"
        self.args = args            # list of type strings
        self.results = results      # list of type strings
        self.has_body = has_body
        self.arg_names = arg_names or [None] * len(args)  # `%x`, or None
        self.body_start = body_start  # index just past the body's "{"

    @property
    def plain_name(self):
        return self.name[1:-1] if self.name.startswith('"') else self.name


def parse_funcs(text):
    """Every `func.func` of `text`, in order (declarations too)."""
    clean = blank_comments(text)
    funcs = []
    for m in FUNC_RE.finditer(clean):
        lp = m.end() - 1
        rp = match_close(clean, lp)
        args, names = [], []
        for a in split_top(clean[lp + 1:rp - 1]):
            if not a:
                continue
            name = None
            if ":" in a and a.lstrip().startswith("%"):
                name, a = a.split(":", 1)
                name = name.strip()
            args.append(read_type(a))
            names.append(name)
        i = rp
        rest = clean[i:]
        results = []
        mr = re.match(r"\s*->\s*", rest)
        if mr:
            i += mr.end()
            if clean[i] == "(":
                e = match_close(clean, i)
                for r in split_top(clean[i + 1:e - 1]):
                    if r:
                        results.append(read_type(r))
                i = e
            else:
                t = read_type(clean[i:])
                results.append(t)
                i = clean.index(t, i) + len(t)
        ma = re.match(r"\s*attributes\s*(?=\{)", clean[i:])
        if ma:
            i += ma.end()
            i = match_close(clean, i)
        body = re.match(r"\s*\{", clean[i:])
        funcs.append(Func(m.group(2), m.group(1), args, results, bool(body), names,
                          i + body.end() if body else None))
    return funcs


def find_func(text, name):
    """The first function named `name` that has a body, or None."""
    for f in parse_funcs(text):
        if f.plain_name == name and f.has_body:
            return f
    return None


FLOAT_TYPES = {"f16", "bf16", "f32", "f64"}
INT_TYPES = {"i1", "i8", "i16", "i32", "i64"}


class TType:
    """A ranked static tensor type (or a scalar type: is_tensor False)."""

    def __init__(self, text, shape, elt, is_tensor):
        self.text, self.shape, self.elt, self.is_tensor = text, shape, elt, is_tensor

    @property
    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def with_elt(self, elt):
        if not self.is_tensor:
            return elt
        return "tensor<%s%s>" % ("".join("%dx" % d for d in self.shape), elt)


def parse_ttype(text, where, any_element=False):
    """`text` as a TType; TextError naming `where` unless it is a ranked
    static tensor (or a scalar) of FLOAT_TYPES or INT_TYPES (of any element
    type with `any_element`)."""
    text = text.strip()
    if text in FLOAT_TYPES or text in INT_TYPES:
        return TType(text, [], text, False)
    m = re.fullmatch(r"tensor<(.*)>", text, re.S)
    if not m:
        raise TextError("%s: unsupported type '%s' (need a ranked static tensor "
                        "or a scalar of %s)" % (where, text,
                                               ", ".join(sorted(FLOAT_TYPES | INT_TYPES))))
    body = split_top(m.group(1))[0]  # drop an encoding
    if body.startswith("*"):
        raise TextError("%s: unranked tensor type '%s' is not supported" % (where, text))
    dims = body.split("x")
    elt = dims.pop()
    if any(d.strip() == "?" for d in dims):
        raise TextError("%s: dynamic shape in '%s' is not supported: static "
                        "shapes are needed" % (where, text))
    try:
        shape = [int(d) for d in dims]
    except ValueError:
        raise TextError("%s: cannot parse tensor type '%s'" % (where, text))
    if not any_element and elt not in FLOAT_TYPES and elt not in INT_TYPES:
        raise TextError("%s: unsupported element type '%s' in '%s'" % (where, elt, text))
    return TType(text, shape, elt, True)


def call_types(func, any_element=False):
    """(argument TTypes, result TTypes) of a function @main can call and
    print: TextError for another type, or for no result."""
    args = [parse_ttype(t, "argument %d of @%s" % (k, func.plain_name), any_element)
            for k, t in enumerate(func.args)]
    results = [parse_ttype(t, "result %d of @%s" % (k, func.plain_name), any_element)
               for k, t in enumerate(func.results)]
    if not results:
        raise TextError("@%s returns nothing: nothing to compare" % func.plain_name)
    return args, results


# ----------------------------------------------------------------------------
# @main
# ----------------------------------------------------------------------------

def nested_literal(values, shape):
    """Element texts as a nested literal of `shape` (`[[1, 2], [3, 4]]`)."""
    if not shape:
        return values[0]
    if len(shape) == 1:
        return "[" + ", ".join(values) + "]"
    step = len(values) // shape[0] if shape[0] else 0
    return "[" + ", ".join(nested_literal(values[k * step:(k + 1) * step], shape[1:])
                           for k in range(shape[0])) + "]"


def arith_constant(literal, type_):
    """An input for synthesize_main: `arith.constant LITERAL : TYPE`."""
    return "arith.constant %s : %s" % (literal, type_)


def tosa_constant(literal, type_):
    """An input for synthesize_main: a `tosa.const` of LITERAL."""
    return tosa_emit.const(literal, type_)


def identity_map(rank):
    dims = ", ".join("d%d" % k for k in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, dims)


PRINTER = {  # element type -> (printer suffix, element type printed)
    "f32": ("F32", "f32"), "f16": ("F16", "f16"), "bf16": ("BF16", "bf16"),
    "f64": ("F64", "f64"), "i16": ("I16", "i16"), "i32": ("I32", "i32"),
    "i64": ("I64", "i64"),
    # printMemrefI8 prints characters: widen i8 and i1 to i32 first.
    "i8": ("I32", "i32"), "i1": ("I32", "i32"),
}
WIDEN = {"i8": "arith.extsi", "i1": "arith.extui"}
TIMING_DECLS = {"rtclock": "() -> f64", "printF64": "(f64)", "printNewline": "()"}


def synthesize_main(calls, existing_text="", print_as=None, timed=None):
    """A `func.func @main()` that calls functions on constant inputs.

    `calls`: (func, inputs) pairs, called in order: `func` a Func (its
    name, argument and result types), `inputs` the text of the op that
    makes each argument (`arith_constant`, `tosa_constant`).
    Every result is printed: with the runner utilities' printer of its
    element type (i8 and i1 widened to i32, a scalar as a tensor<1x...>),
    or with `print_as="f32"` cast to f32 (tosa.cast) and printed with
    printMemrefF32. With `timed=N` nothing is printed but the time: each
    function is called once, then N times in a loop; @main prints the
    seconds per iteration and the sum of every result's first element
    (f32 results), so that no call can be optimized away.

    Returns (main, declarations): @main's text and the private declarations
    of the runtime functions it calls that `existing_text` lacks.
    """
    lines = ["  func.func @main() {"]
    used = {}  # runtime function -> its type
    loop = []
    acc = "%fd_acc"
    for j, (func, inputs) in enumerate(calls):
        p = "%%fd%d_" % j
        args, results = call_types(func, any_element=print_as == "f32")
        arg_names = []
        for k, text in enumerate(inputs):
            lines.append("    %sarg%d = %s" % (p, k, text))
            arg_names.append("%sarg%d" % (p, k))

        def call(res):
            sig = "(%s) -> (%s)" % (", ".join(func.args), ", ".join(func.results))
            count = "" if len(results) == 1 else ":%d" % len(results)
            names = [p + res] if len(results) == 1 else \
                ["%s%s#%d" % (p, res, k) for k in range(len(results))]
            return "%s%s = func.call @%s(%s) : %s" % (
                p + res, count, func.name, ", ".join(arg_names), sig), names

        if timed:
            lines.append("    " + call("w")[0])  # warm-up
            text, names = call("res")
            loop.append("      " + text)
            for k, (t, name) in enumerate(zip(results, names)):
                idx = ", ".join(["%fd_c0"] * len(t.shape))
                loop.append("      %se%d = tensor.extract %s[%s] : %s" % (p, k, name, idx, t.text))
                loop.append("      %ss%d = arith.addf %s, %se%d : f32" % (p, k, acc, p, k))
                acc = "%ss%d" % (p, k)
            continue
        text, names = call("res")
        lines.append("    " + text)
        for k, (t, name) in enumerate(zip(results, names)):
            _print(lines, used, p, k, t, name, print_as)
    if timed:
        for name, type_ in TIMING_DECLS.items():
            used[name] = type_
        lines += ["    %fd_c0 = arith.constant 0 : index",
                  "    %fd_c1 = arith.constant 1 : index",
                  "    %%fd_n = arith.constant %d : index" % timed,
                  "    %fd_zero = arith.constant 0.0 : f32",
                  "    %fd_t0 = func.call @rtclock() : () -> f64",
                  "    %fd_sum = scf.for %fd_i = %fd_c0 to %fd_n step %fd_c1 "
                  "iter_args(%fd_acc = %fd_zero) -> (f32) {"]
        lines += loop
        lines += ["      scf.yield %s : f32" % acc,
                  "    }",
                  "    %fd_t1 = func.call @rtclock() : () -> f64",
                  "    %fd_dt = arith.subf %fd_t1, %fd_t0 : f64",
                  "    %%fd_nf = arith.constant %d.0 : f64" % timed,
                  "    %fd_per = arith.divf %fd_dt, %fd_nf : f64",
                  "    func.call @printF64(%fd_per) : (f64) -> ()",
                  "    func.call @printNewline() : () -> ()",
                  "    %fd_sum64 = arith.extf %fd_sum : f32 to f64",
                  "    func.call @printF64(%fd_sum64) : (f64) -> ()",
                  "    func.call @printNewline() : () -> ()"]
    lines.append("    return")
    lines.append("  }")
    decls = []
    for name in sorted(used):
        if not re.search(r"@%s\b" % name, existing_text):
            decls.append("  func.func private @%s%s" % (name, used[name]))
    return "\n".join(lines) + "\n", "\n".join(decls) + ("\n" if decls else "")


def _print(lines, used, p, k, t, name, print_as):
    """Lines that print result `k` (value `name`, TType `t`)."""
    cur, cur_t = name, t
    if not t.is_tensor:
        lines.append("    %ss%d = tensor.from_elements %s : tensor<1x%s>" % (p, k, cur, t.elt))
        cur, cur_t = "%ss%d" % (p, k), TType("tensor<1x%s>" % t.elt, [1], t.elt, True)
    if print_as == "f32":
        suffix, pelt = "F32", "f32"
        if cur_t.elt != "f32":
            out_t = cur_t.with_elt("f32")
            cast = tosa_emit.op("cast", [(cur, cur_t.text)], out_t)
            lines.append("    %sc%d = %s" % (p, k, cast))
            cur, cur_t = "%sc%d" % (p, k), TType(out_t, cur_t.shape, "f32", True)
    else:
        suffix, pelt = PRINTER[t.elt]
        if t.elt in WIDEN:
            rank = len(cur_t.shape)
            out_t = cur_t.with_elt(pelt)
            lines.append("    %se%d = tensor.empty() : %s" % (p, k, out_t))
            lines.append(
                "    %sw%d = linalg.generic {indexing_maps = [%s, %s], "
                "iterator_types = [%s]} ins(%s : %s) outs(%se%d : %s) {\n"
                "    ^bb0(%sin: %s, %sout: %s):\n"
                "      %sx = %s %sin : %s to %s\n"
                "      linalg.yield %sx : %s\n"
                "    } -> %s" % (p, k, identity_map(rank), identity_map(rank),
                                 ", ".join(['"parallel"'] * rank), cur, cur_t.text,
                                 p, k, out_t, p, t.elt, p, pelt, p, WIDEN[t.elt], p, t.elt,
                                 pelt, p, pelt, out_t))
            cur, cur_t = "%sw%d" % (p, k), parse_ttype(out_t, "widening")
    lines.append("    %su%d = tensor.cast %s : %s to tensor<*x%s>" % (p, k, cur, cur_t.text, pelt))
    lines.append("    func.call @printMemref%s(%su%d) : (tensor<*x%s>) -> ()"
                 % (suffix, p, k, pelt))
    used["printMemref" + suffix] = "(tensor<*x%s>) attributes {llvm.emit_c_interface}" % pelt


def insert_into_module(module_text, extra):
    """Inserts `extra` before the final closing brace of a printed module
    (or appends it to top-level ops without a module)."""
    clean = blank_comments(module_text)
    res = clean.find("\n{-#")  # trailing dialect resources block
    if res >= 0:
        clean = clean[:res]
    end = clean.rstrip()
    if not re.match(r"\s*(?:#[^\n]*\n\s*)*(builtin\.)?module\b", _strip_aliases(clean)) \
            or not end.endswith("}"):
        # No explicit module: top-level ops are wrapped in an implicit one.
        return module_text.rstrip() + "\n" + extra
    pos = len(end) - 1
    return module_text[:pos] + extra + module_text[pos:]


def _strip_aliases(text):
    # Attribute/type aliases (`#map = ...`, `!t = ...`) precede the module op.
    out = []
    for line in text.splitlines():
        if re.match(r"\s*[#!][\w.$\-]+\s*=", line) or not line.strip():
            continue
        out.append(line)
    return "\n".join(out)


# ----------------------------------------------------------------------------
# mlir-runner output
# ----------------------------------------------------------------------------

HEADER_RE = re.compile(
    r"(?:Unranked )?Memref base@ = \S+ rank = (\d+) offset = (-?\d+) "
    r"sizes = \[([^\]]*)\] strides = \[([^\]]*)\] data =")
NUM_RE = re.compile(
    r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)


class Memref:
    """A printed memref: its label, sizes and values (floats)."""

    def __init__(self, label, sizes, values):
        self.label, self.sizes, self.values = label, sizes, values


def to_float(tok):
    t = tok.lower()
    if "nan" in t:
        return float("nan")
    return float(t)


def parse_memrefs(text, what="output"):
    """(memrefs, others): every memref printMemref* printed, in order, and
    the numbers printed outside them (floats). TextError names `what` when
    a memref's data does not match its sizes."""
    outputs, extra = [], []
    pos = 0
    for m in HEADER_RE.finditer(text):
        if m.start() < pos:
            continue
        extra.extend(NUM_RE.findall(text[pos:m.start()]))
        sizes = [int(s) for s in m.group(3).replace(",", " ").split()]
        i = m.end()
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text) or text[i] != "[":
            raise TextError("%s: cannot parse printed memref data after %r" % (what, m.group(0)))
        depth, j, toks = 0, i, []
        while j < len(text):
            c = text[j]
            if c == "[":
                depth += 1
                j += 1
            elif c == "]":
                depth -= 1
                j += 1
                if depth == 0:
                    break
            else:
                nm = NUM_RE.match(text, j)
                if nm:
                    toks.append(nm.group(0))
                    j = nm.end()
                else:
                    j += 1
        expect = 1
        for s in sizes:
            expect *= s
        if len(toks) != expect:
            raise TextError("%s: memref #%d has sizes %s but %d values were printed"
                            % (what, len(outputs), sizes, len(toks)))
        outputs.append(Memref("memref #%d" % len(outputs), sizes, [to_float(t) for t in toks]))
        pos = j
    extra.extend(NUM_RE.findall(text[pos:]))
    return outputs, [to_float(t) for t in extra]
