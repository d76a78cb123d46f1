"""Writes hostile-size inputs: `chain N` (N elementwise ops in a row, plus a
side branch every 100), `const N` (an N-element non-splat constant added
to the input)."""
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
