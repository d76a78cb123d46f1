"""TOSA ops as MLIR text: the one writer of the ops that fuse-import
(onnx_import) and the random graph generator (random_graph) emit, and of
the few linalg ops they need where TOSA has none (grouped convolutions).

Each function returns one op's text without the `%name = ` in front, e.g.
`op("add", [a, b], "tensor<2xf32>")` -> `tosa.add %a, %b : (tensor<2xf32>,
tensor<2xf32>) -> tensor<2xf32>`. An operand is a (name, type) pair, or an
object with `.name` and `.type` (the importer's values). Shape operands
(!tosa.shape<N>) come from `const_shape`.
"""


def ttype(shape, elt="f32"):
    """`tensor<2x3xf32>` (`tensor<f32>` for rank 0)."""
    if len(shape) == 0:
        return "tensor<%s>" % elt
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), elt)


def shape_type(rank):
    return "!tosa.shape<%d>" % rank


def _operand(o):
    return o if isinstance(o, tuple) else (o.name, o.type)


def op(name, operands, result, attrs=None):
    """`tosa.NAME operands [attrs] : (operand types) -> result`; `attrs` is
    the attribute dictionary with its braces."""
    pairs = [_operand(o) for o in operands]
    return "tosa.%s %s%s : (%s) -> %s" % (
        name, ", ".join(n for n, _ in pairs), " " + attrs if attrs else "",
        ", ".join(t for _, t in pairs), result)


def const(literal, type_):
    """A constant tensor: `literal` is the attribute (dense<...>,
    dense_resource<...>) of type `type_`."""
    return '"tosa.const"() <{values = %s : %s}> : () -> %s' % (literal, type_, type_)


def const_shape(values):
    """A !tosa.shape<N> value (a reshape's shape, a slice's start, pads)."""
    n = len(values)
    lit = "dense<[%s]>" % ", ".join(map(str, values)) if n else "dense<>"
    return "tosa.const_shape {values = %s : tensor<%dxindex>} : () -> %s" % (
        lit, n, shape_type(n))


def _array(values, kind="i64"):
    return "array<%s: %s>" % (kind, ", ".join(map(str, values)))


def axis_attr(axis):
    """{axis = A : i32} of reductions and concat."""
    return "{axis = %d : i32}" % axis


def perms_attr(perm):
    return "{perms = %s}" % _array(perm, "i32")


def clamp_attr(lo, hi, elt):
    """Bounds as written (text), of element type `elt`."""
    return "{min_val = %s : %s, max_val = %s : %s}" % (lo, elt, hi, elt)


def conv_attr(acc_type, pad, stride, dilation):
    return "{acc_type = %s, pad = %s, stride = %s, dilation = %s}" % (
        acc_type, _array(pad), _array(stride), _array(dilation))


def pool_attr(kernel, pad, stride, acc_type=None):
    """max_pool2d's attributes, or avg_pool2d's with `acc_type`."""
    return "{%s%s}" % ("acc_type = %s, " % acc_type if acc_type else "",
                       "kernel = %s, pad = %s, stride = %s" % (
                           _array(kernel), _array(pad), _array(stride)))


def scalar_zero(elt):
    """`arith.constant` zero of float type `elt` (a fill's value)."""
    return "arith.constant 0.0 : %s" % elt


def empty(type_):
    return "tensor.empty() : %s" % type_


def fill(value, init):
    """`linalg.fill` of `init` (a tensor.empty) with the scalar `value`."""
    (v, vt), (i, it) = _operand(value), _operand(init)
    return "linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (v, vt, i, it, it)


def grouped_conv2d(x, w, init, stride, dilation):
    """`linalg.conv_2d_nhwgc_gfhwc`: input [N, H, W, G, C], filter
    [G, F, KH, KW, C], accumulated into `init` [N, OH, OW, G, F]."""
    (x, xt), (w, wt), (i, it) = _operand(x), _operand(w), _operand(init)
    return ("linalg.conv_2d_nhwgc_gfhwc {dilations = dense<[%d, %d]> : tensor<2xi64>, "
            "strides = dense<[%d, %d]> : tensor<2xi64>} ins(%s, %s : %s, %s) "
            "outs(%s : %s) -> %s" % (dilation[0], dilation[1], stride[0], stride[1],
                                     x, w, xt, wt, i, it, it))
