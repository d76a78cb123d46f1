"""Writes hostile-size inputs: `chain N` (N elementwise ops in a row, plus a
side branch every 100), `const N` (an N-element non-splat constant added
to the input), `concat N` (a concat of N 1x8 parts, every third computed:
exp of an input)."""
import random
import sys

kind, n = sys.argv[1], int(sys.argv[2])
t = "tensor<4x8xf32>"
if kind == "chain":
    ops = ["tosa.tanh", "tosa.sigmoid", "tosa.abs"]
    print("func.func @model(%%x: %s) -> (%s, %s) {" % (t, t, t))
    prev, side = "%x", "%x"
    for i in range(n):
        print("  %%v%d = %s %s : (%s) -> %s" % (i, ops[i % 3], prev, t, t))
        prev = "%%v%d" % i
        if i % 100 == 99:
            print("  %%s%d = tosa.add %s, %s : (%s, %s) -> %s" % (i, side, prev, t, t, t))
            side = "%%s%d" % i
    print("  return %s, %s : %s, %s" % (prev, side, t, t))
    print("}")
elif kind == "concat":
    print("func.func @model(%%x: %s, %%y: tensor<1x8xf32>) -> tensor<%dx8xf32> {" % (t, n))
    parts = []
    for i in range(n):
        if i % 3 == 0:
            print("  %%p%d = tosa.exp %%y : (tensor<1x8xf32>) -> tensor<1x8xf32>" % i)
            parts.append("%%p%d" % i)
        else:
            print('  %%s%d = tosa.const_shape {values = dense<[%d, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>' % (i, i % 4))
            print('  %%z%d = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>' % i)
            print("  %%p%d = tosa.slice %%x, %%s%d, %%z%d : (%s, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8xf32>" % (i, i, i, t))
            parts.append("%%p%d" % i)
    print("  %%c = tosa.concat %s {axis = 0 : i32} : (%s) -> tensor<%dx8xf32>" % (
        ", ".join(parts), ", ".join(["tensor<1x8xf32>"] * n), n))
    print("  return %%c : tensor<%dx8xf32>" % n)
    print("}")
else:
    r = random.Random(0)
    rows = n // 8
    ct = "tensor<%dx8xf32>" % rows
    data = bytes()
    import struct
    data = b"".join(struct.pack("<f", r.uniform(-1, 1)) for _ in range(rows * 8))
    print("func.func @model(%%x: tensor<1x8xf32>) -> %s {" % ct)
    print('  %%c = "tosa.const"() <{values = dense<"0x%s"> : %s}> : () -> %s' % (data.hex().upper(), ct, ct))
    print("  %e = tosa.exp %x : (tensor<1x8xf32>) -> tensor<1x8xf32>")
    print("  %%a = tosa.add %%c, %%e : (%s, tensor<1x8xf32>) -> %s" % (ct, ct))
    print("  %%m = tosa.tanh %%a : (%s) -> %s" % (ct, ct))
    print("  return %%m : %s" % ct)
    print("}")
